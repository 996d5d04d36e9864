import { GatewayError } from '../../errors';
import type { StoredPassword } from '../passwords';
import { ERR } from '../../../../src/schemas/error-codes';
import { runBatch } from './batch';

/**
 * The people table (`users`): who a person is and how they sign in. The identity core owns it; account/ and the
 * capabilities above read and write a person through these statements.
 */

/** A row of `users` (migrations/0003). */
export interface UserRow {
  id: string;
  phone_e164: string | null;
  email: string | null;
  us_id: string | null;
  real_name: string;
  login_name: string;
  password_hash: string | null;
  password_salt: string | null;
  password_algo: string | null;
  password_params: string | null;
  password_version: 1 | 2;
  legacy_salt: string | null;
  original_flag: 0 | 1;
  user_type: 0 | 1 | 2;
  identity: 1 | 2 | null;
  pending_company_name: string | null;
  /** The serviced port named at registration with the company name (migrations/0190). */
  pending_port_id: string | null;
  source: string | null;
  is_partner: 0 | 1;
  created_at: number;
  // Own profile (migrations/0040).
  country_id: string | null;
  country_name: string | null;
  birthday: string | null;
  sex: 'male' | 'female' | null;
  /** The person's photo: one of their own uploads (migrations/0160). */
  photo_file_id: string | null;
  // Set by an operator (migrations/0180): no sign-in, no session.
  blocked_at: number | null;
  // Closing the account (migrations/0310, data-rights/): the cooling-off, an operator's legal hold, the erasure.
  closing_since: number | null;
  closes_at: number | null;
  /** The language the closure was asked in: its erasure notice is written in it. */
  closing_lang?: 'zh' | 'en' | null;
  legal_hold_reason: string | null;
  legal_hold_at: number | null;
  erased_at: number | null;
}

/** The ways a person names their account at sign-in; each is a UNIQUE column. */
export type LoginIdentity = { phone: string } | { email: string } | { usId: string };

function identityColumn(identity: LoginIdentity): [column: 'phone_e164' | 'email' | 'us_id', value: string] {
  if ('phone' in identity) return ['phone_e164', identity.phone];
  if ('email' in identity) return ['email', identity.email];
  return ['us_id', identity.usId];
}

/** The identity as one string: the slider subject, the throttle subject and the getUserSalt decoy key. */
export function identityKey(identity: LoginIdentity): string {
  return identityColumn(identity)[1];
}

export async function findUserByIdentity(db: D1Database, identity: LoginIdentity): Promise<UserRow | null> {
  return findUserByIdentityStatement(db, identity).first<UserRow>();
}

/** findUserByIdentity's SELECT, to batch with what goes with it. */
export function findUserByIdentityStatement(db: D1Database, identity: LoginIdentity): D1PreparedStatement {
  const [column, value] = identityColumn(identity);
  return db.prepare(`SELECT * FROM users WHERE ${column} = ?`).bind(value);
}

/**
 * Whether a code recipient (an E.164 phone or an e-mail address, as the codes store them) names a blocked
 * account: its codes are decoys, never delivered, so the answer is an unknown account's (issue 33).
 */
export function blockedRecipientStatement(db: D1Database, recipient: string): D1PreparedStatement {
  return db.prepare('SELECT 1 AS blocked FROM users WHERE (phone_e164 = ?1 OR email = ?1) AND blocked_at IS NOT NULL').bind(recipient);
}

/** PS0100 for a blocked account, the erased account's refusal for an erased one (a sign-in batches standingStatement instead). */
export async function assertNotBlocked(db: D1Database, userId: string): Promise<void> {
  assertStanding(await standingStatement(db, userId).first<Standing>());
}

/** Whether an account may sign in: read by standingStatement, judged by assertStanding. */
export interface Standing {
  blocked_at: number | null;
  erased_at: number | null;
}

/** The SELECT of assertNotBlocked, to batch with a sign-in's other reads. */
export const standingStatement = (db: D1Database, userId: string): D1PreparedStatement => db.prepare('SELECT blocked_at, erased_at FROM users WHERE id = ?').bind(userId);

/** Refuses a blocked (PS0100) or erased account; passes one that may sign in, or a row not found. */
export function assertStanding(row: Standing | null | undefined): void {
  if (row?.blocked_at != null) throw new GatewayError(ERR.ACCOUNT_BLOCKED);
  // An erased account keeps only its random id (data-rights/); nothing may sign in to it.
  if (row?.erased_at != null) throw new GatewayError(ERR.ACCOUNT_ERASED);
}

