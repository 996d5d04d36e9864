import { consumeStatement, countTry, SINGLE_USE } from '../identity/db/single-use';

/**
 * The SQL of support "view as" (issue 44): support codes and approvals (kinds of identity/db/single-use.ts), the
 * marks on the session row, and the lists of the operators' console. The rules are in service.ts.
 */

/** Ends the person's earlier codes and keeps the new one (one batch: only the latest code is ever live). */
export function insertSupportCodeStatements(db: D1Database, row: { userId: string; codeHash: string; at: number; expiresAt: number }): D1PreparedStatement[] {
  return [
    db.prepare('UPDATE support_codes SET used_at = ?2 WHERE user_id = ?1 AND used_at IS NULL').bind(row.userId, row.at),
    db.prepare('INSERT INTO support_codes (user_id, code_hash, created_at, expires_at) VALUES (?, ?, ?, ?)').bind(row.userId, row.codeHash, row.at, row.expiresAt),
  ];
}

/**
 * Counts a try on the person's latest live code before it is compared: its id and hash while it is unused,
 * unexpired and under `maxTries`; null otherwise (no code, an old one, spent, expired or out of tries).
 */
export function countSupportCodeTry(db: D1Database, userId: string, at: number, maxTries: number) {
  return countTry<{ id: number; code_hash: string; tries: number }>(db, SINGLE_USE.supportCode, { user_id: userId }, at, maxTries, {
    returning: 'id, code_hash, tries',
    also: { sql: 'id = (SELECT MAX(id) FROM support_codes WHERE user_id = ?)', binds: [userId] },
  });
}

/** Spends the code (the race contract of single-use.ts: of parallel spends one gets the row). */
export const spendSupportCodeStatement = (db: D1Database, id: number, codeHash: string, at: number) =>
  consumeStatement(db, SINGLE_USE.supportCode, { id, code_hash: codeHash }, at, { returning: 'id' });

/** Spends an approval, approved by a second operator, for the operator who asked and the person it names. */
export const spendApprovalStatement = (db: D1Database, id: string, userId: string, operatorId: string, at: number) =>
  consumeStatement(db, SINGLE_USE.supportApproval, { id, user_id: userId, requested_by: operatorId }, at, {
    returning: 'id, reason',
    also: { sql: 'approved_by IS NOT NULL', binds: [] },
  });

/** Whether a live operator signs in with the account's e-mail: such an account is no person's to view. */
export async function isOperatorsAccount(db: D1Database, email: string | null): Promise<boolean> {
  if (!email) return false;
  const row = await db.prepare('SELECT 1 AS found FROM operators WHERE login = ? AND removed_at IS NULL').bind(email.trim().toLowerCase()).first<{ found: number }>();
  return row !== null;
}

/** The companies the person is an active member of (their administrators see the view in the company's trail). */
export async function activeCompaniesOf(db: D1Database, userId: string): Promise<string[]> {
  const { results } = await db.prepare("SELECT company_id FROM company_members WHERE user_id = ? AND status = 'active' ORDER BY joined_at").bind(userId).all<{ company_id: string }>();
  return results.map((row) => row.company_id);
}

