import { meetsPasswordRule } from './auth-rules';

/**
 * The plain values and checks of the password contracts (schemas/password.ts re-exports them). No zod here:
 * the partner sign-in and the password reset check a form before their first call, and the schema library
 * loads only with that call.
 */

/** captchaType 2 is the partner (navigator) sign-in. */
export const PARTNER_CAPTCHA_TYPE = 2;

/** Which message a new-password pair breaks first; the island maps each to a `validation` string. */
export type NewPasswordProblem = 'passwordRequired' | 'passwordRule' | 'confirmRequired' | 'passwordMismatch';

/**
 * New and confirmed password are both required, follow the 6-18 letters-and-digits rule and match.
 * Returns the field and the problem, or null when the pair is fine.
 */
export function newPasswordProblem(password: string, confirm: string): { field: 'password' | 'confirm'; problem: NewPasswordProblem } | null {
  if (!password) return { field: 'password', problem: 'passwordRequired' };
  if (!meetsPasswordRule(password)) return { field: 'password', problem: 'passwordRule' };
  if (!confirm) return { field: 'confirm', problem: 'confirmRequired' };
  if (confirm !== password) return { field: 'confirm', problem: 'passwordMismatch' };
  return null;
}
