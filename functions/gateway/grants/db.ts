import { mayManageSql, type Asker } from '../authority/db';
import { auditStatement, type AuditEntry } from '../audit/db';
import { emitEvent } from '../events/db';
import type { GrantLevel } from '../../../src/schemas/grants';

/**
 * The SQL of grants between companies (migrations/0410). Each change is one conditional statement that also
 * checks who may make it (authority/db.ts mayManageSql) and the grant's state, so parallel answers cannot both
 * pass: twenty accepts of one request make one grant. Its audit rows, one for each company's trail, are written
 * only when it changed a row.
 */

export interface GrantRow {
  id: string;
  principal_company_id: string;
  agent_company_id: string;
  vessels: string;
  ports: string;
  modules: string;
  level: GrantLevel;
  starts_at: number;
  ends_at: number;
  status: 'pending' | 'active' | 'revoked' | 'declined';
  started_by: 'principal' | 'agent';
  created_by: string;
  created_at: number;
  answered_at: number | null;
  ended_at: number | null;
}

export interface GrantListRow extends GrantRow {
  principal_name_en: string;
  principal_name_cn: string | null;
  agent_name_en: string;
  agent_name_cn: string | null;
  agent_type: string;
}

type Audit = Omit<AuditEntry, 'target' | 'action'>;

/**
 * Both companies' audit rows of a grant's change, and (but for a daily use) the `grant.*` event for each
 * company's webhooks: each written only when the statement before it was, so only when the change was.
 */
function bothTrails(db: D1Database, grant: Pick<GrantRow, 'id' | 'principal_company_id' | 'agent_company_id'>, action: AuditEntry['action'], audit: Audit): D1PreparedStatement[] {
  const detail = { ...audit.detail, grant: grant.id, principal: grant.principal_company_id, agent: grant.agent_company_id };
  const event = (companyId: string) =>
    emitEvent(db, { type: action as `grant.${string}`, at: audit.at, companyId, data: { grantId: grant.id, principalCompanyId: grant.principal_company_id, agentCompanyId: grant.agent_company_id } }, { ifChanged: true });
  return [
    auditStatement(db, { ...audit, action, target: { kind: 'company', id: grant.principal_company_id }, detail }, { ifChanged: true }),
    auditStatement(db, { ...audit, action, target: { kind: 'company', id: grant.agent_company_id }, detail }, { ifChanged: true }),
    ...(action === 'grant.used' ? [] : [event(grant.principal_company_id), event(grant.agent_company_id)]),
  ];
}

/**
 * A new grant, asked for by the administrator (`audit.actor`) of the side that starts it, who must still manage
 * that company as the row is written. An agent's request is active at once when the principal accepts this agent
 * automatically; anything else waits for the other side.
 */
export function insertGrantStatements(db: D1Database, grant: Omit<GrantRow, 'status' | 'answered_at' | 'ended_at'>, audit: Audit, mfaCompanyId: string | null): D1PreparedStatement[] {
  const starter = grant.started_by === 'principal' ? '?2' : '?3';
  return [
    db
      .prepare(
        `INSERT INTO company_grants (id, principal_company_id, agent_company_id, vessels, ports, modules, level, starts_at, ends_at, status, started_by, created_by, created_at, answered_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,
           CASE WHEN ?10 = 'agent' AND EXISTS (SELECT 1 FROM grant_auto_accept WHERE principal_company_id = ?2 AND agent_company_id = ?3) THEN 'active' ELSE 'pending' END,
           ?10, ?11, ?12,
           CASE WHEN ?10 = 'agent' AND EXISTS (SELECT 1 FROM grant_auto_accept WHERE principal_company_id = ?2 AND agent_company_id = ?3) THEN ?12 END
         WHERE ${mayManageSql(starter, '?11', '?13')}`,
      )
      .bind(grant.id, grant.principal_company_id, grant.agent_company_id, grant.vessels, grant.ports, grant.modules, grant.level, grant.starts_at, grant.ends_at, grant.started_by, grant.created_by, grant.created_at, mfaCompanyId),
    ...bothTrails(db, grant, 'grant.requested', audit),
  ];
}

export const grantById = (db: D1Database, id: string) => db.prepare('SELECT * FROM company_grants WHERE id = ?').bind(id).first<GrantRow>();

/**
 * Answers a pending request, by an administrator of the side that did not start it (?3 their company, ?4 them):
 * 'active' to accept, 'declined' to decline. Changes nothing once answered or ended.
 */
export function answerGrantStatements(db: D1Database, grant: GrantRow, answer: 'active' | 'declined', byCompany: string, audit: Audit, mfaCompanyId: string | null): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `UPDATE company_grants SET status = ?2, answered_by = ?4, answered_at = ?5
         WHERE id = ?1 AND status = 'pending'
           AND ?3 = CASE started_by WHEN 'principal' THEN agent_company_id ELSE principal_company_id END
           AND ${mayManageSql('?3', '?4', '?6')}`,
      )
      .bind(grant.id, answer, byCompany, audit.actor.id, audit.at, mfaCompanyId),
    ...bothTrails(db, grant, answer === 'active' ? 'grant.accepted' : 'grant.declined', audit),
  ];
}