export async function findUserById(db: D1Database, id: string): Promise<UserRow | null> {
  return db.prepare('SELECT * FROM users WHERE id = ?').bind(id).first<UserRow>();
}

export interface NewUser {
  id?: string;
  phone?: string | null;
  email?: string | null;
  usId?: string | null;
  realName?: string;
  loginName?: string;
  password?: StoredPassword | null;
  passwordVersion?: 1 | 2;
  legacySalt?: string | null;
  originalFlag?: boolean;
  userType?: 0 | 1 | 2;
  identity?: 1 | 2 | null;
  pendingCompanyName?: string | null;
  pendingPortId?: string | null;
  source?: string | null;
  isPartner?: boolean;
  now: number;
}

/**
 * The INSERT for a new user, to run alone or in a batch with its first session. `onlyIfChanged`: only when the
 * statement before it in the batch changed a row (the code that registers the person was used by this call).
 */
export function insertUserStatement(db: D1Database, user: NewUser & { id: string }, { onlyIfChanged = false } = {}): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO users (id, phone_e164, email, us_id, real_name, login_name, password_hash, password_salt, password_algo,
         password_params, password_version, legacy_salt, original_flag, user_type, identity, pending_company_name, pending_port_id,
         source, is_partner, created_at)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?${onlyIfChanged ? ' WHERE changes() = 1' : ''}`,
    )
    .bind(
      user.id,
      user.phone ?? null,
      user.email ?? null,
      user.usId ?? null,
      user.realName ?? '',
      user.loginName ?? user.email ?? user.phone ?? user.usId ?? '',
      user.password?.hash ?? null,
      user.password?.salt ?? null,
      user.password?.algo ?? null,
      user.password?.params ?? null,
      user.passwordVersion ?? 2,
      user.legacySalt ?? null,
      user.originalFlag ? 1 : 0,
      user.userType ?? 0,
      user.identity ?? null,
      user.pendingCompanyName ?? null,
      user.pendingPortId ?? null,
      user.source ?? null,
      user.isPartner ? 1 : 0,
      user.now,
    );
}

/** The stored password of a user row, or null when none is set (verifyPassword then does decoy work). */
export function storedPasswordOf(user: UserRow): StoredPassword | null {
  const { password_hash: hash, password_salt: salt, password_algo: algo, password_params: params } = user;
  return hash && salt && algo && params ? { hash, salt, algo, params } : null;
}

export async function createUser(db: D1Database, user: NewUser): Promise<string> {
  const id = user.id ?? crypto.randomUUID();
  await runBatch(db, [insertUserStatement(db, { ...user, id })]);
  return id;
}

/**
 * Stores a new password hash. `version` 2 (the default) also drops the legacy salt, so a legacy record
 * moves to the plain-hash protocol; `clearOriginalFlag` ends the must-change-password state.
 */
export function setPasswordStatement(
  db: D1Database,
  userId: string,
  stored: StoredPassword,
  options: { version?: 1 | 2; clearOriginalFlag?: boolean } = {},
): D1PreparedStatement {
  const version = options.version ?? 2;
  return db
    .prepare(
      `UPDATE users SET password_hash = ?, password_salt = ?, password_algo = ?, password_params = ?, password_version = ?,
         legacy_salt = CASE WHEN ? = 2 THEN NULL ELSE legacy_salt END,
         original_flag = CASE WHEN ? THEN 0 ELSE original_flag END
       WHERE id = ?`,
    )
    .bind(stored.hash, stored.salt, stored.algo, stored.params, version, version, options.clearOriginalFlag ? 1 : 0, userId);
}

/** Every name the user signs in with: the subjects of their password failures (sign-in/db.ts). */
export function signInNamesOf(user: Pick<UserRow, 'phone_e164' | 'email' | 'us_id'>): (string | null)[] {
  return [user.phone_e164, user.email, user.us_id];
}

/** The must-change-password flag, set by an operator or by a sign-in with a breached password (sign-in/service.ts). */
export function requirePasswordChangeStatement(db: D1Database, userId: string): D1PreparedStatement {
  return db.prepare('UPDATE users SET original_flag = 1 WHERE id = ? AND original_flag = 0').bind(userId);
}
