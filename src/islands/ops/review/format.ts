import type { Lang } from '../../../lib/lang';

/** A time as the operator reads it, in the page's language. */
export const formatTime = (lang: Lang, at: number) =>
  new Intl.DateTimeFormat(lang === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(at);
