import { callProvider, DeliveryFailure, statusFailure } from './failure';
import { required, type Provider } from './message';
import { hex, hmac } from './signing';

/**
 * The generic signed webhook. Body: { channel, to, subject, text, lang, sentAt }; header x-signature: hex
 * HMAC-SHA256 of the exact body with DELIVERY_WEBHOOK_SECRET. sentAt is signed with the rest, so the receiver
 * can refuse replays of an old body. 2xx is sent, 422 an unusable recipient, 429 throttled.
 */
export const webhook: Provider = async ({ config, message, now, timeoutMs }) => {
  const url = required(config.deliveryWebhookUrl, 'DELIVERY_WEBHOOK_URL');
  const secret = required(config.deliveryWebhookSecret, 'DELIVERY_WEBHOOK_SECRET');
  const body = JSON.stringify({ channel: message.channel, to: message.to, subject: message.subject, text: message.text, lang: message.lang, sentAt: now });
  const answer = await callProvider(
    url,
    { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': hex(await hmac(secret, body)) }, body },
    timeoutMs,
  );
  if (answer.status >= 200 && answer.status < 300) return null;
  if (answer.status === 422) throw new DeliveryFailure('invalid-recipient', 'HTTP 422');
  throw statusFailure(answer);
};
