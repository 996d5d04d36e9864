import { mayManageSql } from '../authority/db';
import { consume, SINGLE_USE } from '../identity/db/single-use';

/**
 * The statements of two-step verification (rules in second-step/service.ts). Every statement that uses
 * something up (a TOTP step, a recovery code, a challenge) re-checks in its WHERE what makes it usable, so of
 * parallel calls exactly one changes the row.
 */

export interface TwoStepRow {
  user_id: string;
  secret_enc: string;
  enabled_at: number | null;
  last_used_step: number;
  recovery_batch: string | null;
}

export interface ChallengeRow {
  user_id: string;
  method: string;
  options: string;
  tries: number;
  expires_at: number;
  used_at: number | null;
}

export function twoStepOf(db: D1Database, userId: string): Promise<TwoStepRow | null> {
  return db.prepare('SELECT * FROM two_step WHERE user_id = ?').bind(userId).first<TwoStepRow>();
}

/** True when the person has finished enrolling (a pending enrolment does not count). */
export async function twoStepEnabled(db: D1Database, userId: string): Promise<boolean> {
  return (await twoStepEnabledStatement(db, userId).first()) !== null;
}

/** The SELECT of twoStepEnabled (a row when two-step is on), to batch with a sign-in's other reads. */
export const twoStepEnabledStatement = (db: D1Database, userId: string): D1PreparedStatement =>
  db.prepare('SELECT 1 AS on_ FROM two_step WHERE user_id = ? AND enabled_at IS NOT NULL').bind(userId);

/** Unused recovery codes of the current batch. */
export async function recoveryCodesLeft(db: D1Database, userId: string): Promise<number> {
  const row = await db
    .prepare(
      `SELECT COUNT(*) AS n FROM recovery_codes r JOIN two_step t ON t.user_id = r.user_id AND t.recovery_batch = r.batch
       WHERE r.user_id = ? AND r.used_at IS NULL`,
    )
    .bind(userId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Starts (or restarts) a pending enrolment; refused (false) while two-step is on. */
export async function savePendingSecret(db: D1Database, userId: string, secretEnc: string, now: number): Promise<boolean> {
  const saved = await db
    .prepare(
      `INSERT INTO two_step (user_id, secret_enc, created_at) VALUES (?1, ?2, ?3)
       ON CONFLICT (user_id) DO UPDATE SET secret_enc = ?2, created_at = ?3, last_used_step = -1, recovery_batch = NULL
       WHERE two_step.enabled_at IS NULL
       RETURNING user_id`,
    )
    .bind(userId, secretEnc, now)
    .first();
  return saved !== null;
}

/**
 * The statements that make `batch` the person's recovery codes: the batch is named on the two_step row only
 * while `guard` (SQL over the two_step row) holds, and codes are inserted and old ones removed only when it
 * was; so in one db.batch either everything changes or nothing does. `hashes` is the JSON array of hashes.
 */
export function replaceRecoveryCodesStatements(
  db: D1Database,
  { userId, batch, hashes, set = '', guard = '1 = 1', binds = [] }: { userId: string; batch: string; hashes: string[]; set?: string; guard?: string; binds?: unknown[] },
): D1PreparedStatement[] {
  const current = 'EXISTS (SELECT 1 FROM two_step WHERE user_id = ?1 AND recovery_batch = ?2)';
  return [
    db.prepare(`UPDATE two_step SET recovery_batch = ?2${set} WHERE user_id = ?1 AND (${guard})`).bind(userId, batch, ...binds),
    db.prepare(`DELETE FROM recovery_codes WHERE user_id = ?1 AND batch != ?2 AND ${current}`).bind(userId, batch),
    db
      .prepare(`INSERT INTO recovery_codes (user_id, batch, code_hash) SELECT ?1, ?2, value FROM json_each(?3) WHERE ${current}`)
      .bind(userId, batch, JSON.stringify(hashes)),
  ];
}

/** Uses one recovery code of the current batch; false when it is not one or was used already. */
export async function useRecoveryCode(db: D1Database, userId: string, hash: string, now: number): Promise<boolean> {
  const used = await consume(db, SINGLE_USE.recoveryCode, { user_id: userId, code_hash: hash }, now, {
    returning: 'code_hash',
    also: { sql: 'batch = (SELECT recovery_batch FROM two_step WHERE user_id = ? AND enabled_at IS NOT NULL)', binds: [userId] },
  });
  return used !== null;
}

/** Whether `hash` is a recovery code of the current batch at all (used or not), to tell "used" from "wrong". */
export async function isRecoveryCode(db: D1Database, userId: string, hash: string): Promise<boolean> {
  const row = await db
    .prepare(
      `SELECT 1 AS found FROM recovery_codes r JOIN two_step t ON t.user_id = r.user_id AND t.recovery_batch = r.batch
       WHERE r.user_id = ? AND r.code_hash = ?`,
    )
    .bind(userId, hash)
    .first();
  return row !== null;
}

/** Turns two-step off: the secret and every recovery code go. */
export function disableStatements(db: D1Database, userId: string): D1PreparedStatement[] {
  return [db.prepare('DELETE FROM recovery_codes WHERE user_id = ?').bind(userId), db.prepare('DELETE FROM two_step WHERE user_id = ?').bind(userId)];
}

/**
 * Sets the company's requirement when `userId` is an active administrator of it, and (to require it, or to lift
 * it while it holds) has two-step on: one conditional UPDATE, so a staff member can never change it, nor an
 * administrator the rule keeps out of the company (authority/) lift it. False when refused.
 */
export async function setCompanyRequirement(db: D1Database, { companyId, userId, required }: { companyId: string; userId: string; required: boolean }) {
  const result = await db
    .prepare(
      `UPDATE companies SET require_two_step = ?3, forbid_trusted_devices = forbid_trusted_devices * ?3
       WHERE id = ?1
         AND ${mayManageSql('?1', '?2', 'NULL')}
         AND ((?3 = 0 AND require_two_step = 0) OR EXISTS (SELECT 1 FROM two_step WHERE user_id = ?2 AND enabled_at IS NOT NULL))`,
    )
    .bind(companyId, userId, required ? 1 : 0)
    .run();
  return result.meta.changes === 1;
}

/** Companies (of `companyIds`) that require two-step, for the person's company list. */
export async function companiesRequiringTwoStep(db: D1Database, companyIds: string[]): Promise<Set<string>> {
  if (companyIds.length === 0) return new Set();
  const { results } = await db
    .prepare('SELECT id FROM companies WHERE require_two_step = 1 AND id IN (SELECT value FROM json_each(?))')
    .bind(JSON.stringify(companyIds))
    .all<{ id: string }>();
  return new Set(results.map((row) => row.id));
}
