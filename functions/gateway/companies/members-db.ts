import { mayManageSql } from '../authority/db';
import type { MemberRole } from '../../../src/schemas/onboarding';
import type { AuditedAction } from '../../../src/schemas/ops-people';
import { auditStatement } from '../audit/db';
import { emitEvent } from '../events/db';

/**
 * What a company's administrators change about its members (migration 0160): role, removal, module grants.
 * Each change is ONE conditional statement that also checks, in the same statement, that the actor is still an
 * active administrator of the company, so two administrators acting at once cannot both pass a check made
 * before the write. Its audit row follows in the same batch and is written only when the change happened.
 */

/** Who changes what: the actor's membership is checked inside each statement. */
export interface MemberChange {
  companyId: string;
  actorId: string;
  /** The actor's session's company mfa (authority/db.ts Asker), for the two-step rule the write checks. */
  actorMfaCompanyId: string | null;
  userId: string;
  /** The client network, for the audit row. */
  network: string;
  now: number;
}

/** SQL: the actor (?2, their session's company mfa `mfa`) may manage the company (?1): authority/'s rule, checked by the write itself. */
const actorIsAdministrator = (mfa: string) => mayManageSql('?1', '?2', mfa);

/** SQL: the company (?1) has another active administrator than the member (?3). */
const ANOTHER_ADMINISTRATOR = `EXISTS (SELECT 1 FROM company_members
  WHERE company_id = ?1 AND user_id <> ?3 AND role = 'administrator' AND status = 'active')`;

const audited = (db: D1Database, change: MemberChange, action: AuditedAction, detail: Record<string, unknown>) =>
  auditStatement(
    db,
    {
      at: change.now,
      actor: { kind: 'user', id: change.actorId },
      action,
      target: { kind: 'company', id: change.companyId },
      network: change.network,
      detail: { userId: change.userId, ...detail },
    },
    { ifChanged: true },
  );

/**
 * Gives an active member the role. Changes nothing unless the actor is an administrator, the member is active
 * and has another role, and (for a demotion) the company keeps another active administrator: two parallel
 * demotions of a company's two administrators cannot both pass, as SQLite runs one statement at a time.
 */
export async function changeRole(db: D1Database, change: MemberChange, role: MemberRole): Promise<boolean> {
  const [updated] = await db.batch([
    db
      .prepare(
        `UPDATE company_members SET role = ?4
         WHERE company_id = ?1 AND user_id = ?3 AND status = 'active' AND role <> ?4
           AND ${actorIsAdministrator('?5')} AND (?4 = 'administrator' OR ${ANOTHER_ADMINISTRATOR})`,
      )
      .bind(change.companyId, change.actorId, change.userId, role, change.actorMfaCompanyId),
    audited(db, change, 'member.role_changed', { role }),
    // An administrator sees every module: grants made while staff no longer mean anything.
    db
      .prepare(
        `DELETE FROM member_modules WHERE company_id = ?1 AND user_id = ?2
         AND EXISTS (SELECT 1 FROM company_members WHERE company_id = ?1 AND user_id = ?2 AND role = 'administrator')`,
      )
      .bind(change.companyId, change.userId),
  ]);
  return Boolean(updated?.meta.changes);
}

/**
 * Removes a member (any status) with their grants, and ends their sessions that are in this company. The last
 * active administrator is never removed, not even by themselves.
 */
