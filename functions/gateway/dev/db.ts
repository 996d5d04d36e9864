/**
 * Local runs only (config.devRoutes): POST /api/dev/clock moves the gateway's clock for every isolate by an
 * offset kept in D1 (portal_meta), so an end-to-end test can age a session without waiting. A deployed Worker
 * never reads it (the startup check refuses dev routes there).
 */
export const DEV_CLOCK_KEY = 'dev_clock_offset_ms';

/** The dev clock's offset in milliseconds (0 when never moved or reset). */
export async function devClockOffset(db: D1Database): Promise<number> {
  const row = await db.prepare('SELECT value FROM portal_meta WHERE key = ?').bind(DEV_CLOCK_KEY).first<{ value: string }>();
  const offset = Number(row?.value ?? 0);
  return Number.isFinite(offset) ? offset : 0;
}

/** Adds `advanceMs` to the dev clock's offset in one statement; answers the new offset. */
export async function advanceDevClock(db: D1Database, advanceMs: number): Promise<number> {
  const row = await db
    .prepare(
      `INSERT INTO portal_meta (key, value) VALUES (?1, CAST(?2 AS TEXT))
       ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + ?2 AS TEXT)
       RETURNING value`,
    )
    .bind(DEV_CLOCK_KEY, advanceMs)
    .first<{ value: string }>();
  return Number(row?.value ?? 0);
}

/** Back to real time. */
export async function resetDevClock(db: D1Database): Promise<void> {
  await db.prepare('DELETE FROM portal_meta WHERE key = ?').bind(DEV_CLOCK_KEY).run();
}
