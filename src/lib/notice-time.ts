import type { Lang } from './lang';

/**
 * A moment as a message to a person writes it, with its zone named (issue 47): Beijing time in Chinese
 * ("2026年11月28日 22:41（北京时间）"), UTC in English ("28 November 2026, 14:41 UTC"), where no browser
 * says where the reader is. A page writes times in the browser's own zone instead, named too (`pageTime`).
 */
export function noticeTime(at: number, lang: Lang): string {
  if (lang === 'zh') {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('zh-CN', { timeZone: 'Asia/Shanghai', year: 'numeric', month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
        .formatToParts(at)
        .map((part) => [part.type, part.value]),
    );
    return `${parts.year}年${parts.month}月${parts.day}日 ${parts.hour}:${parts.minute}（北京时间）`;
  }
  const day = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' }).format(at);
  const time = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  return `${day}, ${time} UTC`;
}

/** A day as a message writes it (a closing date), in the same zone as `noticeTime`. */
export function noticeDay(at: number, lang: Lang): string {
  return new Intl.DateTimeFormat(lang === 'zh' ? 'zh-CN' : 'en-GB', { timeZone: lang === 'zh' ? 'Asia/Shanghai' : 'UTC', dateStyle: 'long' }).format(at);
}

/** Zones that keep Beijing time, named so on Chinese pages. */
const BEIJING_ZONES = new Set(['Asia/Shanghai', 'Asia/Chongqing', 'Asia/Chungking', 'Asia/Harbin', 'Asia/Urumqi', 'PRC']);
const UTC_ZONES = new Set(['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT', 'Etc/Universal', 'Etc/Zulu']);

/** The browser's zone (an IANA name), or UTC where it names none. */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** A zone's name as a page writes it beside a time: 北京时间 in Chinese for Beijing time, UTC, else its offset ("GMT+1"). */
export function zoneName(at: number, lang: Lang, timeZone: string): string {
  if (lang === 'zh' && BEIJING_ZONES.has(timeZone)) return '北京时间';
  if (UTC_ZONES.has(timeZone)) return 'UTC';
  const parts = new Intl.DateTimeFormat(lang === 'zh' ? 'zh-CN' : 'en-GB', { timeZone, timeZoneName: 'shortOffset' }).formatToParts(at);
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
}

/**
 * A moment as a page writes it (issue 47): in the browser's zone, to the minute, with the zone named
 * ("29 Nov 2026, 12:34 GMT+1", "2026年11月29日 20:34（北京时间）"). `timeOnly` for a moment within the day
 * ("22:41 GMT+1").
 */
export function pageTime(at: number, lang: Lang, { timeZone = browserZone(), timeOnly = false }: { timeZone?: string; timeOnly?: boolean } = {}): string {
  const text = new Intl.DateTimeFormat(
    lang === 'zh' ? 'zh-CN' : 'en-GB',
    timeOnly ? { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : { timeZone, dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' },
  ).format(at);
  const zone = zoneName(at, lang, timeZone);
  return lang === 'zh' ? `${text}（${zone}）` : `${text} ${zone}`;
}
