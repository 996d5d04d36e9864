import type { CompanyListItem, LoginCaseAnswer } from '../../../src/schemas/auth';
import { companyTypeFromDb, verificationStatusFromDb } from '../../../src/schemas/onboarding';
import { membershipsFromJson, membershipsJsonSql, membershipsOfUser } from '../companies/db';
import { type Asker, type MembershipRow } from '../authority/db';
import { companiesRequiringTwoStep } from '../second-step/db';
import { entryOf, outsideByTwoStep } from '../authority/service';
import { type UserRow } from '../identity/db/people';
import { GatewayError } from '../errors';
import { findPort } from '../places/ports';
import { accountSizeOf, asLoginCaseMembership, closedCompanyRefusal, loginCaseOf } from '../companies/login-case';
import { setSessionActing, setSessionCompany } from '../sessions/db';
import { actingChoices, actingNow } from '../grants/service';
import type { ActingChoice } from '../../../src/schemas/grants';
import type { Lang } from '../../../src/lib/lang';
import { phoneParts } from './user-record';
import { ERR } from '../../../src/schemas/error-codes';

/**
 * The signed-in person's way in (account/routes.ts): their login case, their company list, and choosing the
 * company to act for in this session.
 */

const displayName = (user: UserRow) => user.real_name || user.login_name;

/** Companies the user can enter: the account-choice list, the same ones accountSize counts. */
const enterable = (memberships: MembershipRow[]) => memberships.filter((m) => accountSizeOf([asLoginCaseMembership(m)]) === 1);

/** The person's companies as one SQL value, read with the session (sessions/service.ts requireSessionReading). */
export const membershipsWithSession = (userIdSql: string, sessionAlias: string) => [membershipsJsonSql(userIdSql, `${sessionAlias}.provider_mfa_company_id`)];
/** What membershipsWithSession read, as rows. */
export const membershipsReadWithSession = (alsoRead: unknown[] | undefined) => membershipsFromJson(alsoRead?.[0]);

/** Where the person goes after signing in (findUserLoginCase). */
export async function loginCaseAnswer(db: D1Database, user: UserRow, asker: Asker): Promise<LoginCaseAnswer> {
  const memberships = await membershipsOfUser(db, asker);
  const port = user.pending_port_id ? findPort(user.pending_port_id) : undefined;
  const result = loginCaseOf(
    {
      originalFlag: user.original_flag === 1,
      userType: user.user_type,
      pendingCompanyName: user.pending_company_name,
      pendingPort: port ? { id: port.id, name: port.name, code: port.code } : null,
    },
    memberships.map(asLoginCaseMembership),
  );
  // A member of a company the platform blocked or let expire, with nothing else to enter or wait for, is told
  // so (RV0010/RV0011) instead of being sent to create a company (case 2) or to start again (case 9).
  const startsOver = result.userLoginCase === 2 || result.userLoginCase === 9;
  const refusal = startsOver && result.accountSize === 0 && user.original_flag !== 1 ? closedCompanyRefusal(memberships.map(asLoginCaseMembership)) : null;
  if (refusal) throw new GatewayError(refusal);
  return {
    userLoginCase: result.userLoginCase,
    userType: user.user_type,
    registerMobile: phoneParts(user.phone_e164)?.mobile ?? null,
    username: displayName(user),
    userId: user.id,
    companyInfo: result.companyName === null ? null : { name: result.companyName, ports: result.ports },
    ifJumpToSaas: result.ifJumpToSaas,
    originalFlag: user.original_flag === 1,
    accountSize: result.accountSize,
  };
}

/**
 * Every company the person belongs to or applied to, with its verification status; only the enterable ones can
 * be chosen (canEnter), the others show where their application stands.
 */
export async function companyListOf(db: D1Database, asker: Asker): Promise<CompanyListItem[]> {
  const memberships = (await membershipsOfUser(db, asker)).filter((m) => m.member_status !== 'rejected');
  const requiring = await companiesRequiringTwoStep(db, memberships.map((m) => m.company_id));
  return memberships.map((m) => ({
    companyId: m.company_id,
    companyNameEn: m.name_en,
    companyNameCn: m.name_cn,
    companyType: companyTypeFromDb(m.type),
    role: m.role,
    status: verificationStatusFromDb(m.company_status),
    isMain: m.is_main === 1,
    // The company's two-step rule keeps out a member without two-step (authority/service.ts): not enterable,
    // and twoStepRequired says why, so the card asks for two-step instead of offering Enter.
    ...entryOf(m, enterable([m]).length === 1),
    memberStatus: m.member_status as 'pending' | 'active' | 'rejected',
    requireTwoStep: requiring.has(m.company_id),
    review: { reason: m.review_reason, note: m.review_note, reviewedAt: m.reviewed_at },
  }));
}

/** Makes the company the session's account in use, if the person may enter it now. */
export async function chooseCompany(db: D1Database, asker: Asker, sessionHash: string, companyId: string): Promise<void> {
  const memberships = await membershipsOfUser(db, asker);
  if (!enterable(memberships).some((m) => m.company_id === companyId)) {
    const membership = memberships.find((m) => m.company_id === companyId);
    throw new GatewayError((membership && closedCompanyRefusal([asLoginCaseMembership(membership)])) || ERR.NOT_MEMBER_OF_COMPANY);
  }
  // A company that requires two-step is entered only by members who have it on (authority/service.ts decides).
  if (memberships.some((m) => m.company_id === companyId && outsideByTwoStep(m))) throw new GatewayError(ERR.TWO_STEP_REQUIRED_BY_COMPANY);
  await setSessionCompany(db, sessionHash, companyId);
}

/** The grants the person may act under now (the account choice's "act for another company"). */
export const actingChoicesOf = (db: D1Database, asker: Asker, at: number, lang: Lang): Promise<ActingChoice[]> => actingChoices(db, asker, at, lang);

/** The session acts for the grant's principal, if the person may now (authority/ decides; DG0014 otherwise). */
export async function actFor(db: D1Database, asker: Asker, sessionHash: string, grantId: string, at: number, lang: Lang): Promise<void> {
  const choice = await actingNow(db, asker, grantId, at, lang);
  await setSessionActing(db, sessionHash, choice.agentCompanyId, grantId);
}
