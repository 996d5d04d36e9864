import { cappedInsert, type Cap } from '../identity/db/limits';
import { consume, SINGLE_USE } from '../identity/db/single-use';
import { ERR } from '../../../src/schemas/error-codes';

/** The SQL of passkeys and their WebAuthn challenges (migrations/0130). Rules in passkeys/service.ts. */

export interface PasskeyRow {
  id: string;
  user_id: string;
  public_key: string;
  counter: number;
  transports: string;
  device_type: 'singleDevice' | 'multiDevice';
  backed_up: 0 | 1;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

export type ChallengePurpose = 'register' | 'authenticate';

/** Records a challenge when every cap allows it, in one statement (cappedInsert). */
export async function insertChallenge(
  db: D1Database,
  row: { challenge: string; purpose: ChallengePurpose; userId: string | null; ip: string; now: number; expiresAt: number },
  caps: Cap[],
): Promise<void> {
  await cappedInsert(db, {
    table: 'webauthn_challenges',
    row: { challenge: row.challenge, purpose: row.purpose, user_id: row.userId, ip: row.ip, created_at: row.now, expires_at: row.expiresAt },
    caps,
    returning: 'challenge',
  });
}

/**
 * Claims a live challenge of `purpose` (and of `userId`, NULL for sign-in): one UPDATE that marks it used only
 * while unused and unexpired, so of any number of parallel verifies exactly one gets it. False otherwise.
 */
export async function claimChallenge(db: D1Database, challenge: string, purpose: ChallengePurpose, userId: string | null, now: number): Promise<boolean> {
  const claimed = await consume(db, SINGLE_USE.passkeyCeremony, { challenge, purpose, user_id: userId }, now, { returning: 'challenge' });
  return claimed !== null;
}

export function passkeysOfUser(db: D1Database, userId: string): Promise<PasskeyRow[]> {
  return db
    .prepare('SELECT * FROM passkeys WHERE user_id = ? ORDER BY created_at DESC, id')
    .bind(userId)
    .all<PasskeyRow>()
    .then((result) => result.results);
}

export function findPasskey(db: D1Database, id: string): Promise<PasskeyRow | null> {
  return db.prepare('SELECT * FROM passkeys WHERE id = ?').bind(id).first<PasskeyRow>();
}

/** Most passkeys one account may hold. */
export const PASSKEYS_PER_USER = 10;

/**
 * Stores a verified new passkey unless the person already has PASSKEYS_PER_USER (checked in the same
 * statement, so parallel registrations cannot pass it). A credential id already stored (by anyone) fails on the
 * primary key; the caller maps that.
 */
export async function insertPasskey(db: D1Database, row: Omit<PasskeyRow, 'last_used_at'>, alongside: D1PreparedStatement[] = []): Promise<void> {
  await cappedInsert(db, {
    table: 'passkeys',
    row: { ...row },
    alongside,
    // Every passkey counts, however old: created_at > -1.
    caps: [{ where: { user_id: row.user_id }, since: -1, max: PASSKEYS_PER_USER, code: ERR.PASSKEY_LIMIT_REACHED }],
  });
}

/**
 * Records a sign-in with a passkey: the new signature counter and the time. Only while the stored counter is
 * below the new one (or both are 0, as synced passkeys report), in one statement: a cloned authenticator
 * replaying an older counter, or a parallel sign-in that already raised it, changes nothing. False then.
 */
export async function recordPasskeyUse(
  db: D1Database,
  { id, counter, backedUp, now }: { id: string; counter: number; backedUp: boolean; now: number },
): Promise<boolean> {
  const updated = await db
    .prepare(
      `UPDATE passkeys SET counter = ?1, backed_up = ?2, last_used_at = ?3
       WHERE id = ?4 AND (counter < ?1 OR (counter = 0 AND ?1 = 0))
       RETURNING id`,
    )
    .bind(counter, backedUp ? 1 : 0, now, id)
    .first();
  return updated !== null;
}

/** Renames one of the person's own passkeys; null when they have none with this id. */
export function renamePasskey(db: D1Database, { id, userId, name }: { id: string; userId: string; name: string }): Promise<PasskeyRow | null> {
  return db.prepare('UPDATE passkeys SET name = ? WHERE id = ? AND user_id = ? RETURNING *').bind(name, id, userId).first<PasskeyRow>();
}

/** Removes one of the person's own passkeys; false when they have none with this id. */
/** Removes one of the person's passkeys with the statements of `alongside` (its audit row) in the same batch. */
export async function removePasskey(db: D1Database, { id, userId }: { id: string; userId: string }, alongside: D1PreparedStatement[] = []): Promise<boolean> {
  const [removed] = await db.batch([db.prepare('DELETE FROM passkeys WHERE id = ? AND user_id = ?').bind(id, userId), ...alongside]);
  return (removed?.meta.changes ?? 0) > 0;
}
