import * as z from 'zod/mini';
import { reviewOutcomeSchema } from './review-outcome-schema';

/**
 * The company list every signed-in page may read at once (the user center, the account choice, /fill_account).
 * A module of its own (re-exported by auth.ts), so those pages do not load the sign-in contracts (issue 31).
 */

// POST c/user/v2/getCompanyListByToken (session)
export const companyListItem = z.object({
  companyId: z.string(),
  companyNameEn: z.string(),
  companyNameCn: z.nullable(z.string()),
  companyType: z.string(),
  role: z.enum(['administrator', 'staff']),
  status: z.string(),
  isMain: z.boolean(),
  /** Verified membership of an enterable company: it can be chosen. Others show their application status. */
  canEnter: z.optional(z.boolean()),
  /** The person's membership: 'pending' while the administrator has not yet approved a staff join. */
  memberStatus: z.optional(z.enum(['pending', 'active', 'rejected'])),
  /** The company's administrators require two-step verification of its members before they enter it. */
  requireTwoStep: z.optional(z.boolean()),
  /** The company requires two-step verification and the person has not set it up: why canEnter is false. */
  twoStepRequired: z.optional(z.boolean()),
  /** The last review decision: the reason the list shows with a status that asks something of the person. */
  review: z.optional(reviewOutcomeSchema),
});
export const companyListAnswer = z.array(companyListItem);
export type CompanyListItem = z.infer<typeof companyListItem>;

