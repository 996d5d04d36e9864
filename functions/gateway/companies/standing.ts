import { ERR, type ErrorCode } from '../../../src/schemas/error-codes';
import { memberWithRule, type MemberRow, type MembershipRow } from './db';

/**
 * The one place that decides "may this person act in this company now?" (issue 30). A person acts in a company
 * as its active member; a company that requires two-step (companies.require_two_step) counts a member without
 * two-step on as outside it, administrators included, until they set it up. Every signed-in answer that hands
 * a member the company asks here: the user record's account in use and its modules, choosing the account in
 * use, the main enterprise, sign-in's isMaster, the company's modules, details, members and their changes, and
 * the company's files. The rule's SQL is companies/db.ts twoStepMissing, read with the membership in one
 * statement. A member kept out by the rule is told MF0021 (TWO_STEP_REQUIRED_BY_COMPANY, as choosing the account
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
export async function standingIn(db: D1Database, companyId: string, userId: string): Promise<Standing> {
  const row = await memberWithRule(db, companyId, userId);
  if (!row || row.status !== 'active') return { inside: false, refusal: ERR.COMPANY_NOT_FOUND };
  if (row.two_step_missing === 1) return { inside: false, refusal: ERR.TWO_STEP_REQUIRED_BY_COMPANY };
  const { two_step_missing: _, ...member } = row;
  return { inside: true, member };
}
