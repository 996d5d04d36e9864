import type { Lang } from '../lib/lang';
import type { Widen } from './widen';
import { messagesFor, type Messages } from './index';
import { ops as enOps } from './en/ops';
import { opsDelivery as enOpsDelivery } from './en/ops-delivery';
import { opsDelivery as zhOpsDelivery } from './zh/ops-delivery';
import { opsPeople as enOpsPeople } from './en/ops-people';
import { opsReview as enOpsReview } from './en/ops-review';
import { opsClients as enOpsClients } from './en/ops-clients';
import { ops as zhOps } from './zh/ops';
import { opsPeople as zhOpsPeople } from './zh/ops-people';
import { opsReview as zhOpsReview } from './zh/ops-review';
import { opsClients as zhOpsClients } from './zh/ops-clients';
import { opsSupport as enOpsSupport } from './en/ops-support';
import { opsSupport as zhOpsSupport } from './zh/ops-support';

/**
 * The operator console's own words, apart from the people's: only operator pages import this module, so no
 * people page carries them. The English shape is the key set every locale must provide.
 */
const en = { ops: enOps, opsPeople: enOpsPeople, opsReview: enOpsReview, opsClients: enOpsClients, opsDelivery: enOpsDelivery, opsSupport: enOpsSupport };
export type OpsMessages = Widen<typeof en>;
const zh: OpsMessages = { ops: zhOps, opsPeople: zhOpsPeople, opsReview: zhOpsReview, opsClients: zhOpsClients, opsDelivery: zhOpsDelivery, opsSupport: zhOpsSupport };

export const opsMessages: Record<Lang, OpsMessages> = { zh, en };

/** What an operator page has to hand on: the people's words it shares (errors, security, …) and the console's. */
export type ConsoleMessages = Messages & OpsMessages;

export const consoleMessages: Record<Lang, ConsoleMessages> = {
  zh: { ...messagesFor('zh'), ...zh },
  en: { ...messagesFor('en'), ...en },
};

export function consoleMessagesFor(lang: Lang): ConsoleMessages {
  return consoleMessages[lang];
}
