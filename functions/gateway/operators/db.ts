import type { StoredPassword } from '../identity/passwords';

// The operators' own tables (operators, operator_enrolments, operator_passkeys); the rules over them are in
// operators/service.ts, sign-in.ts and passkeys.ts.

/** 'reviewer' reviews companies, 'support' helps people, 'admin' does both and manages operators. */
export type OperatorRole = 'reviewer' | 'support' | 'admin';

export interface OperatorRow {
  id: string;
  login: string;
  name: string;
  role: OperatorRole;
  lang: 'zh' | 'en';
  /** The password columns are NULL until the operator used their enrolment link. */
  password_hash: string | null;
  password_salt: string | null;
  password_algo: string | null;
  password_params: string | null;
  totp_secret_enc: string | null;
  totp_last_step: number;
  created_at: number;
  /** When the enrolment link was used (password and second step set); NULL: no sign-in yet. */
  enrolled_at: number | null;
  removed_at: number | null;
}

export async function findOperatorByLogin(db: D1Database, login: string): Promise<OperatorRow | null> {
  return db.prepare('SELECT * FROM operators WHERE login = ? AND removed_at IS NULL').bind(login.trim().toLowerCase()).first<OperatorRow>();
}

/** The platform's administrators that can be written to: admin operators whose login is an e-mail address, not removed. */
export async function administratorOperatorEmails(db: D1Database): Promise<{ email: string; lang: 'zh' | 'en' }[]> {
  const { results } = await db
    .prepare("SELECT login AS email, lang FROM operators WHERE role = 'admin' AND removed_at IS NULL AND login LIKE '_%@_%' ORDER BY created_at")
    .all<{ email: string; lang: 'zh' | 'en' }>();
  return results;
}

export async function findOperatorById(db: D1Database, id: string): Promise<OperatorRow | null> {
  return db.prepare('SELECT * FROM operators WHERE id = ? AND removed_at IS NULL').bind(id).first<OperatorRow>();
}

