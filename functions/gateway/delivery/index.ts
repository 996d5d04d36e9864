import type { Lang } from '../../../src/lib/lang';
import { ERR, type ErrorCode } from '../../../src/schemas/error-codes';
import { configOf } from '../../config';
import { GatewayError } from '../errors';
import { acquire, breakers, type BreakerEnv } from './breaker';
import { devFaultOf, insertAttempt, type AttemptOutcome } from './db';
import { DeliveryFailure, type FailureKind } from './failure';
import { MESSAGE_KINDS, type DeliveryMessage } from './message';
import { toOutbox } from './outbox';
import { hasKey, PROVIDERS, routeGroupOf, routeOf } from './select';

export type { DeliveryMessage, MessageKind } from './message';

/**
 * The Worker's bindings: D1 for the outbox and the record of tries, the breakers' Durable Object namespace, and
 * the typed configuration (configOf) for the providers.
 */
export interface DeliveryEnv extends BreakerEnv {
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

/** What the person is told when no provider of the list took the message (the last failure's kind decides). */
const ANSWER: Record<FailureKind, ErrorCode> = { unavailable: ERR.DELIVERY_FAILED, 'invalid-recipient': ERR.DELIVERY_RECIPIENT_INVALID, throttled: ERR.DELIVERY_THROTTLED };

export interface DeliveryContext {
  /** The gateway's clock (now(c) of functions/contract.ts). */
  now: number;
  /** The edge's trace id of the call that sends, for the log line of a failure (the person can quote it). */
  traceId?: string | null;
}

/** A provider told to fail in a local run (dev_delivery_faults), as its stand-in would. */
const DEV_FAULTS: Record<string, () => DeliveryFailure> = {
  down: () => new DeliveryFailure('unavailable', 'stand-in down'),
  hang: () => new DeliveryFailure('unavailable', 'timeout: stand-in hangs'),
  throttled: () => new DeliveryFailure('throttled', 'stand-in throttled'),
  invalid: () => new DeliveryFailure('invalid-recipient', 'stand-in invalid number'),
};

/**
 * Elapsed time for the overall limit. Not the gateway's clock (now(c)), which tests freeze or move: this
 * measures real waiting on providers. Workers advance it across I/O, which is all a send waits on.
 */
const elapsedSince = (start: number) => performance.now() - start;

/**
 * Resolves once the answer under way has been returned: a message sent "after the answer" (the password-reset
 * code, the e-mail sign-in link, the e-mail way out of an SMS outage) starts here, in the task handed to waitUntil,
 * so a known address starts no provider, breaker or D1 work before its answer that an unknown one (whose task is
 * empty) does not: both do the same work, in the same order, before the answer (issue 48, classes 4 and 10). A
 * timer of 0 ms runs after the handler has returned and the promises it settled have run.
 */
export const afterTheAnswer = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Sends a message down its channel's list of providers (select.ts routeOf), in order. A provider whose breaker
 * is open (breaker.ts) is skipped; one that fails, does not answer within its share of DELIVERY_TOTAL_TIMEOUT_MS
 * (at most DELIVERY_TIMEOUT_MS) or is throttled gives way to the next at once. The message is the same
 * throughout: the code in it was issued once and is counted once, by the caller. Every try is recorded
 * (delivery_attempts: provider, outcome, reason, the provider's message id for its receipt).
 *
 * When no provider took it, the failure is logged (event delivery_failed, with the trace id, the providers and
 * their error codes; never the text or the recipient) and thrown: DL0010 for an SMS (no SMS provider can send:
 * the sign-in form then offers the e-mail code, a password or a passkey), else DL0001 (could not send, try
 * again) or DL0003 (throttled). An invalid recipient (DL0002) stops at once: the number is wrong, not the
 * provider. A plain Error (a 500) means our configuration is wrong, such as the outbox outside development or a
 * provider without its key, or our code is (a kind of message on a channel MESSAGE_KINDS does not give it).
 */
export async function deliver(env: DeliveryEnv, message: DeliveryMessage, { now, traceId = null }: DeliveryContext): Promise<void> {
  const channels: readonly string[] = MESSAGE_KINDS[message.kind].channels;
  if (!channels.includes(message.channel)) throw new Error(`a ${message.kind} message does not go by ${message.channel}`);
  const config = configOf(env);
  const route = routeOf(config, message);
  const call = { config, message, now };
  if (route[0] === 'outbox') return void (await toOutbox(env, call));
  const settings = breakerSettings(config);
  const sendId = crypto.randomUUID();
  const group = routeGroupOf(config, message);
  const started = performance.now();
  const tried: { provider: string; kind: FailureKind | 'skipped'; detail: string }[] = [];
  const record = (provider: string, outcome: AttemptOutcome, reason: string | null, providerRef: string | null, elapsedMs: number) =>
    insertAttempt(env.DB, { sendId, channel: message.channel, route: group, provider, outcome, reason, providerRef, elapsedMs, at: now }).catch((error: unknown) =>
      console.error(JSON.stringify({ event: 'delivery_attempt_not_recorded', traceId, provider, error: String(error) })),
    );

  for (const provider of route as Exclude<(typeof route)[number], 'outbox'>[]) {
    const left = config.deliveryTotalTimeout - elapsedSince(started);
    if (left < 50) break;
    if (!(await breakers.acquire(env, provider, now, settings))) {
      tried.push({ provider, kind: 'skipped', detail: 'breaker open' });
      await record(provider, 'skipped', 'breaker open', null, 0);
      continue;
    }
    const began = performance.now();
    try {
      const ref = await sendWith(env, provider, { ...call, timeoutMs: Math.min(config.deliveryTimeout, Math.floor(left)) });
      // The breaker's report and the attempt's row are independent: one wait for both, not two in a row.
      await Promise.all([breakers.report(env, provider, true, now, settings), record(provider, 'sent', null, ref, elapsedSince(began))]);
      return;
    } catch (error) {
      if (!(error instanceof DeliveryFailure)) throw error;
      tried.push({ provider, kind: error.kind, detail: error.detail });
      // An unusable number says nothing about the provider's health: the breaker hears a success.
      await Promise.all([
        breakers.report(env, provider, error.kind === 'invalid-recipient', now, settings),
        record(provider, OUTCOME[error.kind], error.detail, null, elapsedSince(began)),
      ]);
      if (error.kind === 'invalid-recipient') break;
    }
  }
  const last = tried.findLast((attempt): attempt is { provider: string; kind: FailureKind; detail: string } => attempt.kind !== 'skipped');
  console.error(JSON.stringify({ event: 'delivery_failed', traceId, provider: last?.provider ?? route[0], channel: message.channel, kind: last?.kind ?? 'unavailable', detail: last?.detail ?? 'every provider skipped', tried }));
  if (last?.kind === 'invalid-recipient') throw new GatewayError(ERR.DELIVERY_RECIPIENT_INVALID);
  throw noProviderRefusal(message.channel, last?.kind ?? 'unavailable');
}

const breakerSettings = (config: ReturnType<typeof configOf>) => ({ failures: config.breakerFailures, openMs: config.breakerOpenSeconds * 1000, trialMs: config.deliveryTimeout * 2 });

/** deliver()'s answer when no provider of the list took the message. */
const noProviderRefusal = (channel: DeliveryMessage['channel'], kind: FailureKind) =>
  new GatewayError(channel === 'sms' ? ERR.DELIVERY_NO_SMS_PROVIDER : ANSWER[kind]);

/**
 * What deliver() would answer for this message's route now, told without sending and without touching a breaker:
 * its refusal when every provider of the list is behind an open breaker (deliver() would skip them all), else null.
 * A decoy (a code nobody receives, for a blocked account) asks this, so that during an outage it answers as a real
 * send does (DL0010 for an SMS) and the answers do not tell a blocked account from any other. A breaker that cannot
 * be read counts as shut, as in deliver().
 */
export async function refusalWhileBreakersOpen(env: DeliveryEnv, message: Pick<DeliveryMessage, 'channel' | 'to'>, now: number): Promise<GatewayError | null> {
  const config = configOf(env);
  const route = routeOf(config, message);
  if (route[0] === 'outbox' || !env.DELIVERY_BREAKERS) return null;
  const settings = breakerSettings(config);
  // One after another, as deliver() asks them, so the decoy's answer takes about as long as a real one's.
  for (const provider of route) {
    const state = await breakers.state(env, provider).catch(() => null);
    if (!state || acquire(state, now, settings).allowed) return null;
  }
  return noProviderRefusal(message.channel, 'unavailable');
}

const OUTCOME: Record<FailureKind, AttemptOutcome> = { unavailable: 'failed', throttled: 'throttled', 'invalid-recipient': 'invalid' };

/**
 * One provider's send. In a local run (DEV_OUTBOX "true") a provider without its key (secret) is stood in for by the
 * outbox (the message lands there, under the provider's name in the log), and dev_delivery_faults can make it
 * fail for a recipient: the e2e suite takes the failover paths without any outside service.
 */
async function sendWith(env: DeliveryEnv, provider: keyof typeof PROVIDERS, call: Parameters<(typeof PROVIDERS)[keyof typeof PROVIDERS]>[0]): Promise<string | null> {
  const { config, message } = call;
  if (config.outboxDelivery) {
    const fault = await devFaultOf(env.DB, provider, message.to);
    if (fault && DEV_FAULTS[fault]) throw DEV_FAULTS[fault]();
    if (!hasKey(config, provider)) {
      await toOutbox(env, call, provider);
      return `stand-in-${crypto.randomUUID()}`;
    }
  }
  return PROVIDERS[provider](call);
}
