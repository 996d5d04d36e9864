import type { Lang } from './lang';

/**
 * Where a WeChat or WeCom sign-in starts (functions/gateway/wechat/service.ts methodsOf): always on PORTAL_ORIGIN,
 * the one callback domain WeChat allows, since the flow's cookie belongs to the host that started it. Kept free
 * of imports: /login reads `?wechat=` before any WeChat code loads.
 */
type Method = 'qr' | 'mp' | 'wecom';
const METHODS: readonly string[] = ['qr', 'mp', 'wecom'] satisfies Method[];

/**
 * The /login on PORTAL_ORIGIN (`startAt`) told the method and the language, when this page (`here`) is on
 * another origin (SITE_CN); null when a flow may start here.
 */
export function startElsewhere(startAt: string | null, here: string, method: Method, lang: Lang): string | null {
  if (!startAt) return null;
  const there = new URL(startAt);
  if (there.origin === new URL(here).origin) return null;
  there.search = new URLSearchParams({ wechat: method, lang }).toString();
  return there.href;
}

/** The method a /login opened by startElsewhere is to start at once, if any. */
export function wechatMethodAsked(search: string): Method | null {
  const asked = new URLSearchParams(search).get('wechat');
  return asked !== null && METHODS.includes(asked) ? (asked as Method) : null;
}
