/**
 * The common-password blocklist's table (migrations/0670_create_common_password_hashes.sql, written by
 * scripts/common-passwords.mjs): the first 16 hex digits of each blocked password's SHA-256. One primary-key read.
 */
export const COMMON_PASSWORD_PREFIX_HEX = 16;

/** True when `hashPrefix` (lower-case hex, COMMON_PASSWORD_PREFIX_HEX digits) is a blocked password's. */
export async function isBlockedHashPrefix(db: D1Database, hashPrefix: string): Promise<boolean> {
  const row = await db.prepare('SELECT 1 AS blocked FROM common_password_hashes WHERE hash_prefix = ?').bind(hashPrefix).first<{ blocked: number }>();
  return row !== null;
}
