import type { Lang } from './lang';
import type { Method } from './wechat-start';

/**
 * The /login on PORTAL_ORIGIN (`startAt`) told the method and the language, when this page (`here`) is on
 * another origin (SITE_CN); null when a flow may start here (lib/wechat-start.ts). Read by the lazy WeChat panel only.
 */
export function startElsewhere(startAt: string | null, here: string, method: Method, lang: Lang): string | null {
  if (!startAt) return null;
  const there = new URL(startAt);
  if (there.origin === new URL(here).origin) return null;
  there.search = new URLSearchParams({ wechat: method, lang }).toString();
  return there.href;
}
