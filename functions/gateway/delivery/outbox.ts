import type { DeliveryEnv } from './index';
import type { ProviderCall } from './message';
import { insertOutboxRow } from './db';

/** Whether this isolate has printed the outbox's console line yet. */
let announced = false;

/**
 * The dev outbox: a D1 row readable at /api/dev/outbox, and once per isolate a console line saying so (naming
 * the first recipient and subject, never the code). Not one line per message: under `wrangler dev` each console
 * call travels to wrangler through the inspector and cost a code send about 4 ms of CPU, a fifth of its whole
 * cost (issue 31's measurements, README "Beside the fastest peer").
 */
export async function toOutbox(env: DeliveryEnv, { config, message, now }: ProviderCall, standInFor?: string): Promise<void> {
  // The outbox shows codes to anyone who can read /dev/outbox or the log: never outside a local run.
  if (!config.outboxDelivery) throw new Error('DELIVERY "outbox" needs DEV_OUTBOX "true"');
  await insertOutboxRow(env.DB, { channel: message.channel, recipient: message.to, subject: message.subject, body: message.text, at: now });
  if (announced) return;
  announced = true;
  console.log(
    `[outbox${standInFor ? ` standing in for ${standInFor}` : ''}] ${message.channel} to ${message.to}: "${message.subject}" (read it and every later message at /api/dev/outbox; only the first is logged; codes never go to the log)`,
  );
}
