import type { Lang } from './lang';

/**
 * A moment as a message to a person writes it, with its zone named (issue 47): Beijing time in Chinese
 * ("2026年11月28日 22:41（北京时间）"), UTC in English ("28 November 2026, 14:41 UTC"), where no browser
 * says where the reader is. A page writes times in the browser's own zone instead (`pageTime`).
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
