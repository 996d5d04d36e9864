import * as z from 'zod/mini';

/**
 * What a sign-in answers and the signed-in person's login case. A module of its own (re-exported by auth.ts): the
 * two-step and password pages read these answers without the sign-in requests' contracts (issue 31).
 */

/**
 * Login response. The edge moves `oauthVO` into HttpOnly cookies and removes it before the answer
 * reaches the browser, so the browser's schema does not expect it.
 */
export const loginAnswer = z.object({
  accountSize: z.number(),
  companyId: z.nullable(z.string()),
  isMaster: z.boolean(),
  originalFlag: z.boolean(),
  tracelessCheckResult: z.number(),
  userId: z.string(),
  newUser: z.boolean(),
  type: z.number(),
  /** The terms changed since this person last agreed: the sign-in asks again before going on. */
  needsConsent: z.optional(z.boolean()),
  /**
   * Two-step verification is on: no session yet. The edge keeps the challenge in an HttpOnly cookie; the
   * second-step screen passes it with a code (api/two-step.ts).
   */
  secondStep: z.optional(
    z.object({
      expiresIn: z.number(),
      /** The step owed is the new-device challenge (issue 44): a one-time code went to `to` (masked), not two-step. */
      newDevice: z.optional(z.object({ channel: z.enum(['email', 'sms']), to: z.string() })),
    }),
  ),
});
export type LoginAnswer = z.infer<typeof loginAnswer>;
export type NewDeviceNotice = NonNullable<NonNullable<LoginAnswer['secondStep']>['newDevice']>;

export const oauthSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.string(),
  expires_in: z.number(),
  isMainAccount: z.optional(z.boolean()),
});

// POST agg-web/quick/user/findUserLoginCase (session) → login case response
export const loginCaseAnswer = z.object({
  userLoginCase: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(6), z.literal(7), z.literal(9)]),
  userType: z.number(),
  registerMobile: z.nullable(z.string()),
  username: z.string(),
  userId: z.string(),
  companyInfo: z.nullable(z.object({ name: z.string(), ports: z.array(z.object({ id: z.string(), name: z.string(), code: z.string() })) })),
  ifJumpToSaas: z.boolean(),
  originalFlag: z.boolean(),
  accountSize: z.number(),
});
export type LoginCaseAnswer = z.infer<typeof loginCaseAnswer>;
