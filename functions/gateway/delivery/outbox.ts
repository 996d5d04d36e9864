import type { DeliveryEnv } from './index';
import type { ProviderCall } from './message';

/** The dev outbox: a D1 row readable at /api/dev/outbox and a console line naming it (never the code). */
export async function toOutbox(env: DeliveryEnv, { config, message, now }: ProviderCall): Promise<void> {
  // The outbox shows codes to anyone who can read /dev/outbox or the log: never outside a local run.
  if (!config.outboxDelivery) throw new Error('DELIVERY "outbox" needs DEV_OUTBOX "true"');
  await env.DB.prepare('INSERT INTO outbox (channel, recipient, subject, body, created_at) VALUES (?, ?, ?, ?, ?)')
    .bind(message.channel, message.to, message.subject, message.text, now)
    .run();
  console.log(`[outbox] ${message.channel} to ${message.to}: "${message.subject}" (read it at /api/dev/outbox; codes never go to the log)`);
}
