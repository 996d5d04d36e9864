/**
 * The statements of known devices (rules in devices/service.ts): one row per (person, device token), the token kept
 * only as its SHA-256.
 */

export interface KnownDeviceRow {
  token_hash: string;
  public_id: string;
  user_id: string;
  created_at: number;
  last_used_at: number;
  user_agent: string | null;
  country: string | null;
  /** Until when the person trusts this device (issue 44): it skips the second step and the new-device challenge. */
  trusted_until: number | null;
}

/**
 * A row when `tokenHash` names a device of `userId` used since `since`, with its trust (`trusted`: 1 while trusted at
 * `at`): to batch with a sign-in's other reads.
 */
export const knownDeviceStatement = (db: D1Database, userId: string, tokenHash: string, since: number, at: number): D1PreparedStatement =>
  db
    .prepare('SELECT 1 AS known, CASE WHEN trusted_until > ?4 THEN 1 ELSE 0 END AS trusted FROM known_devices WHERE token_hash = ?1 AND user_id = ?2 AND last_used_at > ?3')
    .bind(tokenHash, userId, since, at);

/** Records a new device token for the person (a fresh random token: never a conflict in practice), trusted or not. */
export const insertDeviceStatement = (
  db: D1Database,
  row: { tokenHash: string; publicId: string; userId: string; at: number; userAgent: string | null; country: string | null; trustedUntil: number | null },
): D1PreparedStatement =>
  db
    .prepare('INSERT INTO known_devices (token_hash, public_id, user_id, created_at, last_used_at, user_agent, country, trusted_until) VALUES (?1, ?6, ?2, ?3, ?3, ?4, ?5, ?7)')
    .bind(row.tokenHash, row.userId, row.at, row.userAgent, row.country, row.publicId, row.trustedUntil);

/**
 * Marks the person's device used now (only that person's row: a token copied to another account changes nothing);
 * `trustedUntil` trusts it until then, null keeps its trust as it is.
 */
export const touchDeviceStatement = (db: D1Database, userId: string, tokenHash: string, at: number, trustedUntil: number | null = null): D1PreparedStatement =>
  db.prepare('UPDATE known_devices SET last_used_at = ?3, trusted_until = COALESCE(?4, trusted_until) WHERE token_hash = ?1 AND user_id = ?2').bind(tokenHash, userId, at, trustedUntil);

/**
 * Ends every trust of the person (issue 44): a password change or reset, "sign out everywhere", an operator's two-step
 * reset or block puts it in the batch of its change. The devices stay known.
 */
export const endTrustStatement = (db: D1Database, userId: string): D1PreparedStatement =>
  db.prepare('UPDATE known_devices SET trusted_until = NULL WHERE user_id = ? AND trusted_until IS NOT NULL').bind(userId);

/** SQL (bind: the person) true while endTrustStatement would end a trust (an AuditCondition's part). */
export const hasTrustSql = 'EXISTS (SELECT 1 FROM known_devices WHERE user_id = ? AND trusted_until IS NOT NULL)';

/** Forgets every device of the person: the next password sign-in from any of them owes the code again. */
export const forgetAllDevicesStatement = (db: D1Database, userId: string): D1PreparedStatement =>
  db.prepare('DELETE FROM known_devices WHERE user_id = ?').bind(userId);

/** The person's devices used since `since`, last used first. */
export async function devicesOf(db: D1Database, userId: string, since: number): Promise<KnownDeviceRow[]> {
  const rows = await db.prepare('SELECT * FROM known_devices WHERE user_id = ? AND last_used_at > ? ORDER BY last_used_at DESC').bind(userId, since).all<KnownDeviceRow>();
  return rows.results;
}

/** Forgets one device of the person (by its public id): a row for the one call that deleted it. */
export const forgetDeviceStatement = (db: D1Database, userId: string, publicId: string): D1PreparedStatement =>
  db.prepare('DELETE FROM known_devices WHERE user_id = ? AND public_id = ? RETURNING public_id').bind(userId, publicId);
