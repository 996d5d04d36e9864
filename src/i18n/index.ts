import type { Lang } from '../lib/lang';
import { en, type Messages } from './en';
import { zh } from './zh';

export type { Messages };
// Types only: the operator console's and the Worker's words load from ./ops and ./worker, on their own pages.
export type { OpsMessages, ConsoleMessages } from './ops';
export type { WorkerMessages } from './worker';
export const messages: Record<Lang, Messages> = { zh, en };

export function messagesFor(lang: Lang): Messages {
  return messages[lang];
}
