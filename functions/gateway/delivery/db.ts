/** One message of the dev outbox (delivery/outbox.ts), read back at /api/dev/outbox. */
export async function insertOutboxRow(
  db: D1Database,
  row: { channel: string; recipient: string; subject: string; body: string; at: number },
): Promise<void> {
  await db.prepare('INSERT INTO outbox (channel, recipient, subject, body, created_at) VALUES (?, ?, ?, ?, ?)')
    .bind(row.channel, row.recipient, row.subject, row.body, row.at)
    .run();
}

export type AttemptOutcome = 'sent' | 'failed' | 'throttled' | 'invalid' | 'skipped';

/** One try of one provider for one message (never its recipient or text). */
export async function insertAttempt(
  db: D1Database,
  row: { sendId: string; channel: string; route: string; provider: string; outcome: AttemptOutcome; reason: string | null; providerRef: string | null; elapsedMs: number; at: number },
): Promise<void> {
  // A provider that hands out the same id twice keeps the first attempt's receipt (the unique index on the ref).
  await db
    .prepare(
      `INSERT INTO delivery_attempts (send_id, channel, route, provider, outcome, reason, provider_ref, elapsed_ms, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    )
    .bind(row.sendId, row.channel, row.route, row.provider, row.outcome, row.reason, row.providerRef, Math.round(row.elapsedMs), row.at)
    .run();
}

/**
 * A receipt against the send the provider named: recorded once the first time, and moved from "unknown" to a
 * final state later, never from final back. False when no send of ours has that id (the receipt is ignored).
 */
export async function recordReceipt(db: D1Database, provider: string, providerRef: string, receipt: 'delivered' | 'failed' | 'unknown', at: number): Promise<boolean> {
  const updated = await db
    .prepare(
      `UPDATE delivery_attempts SET receipt = ?3, receipt_at = ?4
       WHERE provider = ?1 AND provider_ref = ?2 AND outcome = 'sent' AND (receipt IS NULL OR (receipt = 'unknown' AND ?3 <> 'unknown'))
       RETURNING id`,
    )
    .bind(provider, providerRef, receipt, at)
    .first<{ id: number }>();
  if (updated) return true;
  const known = await db.prepare('SELECT 1 AS one FROM delivery_attempts WHERE provider = ? AND provider_ref = ?').bind(provider, providerRef).first();
  return known !== null;
}

/** Records a receipt's key as seen: false when it was seen before (a replay). */
export async function firstSightOfReceipt(db: D1Database, key: string, at: number): Promise<boolean> {
  const result = await db.prepare('INSERT INTO delivery_receipts_seen (receipt_key, created_at) VALUES (?, ?) ON CONFLICT (receipt_key) DO NOTHING').bind(key, at).run();
  return result.meta.changes === 1;
}

export interface ProviderBucket {
  provider: string;
  /** Start of the bucket (epoch ms). */
  bucket: number;
  sends: number;
  failures: number;
  delivered: number;
  undelivered: number;
}

/** Tries per provider and time bucket since `since` (skipped ones are not tries). */
export async function attemptBuckets(db: D1Database, since: number, bucketMs: number): Promise<ProviderBucket[]> {
  // `%` works on integers whatever type D1 binds ?2 as (a JS number may arrive as REAL, and REAL division keeps the fraction).
  const { results } = await db
    .prepare(
      `SELECT provider, created_at - created_at % ?2 AS bucket,
              SUM(outcome = 'sent') AS sends,
              SUM(outcome IN ('failed', 'throttled')) AS failures,
              SUM(receipt = 'delivered') AS delivered,
              SUM(receipt = 'failed') AS undelivered
       FROM delivery_attempts WHERE created_at >= ?1 AND outcome <> 'skipped'
       GROUP BY provider, bucket ORDER BY provider, bucket`,
    )
    .bind(since, bucketMs)
    .all<ProviderBucket>();
  return results;
}

/** Per route group since `since`: the messages tried, those some provider sent, and which providers sent them. */
export async function channelFigures(db: D1Database, since: number): Promise<{ route: string; messages: number; sent: number; providers: string[] }[]> {
  const { results } = await db
    .prepare(
      `SELECT route, COUNT(DISTINCT send_id) AS messages,
              COUNT(DISTINCT CASE WHEN outcome = 'sent' THEN send_id END) AS sent,
              (SELECT json_group_array(provider) FROM (SELECT DISTINCT provider FROM delivery_attempts s
                 WHERE s.route = a.route AND s.created_at >= ?1 AND s.outcome = 'sent' ORDER BY provider)) AS providers
       FROM delivery_attempts a WHERE created_at >= ?1 AND route IS NOT NULL GROUP BY route`,
    )
    .bind(since)
    .all<{ route: string; messages: number; sent: number; providers: string }>();
  return results.map((row) => ({ route: row.route, messages: Number(row.messages), sent: Number(row.sent), providers: JSON.parse(row.providers) as string[] }));
}

/** The newest failure reasons of each provider. */
export async function latestFailures(db: D1Database, since: number, perProvider: number) {
  const { results } = await db
    .prepare(
      `SELECT provider, outcome, reason, created_at AS at FROM (
         SELECT provider, outcome, reason, created_at,
                ROW_NUMBER() OVER (PARTITION BY provider ORDER BY created_at DESC, id DESC) AS n
         FROM delivery_attempts WHERE created_at >= ?1 AND outcome IN ('failed', 'throttled', 'invalid'))
       WHERE n <= ?2 ORDER BY provider, created_at DESC`,
    )
    .bind(since, perProvider)
    .all<{ provider: string; outcome: string; reason: string | null; at: number }>();
  return results;
}

/** Local development only: how a provider is told to fail for a recipient ('*' for all), if it is. */
export async function devFaultOf(db: D1Database, provider: string, recipient: string): Promise<string | null> {
  const row = await db
    .prepare("SELECT mode FROM dev_delivery_faults WHERE provider = ? AND recipient IN (?, '*') ORDER BY recipient = '*' LIMIT 1")
    .bind(provider, recipient)
    .first<{ mode: string }>();
  return row?.mode ?? null;
}

export async function setDevFault(db: D1Database, provider: string, recipient: string, mode: string | null): Promise<void> {
  if (mode === null) await db.prepare('DELETE FROM dev_delivery_faults WHERE provider = ? AND recipient = ?').bind(provider, recipient).run();
  else
    await db
      .prepare('INSERT INTO dev_delivery_faults (provider, recipient, mode) VALUES (?, ?, ?) ON CONFLICT (provider, recipient) DO UPDATE SET mode = excluded.mode')
      .bind(provider, recipient, mode)
      .run();
}
