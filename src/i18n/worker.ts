import type { Lang } from '../lib/lang';
import type { Widen } from './widen';
import { handoff as enHandoff } from './en/handoff';
import { handoff as zhHandoff } from './zh/handoff';
import { support as enSupport } from './en/support';
import { support as zhSupport } from './zh/support';

/**
 * The few words the Worker renders itself (the hand-off pages, a blocked account's support contact), so its bundle carries these and not the
 * dictionaries of every page. The English shape is the key set every locale must provide.
 */
const en = { handoff: enHandoff, support: enSupport };
export type WorkerMessages = Widen<typeof en>;
const zh: WorkerMessages = { handoff: zhHandoff, support: zhSupport };

export const workerMessages: Record<Lang, WorkerMessages> = { zh, en };

export function workerMessagesFor(lang: Lang): WorkerMessages {
  return workerMessages[lang];
}
