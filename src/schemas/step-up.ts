// zod/mini: these contracts ship to the browser (the "Confirm it's you" dialog of the user center).
import * as z from 'zod/mini';
import { passwordHashSchema } from './auth';
import { checked } from './checked';
import { secondFactor } from './two-step';

/**
 * Proving it's you again (functions/gateway/identity/proof.ts). Sensitive changes answer SU0001 (403) when the
 * session has no fresh proof; the person then proves themselves with these calls (all session calls) and the
 * browser repeats the change once:
 *
 * - POST agg-web/user/proof/start {} → proofStart: what this person can prove themselves with.
 * - POST agg-web/user/proof/sendCode {} → null: a one-time code to the account's own e-mail (else phone).
 * - POST agg-web/user/proof/password { password } or agg-web/user/proof/code { code } → proofStep: proved, or
 *   (two-step on) the second factor is owed, under a single-use challenge bound to this session.
 * - POST agg-web/user/proof/secondFactor { challenge, kind, code } → proofStep (proved).
 * - POST agg-web/user/proof/passkey/options {} → { options }; agg-web/user/proof/passkey/verify { response }
 *   → proofStep (proved): a passkey alone is a proof.
 */

export const proofStart = z.object({
  /** The session has a fresh proof until `freshUntil` (epoch ms); null: none. */
  freshUntil: z.nullable(z.number()),
  /** The person has a password; `passwordSalt` is the legacy salt it is hashed with (null: none). */
  password: z.boolean(),
  passwordSalt: z.nullable(z.string()),
  /** Where a one-time code goes when the account has no password: the account's e-mail, else its phone; `codeTo` hides most of it. */
  code: z.nullable(z.enum(['email', 'sms'])),
  codeTo: z.nullable(z.string()),
  /** The person has a passkey (which proves them by itself) and passkeys work on this site. */
  passkey: z.boolean(),
  /** Two-step is on: a password or code must be followed by the authenticator app or a recovery code (or a passkey). */
  twoStep: z.boolean(),
});
export type ProofStart = z.infer<typeof proofStart>;

export const proofEmptyRequest = z.object({});
export const proofPasswordRequest = z.object({ password: passwordHashSchema });
export const proofCodeRequest = z.object({ code: checked(z.string(), z.regex(/^\d{4,8}$/)) });
/** The half-way challenge of proofStep, then the app or recovery code. */
export const proofSecondFactorRequest = z.intersection(z.object({ challenge: checked(z.string(), z.regex(/^[A-Za-z0-9_-]{16,128}$/)) }), secondFactor);

export const proofStep = z.union([
  z.object({ proved: z.literal(true), freshUntil: z.number() }),
  /** The first factor passed; the second is owed within `expiresIn` seconds, with this challenge (single use, this session only). */
  z.object({ proved: z.literal(false), challenge: z.string(), expiresIn: z.number() }),
]);
export type ProofStep = z.infer<typeof proofStep>;

// POST agg-web/user/proof/passkeyReview {} → since when (epoch ms) the person's passkeys are to be reviewed after a
// password reset by code; null: nothing to review. POST agg-web/user/proof/passkeyReview/done {} → null.
export const passkeyReview = z.object({ since: z.nullable(z.number()) });
export type PasskeyReview = z.infer<typeof passkeyReview>;
