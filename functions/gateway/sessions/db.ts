import type { AuditActorKind } from '../audit/db';
import type { Also } from '../identity/db/single-use';

/** A condition for the session INSERT (identity/db/sessions.ts `unless`): a blocked or erased person gets no session. */
export const userBlocked = (userId: string): Also => ({ sql: 'SELECT 1 FROM users WHERE id = ? AND (blocked_at IS NOT NULL OR erased_at IS NOT NULL)', binds: [userId] });

/** The company a session works in (the company switcher), acting for no one; the session stays otherwise as it is. */
export async function setSessionCompany(db: D1Database, hash: string, companyId: string): Promise<void> {
  await db.prepare('UPDATE sessions SET current_company_id = ?, acting_grant_id = NULL WHERE token_hash = ?').bind(companyId, hash).run();
}

/** The session stops acting under a grant (it ended); its company stays its own. */
export async function endSessionActing(db: D1Database, hash: string): Promise<void> {
  await db.prepare('UPDATE sessions SET acting_grant_id = NULL WHERE token_hash = ?').bind(hash).run();
}

/** The session acts under a grant: its company is the grant's agent company. */
export async function setSessionActing(db: D1Database, hash: string, agentCompanyId: string, grantId: string): Promise<void> {
  await db.prepare('UPDATE sessions SET current_company_id = ?, acting_grant_id = ? WHERE token_hash = ?').bind(agentCompanyId, grantId, hash).run();
}

export interface OwnAuditRow {
  created_at: number;
  action: string;
  actor_kind: AuditActorKind;
  actor_id: string | null;
  network: string | null;
}

/** Audit rows where the person is the target or the actor, newest first, at most `limit`. */
export async function ownAuditRows(db: D1Database, userId: string, limit: number): Promise<OwnAuditRow[]> {
  const { results } = await db
    .prepare(
      `SELECT created_at, action, actor_kind, actor_id, network FROM audit_log
       WHERE (target_kind = 'user' AND target_id = ?1) OR (actor_kind = 'user' AND actor_id = ?1)
       ORDER BY id DESC LIMIT ?2`,
    )
    .bind(userId, limit)
    .all<OwnAuditRow>();
  return results;
}
