import * as z from 'zod/mini';

/**
 * The hand-off intake and the blob for /go: calls the edge makes of the gateway for itself (EDGE_CALL_HEADER in
 * functions/contract.ts; a browser's call through /api never carries it). Blob format: README "Hand-off between sites".
 */

/** Query parameters (and continue-form fields) that carry hand-off blobs, and what each one is for. */
export const HANDOFF_PARAMS = { token: 'session', userToken: 'session', userNameAndPwd: 'credentials' } as const;
export type HandoffParam = keyof typeof HANDOFF_PARAMS;

/** The longest blob anyone seals (HANDOFF_MAX_BLOB_LENGTH); a longer one is refused unread. */
const blob = z.string().check(z.maxLength(4096));

export const handoffBlobs = z.strictObject({ token: z.optional(blob), userToken: z.optional(blob), userNameAndPwd: z.optional(blob) });
export type HandoffBlobs = z.infer<typeof handoffBlobs>;

// POST edge/v1/handoff/intake (Authorization: the browser's session, if any) → handoffIntakeAnswer
export const handoffIntakeRequest = z.strictObject({
  blobs: handoffBlobs,
  /**
   * True on arrival: when the browser's session is someone else's than the blobs', nothing is used and the
   * answer is 'choose'. False after the person chose the other account on the edge's page.
   */
  askBeforeSwitching: z.boolean(),
});
export type HandoffIntakeRequest = z.infer<typeof handoffIntakeRequest>;

/**
 * Why blobs were refused. 'credentials': a genuine `userNameAndPwd` whose name and password sign no one in
 * here; 'blocked': the account was blocked by the platform's support.
 */
export const HANDOFF_FAILURES = ['invalid', 'expired', 'replayed', 'credentials', 'blocked'] as const;
export type HandoffFailure = (typeof HANDOFF_FAILURES)[number];

/**
 * 'signedIn' carries `oauthVO` and 'secondStep' the challenge, as a sign-in answer does: the edge turns them
 * into its HttpOnly cookies. 'nobody': the URL named no one (nothing to start).
 */
export const handoffIntakeAnswer = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('refused'), reason: z.enum(HANDOFF_FAILURES) }),
  z.object({ outcome: z.literal('choose') }),
  z.object({ outcome: z.literal('nobody') }),
  z.object({ outcome: z.literal('signedIn'), oauthVO: z.looseObject({ access_token: z.string() }) }),
  z.object({
    outcome: z.literal('secondStep'),
    secondStep: z.object({
      challenge: z.string(),
      expiresIn: z.number(),
      /** The step owed is the new-device challenge (issue 44): its code went to `to` (masked). */
      newDevice: z.optional(z.object({ channel: z.enum(['email', 'sms']), to: z.string() })),
    }),
  }),
]);
export type HandoffIntakeAnswer = z.infer<typeof handoffIntakeAnswer>;

// POST edge/v1/destinations/token (Authorization: the browser's session) → a fresh session blob for the
// configured web app's audience, or null without a live session or a key.
export const destinationTokenAnswer = z.object({ token: z.nullable(z.string()) });
export type DestinationTokenAnswer = z.infer<typeof destinationTokenAnswer>;
