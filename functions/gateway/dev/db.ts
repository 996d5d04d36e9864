/*
 * Local runs only (config.devRoutes): the dev routes' own SQL.
 *
 * POST /api/dev/clock moves the gateway's clock by an offset kept in D1 (portal_meta), so an end-to-end test can
 * age a session without waiting. A deployed Worker never reads it (the startup check refuses dev routes there).
 */
export const DEV_CLOCK_KEY = 'dev_clock_offset_ms';

/**
 * The offsets this isolate has read or set, by D1 binding: a local run is one isolate (wrangler dev, the tests'
 * module), so only the first call after a start (or a reload) pays a read, instead of every call of every page.
 * POST /dev/clock updates it with the value it wrote.
 */
const known = new WeakMap<D1Database, number>();

/** The dev clock's offset in milliseconds (0 when never moved or reset). */
export async function devClockOffset(db: D1Database): Promise<number> {
  const cached = known.get(db);
  if (cached !== undefined) return cached;
  const row = await db.prepare('SELECT value FROM portal_meta WHERE key = ?').bind(DEV_CLOCK_KEY).first<{ value: string }>();
  const value = Number(row?.value ?? 0);
  const offset = Number.isFinite(value) ? value : 0;
  known.set(db, offset);
  return offset;
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
  const offset = Number(row?.value ?? 0);
  known.set(db, offset);
  return offset;
}

/** Back to real time. */
export async function resetDevClock(db: D1Database): Promise<void> {
  await db.prepare('DELETE FROM portal_meta WHERE key = ?').bind(DEV_CLOCK_KEY).run();
  known.set(db, 0);
}

/** The newest 20 messages the dev outbox holds for `to` (delivery/outbox.ts writes them). */
export async function outboxOf(db: D1Database, to: string) {
  const { results } = await db
    .prepare(
      `SELECT channel, recipient AS "to", subject, body AS text, created_at AS createdAt
       FROM outbox WHERE recipient = ? ORDER BY id DESC LIMIT 20`,
    )
    .bind(to)
    .all<{ channel: 'sms' | 'email'; to: string; subject: string; text: string; createdAt: number }>();
  return results;
}

/** A seeded company in any status (POST /dev/users), to batch with its person. */
export function seedCompanyStatement(
  db: D1Database,
  company: { id: string; nameEn: string; nameKey: string; type: string | number; status: string; createdBy: string; at: number; requireTwoStep?: boolean; confirmNewDevices?: boolean; forbidTrustedDevices?: boolean },
): D1PreparedStatement {
  return db
    .prepare(
      'INSERT INTO companies (id, name_en, name_key, type, status, created_by, created_at, require_two_step, confirm_new_devices, forbid_trusted_devices) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    .bind(company.id, company.nameEn, company.nameKey, company.type, company.status, company.createdBy, company.at, company.requireTwoStep ? 1 : 0, company.confirmNewDevices ? 1 : 0, company.forbidTrustedDevices ? 1 : 0);
}

/** A seeded membership in any role and status (POST /dev/users). */
export function seedMemberStatement(
  db: D1Database,
  member: { companyId: string; userId: string; role: string; status: string; isMain: boolean | undefined; at: number; hireTime: string | number | null },
): D1PreparedStatement {
  return db
    .prepare('INSERT INTO company_members (company_id, user_id, role, status, is_main, joined_at, hire_time) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .bind(member.companyId, member.userId, member.role, member.status, member.isMain ? 1 : 0, member.at, member.hireTime);
}
