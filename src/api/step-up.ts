import * as z from 'zod/mini';
import { passkeyOptionsAnswer } from '../schemas/passkeys';
import { passkeyReview, proofStart, proofStep } from '../schemas/step-up';
import type { SecondFactorKind } from '../schemas/two-step';
import { callGateway } from './client';

/** "Confirm it's you" (contracts in src/schemas/step-up.ts): one function per gateway call. Loaded with the dialog's store. */
export const stepUpApi = {
  start: () => callGateway('agg-web/user/proof/start', proofStart, { body: {} }),
  sendCode: () => callGateway('agg-web/user/proof/sendCode', z.null(), { body: {} }),
  /** `password` is the client's hash (with the legacy salt proofStart names). */
  password: (password: string) => callGateway('agg-web/user/proof/password', proofStep, { body: { password } }),
  code: (code: string) => callGateway('agg-web/user/proof/code', proofStep, { body: { code } }),
  secondFactor: (challenge: string, kind: SecondFactorKind, code: string) => callGateway('agg-web/user/proof/secondFactor', proofStep, { body: { challenge, kind, code } }),
  passkeyOptions: () => callGateway('agg-web/user/proof/passkey/options', passkeyOptionsAnswer, { body: {} }),
  /** `response` is @simplewebauthn/browser's AuthenticationResponseJSON; the gateway checks its shape. */
  passkey: (response: unknown) => callGateway('agg-web/user/proof/passkey/verify', proofStep, { body: { response } }),
  /** After a password reset by code: since when the passkeys are to be reviewed (null: not), and "they are all mine". */
  passkeyReview: () => callGateway('agg-web/user/proof/passkeyReview', passkeyReview, { body: {} }),
  passkeyReviewDone: () => callGateway('agg-web/user/proof/passkeyReview/done', z.null(), { body: {} }),
};
