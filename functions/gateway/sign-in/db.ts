import type { SecondStep } from '../../../src/schemas/security';

/**
 * The counters of sign-in/risk.ts in password_failures (migrations/0080). A row older than forgetAfterMs
 * counts as empty: no lock lasts longer than that, so an old row never holds a live lock.
 */

/** What the throttle knows of one name from one network. */
export interface ThrottleState {
  /** Failures from this network. */
  here: number;
  /** Failures from every network. */
  everywhere: number;
  lockedUntil: number | null;
}

/** The throttle's numbers, owned by sign-in/risk.ts (THROTTLE), which explains them. */
export interface ThrottlePolicy {
  sliderAfter: number;
  accountSliderAfter: number;
  lockEvery: number;
  lockBaseMs: number;
  maxLockMs: number;
  forgetAfterMs: number;
}

export async function throttleState(db: D1Database, subject: string, network: string, now: number, policy: ThrottlePolicy): Promise<ThrottleState> {
  const row = await db
    .prepare(
      `SELECT COALESCE(SUM(CASE WHEN network = ?2 THEN failures END), 0) AS here,
              COALESCE(SUM(failures), 0) AS everywhere,
              MAX(CASE WHEN network = ?2 THEN locked_until END) AS lockedUntil
       FROM password_failures WHERE subject = ?1 AND updated_at > ?3`,
    )
    .bind(subject, network, now - policy.forgetAfterMs)
    .first<ThrottleState>();
  return row ?? { here: 0, everywhere: 0, lockedUntil: null };
}

/** The failures of a fresh row, zero for a forgotten one (SQL, reads the conflicting row). */
const LIVE = (column: string) => `(CASE WHEN updated_at > ?4 THEN ${column} ELSE 0 END)`;

/**
 * Counts one attempt as a failure before the password is checked (a success removes it again), in one
 * statement, so a parallel burst cannot all pass the checks before any of them is counted. The count is
 * refused (false) while this network is locked out of `subject`, and, unless `humanChecked`, once the
 * network has sliderAfter failures or the name accountSliderAfter in all. Every lockEvery-th failure
 * starts a lock of lockBaseMs doubled per earlier lock, at most maxLockMs. Returns this network's
 * failures with this one counted, or null when the count was refused.
 */
export async function countAttempt(
  db: D1Database,
  { subject, network, now, humanChecked }: { subject: string; network: string; now: number; humanChecked: boolean },
  policy: ThrottlePolicy,
): Promise<number | null> {
  const failures = `(${LIVE('failures')} + 1)`;
  const locks = LIVE('lock_count');
  const locksNow = `${failures} % ?8 = 0`;
  const counted = await db
    .prepare(
      `INSERT INTO password_failures (subject, network, failures, locked_until, lock_count, updated_at)
       SELECT ?1, ?2, 1, NULL, 0, ?3
       WHERE ?5 OR (SELECT COALESCE(SUM(failures), 0) FROM password_failures WHERE subject = ?1 AND updated_at > ?4) < ?7
       ON CONFLICT (subject, network) DO UPDATE SET
         failures = ${failures},
         locked_until = CASE WHEN ${locksNow} THEN ?3 + MIN(?9 * (1 << MIN(${locks}, 30)), ?10)
                             WHEN updated_at > ?4 THEN locked_until END,
         lock_count = ${locks} + (CASE WHEN ${locksNow} THEN 1 ELSE 0 END),
         updated_at = ?3
       WHERE (locked_until IS NULL OR locked_until <= ?3) AND (?5 OR ${LIVE('failures')} < ?6)
       RETURNING failures`,
    )
    .bind(
      subject,
      network,
      now,
      now - policy.forgetAfterMs,
      humanChecked ? 1 : 0,
      policy.sliderAfter,
      policy.accountSliderAfter,
      policy.lockEvery,
      policy.lockBaseMs,
      policy.maxLockMs,
    )
    .first<{ failures: number }>();
  return counted?.failures ?? null;
}

/** After a success: this network's run of failures ends (and any lock of it, which a success cannot pass anyway). */
export function clearAttemptsStatement(db: D1Database, subject: string, network: string): D1PreparedStatement {
  return db.prepare('DELETE FROM password_failures WHERE subject = ? AND network = ?').bind(subject, network);
}

/** After a password reset or change: every network's failures of the account's names end. */
export function clearAllAttemptsStatement(db: D1Database, subjects: (string | null)[]): D1PreparedStatement {
  const names = subjects.filter((s): s is string => Boolean(s));
  return db.prepare(`DELETE FROM password_failures WHERE subject IN (${names.map(() => '?').join(', ') || 'NULL'})`).bind(...names);
}

// ---------------------------------------------------------------------------------------------------------
// The sign-in history (sign_ins; sign-in/history.ts)
// ---------------------------------------------------------------------------------------------------------

import type { SignInMethod } from '../identity/db/sessions';
export type { SignInMethod };

/** One attempt as a sign_ins row stores it; `device` is deviceKey of the user agent (sessions/devices.ts). */
export interface SignInRecord {
  userId: string;
  at: number;
  method: SignInMethod;
  secondStep: SecondStep | null;
  partner: boolean;
  success: boolean;
  country: string | null;
  network: string | null;
  userAgent: string | null;
  device: string;
}

