import type { UserRow } from '../identity/db/people';

// The statements of people support (people/service.ts). Every change is conditional on the state it changes,
// so a repeat or the loser of parallel attempts changes no row; actOnce reads that from changes().

const inList = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/**
 * People whose phone, e-mail, user ID (`id` or `us_id`) equals `term`, or whose name starts with it; newest first.
 * `digits` is a typed phone's digits (matched with '+' and with '+86'), or null.
 */
export async function searchUsers(db: D1Database, q: { term: string; digits: string | null; limit: number; offset: number }): Promise<UserRow[]> {
  const { results } = await db
    .prepare(
      `SELECT * FROM users
       WHERE id = ?1 OR us_id = ?1 OR email = lower(?1) OR phone_e164 IN ('+' || ?2, '+86' || ?2)
          OR (real_name >= ?1 AND real_name < ?1 || char(1114111))
          OR (login_name >= ?1 AND login_name < ?1 || char(1114111))
       ORDER BY created_at DESC, id DESC LIMIT ?3 OFFSET ?4`,
    )
    .bind(q.term, q.digits, q.limit, q.offset)
    .all<UserRow>();
  return results;
}

/** Password failures of `subjects` updated after `since`, summed per network, most recent first (at most 50). */
export async function failuresByNetwork(
  db: D1Database,
  subjects: readonly string[],
  since: number,
): Promise<{ network: string; failures: number; lockedUntil: number | null }[]> {
  const { results } = await db
    .prepare(
      `SELECT network, SUM(failures) AS failures, MAX(locked_until) AS lockedUntil FROM password_failures
         WHERE subject IN (${inList(subjects)}) AND updated_at > ? GROUP BY network ORDER BY MAX(updated_at) DESC LIMIT 50`,
    )
    .bind(...subjects, since)
    .all<{ network: string; failures: number; lockedUntil: number | null }>();
  return results;
}

export function clearFailuresStatement(db: D1Database, subjects: readonly string[]): D1PreparedStatement {
  return db.prepare(`DELETE FROM password_failures WHERE subject IN (${inList(subjects)})`).bind(...subjects);
}

export function resetTwoStepStatement(db: D1Database, userId: string): D1PreparedStatement {
  return db.prepare('DELETE FROM two_step WHERE user_id = ? AND enabled_at IS NOT NULL').bind(userId);
}

/** Deletes the person's passkeys only when the statement just before it in the batch changed a row. */
export function deletePasskeysIfChangedStatement(db: D1Database, userId: string): D1PreparedStatement {
  return db.prepare('DELETE FROM passkeys WHERE user_id = ? AND changes() > 0').bind(userId);
}

export function deleteSecondStepChallengesStatement(db: D1Database, userId: string): D1PreparedStatement {
  return db.prepare('DELETE FROM second_step_challenges WHERE user_id = ?').bind(userId);
}

export function blockStatement(db: D1Database, userId: string, at: number): D1PreparedStatement {
  return db.prepare('UPDATE users SET blocked_at = ? WHERE id = ? AND blocked_at IS NULL').bind(at, userId);
}

export function unblockStatement(db: D1Database, userId: string): D1PreparedStatement {
  return db.prepare('UPDATE users SET blocked_at = NULL WHERE id = ? AND blocked_at IS NOT NULL').bind(userId);
}

export async function activeAdministratorOf(db: D1Database, companyId: string): Promise<{ user_id: string } | null> {
  return db
    .prepare("SELECT user_id FROM company_members WHERE company_id = ? AND role = 'administrator' AND status = 'active'")
    .bind(companyId)
    .first<{ user_id: string }>();
}

/**
 * One UPDATE that swaps both rows or neither: `to` (an active staff member) becomes the administrator and `from`
 * (still the active administrator) leaves as 'rejected' staff, no longer main.
 */
/**
 * The administrator swap of people/service.ts transferAdministrator; it also refuses a company whose administrator
 * was transferred after `settledSince` (its audit row, written in the same batch as the swap).
 */
export function transferAdministratorStatement(db: D1Database, companyId: string, from: string, to: string, settledSince: number): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE company_members
       SET role = CASE WHEN user_id = ?3 THEN 'administrator' ELSE 'staff' END,
           status = CASE WHEN user_id = ?3 THEN 'active' ELSE 'rejected' END,
           is_main = CASE WHEN user_id = ?3 THEN is_main ELSE 0 END
       WHERE company_id = ?1 AND user_id IN (?2, ?3)
         AND EXISTS (SELECT 1 FROM company_members WHERE company_id = ?1 AND user_id = ?2 AND role = 'administrator' AND status = 'active')
         AND EXISTS (SELECT 1 FROM company_members WHERE company_id = ?1 AND user_id = ?3 AND role = 'staff' AND status = 'active')
         AND NOT EXISTS (SELECT 1 FROM audit_log WHERE target_kind = 'company' AND target_id = ?1
                           AND action = 'company.administrator_transferred' AND created_at > ?4)`,
    )
    .bind(companyId, from, to, settledSince);
}

export { requirePasswordChangeStatement } from '../identity/db/people';
