import * as z from 'zod/mini';
import { reasonSchema } from './ops-people';

/**
 * Wire contracts of support "view as" (issue 44, functions/gateway/support/):
 *
 * - POST agg-web/user/support/code        (the person's own session) {} → SupportCodeAnswer
 * - POST agg-web/user/support/end         (the view-as session) {} → null; SV0008 outside a view
 * - GET  agg-web/user/support/views       (the person's own session) → SupportViewsOfMine: views of them now
 * - POST agg-web/user/support/views/:id/end (the person's own session) {} → null; SV0008 not theirs or ended
 * - GET  ops/v1/support                   (support) → SupportConsole: live views, open requests
 * - POST ops/v1/support/views             (support) StartViewRequest → SupportViewStarted (and the person's session
 *                                          cookie in the operator's browser)
 * - POST ops/v1/support/views/:id/end     (support: their own view; admin: any) {} → null
 * - POST ops/v1/support/views/:id/allowWrites (admin, not the viewing operator) { reason } → null
 * - POST ops/v1/support/approvals         (support) { userId, reason } → { id, expiresAt }
 * - POST ops/v1/support/approvals/:id/approve (admin, not the operator asking) {} → { expiresAt }
 */

export const supportCodeAnswer = z.object({ code: z.string(), expiresAt: z.number(), expiresIn: z.number() });
export type SupportCodeAnswer = z.infer<typeof supportCodeAnswer>;

const userIdSchema = z.string().check(z.trim(), z.regex(/^[A-Za-z0-9_-]{1,64}$/));
/** A code of the operator's authenticator app: the fresh operator proof. */
const proofSchema = z.string().check(z.trim(), z.regex(/^\d{6}$/));

export const startViewRequest = z.object({
  userId: userIdSchema,
  /** The person's support code; or `approvalId`, an approved request of this operator. */
  code: z.optional(z.string().check(z.trim(), z.regex(/^\d{6}$/))),
  approvalId: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{22}$/))),
  reason: reasonSchema,
  proof: proofSchema,
});
export type StartViewRequest = z.infer<typeof startViewRequest>;

export const supportViewStarted = z.object({
  view: z.object({ id: z.string(), userId: z.string(), until: z.number(), writable: z.boolean() }),
});
export type SupportViewStarted = z.infer<typeof supportViewStarted>;

export const supportViewsOfMine = z.array(z.object({ id: z.string(), operator: z.string(), until: z.number() }));
export type SupportViewsOfMine = z.infer<typeof supportViewsOfMine>;

export const approvalRequest = z.object({ userId: userIdSchema, reason: reasonSchema });
export type ApprovalRequest = z.infer<typeof approvalRequest>;

export const supportIdParam = z.object({ id: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)) });

export const supportConsole = z.object({
  views: z.array(
    z.object({
      id: z.string(),
      userId: z.string(),
      person: z.string(),
      operatorId: z.string(),
      operator: z.string(),
      reason: z.nullable(z.string()),
      writable: z.boolean(),
      startedAt: z.number(),
      until: z.number(),
    }),
  ),
  approvals: z.array(
    z.object({
      id: z.string(),
      userId: z.string(),
      person: z.string(),
      requestedBy: z.string(),
      requester: z.string(),
      reason: z.string(),
      approved: z.boolean(),
      expiresAt: z.number(),
    }),
  ),
});
export type SupportConsole = z.infer<typeof supportConsole>;

/** The user record's mark of a view-as session (profile.ts `supportView`): the banner's words. */
export const supportViewMark = z.object({ operator: z.string(), until: z.number(), writable: z.boolean() });
export type SupportViewMark = z.infer<typeof supportViewMark>;
