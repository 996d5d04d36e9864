import type { Lang } from '../../../../src/lib/lang';
import { configOf, type Config } from '../../../config';
import { GatewayError } from '../../errors';
import { hmacSha256, toHex } from '../passwords';

/** One message to a person: an SMS or an e-mail. */
export interface DeliveryMessage {
  channel: 'sms' | 'email';
  /** E.164 phone or lower-case e-mail. */
  to: string;
  subject: string;
  text: string;
}

/** The Worker's bindings: D1 for the outbox, and the typed configuration (configOf) for the provider. */
export interface DeliveryEnv {
  DB: D1Database;
}

/** The localised text of a code message (the code lives 5 minutes; the text names no account, only the code). */
export function codeMessage(lang: Lang, code: string, minutes: number): { subject: string; text: string } {
  return lang === 'zh'
    ? { subject: '您的验证码', text: `您的验证码是 ${code}，${minutes} 分钟内有效。如非本人操作，请忽略本消息。` }
    : {
        subject: 'Your verification code',
        text: `Your verification code is ${code}. It expires in ${minutes} minutes. If you did not ask for it, ignore this message.`,
      };
}

/**
 * Sends a message through the provider the DELIVERY var names. Throws CD0020 when the provider refuses,
 * and a plain Error (a 500) when the configuration is wrong, such as the outbox outside development.
 */
export async function deliver(env: DeliveryEnv, message: DeliveryMessage, now: number = Date.now()): Promise<void> {
  const config = configOf(env);
  return config.delivery === 'webhook' ? toWebhook(config, message, now) : toOutbox(env, config, message, now);
}

async function toOutbox(env: DeliveryEnv, config: Config, message: DeliveryMessage, now: number): Promise<void> {
  // The outbox shows codes to anyone who can read /dev/outbox or the log: never outside a local run.
  if (!config.outboxDelivery) throw new Error('DELIVERY "outbox" needs DEV_OUTBOX "true"');
  await env.DB.prepare('INSERT INTO outbox (channel, recipient, subject, body, created_at) VALUES (?, ?, ?, ?, ?)')
    .bind(message.channel, message.to, message.subject, message.text, now)
    .run();
  console.log(`[outbox] ${message.channel} to ${message.to}: "${message.subject}" (read it at /api/dev/outbox; codes never go to the log)`);
}

/** Body: { channel, to, subject, text, sentAt }; header x-signature: hex HMAC-SHA256 of the exact body. */
async function toWebhook(config: Config, message: DeliveryMessage, now: number): Promise<void> {
  const { deliveryWebhookUrl: url, deliveryWebhookSecret: secret } = config;
  if (!url || !secret) {
    throw new Error('DELIVERY "webhook" needs DELIVERY_WEBHOOK_URL and the DELIVERY_WEBHOOK_SECRET secret');
  }
  // sentAt is signed with the rest, so the receiver can refuse replays of an old body.
  const body = JSON.stringify({ ...message, sentAt: now });
  const signature = toHex(await hmacSha256(secret, body));
  let answer: Response;
  try {
    answer = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': signature },
      body,
    });
  } catch {
    throw new GatewayError('CD0020');
  }
  // Drain the body so the connection is released; its content is not ours to log.
  await answer.body?.cancel();
  if (!answer.ok) throw new GatewayError('CD0020');
}
