/**
 * Queries of onboarding (issue 5) on companies and company_members as extended by migrations/0005.
 * db/companies.ts keeps the sign-in side (membershipsOfUser); this file the administrator side.
 */

export interface CompanyRow {
  id: string;
  name_en: string;
  name_cn: string | null;
  type: string;
  status: string;
  invitation_code: string | null;
  created_by: string | null;
  created_at: number;
  country_id: string | null;
  country_name: string | null;
  contact_name: string | null;
  contact_phone: string | null;
  port_id: string | null;
  port_name: string | null;
  port_code: string | null;
  social_credit: string | null;
  contact_email: string | null;
  updated_at: number | null;
}

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

export async function companyById(db: D1Database, id: string): Promise<CompanyRow | null> {
  return db.prepare('SELECT * FROM companies WHERE id = ?').bind(id).first<CompanyRow>();
}

export async function companyByInvitationCode(db: D1Database, code: string): Promise<CompanyRow | null> {
  return db.prepare('SELECT * FROM companies WHERE invitation_code = ?').bind(code).first<CompanyRow>();
}

export async function memberOf(db: D1Database, companyId: string, userId: string): Promise<MemberRow | null> {
  return db.prepare('SELECT * FROM company_members WHERE company_id = ? AND user_id = ?').bind(companyId, userId).first<MemberRow>();
}

export interface MemberListRow extends MemberRow {
  real_name: string;
  login_name: string;
  phone_e164: string | null;
  email: string | null;
}

export async function membersOfCompany(db: D1Database, companyId: string): Promise<MemberListRow[]> {
  const { results } = await db
    .prepare(
      `SELECT m.*, u.real_name, u.login_name, u.phone_e164, u.email
       FROM company_members m JOIN users u ON u.id = m.user_id
       WHERE m.company_id = ?
       ORDER BY m.role = 'administrator' DESC, m.joined_at, m.user_id`,
    )
    .bind(companyId)
    .all<MemberListRow>();
  return results;
}
