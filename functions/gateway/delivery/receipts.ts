import { ERR } from '../../../src/schemas/error-codes';
import type { Config } from '../../config';
import { RECEIPT_PATHS, RECEIPT_PROOF_HEADER } from '../../contract';
import { GatewayError } from '../errors';
import { constantTimeEqual } from '../identity/passwords';
import { firstSightOfReceipt, recordReceipt } from './db';
import { sha256Hex, twilioSignature } from './signing';

/**
 * Delivery receipts: each provider's status callback, checked before anything is believed, then recorded as
 * delivered, failed or unknown against the send the provider names (delivery_attempts.provider_ref).
 *
 * - Twilio signs its status callback (X-Twilio-Signature, HMAC-SHA1 with the auth token over the callback URL
 *   and the form): the URL is the one configured (PORTAL_ORIGIN), never the request's Host.
 * - Aliyun's and Tencent's report pushes and SNS (for SES) carry no signature our Worker can check without their
 *   SDKs, so their callback address holds the secret DELIVERY_RECEIPT_TOKEN (Aliyun, Tencent: in the path; SNS:
 *   as HTTP Basic credentials in the subscription URL, which SNS supports), compared in constant time.
 * Every receipt must be recent (RECEIPT_MAX_AGE_MS by the provider's own report time) and is taken once: the
 * hash of what it says (provider, message id, the provider's own status and report time; never the raw body, whose
 * field order or encoding a replayer can change without breaking Twilio's signature) is reserved, so a replayed
 * callback is refused (DL0013). A receipt for a send we do not know is ignored.
 */
export const RECEIPT_MAX_AGE_MS = 24 * 60 * 60 * 1000;
export const RECEIPT_PATH = RECEIPT_PATHS.slice(0, -1);

export type ReceiptProvider = 'aliyun' | 'tencent' | 'twilio' | 'ses';
export type ReceiptStatus = 'delivered' | 'failed' | 'unknown';
interface Receipt {
  ref: string;
  status: ReceiptStatus;
  /** The provider's own status word, as it sent it (part of the replay key: "sent" then "delivered" are two receipts). */
  state: string;
  /** The provider's own time of the report (epoch ms); null when it sends none (Twilio). */
  at: number | null;
}

const bytes = (text: string) => new TextEncoder().encode(text);
/** Equal secrets, compared in constant time (as hashes, so their lengths give nothing away either). */
const sameSecret = async (given: string, expected: string) => constantTimeEqual(bytes(await sha256Hex(given)), bytes(await sha256Hex(expected)));
const refuse = (): never => {
  throw new GatewayError(ERR.DELIVERY_RECEIPT_UNVERIFIED);
};

/** "2026-11-27 10:20:30" in China Standard Time (Aliyun's and Tencent's report times). */
const chinaTime = (text: unknown) => (typeof text === 'string' ? Date.parse(`${text.replace(' ', 'T')}+08:00`) : Number.NaN);

/** The callback URL a provider is given, from configuration (README "Delivery receipts"). */
export function receiptUrl(config: Config, provider: ReceiptProvider): string | null {
  if (!config.portalOrigin) return null;
  const base = `${config.portalOrigin}/api${RECEIPT_PATH}/${provider}`;
  if (provider === 'twilio') return base;
  if (!config.deliveryReceiptToken) return null;
  if (provider === 'ses') return base.replace('://', `://sns:${encodeURIComponent(config.deliveryReceiptToken)}@`);
  return `${base}/${config.deliveryReceiptToken}`;
}

export interface ReceiptRequest {
  body: string;
  headers: Headers;
  /** The path token (Aliyun, Tencent). */
  token?: string;
}

/** Checks a callback and reads its receipts; throws DL0012 when it is unsigned, forged, malformed or stale. */
export async function verifiedReceipts(config: Config, provider: ReceiptProvider, request: ReceiptRequest, now: number): Promise<Receipt[]> {
  const receipts = await READERS[provider](config, request);
  // Only an SNS subscription confirmation (logged by its reader) carries no receipt.
  if ((!receipts.length && provider !== 'ses') || receipts.some(({ at }) => at !== null && (!Number.isFinite(at) || Math.abs(now - at) > RECEIPT_MAX_AGE_MS))) refuse();
  return receipts;
}

const tokenCheck = async (config: Config, given: string | undefined) => {
  if (!config.deliveryReceiptToken || !given || !(await sameSecret(given, config.deliveryReceiptToken))) refuse();
};
const jsonArray = (text: string): Record<string, unknown>[] => {
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed) && parsed.every((item) => item && typeof item === 'object')) return parsed as Record<string, unknown>[];
  } catch {
    // refused below
  }
  return refuse();
};
const text = (value: unknown) => (typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : refuse());

