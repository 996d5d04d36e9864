/** One message of the dev outbox (delivery/outbox.ts), read back at /api/dev/outbox. */
export async function insertOutboxRow(
  db: D1Database,
  row: { channel: string; recipient: string; subject: string; body: string; at: number },
): Promise<void> {
  await db.prepare('INSERT INTO outbox (channel, recipient, subject, body, created_at) VALUES (?, ?, ?, ?, ?)')
    .bind(row.channel, row.recipient, row.subject, row.body, row.at)
    .run();
}
