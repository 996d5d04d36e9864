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
  /** The company's "confirm new devices" rule (issue 44): its members owe the new-device challenge (devices/service.ts). */
  confirm_new_devices: 0 | 1;
  /** 1 when the company requires two-step and forbids trusted devices: no member's device skips a step (devices/service.ts). */
  trust_forbidden: 0 | 1;
}

/**
 * Who asks, for the company rules: the person, and the company whose own identity provider signed their session
 * in with a second factor (`amr` with `mfa` or `hwk`: sessions.provider_mfa_company_id, company-sso/federation.ts),
 * null for any other session or none. Every reader of the two-step rule passes it from the session of the call.
 */
export interface Asker {
  userId: string;
  mfaCompanyId: string | null;
}

/** The Asker of a call's session (a person's session row). */
export const askerOf = (session: { user_id: string; provider_mfa_company_id?: string | null }): Asker => ({ userId: session.user_id, mfaCompanyId: session.provider_mfa_company_id ?? null });

/** An Asker without a session (an OAuth token, a job): only enrolled factors count. */
export const sessionless = (userId: string): Asker => ({ userId, mfaCompanyId: null });

/**
 * 1 when the company (of `company`, an SQL expression) requires two-step and the person (of `user`) has it not on
 * and their session was not signed in through this company's own provider with a second factor (`mfaCompany`, an SQL
 * expression of the session's provider_mfa_company_id, NULL without one) while the company still has a provider
 * turned on, else 0: the one SQL form of the company two-step rule. Turning the company's providers off ends what
 * such sessions' second factor counts for at once.
 */
export const twoStepMissing = (company: string, user: string, mfaCompany: string) =>
  `(CASE WHEN EXISTS (SELECT 1 FROM companies rq WHERE rq.id = ${company} AND rq.require_two_step = 1)
              AND NOT EXISTS (SELECT 1 FROM two_step ts WHERE ts.user_id = ${user} AND ts.enabled_at IS NOT NULL)
              AND NOT (${company} IS ${mfaCompany}
                       AND EXISTS (SELECT 1 FROM company_sso_connections pc WHERE pc.company_id = ${company} AND pc.disabled_at IS NULL))
         THEN 1 ELSE 0 END)`;

/**
 * SQL, true when the person (of `user`) may manage the company (of `company`): its active administrator, not kept
 * out by the company's two-step rule (`mfaCompany` as for twoStepMissing). The same rule as companyAuthority(…,
 * 'manage'), for a write that must check it in its own statement.
 */
export const mayManageSql = (company: string, user: string, mfaCompany: string) =>
  `EXISTS (SELECT 1 FROM company_members am WHERE am.company_id = ${company} AND am.user_id = ${user}
             AND am.role = 'administrator' AND am.status = 'active' AND ${twoStepMissing('am.company_id', 'am.user_id', mfaCompany)} = 0)`;

export async function memberOf(db: D1Database, companyId: string, userId: string): Promise<MemberRow | null> {
  return db.prepare('SELECT * FROM company_members WHERE company_id = ? AND user_id = ?').bind(companyId, userId).first<MemberRow>();
}

/** The person's membership of the company with the two-step rule's verdict, read in one statement. */
export async function memberWithRule(db: D1Database, companyId: string, asker: Asker): Promise<(MemberRow & { two_step_missing: 0 | 1 }) | null> {
  return db
    .prepare(`SELECT m.*, ${twoStepMissing('m.company_id', 'm.user_id', '?3')} AS two_step_missing FROM company_members m WHERE m.company_id = ?1 AND m.user_id = ?2`)
    .bind(companyId, asker.userId, asker.mfaCompanyId)
    .first<MemberRow & { two_step_missing: 0 | 1 }>();
}

/** A grant between companies with what decides, now, whether a person of its agent company may act under it. */
export interface GrantStandingRow {
  id: string;
  principal_company_id: string;
  agent_company_id: string;
  vessels: string;
  ports: string;
  modules: string;
  level: 'read' | 'act';
  starts_at: number;
  ends_at: number;
  status: string;
  principal_status: string;
  principal_suspended_at: number | null;
  principal_name_en: string;
  principal_name_cn: string | null;
  agent_status: string;
  agent_suspended_at: number | null;
  agent_type: string;
  /** The person's membership of the agent company (null when none) and the company two-step rule's verdict. */
  member_role: 'administrator' | 'staff' | null;
  member_status: string | null;
  two_step_missing: 0 | 1;
}

const GRANT_STANDING_COLUMNS = `g.id, g.principal_company_id, g.agent_company_id, g.vessels, g.ports, g.modules, g.level, g.starts_at, g.ends_at, g.status,
  p.status AS principal_status, p.grants_suspended_at AS principal_suspended_at, p.name_en AS principal_name_en, p.name_cn AS principal_name_cn,
  a.status AS agent_status, a.grants_suspended_at AS agent_suspended_at, a.type AS agent_type,
  m.role AS member_role, m.status AS member_status, ${twoStepMissing('g.agent_company_id', '?2', '?3')} AS two_step_missing`;
const GRANT_STANDING_FROM = `FROM company_grants g
  JOIN companies p ON p.id = g.principal_company_id
  JOIN companies a ON a.id = g.agent_company_id
  LEFT JOIN company_members m ON m.company_id = g.agent_company_id AND m.user_id = ?2`;

/** One grant and the person's standing under it (?1 the grant, ?2 the person, ?3 their session's company mfa), read in one statement. */
export function grantStanding(db: D1Database, grantId: string, asker: Asker): Promise<GrantStandingRow | null> {
  return db.prepare(`SELECT ${GRANT_STANDING_COLUMNS} ${GRANT_STANDING_FROM} WHERE g.id = ?1`).bind(grantId, asker.userId, asker.mfaCompanyId).first<GrantStandingRow>();
}

/** Every grant to a company the person is an active member of, with their standing under each (active ones only). */
export async function grantsToPerson(db: D1Database, asker: Asker): Promise<GrantStandingRow[]> {
  const { results } = await db
    .prepare(
      `SELECT ${GRANT_STANDING_COLUMNS} ${GRANT_STANDING_FROM}
       WHERE g.status = 'active' AND g.agent_company_id IN (SELECT company_id FROM company_members WHERE user_id = ?2 AND status = 'active')
       ORDER BY g.created_at`,
    )
    .bind('', asker.userId, asker.mfaCompanyId)
    .all<GrantStandingRow>();
  return results;
}
