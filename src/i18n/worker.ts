import type { Lang } from '../lib/lang';
import type { Widen } from './widen';
import { handoff as enHandoff } from './en/handoff';
import { handoff as zhHandoff } from './zh/handoff';

/**
 * The few words the Worker renders itself (the hand-off pages), so its bundle carries these and not the
 * dictionaries of every page. The English shape is the key set every locale must provide.
 */
const en = { handoff: enHandoff };
export type WorkerMessages = Widen<typeof en>;
const zh: WorkerMessages = { handoff: zhHandoff };

export const workerMessages: Record<Lang, WorkerMessages> = { zh, en };

export function workerMessagesFor(lang: Lang): WorkerMessages {
  return workerMessages[lang];
}
