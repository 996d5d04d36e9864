import type { Lang } from '../lib/lang';

/** A stored day (YYYY-MM-DD) as the page's language writes it: 1990年5月1日, or 1 May 1990. */
export function formatDay(iso: string, lang: Lang): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return iso;
  const at = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Intl.DateTimeFormat(lang === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(at);
}
