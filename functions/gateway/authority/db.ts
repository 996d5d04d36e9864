/**
 * The rows and SQL that decide who may act for a company (authority/service.ts is the one place that judges
 * them). A db file that must decide within its own statement, so that a check and its write cannot be split by
 * a parallel change, takes its condition from here: `mayManageSql`.
 */

export interface MemberRow {
  company_id: string;
  user_id: string;
  role: 'administrator' | 'staff';
  status: 'pending' | 'active' | 'rejected';
  is_main: 0 | 1;
  joined_at: number;
  nick_name: string | null;
  personal_email: string | null;
  contact_phone: string | null;
  hire_time: string | null;
}

/** A user's membership of a company, with the company's own columns. */
export interface MembershipRow {
  company_id: string;
  name_en: string;
  name_cn: string | null;
  type: string;
  company_status: string;
  role: 'administrator' | 'staff';
  member_status: string;
  is_main: 0 | 1;
  joined_at: number;
  review_reason: string | null;
  review_note: string | null;
  reviewed_at: number | null;
  /** 1 when the company requires two-step and the person has it not on (authority/service.ts decides with it). */
  two_step_missing: 0 | 1;
}

/**
 * 1 when the company (of `company`, an SQL expression) requires two-step and the person (of `user`) has it
 * not on, else 0: the one SQL form of the company two-step rule.
 */
export const twoStepMissing = (company: string, user: string) =>
  `(CASE WHEN EXISTS (SELECT 1 FROM companies rq WHERE rq.id = ${company} AND rq.require_two_step = 1)
              AND NOT EXISTS (SELECT 1 FROM two_step ts WHERE ts.user_id = ${user} AND ts.enabled_at IS NOT NULL)
         THEN 1 ELSE 0 END)`;

/**
 * SQL, true when the person (of `user`) may manage the company (of `company`): its active administrator, not kept
 * out by the company's two-step rule. The same rule as companyAuthority(…, 'manage'), for a write that must
 * check it in its own statement.
 */
export const mayManageSql = (company: string, user: string) =>
  `EXISTS (SELECT 1 FROM company_members am WHERE am.company_id = ${company} AND am.user_id = ${user}
             AND am.role = 'administrator' AND am.status = 'active' AND ${twoStepMissing('am.company_id', 'am.user_id')} = 0)`;

export async function memberOf(db: D1Database, companyId: string, userId: string): Promise<MemberRow | null> {
  return db.prepare('SELECT * FROM company_members WHERE company_id = ? AND user_id = ?').bind(companyId, userId).first<MemberRow>();
}

/** The person's membership of the company with the two-step rule's verdict, read in one statement. */
export async function memberWithRule(db: D1Database, companyId: string, userId: string): Promise<(MemberRow & { two_step_missing: 0 | 1 }) | null> {
  return db
    .prepare(`SELECT m.*, ${twoStepMissing('m.company_id', 'm.user_id')} AS two_step_missing FROM company_members m WHERE m.company_id = ? AND m.user_id = ?`)
    .bind(companyId, userId)
    .first<MemberRow & { two_step_missing: 0 | 1 }>();
}
