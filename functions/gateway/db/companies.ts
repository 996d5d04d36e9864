import type { LoginCaseMembership } from '../services/login-case';

/** A user's membership of a company, with the company's own columns (migrations/0003). */
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
}

/** Every company the user belongs to or asked to join, oldest first. */
export async function membershipsOfUser(db: D1Database, userId: string): Promise<MembershipRow[]> {
  const { results } = await db
    .prepare(
      `SELECT m.company_id, c.name_en, c.name_cn, c.type, c.status AS company_status, m.role, m.status AS member_status,
              m.is_main, m.joined_at
       FROM company_members m JOIN companies c ON c.id = m.company_id
       WHERE m.user_id = ?
       ORDER BY m.joined_at, c.name_en`,
    )
    .bind(userId)
    .all<MembershipRow>();
  return results;
}

export function asLoginCaseMembership(row: MembershipRow): LoginCaseMembership {
  return { role: row.role, memberStatus: row.member_status, companyStatus: row.company_status };
}
