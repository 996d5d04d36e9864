import * as z from 'zod/mini';
import {
  callingCodeSchema,
  codeSchema,
  emailSchema,
  loginTypeSchema,
  mobileSchema,
  passwordHashSchema,
  passwordSha1Schema,
  passwordVersionSchema,
  sliderCheckSchema,
} from './auth';
import { PARTNER_CAPTCHA_TYPE } from './password-rules';

/**
 * Wire contracts of the partner sign-in, the password reset and the password change. The reset
 * calls are not in portal-spec.md §7; they follow the envelope and error style of the others.
 * Passwords travel as SHA-256 hex (passwordVersion 2), so the 6-18 rule is a form rule (newPasswordForm).
 */

export { newPasswordProblem, PARTNER_CAPTCHA_TYPE, type NewPasswordProblem } from './password-rules';

// POST agg-web/partner/v2/passwordLogin → login response (the edge turns oauthVO into navigator_token on
// the navigator host). `phoneCode` is the calling code ("+86"), as in getUserSalt. The slider is part of
// the partner form: every attempt carries a passed check of scene 'login' bound to this phone.
export const partnerLoginRequest = z.object({
  phone: mobileSchema,
  phoneCode: callingCodeSchema,
  password: passwordHashSchema,
  newPassword: z.optional(passwordHashSchema),
  newPasswordSha1: z.optional(passwordSha1Schema),
  passwordSha1: z.optional(passwordSha1Schema),
  captchaType: z.literal(PARTNER_CAPTCHA_TYPE),
  passwordVersion: passwordVersionSchema,
  sliderCheck: sliderCheckSchema,
});
export type PartnerLoginRequest = z.infer<typeof partnerLoginRequest>;

// POST agg-web/user/password/reset/sendCode → null. A phone needs a passed slider of scene 'sms' for that
// number; an e-mail does not. The answer is the same whether or not an account exists (no discovery).
const resetIdentity = {
  loginType: loginTypeSchema,
  mobileCode: z.optional(callingCodeSchema),
  mobile: z.optional(mobileSchema),
  loginEmail: z.optional(emailSchema),
};
export const resetSendCodeRequest = z.object({ ...resetIdentity, sliderCheck: z.optional(sliderCheckSchema) });
export type ResetSendCodeRequest = z.infer<typeof resetSendCodeRequest>;

// POST agg-web/user/password/reset → null. The same identity as sendCode, with the code it sent; newPassword
// and newPasswordSubmit are SHA-256 hex and must be equal.
export const resetPasswordRequest = z.object({
  ...resetIdentity,
  code: codeSchema,
  newPassword: passwordHashSchema,
  newPasswordSubmit: passwordHashSchema,
  newPasswordSha1: z.optional(passwordSha1Schema),
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

// POST agg-web/user/changePassword (session and a fresh proof of the person, src/schemas/step-up.ts: the sign-in
// that found the original-password flag is one) → success code '0'. An account that has a password also sends
// it as `currentPassword` (hashed as at sign-in, with the legacy salt of a version-1 record), whatever the
// proof's age: PW0004 without it, PW0003 when wrong.
export const changePasswordRequest = z.object({
  currentPassword: z.optional(passwordHashSchema),
  newPassword: passwordHashSchema,
  newPasswordSubmit: passwordHashSchema,
  newPasswordSha1: z.optional(passwordSha1Schema),
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;