const READERS: Record<ReceiptProvider, (config: Config, request: ReceiptRequest) => Promise<Receipt[]>> = {
  // Aliyun SmsReport push: [{ biz_id, success, report_time, err_code, ... }].
  async aliyun(config, { body, token }) {
    await tokenCheck(config, token);
    return jsonArray(body).map((item) => ({
      ref: text(item.biz_id),
      status: item.success === true ? 'delivered' : item.success === false ? 'failed' : 'unknown',
      state: `${String(item.success)}:${String(item.err_code ?? '')}`,
      at: chinaTime(item.report_time),
    }));
  },
  // Tencent SMS status callback: [{ sid, report_status: "SUCCESS" | "FAIL", user_receive_time, ... }].
  async tencent(config, { body, token }) {
    await tokenCheck(config, token);
    return jsonArray(body).map((item) => ({
      ref: text(item.sid),
      status: item.report_status === 'SUCCESS' ? 'delivered' : item.report_status === 'FAIL' ? 'failed' : 'unknown',
      state: String(item.report_status ?? ''),
      at: chinaTime(item.user_receive_time),
    }));
  },
  // Twilio status callback (form): MessageSid, MessageStatus; signed. Twilio sends no time, so the receipt's
  // time is its arrival, and the replay guard alone stops a resent one.
  async twilio(config, { body, headers }) {
    const url = receiptUrl(config, 'twilio');
    const given = headers.get(RECEIPT_PROOF_HEADER) ?? '';
    if (!url || !config.twilioAuthToken || !given) return refuse();
    const form = new URLSearchParams(body);
    if (!(await sameSecret(given, await twilioSignature(config.twilioAuthToken, url, form)))) refuse();
    const status = form.get('MessageStatus') ?? '';
    return [{ ref: text(form.get('MessageSid')), status: status === 'delivered' ? 'delivered' : status === 'undelivered' || status === 'failed' ? 'failed' : 'unknown', state: status, at: null }];
  },
  // SES event through SNS: a Notification whose Message is the SES event (eventType / notificationType, mail.messageId).
  async ses(config, { body, headers }) {
    const basic = /^Basic ([A-Za-z0-9+/=]{1,400})$/i.exec(headers.get(RECEIPT_PROOF_HEADER) ?? '')?.[1];
    let user: string | undefined;
    let password: string | undefined;
    try {
      [user, password] = basic ? atob(basic).split(/:(.*)/s) : [];
    } catch {
      refuse();
    }
    if (user !== 'sns') refuse();
    await tokenCheck(config, password);
    let note: { Type?: string; Timestamp?: string; Message?: string; TopicArn?: string; SubscribeURL?: string };
    let event: { eventType?: string; notificationType?: string; mail?: { messageId?: string } };
    try {
      note = JSON.parse(body);
      // A new subscription: an operator confirms it by opening SubscribeURL (the Worker calls no URL a request names).
      if (note.Type === 'SubscriptionConfirmation') {
        console.log(JSON.stringify({ event: 'sns_subscription_confirmation', topicArn: note.TopicArn, subscribeUrl: note.SubscribeURL }));
        return [];
      }
      event = JSON.parse(note.Message ?? '');
    } catch {
      return refuse();
    }
    if (note.Type !== 'Notification') refuse();
    const type = event.eventType ?? event.notificationType;
    return [{ ref: text(event.mail?.messageId), status: type === 'Delivery' ? 'delivered' : type === 'Bounce' || type === 'Reject' ? 'failed' : 'unknown', state: String(type ?? ''), at: Date.parse(note.Timestamp ?? '') }];
  },
};

/**
 * The replay key of a callback: what its receipts say, in a canonical form (each receipt's message id, the provider's
 * status and its report time, sorted), so the same report sent again in another field order or encoding is the same key.
 */
const receiptKey = (provider: ReceiptProvider, receipts: readonly Receipt[]) =>
  sha256Hex(
    JSON.stringify([
      provider,
      receipts.map(({ ref, state, at }) => JSON.stringify([ref, state, at])).sort(),
    ]),
  );

/**
 * Takes a verified callback: refused as a replay when a callback that says the same (receiptKey) was taken before;
 * each receipt then updates its send, and one naming no send of ours is ignored. Returns how many were recorded and ignored.
 */
export async function takeReceipts(db: D1Database, provider: ReceiptProvider, receipts: Receipt[], now: number) {
  if (!(await firstSightOfReceipt(db, await receiptKey(provider, receipts), now))) throw new GatewayError(ERR.DELIVERY_RECEIPT_REPLAYED);
  let recorded = 0;
  for (const receipt of receipts) if (await recordReceipt(db, provider, receipt.ref, receipt.status, now)) recorded++;
  return { recorded, ignored: receipts.length - recorded };
}