/**
 * The INSERT of one attempt into sign_ins (sign-in/history.ts); as a success it RETURNs `new_device`. The same
 * statement decides new_device and new_country, so of parallel sign-ins from one new device exactly one is marked.
 */
export function insertSignInStatement(db: D1Database, record: SignInRecord): D1PreparedStatement {
  const { userId, at, method, secondStep, partner, success, country, network, userAgent, device } = record;
  return db
    .prepare(
      `INSERT INTO sign_ins (user_id, created_at, method, second_step, partner, success, country, network, user_agent, device, new_device, new_country)
       SELECT ?1, ?2, ?3, ?10, ?4, ?5, ?6, ?7, ?8, ?9,
         ?5 = 1 AND known.any_success AND NOT EXISTS (SELECT 1 FROM sign_ins WHERE user_id = ?1 AND success = 1 AND device = ?9),
         ?5 = 1 AND known.any_success AND ?6 IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM sign_ins WHERE user_id = ?1 AND success = 1 AND country = ?6)
       FROM (SELECT EXISTS (SELECT 1 FROM sign_ins WHERE user_id = ?1 AND success = 1) AS any_success) AS known
       RETURNING new_device`,
    )
    .bind(userId, at, method, partner ? 1 : 0, success ? 1 : 0, country, network, userAgent, device, secondStep);
}

export interface SignInRow {
  id: number;
  created_at: number;
  method: SignInMethod;
  second_step: SecondStep | null;
  partner: number;
  success: number;
  country: string | null;
  network: string | null;
  user_agent: string | null;
  new_device: number;
  new_country: number;
}

/** The account's attempts after `since`, newest first, at most 500. */
export async function signInRowsSince(db: D1Database, userId: string, since: number): Promise<SignInRow[]> {
  const { results } = await db
    .prepare(
      `SELECT id, created_at, method, second_step, partner, success, country, network, user_agent, new_device, new_country FROM sign_ins
       WHERE user_id = ? AND created_at > ? ORDER BY created_at DESC, id DESC LIMIT 500`,
    )
    .bind(userId, since)
    .all<SignInRow>();
  return results;
}

/** Where the share of legacy (salted, version 1) records among accounts with a password is kept (portal_meta). */
const LEGACY_SHARE_KEY = 'legacy_password_share';

/** The share of legacy records as last counted, or null before the first count. */
export async function readLegacyShare(db: D1Database): Promise<number | null> {
  const row = await db.prepare('SELECT value FROM portal_meta WHERE key = ?').bind(LEGACY_SHARE_KEY).first<{ value: string }>();
  return row ? Number(row.value) : null;
}

const LEGACY_SHARE_SQL = 'SELECT COALESCE(AVG(password_version = 1), 0) FROM users WHERE password_hash IS NOT NULL';

/** The share of legacy records counted now, written nowhere (before the hourly cron first kept one). */
export async function legacyShareNow(db: D1Database): Promise<number> {
  return Number((await db.prepare(`SELECT (${LEGACY_SHARE_SQL}) AS share`).first<{ share: number }>())?.share ?? 0);
}

/** Counts the legacy share again and keeps it (the hourly cron), so sign-ins read one row instead of counting. */
export async function countLegacyShare(db: D1Database): Promise<number> {
  const row = await db
    .prepare(
      `INSERT INTO portal_meta (key, value) VALUES (?1, CAST((${LEGACY_SHARE_SQL}) AS TEXT))
       ON CONFLICT (key) DO UPDATE SET value = excluded.value
       RETURNING value`,
    )
    .bind(LEGACY_SHARE_KEY)
    .first<{ value: string }>();
  return Number(row?.value ?? 0);
}

/**
 * What the new-device challenge's other rules read of the sign-in history (devices/service.ts), to batch with a
 * sign-in's reads: `new_country`, the account signed in before but never from `country` (unknown: never new);
 * `risky_network`, the account had failed sign-ins since `failuresSince` and never signed in from `network`.
 */
export const signInRiskStatement = (db: D1Database, userId: string, { country, network, failuresSince }: { country: string | null; network: string | null; failuresSince: number }) =>
  db
    .prepare(
      `SELECT
         (?2 IS NOT NULL AND EXISTS (SELECT 1 FROM sign_ins WHERE user_id = ?1 AND success = 1)
           AND NOT EXISTS (SELECT 1 FROM sign_ins WHERE user_id = ?1 AND success = 1 AND country = ?2)) AS new_country,
         (EXISTS (SELECT 1 FROM sign_ins WHERE user_id = ?1 AND success = 0 AND created_at > ?4)
           AND NOT EXISTS (SELECT 1 FROM sign_ins WHERE user_id = ?1 AND success = 1 AND network IS ?3)) AS risky_network`,
    )
    .bind(userId, country, network, failuresSince);

/** What a sign-in's history read answers when it reads none (partner and other sign-ins without the risk rules). */
export const noRiskStatement = (db: D1Database) => db.prepare('SELECT 0 AS new_country, 0 AS risky_network');
