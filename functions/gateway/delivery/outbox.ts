import type { ProviderCall } from './message';
import { insertOutboxRow } from './db';

/**
 * The dev outbox: a D1 row readable at /api/dev/outbox. A provider's stand-in (a local run without that
 * provider's key) also prints a console line naming the provider, never the code, so a failover can be followed
 * in the log. The plain outbox prints nothing: under `wrangler dev` a console line costs about 4 ms of CPU, more
 * than the rest of a code's send (README "Performance").
 */
export async function toOutbox(env: { DB: D1Database }, { config, message, now }: ProviderCall, standInFor?: string): Promise<void> {
  // The outbox shows codes to anyone who can read /dev/outbox or the log: never outside a local run.
  if (!config.outboxDelivery) throw new Error('DELIVERY "outbox" needs DEV_OUTBOX "true"');
  await insertOutboxRow(env.DB, { channel: message.channel, recipient: message.to, subject: message.subject, body: message.text, at: now });
  if (standInFor) {
    console.log(`[outbox standing in for ${standInFor}] ${message.channel} to ${message.to}: "${message.subject}" (read it at /api/dev/outbox; codes never go to the log)`);
  }
}
