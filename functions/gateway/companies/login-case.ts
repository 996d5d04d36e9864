import { ERR } from '../../../src/schemas/error-codes';
import type { MembershipRow } from '../authority/db';
/**
 * The login case of a user (findUserLoginCase), derived from the user's real state. Pure: the route reads
 * the user and memberships and passes them in.
 *
 * | state (first match wins)                                         | case | client goes to                             |
 * |------------------------------------------------------------------|------|--------------------------------------------|
 * | original_flag set (must change password)                         | 2    | /change_password                           |
 * | user_type 1 (individual)                                         | 3    | anonymous account login, then web home     |
 * | member (any role) of >= 1 company with status active or verified | 2    | /account (accountSize > 0)                 |
 * | administrator of a company awaiting verification                 | 4    | /completion_of_application?…&ifJumpToSaas= |
 * | staff whose join is pending                                      | 5    | /completion_of_application?…               |
 * | every company application or join ended (refused, failed to bind,| 9    | /enterprise_adm_and_staff (nothing stored: |
 * |   blocked, expired, join rejected): the person starts again       |      |   the old name belongs to the old company) |
 * | no company, registered with a company name and a serviced port   | 7    | /enterprise_adm_and_staff (name + port)    |
 * | no company, registered with a company name                       | 6    | /enterprise_adm_and_staff (name stored)    |
 * | no company, no pending name, user_type 0 (never chose)            | 1    | /enterprise_adm_and_staff?loginType=1|2    |
 * | otherwise (an existing enterprise user with zero companies)      | 2    | /create_account (accountSize 0)            |
 *
 * accountSize counts the companies the user can enter (membership active in a usable company).
 * ifJumpToSaas (case 4) is true only when the company is already 'verified' (the membership is then not active yet,
 * or case 2 would have won).
 * Case 9 comes before 6 and 7: the name given at registration is the name of the company that ended, and one
 * company per name and type means offering it again would only fail.
 */

export type LoginCase = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 9;

/** Verification statuses (snake_case) in which members can use the company: it has passed review. */
export const USABLE_COMPANY_STATUSES = ['active', 'verified'] as const;
/** Company statuses that mean "the administrator's application is still being looked at". */
export const AWAITING_COMPANY_STATUSES = ['approving', 'not_verified', 'additional_info', 'pending_bind'] as const;
/** Company statuses after which nobody gets in: the review refused it, binding failed, it was blocked or expired. */
export const ENDED_COMPANY_STATUSES = ['verification_failed', 'fail_bind', 'blocked', 'expired'] as const;

/** The serviced port given at registration (a row of the port list). */
export interface LoginCasePort {
  id: string;
  name: string;
  code: string;
}

export interface LoginCaseUser {
  originalFlag: boolean;
  /** 0 not chosen, 1 individual, 2 enterprise. */
  userType: number;
  pendingCompanyName: string | null;
  /** The serviced port named with the company name, resolved from the port list; null when none. */
  pendingPort: LoginCasePort | null;
}

export interface LoginCaseMembership {
  role: 'administrator' | 'staff';
  /** company_members.status: 'pending' | 'active' | 'rejected'. */
  memberStatus: string;
  companyStatus: string;
}

export function asLoginCaseMembership(row: MembershipRow): LoginCaseMembership {
  return { role: row.role, memberStatus: row.member_status, companyStatus: row.company_status };
}

export interface LoginCaseResult {
  userLoginCase: LoginCase;
  accountSize: number;
  ifJumpToSaas: boolean;
  /** Set for cases 6 and 7: the name the user registered with. */
  companyName: string | null;
  /** Set for case 7: the serviced port the user registered with. */
  ports: LoginCasePort[];
}

/** Company statuses the platform closed: members are refused at sign-in and when entering (review/service.ts). */
export const CLOSED_COMPANY_REFUSALS = { blocked: ERR.COMPANY_BLOCKED, expired: ERR.COMPANY_VERIFICATION_EXPIRED } as const;

/**
 * Why a person with no company to enter is refused, rather than sent on to create one: an active membership
 * of a company the platform blocked (RV0010) or let expire (RV0011). Null when there is none.
 */
export function closedCompanyRefusal(memberships: readonly LoginCaseMembership[]): (typeof CLOSED_COMPANY_REFUSALS)[keyof typeof CLOSED_COMPANY_REFUSALS] | null {
  const closed = memberships.find((m) => m.memberStatus === 'active' && m.companyStatus in CLOSED_COMPANY_REFUSALS);
  return closed ? CLOSED_COMPANY_REFUSALS[closed.companyStatus as keyof typeof CLOSED_COMPANY_REFUSALS] : null;
}

const usable = (m: LoginCaseMembership) =>
  m.memberStatus === 'active' && (USABLE_COMPANY_STATUSES as readonly string[]).includes(m.companyStatus);
const ended = (m: LoginCaseMembership) =>
  m.memberStatus === 'rejected' || (ENDED_COMPANY_STATUSES as readonly string[]).includes(m.companyStatus);

/** Companies the user can enter now (the account-choice list). */
export function accountSizeOf(memberships: readonly LoginCaseMembership[]): number {
  return memberships.filter(usable).length;
}

export function loginCaseOf(user: LoginCaseUser, memberships: readonly LoginCaseMembership[]): LoginCaseResult {
  const accountSize = accountSizeOf(memberships);
  const result = (userLoginCase: LoginCase, extra: Partial<LoginCaseResult> = {}): LoginCaseResult => ({
    userLoginCase,
    accountSize,
    ifJumpToSaas: false,
    companyName: null,
    ports: [],
    ...extra,
  });

  if (user.originalFlag) return result(2);
  if (user.userType === 1) return result(3);
  if (accountSize > 0) return result(2);

  // A verified company whose administrator membership is not active yet may already open the SaaS.
  const awaiting = memberships.find(
    (m) =>
      m.role === 'administrator' &&
      m.memberStatus !== 'rejected' &&
      (m.companyStatus === 'verified' || (AWAITING_COMPANY_STATUSES as readonly string[]).includes(m.companyStatus)),
  );
  if (awaiting) return result(4, { ifJumpToSaas: awaiting.companyStatus === 'verified' });

  if (memberships.some((m) => m.role === 'staff' && m.memberStatus === 'pending')) return result(5);

  if (memberships.length > 0 && memberships.every(ended)) return result(9);

  if (user.pendingCompanyName && user.pendingPort) return result(7, { companyName: user.pendingCompanyName, ports: [user.pendingPort] });
  if (user.pendingCompanyName) return result(6, { companyName: user.pendingCompanyName });
  if (user.userType === 0) return result(1);
  return result(2);
}