/** The INSERT of a new operator (the command line runs the same SQL through wrangler). */
export function insertOperatorStatement(
  db: D1Database,
  operator: { id: string; login: string; name: string; role: OperatorRole; lang: 'zh' | 'en'; password: StoredPassword; totpSecretEnc: string | null; at: number },
): D1PreparedStatement {
  const { id, password, at } = operator;
  return db
    .prepare(
      `INSERT INTO operators (id, login, name, role, lang, password_hash, password_salt, password_algo, password_params, totp_secret_enc, created_at, enrolled_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      id,
      operator.login,
      operator.name,
      operator.role,
      operator.lang,
      password.hash,
      password.salt,
      password.algo,
      password.params,
      operator.totpSecretEnc,
      at,
      at,
    );
}

/** Every operator, removed ones last, with how many passkeys each has. */
export async function operatorsWithPasskeyCounts(db: D1Database): Promise<(OperatorRow & { passkeys: number })[]> {
  const { results } = await db
    .prepare(
      `SELECT o.*, (SELECT COUNT(*) FROM operator_passkeys p WHERE p.operator_id = o.id) AS passkeys
       FROM operators o ORDER BY o.removed_at IS NOT NULL, o.login`,
    )
    .all<OperatorRow & { passkeys: number }>();
  return results;
}

// ---------------------------------------------------------------------------------------------------------
// Enrolment links
// ---------------------------------------------------------------------------------------------------------

export interface EnrolmentRow {
  operator_id: string;
  login: string;
  name: string;
  pending_secret_enc: string | null;
}

/** A link that may still be used: unused, unexpired, fewer than `maxTries` tries, for an operator not removed. */
export async function liveEnrolmentRow(db: D1Database, hash: string, at: number, maxTries: number): Promise<EnrolmentRow | null> {
  return db
    .prepare(
      `SELECT e.operator_id, o.login, o.name, e.pending_secret_enc FROM operator_enrolments e JOIN operators o ON o.id = e.operator_id
       WHERE e.token_hash = ?1 AND e.used_at IS NULL AND e.expires_at > ?2 AND e.tries < ?3 AND o.removed_at IS NULL`,
    )
    .bind(hash, at, maxTries)
    .first<EnrolmentRow>();
}

/** Stores a new pending TOTP secret on a link still unused and unexpired; false when the link is dead. */
export async function savePendingSecret(db: D1Database, hash: string, sealed: string, at: number): Promise<boolean> {
  const saved = await db.prepare('UPDATE operator_enrolments SET pending_secret_enc = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?')
    .bind(sealed, hash, at)
    .run();
  return saved.meta.changes === 1;
}

/**
 * Sets the operator's password and TOTP secret, only when the statement just before it in the batch (the link's
 * claim) changed exactly one row.
 */
export function enrolIfClaimedStatement(
  db: D1Database,
  enrolment: { operatorId: string; password: StoredPassword; totpSecretEnc: string | null; step: number; at: number },
): D1PreparedStatement {
  const { password } = enrolment;
  return db
    .prepare(
      `UPDATE operators SET password_hash = ?, password_salt = ?, password_algo = ?, password_params = ?, totp_secret_enc = ?,
           totp_last_step = ?, enrolled_at = ? WHERE id = ? AND removed_at IS NULL AND changes() = 1`,
    )
    .bind(password.hash, password.salt, password.algo, password.params, enrolment.totpSecretEnc, enrolment.step, enrolment.at, enrolment.operatorId);
}

// ---------------------------------------------------------------------------------------------------------
// Operator passkeys
// ---------------------------------------------------------------------------------------------------------

export interface OperatorPasskeyRow {
  id: string;
  operator_id: string;
  public_key: string;
  counter: number;
  transports: string;
}

export async function operatorPasskeysOf(db: D1Database, operatorId: string): Promise<OperatorPasskeyRow[]> {
  return (await db.prepare('SELECT * FROM operator_passkeys WHERE operator_id = ?').bind(operatorId).all<OperatorPasskeyRow>()).results;
}

export async function passkeyCountOf(db: D1Database, operatorId: string): Promise<number> {
  const passkeys = await db.prepare('SELECT COUNT(*) AS n FROM operator_passkeys WHERE operator_id = ?').bind(operatorId).first<{ n: number }>();
  return passkeys?.n ?? 0;
}

export async function operatorPasskey(db: D1Database, id: string, operatorId: string): Promise<OperatorPasskeyRow | null> {
  return db.prepare('SELECT * FROM operator_passkeys WHERE id = ? AND operator_id = ?').bind(id, operatorId).first<OperatorPasskeyRow>();
}

/** The INSERT of a passkey, made only while the operator has fewer than `max`. */
export function insertOperatorPasskeyStatement(
  db: D1Database,
  passkey: { id: string; operatorId: string; publicKey: string; counter: number; transports: string; at: number },
  max: number,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO operator_passkeys (id, operator_id, public_key, counter, transports, created_at)
           SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE (SELECT COUNT(*) FROM operator_passkeys WHERE operator_id = ?2) < ?7`,
    )
    .bind(passkey.id, passkey.operatorId, passkey.publicKey, passkey.counter, passkey.transports, passkey.at, max);
}

/**
 * Records a use with the authenticator's new counter, only if it rose (or both are 0: an authenticator without
 * a counter); null when it did not, which may mean a copied credential.
 */
export async function advancePasskeyCounter(db: D1Database, id: string, counter: number, at: number) {
  return db
    .prepare('UPDATE operator_passkeys SET counter = ?1, last_used_at = ?2 WHERE id = ?3 AND (counter < ?1 OR (counter = 0 AND ?1 = 0)) RETURNING id')
    .bind(counter, at, id)
    .first();
}

/** Local runs only (a dev operator's authenticator app, operators/sign-in.ts devOperatorTotpSecret). */
export async function setOperatorTotpSecret(db: D1Database, operatorId: string, sealed: string): Promise<void> {
  await db.prepare('UPDATE operators SET totp_secret_enc = ? WHERE id = ? AND totp_secret_enc IS NULL').bind(sealed, operatorId).run();
}
