import type { Lang } from '../../../src/lib/lang';
import { ERR, type ErrorCode } from '../../../src/schemas/error-codes';
import { configOf } from '../../config';
import { GatewayError } from '../errors';
import { DeliveryFailure, type FailureKind } from './failure';
import { MESSAGE_KINDS, type DeliveryMessage } from './message';
import { toOutbox } from './outbox';
import { PROVIDERS, providerNameOf } from './select';

export type { DeliveryMessage, MessageKind } from './message';

/** The Worker's bindings: D1 for the outbox, and the typed configuration (configOf) for the provider. */
export interface DeliveryEnv {
  DB: D1Database;
}

/** The localised text of a code message (the code lives 5 minutes; the text names no account, only the code). */
export function codeMessage(lang: Lang, code: string, minutes: number): Omit<DeliveryMessage, 'channel' | 'to'> {
  const form = { kind: 'code' as const, lang, params: { code, minutes: String(minutes) } };
  return lang === 'zh'
    ? { ...form, subject: '您的验证码', text: `您的验证码是 ${code}，${minutes} 分钟内有效。如非本人操作，请忽略本消息。` }
    : {
        ...form,
        subject: 'Your verification code',
        text: `Your verification code is ${code}. It expires in ${minutes} minutes. If you did not ask for it, ignore this message.`,
      };
}

/** What the person is told when a provider did not take the message. */
const ANSWER: Record<FailureKind, ErrorCode> = { unavailable: ERR.DELIVERY_FAILED, 'invalid-recipient': ERR.DELIVERY_RECIPIENT_INVALID, throttled: ERR.DELIVERY_THROTTLED };

export interface DeliveryContext {
  /** The gateway's clock (now(c) of functions/contract.ts). */
  now: number;
  /** The edge's trace id of the call that sends, for the log line of a failure (the person can quote it). */
  traceId?: string | null;
}

/**
 * Sends a message through the provider its channel is configured with (select.ts). When the provider does not
 * take it, the failure is logged (event delivery_failed, with the trace id, the provider and its error code;
 * never the text or the recipient) and thrown as DL0001 (could not send, try again), DL0002 (the number or
 * address cannot be reached) or DL0003 (the provider's rate limit; try again shortly). A plain Error (a 500)
 * means our configuration is wrong, such as the outbox outside development or a provider without its key, or
 * our code is (a kind of message on a channel MESSAGE_KINDS does not give it).
 */
export async function deliver(env: DeliveryEnv, message: DeliveryMessage, { now, traceId = null }: DeliveryContext): Promise<void> {
  const channels: readonly string[] = MESSAGE_KINDS[message.kind].channels;
  if (!channels.includes(message.channel)) throw new Error(`a ${message.kind} message does not go by ${message.channel}`);
  const config = configOf(env);
  const provider = providerNameOf(config, message);
  const call = { config, message, now };
  if (provider === 'outbox') return toOutbox(env, call);
  try {
    await PROVIDERS[provider](call);
  } catch (error) {
    if (!(error instanceof DeliveryFailure)) throw error;
    console.error(JSON.stringify({ event: 'delivery_failed', traceId, provider, channel: message.channel, kind: error.kind, detail: error.detail }));
    throw new GatewayError(ANSWER[error.kind]);
  }
}
