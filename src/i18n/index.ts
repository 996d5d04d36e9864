import type { Lang } from '../lib/lang';
import { en, type Messages } from './en';
import { zh } from './zh';

export type { Messages };
export const messages: Record<Lang, Messages> = { zh, en };

export function messagesFor(lang: Lang): Messages {
  return messages[lang];
}
