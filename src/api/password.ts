import * as z from 'zod/mini';
import { loginAnswer } from '../schemas/sign-in-answers';
import { type ChangePasswordRequest, type PartnerLoginRequest, type ResetPasswordRequest, type ResetSendCodeRequest } from '../schemas/password';
import { callGateway } from './client';

/** One function per gateway call of the partner sign-in, the password reset and the password change. */
export const passwordApi = {
  partnerLogin: (body: PartnerLoginRequest) => callGateway('agg-web/partner/v2/passwordLogin', loginAnswer, { body }),
  resetSendCode: (body: ResetSendCodeRequest) => callGateway('agg-web/user/password/reset/sendCode', z.null(), { body }),
  reset: (body: ResetPasswordRequest) => callGateway('agg-web/user/password/reset', z.null(), { body }),
  /** Needs a fresh proof of the person (stores/step-up.ts withFreshProof). */
  changePassword: (body: ChangePasswordRequest) => callGateway('agg-web/user/changePassword', z.null(), { body }),
};