export async function removeMember(db: D1Database, change: MemberChange): Promise<boolean> {
  const gone = `NOT EXISTS (SELECT 1 FROM company_members WHERE company_id = ?1 AND user_id = ?2)`;
  const [deleted] = await db.batch([
    db
      .prepare(
        `DELETE FROM company_members
         WHERE company_id = ?1 AND user_id = ?3 AND ${actorIsAdministrator('?4')}
           AND (role = 'staff' OR status <> 'active' OR ${ANOTHER_ADMINISTRATOR})`,
      )
      .bind(change.companyId, change.actorId, change.userId, change.actorMfaCompanyId),
    audited(db, change, 'member.removed', {}),
    emitEvent(db, { type: 'member.removed', at: change.now, companyId: change.companyId, data: { companyId: change.companyId, userId: change.userId } }, { ifChanged: true }),
    // Both follow only a removal: while the membership stands they change nothing.
    db.prepare(`DELETE FROM member_modules WHERE company_id = ?1 AND user_id = ?2 AND ${gone}`).bind(change.companyId, change.userId),
    db
      .prepare(`UPDATE sessions SET revoked_at = ?3 WHERE user_id = ?2 AND current_company_id = ?1 AND revoked_at IS NULL AND ${gone}`)
      .bind(change.companyId, change.userId, change.now),
  ]);
  return Boolean(deleted?.meta.changes);
}

/**
 * Grants an active staff member one module, or withdraws it. A grant inserts only while the actor is an
 * administrator and the member active staff, and only once (the primary key); a withdrawal deletes only an
 * existing grant. False when nothing changed (the caller tells why).
 */
export async function setModuleGrant(db: D1Database, change: MemberChange, module: string, granted: boolean): Promise<boolean> {
  const statement = granted
    ? db
        .prepare(
          `INSERT INTO member_modules (company_id, user_id, module_key, granted_by, granted_at)
           SELECT ?1, ?3, ?4, ?2, ?5
           WHERE ${actorIsAdministrator('?6')}
             AND EXISTS (SELECT 1 FROM company_members WHERE company_id = ?1 AND user_id = ?3 AND role = 'staff' AND status = 'active')
           ON CONFLICT (company_id, user_id, module_key) DO NOTHING`,
        )
        .bind(change.companyId, change.actorId, change.userId, module, change.now, change.actorMfaCompanyId)
    : db
        .prepare(`DELETE FROM member_modules WHERE company_id = ?1 AND user_id = ?3 AND module_key = ?4 AND ${actorIsAdministrator('?5')}`)
        .bind(change.companyId, change.actorId, change.userId, module, change.actorMfaCompanyId);
  const [changed] = await db.batch([
    statement,
    audited(db, change, granted ? 'member.module_granted' : 'member.module_withdrawn', { module }),
    emitEvent(db, { type: 'member.modules_changed', at: change.now, companyId: change.companyId, data: { companyId: change.companyId, userId: change.userId, module, granted } }, { ifChanged: true }),
  ]);
  return Boolean(changed?.meta.changes);
}

/** Module keys granted per member of a company. */
export async function grantsOfCompany(db: D1Database, companyId: string): Promise<Map<string, string[]>> {
  const { results } = await db
    .prepare('SELECT user_id, module_key FROM member_modules WHERE company_id = ? ORDER BY granted_at, module_key')
    .bind(companyId)
    .all<{ user_id: string; module_key: string }>();
  const grants = new Map<string, string[]>();
  for (const row of results) grants.set(row.user_id, [...(grants.get(row.user_id) ?? []), row.module_key]);
  return grants;
}

/** Module keys granted to one member. */
export async function grantsOf(db: D1Database, companyId: string, userId: string): Promise<string[]> {
  const { results } = await db
    .prepare('SELECT module_key FROM member_modules WHERE company_id = ? AND user_id = ? ORDER BY granted_at, module_key')
    .bind(companyId, userId)
    .all<{ module_key: string }>();
  return results.map((row) => row.module_key);
}

/** The name of the company's first active administrator (the one who has been one longest), or null. */
export async function administratorName(db: D1Database, companyId: string): Promise<string | null> {
  const row = await db
    .prepare(
      `SELECT COALESCE(NULLIF(m.nick_name, ''), NULLIF(u.real_name, ''), NULLIF(u.login_name, '')) AS name
       FROM company_members m JOIN users u ON u.id = m.user_id
       WHERE m.company_id = ? AND m.role = 'administrator' AND m.status = 'active'
       ORDER BY m.joined_at, m.user_id LIMIT 1`,
    )
    .bind(companyId)
    .first<{ name: string | null }>();
  return row?.name ?? null;
}
