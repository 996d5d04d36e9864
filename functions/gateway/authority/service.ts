import { ERR, type ErrorCode } from '../../../src/schemas/error-codes';
import { GatewayError } from '../errors';
import { askerOf, grantStanding, grantsToPerson, memberWithRule, sessionless, type Asker, type GrantStandingRow, type MemberRow, type MembershipRow } from './db';

/** Who asks (authority/db.ts Asker): from a call's session, or without one. */
export { askerOf, sessionless, type Asker };

/**
 * The one place that decides who may act for a company: "may this person act in this company now?" (issue 30)
 * and "may they manage it?" (its administrators: members, modules, API clients, its two-step rule, its form). A person acts in a company
 * as its active member; a company that requires two-step (companies.require_two_step) counts a member without
 * two-step on as outside it, administrators included, until they set it up. Every signed-in answer that hands
 * a member the company asks here: the user record's account in use and its modules, choosing the account in
 * use, the main enterprise, sign-in's isMaster, the company's modules, details, members and their changes, and
 * the company's files. The rule's SQL is authority/db.ts twoStepMissing (and mayManageSql for a write that checks in its own statement), read with the membership in one
 * statement; a session signed in through the company's own provider with a second factor (its `amr`) counts as
 * two-step for that company (the Asker every reader passes: authority/db.ts). A member kept out by the rule is told MF0021 (TWO_STEP_REQUIRED_BY_COMPANY, as choosing the account
 * always answered); anyone else who is not an active member CO0009.
 */

export type Standing = { inside: true; member: MemberRow } | { inside: false; refusal: ErrorCode };

/** A membership row of the person's company list: may they act in this company now? (company status aside) */
export const actsIn = (membership: Pick<MembershipRow, 'member_status' | 'two_step_missing'>) =>
  membership.member_status === 'active' && membership.two_step_missing !== 1;

/** True when only the company's two-step rule keeps the person out. */
export const outsideByTwoStep = (membership: Pick<MembershipRow, 'two_step_missing'>) => membership.two_step_missing === 1;

/**
 * One company of the person's list (getCompanyListByToken): may they enter it now, and is the company's two-step
 * rule the reason they may not? `open` says whether the membership and the company's status would let them in
 * without the rule; the rule then decides, as it does for choosing the account.
 */
export const entryOf = (membership: Pick<MembershipRow, 'member_status' | 'two_step_missing'>, open: boolean) => ({
  canEnter: open && actsIn(membership),
  twoStepRequired: open && membership.member_status === 'active' && outsideByTwoStep(membership),
});

/** The person's standing in the company, read now. */
export async function standingIn(db: D1Database, companyId: string, asker: Asker): Promise<Standing> {
  const row = await memberWithRule(db, companyId, asker);
  if (!row || row.status !== 'active') return { inside: false, refusal: ERR.COMPANY_NOT_FOUND };
  if (row.two_step_missing === 1) return { inside: false, refusal: ERR.TWO_STEP_REQUIRED_BY_COMPANY };
  const { two_step_missing: _, ...member } = row;
  return { inside: true, member };
}

/** What the caller needs: to act in the company (an active member), or to manage it (its active administrator). */
export type CompanyNeed = 'act' | 'manage';

/**
 * The caller's membership when they may do what `need` asks in the company now; else its refusal: CO0009 for a
 * company they have no part in (no existence leak), MF0021 when its two-step rule keeps them out, CO0008 for a
 * member who is not an administrator.
 */
export async function companyAuthority(db: D1Database, actor: Asker, companyId: string, need: CompanyNeed): Promise<MemberRow> {
  const standing = await standingIn(db, companyId, actor);
  if (!standing.inside) throw new GatewayError(standing.refusal);
  if (need === 'manage' && standing.member.role !== 'administrator') throw new GatewayError(ERR.ADMINISTRATOR_ONLY);
  return standing.member;
}

/** Company statuses in which a company may act, or be acted for (a blocked, expired or unverified one may not). */
const ACTING_STATUSES: readonly string[] = ['active', 'verified'];

/**
 * Whether the person may act now under the grant, as a member of its agent company for its principal: the grant
 * is active and within its dates, the person an active member of the agent company that its two-step rule lets
 * in, both companies in good standing (verified, not blocked or expired) and neither company's grants suspended
 * by the platform. The one decision behind choosing to act, the user record while acting, and every token that
 * carries `on_behalf_of` (oidc/token.ts): an ended grant ends the acting on the next call.
 */
export function actsUnderGrant(row: GrantStandingRow, at: number): boolean {
  return (
    row.status === 'active' &&
    row.starts_at <= at &&
    at < row.ends_at &&
    row.member_status === 'active' &&
    row.two_step_missing !== 1 &&
    ACTING_STATUSES.includes(row.principal_status) &&
    ACTING_STATUSES.includes(row.agent_status) &&
    row.principal_suspended_at === null &&
    row.agent_suspended_at === null
  );
}

/** The grant the person acts under, read now; DG0014 when they may not act under it (any reason, no leak of which). */
export async function actingAuthority(db: D1Database, actor: Asker, grantId: string, at: number): Promise<GrantStandingRow> {
  const row = await grantStanding(db, grantId, actor);
  if (!row || !actsUnderGrant(row, at)) throw new GatewayError(ERR.ACTING_ENDED);
  return row;
}

/** Every grant the person may act under now. */
export async function grantsActedUnder(db: D1Database, actor: Asker, at: number): Promise<GrantStandingRow[]> {
  return (await grantsToPerson(db, actor)).filter((row) => actsUnderGrant(row, at));
}