export function insertApprovalStatement(db: D1Database, row: { id: string; userId: string; operatorId: string; reason: string; at: number; expiresAt: number }): D1PreparedStatement {
  return db
    .prepare('INSERT INTO support_approvals (id, user_id, requested_by, reason, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
    .bind(row.id, row.userId, row.operatorId, row.reason, row.at, row.expiresAt);
}

/**
 * Approves a request: only one not approved yet, not expired, asked by another operator than `adminId` (the
 * table's CHECK says so too); the approval then lives `lifetimeMs`. Returns the request, or null.
 */
export function approveStatement(db: D1Database, id: string, adminId: string, at: number, lifetimeMs: number): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE support_approvals SET approved_by = ?2, approved_at = ?3, expires_at = ?3 + ?4
       WHERE id = ?1 AND approved_by IS NULL AND used_at IS NULL AND expires_at > ?3 AND requested_by <> ?2
       RETURNING user_id, requested_by, reason`,
    )
    .bind(id, adminId, at, lifetimeMs);
}

/** Why an approval could not be approved: unknown, or asked by this very operator. */
export const approvalRow = (db: D1Database, id: string) =>
  db.prepare('SELECT requested_by FROM support_approvals WHERE id = ?').bind(id).first<{ requested_by: string }>();

export interface LiveView {
  public_id: string;
  user_id: string;
  real_name: string;
  login_name: string;
  support_operator_id: string;
  operator_name: string;
  support_reason: string | null;
  support_writable: number;
  created_at: number;
  expires_at: number;
}

const LIVE_VIEW_COLUMNS = `s.public_id, s.user_id, u.real_name, u.login_name, s.support_operator_id, o.name AS operator_name, s.support_reason,
  s.support_writable, s.created_at, s.expires_at`;

/** The live support views, newest first. */
export async function liveViews(db: D1Database, at: number): Promise<LiveView[]> {
  const { results } = await db
    .prepare(
      `SELECT ${LIVE_VIEW_COLUMNS} FROM sessions s JOIN users u ON u.id = s.user_id JOIN operators o ON o.id = s.support_operator_id
       WHERE s.support_operator_id IS NOT NULL AND s.revoked_at IS NULL AND s.expires_at > ?1 ORDER BY s.created_at DESC LIMIT 100`,
    )
    .bind(at)
    .all<LiveView>();
  return results;
}

export interface ApprovalListRow {
  id: string;
  user_id: string;
  real_name: string;
  login_name: string;
  requested_by: string;
  requester_name: string;
  reason: string;
  approved_by: string | null;
  created_at: number;
  expires_at: number;
}

/** Requests not used and not expired, newest first. */
export async function openApprovals(db: D1Database, at: number): Promise<ApprovalListRow[]> {
  const { results } = await db
    .prepare(
      `SELECT a.id, a.user_id, u.real_name, u.login_name, a.requested_by, o.name AS requester_name, a.reason, a.approved_by, a.created_at, a.expires_at
       FROM support_approvals a JOIN users u ON u.id = a.user_id JOIN operators o ON o.id = a.requested_by
       WHERE a.used_at IS NULL AND a.expires_at > ?1 ORDER BY a.created_at DESC LIMIT 100`,
    )
    .bind(at)
    .all<ApprovalListRow>();
  return results;
}

/**
 * Allows changes in a live view: only by an operator who is not the one viewing. Returns the session's person,
 * operator and reason, or null (ended, unknown, or the viewing operator asking).
 */
export function allowWritesStatement(db: D1Database, publicId: string, adminId: string, at: number): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE sessions SET support_writable = 1, support_write_granted_by = ?2
       WHERE public_id = ?1 AND support_operator_id IS NOT NULL AND support_operator_id <> ?2
         AND revoked_at IS NULL AND expires_at > ?3
       RETURNING user_id, support_operator_id`,
    )
    .bind(publicId, adminId, at);
}

/** A view by its public id (live or not), for the answer's reason of a refusal and for ending it. */
export const viewByPublicId = (db: D1Database, publicId: string) =>
  db
    .prepare('SELECT token_hash, user_id, public_id, support_operator_id, revoked_at, expires_at FROM sessions WHERE public_id = ? AND support_operator_id IS NOT NULL')
    .bind(publicId)
    .first<{ token_hash: string; user_id: string; public_id: string; support_operator_id: string; revoked_at: number | null; expires_at: number }>();

/** The live views of one person (their own Security section lists them, with End), newest first. */
export async function liveViewsOf(db: D1Database, userId: string, at: number) {
  const { results } = await db
    .prepare(
      `SELECT s.public_id, o.name AS operator_name, s.expires_at FROM sessions s JOIN operators o ON o.id = s.support_operator_id
       WHERE s.user_id = ?1 AND s.support_operator_id IS NOT NULL AND s.revoked_at IS NULL AND s.expires_at > ?2 ORDER BY s.created_at DESC LIMIT 20`,
    )
    .bind(userId, at)
    .all<{ public_id: string; operator_name: string; expires_at: number }>();
  return results;
}

/** The operator's name for the banner. */
export const operatorNameOf = (db: D1Database, operatorId: string) =>
  db.prepare('SELECT name FROM operators WHERE id = ?').bind(operatorId).first<{ name: string }>();

/** Views past their end that nothing ended yet (the cron ends them and tells the person). */
export async function runOutViews(db: D1Database, at: number) {
  const { results } = await db
    .prepare('SELECT token_hash, user_id, public_id, support_operator_id FROM sessions WHERE support_operator_id IS NOT NULL AND revoked_at IS NULL AND expires_at <= ?1 LIMIT 200')
    .bind(at)
    .all<{ token_hash: string; user_id: string; public_id: string; support_operator_id: string }>();
  return results;
}
