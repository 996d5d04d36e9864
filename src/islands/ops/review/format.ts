import type { Lang } from '../../../lib/lang';
import { pageTime } from '../../../lib/notice-time';

/** A time as the operator reads it, in the page's language, its zone named (pageTime). */
export const formatTime = (lang: Lang, at: number) => pageTime(at, lang);
