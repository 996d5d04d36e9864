import * as z from 'zod/mini';

/**
 * The last review decision on a company: a reason template key (src/schemas/ops-review.ts), the operator's words.
 * Apart from the reasons' words (review-outcome.ts), so the company list's contract, which every signed-in page
 * reads at once, does not carry both languages' reason texts (issue 31).
 */
export const reviewOutcomeSchema = z.object({
  reason: z.nullable(z.string()),
  note: z.nullable(z.string()),
  reviewedAt: z.nullable(z.number()),
});
export type ReviewOutcome = z.infer<typeof reviewOutcomeSchema>;