/** Ends a pending or active grant, by an administrator of either side (?2 their company, ?3 them). */
export function revokeGrantStatements(db: D1Database, grant: GrantRow, byCompany: string, audit: Audit, mfaCompanyId: string | null): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `UPDATE company_grants SET status = 'revoked', ended_by = ?3, ended_at = ?4
         WHERE id = ?1 AND status IN ('pending', 'active') AND ?2 IN (principal_company_id, agent_company_id) AND ${mayManageSql('?2', '?3', '?5')}`,
      )
      .bind(grant.id, byCompany, audit.actor.id, audit.at, mfaCompanyId),
    ...bothTrails(db, grant, 'grant.revoked', audit),
  ];
}

/** Every grant of the company, either side, newest first, with both companies' names. */
export async function grantsOfCompany(db: D1Database, companyId: string): Promise<GrantListRow[]> {
  const { results } = await db
    .prepare(
      `SELECT g.*, p.name_en AS principal_name_en, p.name_cn AS principal_name_cn, a.name_en AS agent_name_en, a.name_cn AS agent_name_cn, a.type AS agent_type
       FROM company_grants g JOIN companies p ON p.id = g.principal_company_id JOIN companies a ON a.id = g.agent_company_id
       WHERE g.principal_company_id = ?1 OR g.agent_company_id = ?1
       ORDER BY g.created_at DESC, g.id`,
    )
    .bind(companyId)
    .all<GrantListRow>();
  return results;
}

export async function autoAcceptedAgents(db: D1Database, principalId: string): Promise<string[]> {
  const { results } = await db.prepare('SELECT agent_company_id FROM grant_auto_accept WHERE principal_company_id = ? ORDER BY created_at').bind(principalId).all<{ agent_company_id: string }>();
  return results.map((row) => row.agent_company_id);
}

/** Turns "accept from this company automatically" on or off, by an administrator of the principal (checked in the statement). */
export function setAutoAcceptStatement(db: D1Database, principalId: string, agentId: string, on: boolean, asker: Asker, at: number): D1PreparedStatement {
  return on
    ? db
        .prepare(`INSERT OR IGNORE INTO grant_auto_accept (principal_company_id, agent_company_id, created_by, created_at) SELECT ?1, ?2, ?3, ?4 WHERE ${mayManageSql('?1', '?3', '?5')} AND ?1 <> ?2`)
        .bind(principalId, agentId, asker.userId, at, asker.mfaCompanyId)
    : db.prepare(`DELETE FROM grant_auto_accept WHERE principal_company_id = ?1 AND agent_company_id = ?2 AND ${mayManageSql('?1', '?3', '?4')}`).bind(principalId, agentId, asker.userId, asker.mfaCompanyId);
}

/**
 * The first use of a grant by a person on a day: a row, and both companies' audit rows only when it is new.
 */
export function grantUseStatements(db: D1Database, grant: Pick<GrantRow, 'id' | 'principal_company_id' | 'agent_company_id'>, userId: string, day: string, audit: Audit): D1PreparedStatement[] {
  return [
    db.prepare('INSERT OR IGNORE INTO grant_uses (grant_id, user_id, day) VALUES (?, ?, ?)').bind(grant.id, userId, day),
    ...bothTrails(db, grant, 'grant.used', audit),
  ];
}

/** Verified companies whose name (either language) has this key, for naming the other side of a grant. */
export async function verifiedCompaniesNamed(db: D1Database, nameKey: string, nameCn: string): Promise<{ id: string; name_en: string; name_cn: string | null; type: string }[]> {
  const { results } = await db
    .prepare(`SELECT id, name_en, name_cn, type FROM companies WHERE status IN ('active', 'verified') AND (name_key = ?1 OR name_cn = ?2) ORDER BY name_en LIMIT 5`)
    .bind(nameKey, nameCn)
    .all<{ id: string; name_en: string; name_cn: string | null; type: string }>();
  return results;
}

/** The platform's suspension of a company's grants (both directions), with the reason; null lifts it. */
/**
 * Suspends the company's grants as part of a block (issue 42, review/db.ts applyDecision): only when the block's
 * UPDATE won (the row carries its write id) and the grants are not suspended already, so its audit row (batched
 * right after, ifChanged) is written once.
 */
export function suspendGrantsWithBlockStatement(db: D1Database, companyId: string, writeId: string, suspended: { at: number; reason: string }): D1PreparedStatement {
  return db
    .prepare('UPDATE companies SET grants_suspended_at = ?3, grants_suspended_reason = ?4 WHERE id = ?1 AND write_id = ?2 AND grants_suspended_at IS NULL')
    .bind(companyId, writeId, suspended.at, suspended.reason);
}

export function suspendGrantsStatement(db: D1Database, companyId: string, suspended: { at: number; reason: string } | null): D1PreparedStatement {
  return db.prepare('UPDATE companies SET grants_suspended_at = ?2, grants_suspended_reason = ?3 WHERE id = ?1').bind(companyId, suspended?.at ?? null, suspended?.reason ?? null);
}

/** The e-mail addresses of a company's active administrators (a grant's change is told to the other side by e-mail). */
export async function administratorEmails(db: D1Database, companyId: string): Promise<string[]> {
  const { results } = await db
    .prepare(`SELECT u.email FROM company_members m JOIN users u ON u.id = m.user_id WHERE m.company_id = ? AND m.role = 'administrator' AND m.status = 'active' AND u.email IS NOT NULL`)
    .bind(companyId)
    .all<{ email: string }>();
  return results.map((row) => row.email);
}
