import { sliderCheckSchema } from '../../../src/schemas/auth';
import { GatewayError } from '../errors';
import { consumeSliderCheck } from './captcha';

/**
 * Password sign-in risk (security baseline "Lockout"):
 * - after SLIDER_AFTER consecutive failures every password sign-in must carry a passed slider (nvcvalStr);
 *   without one the answer is tracelessCheckResult 400 and the password is not even checked;
 * - every LOCK_EVERY-th consecutive failure locks password sign-in for LOCK_BASE_MS, doubled for each lock
 *   before it (capped), and while locked the answer is the same US0010 as any failure;
 * - a successful sign-in resets both counters. Code sign-in ignores all of this.
 * The counters live on the user row (failed_logins, locked_until, lock_count; see db/users.ts).
 */
export const SLIDER_AFTER = 3;
export const LOCK_EVERY = 10;
export const LOCK_BASE_MS = 15 * 60 * 1000;
/** 15 min × 2^10 ≈ 10 days: the longest lock. */
export const MAX_LOCK_DOUBLINGS = 10;

export interface RiskState {
  failedLogins: number;
  lockedUntil: number | null;
}

export function isLocked(state: RiskState, now: number): boolean {
  return state.lockedUntil !== null && state.lockedUntil > now;
}

export function needsSlider(state: RiskState): boolean {
  return state.failedLogins >= SLIDER_AFTER;
}

/**
 * True when `nvcvalStr` carries a slider check that the captcha service accepts (and consumes) for a
 * login of `subject` (E.164 phone, lower-case e-mail or usId). Anything malformed is simply "no slider".
 */
export async function passedLoginSlider(
  env: Parameters<typeof consumeSliderCheck>[0],
  nvcvalStr: string | undefined,
  subject: string,
  now: number,
): Promise<boolean> {
  if (!nvcvalStr) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(nvcvalStr);
  } catch {
    return false;
  }
  const check = sliderCheckSchema.safeParse(parsed);
  if (!check.success) return false;
  try {
    await consumeSliderCheck(env, check.data, { scene: 'login', subject, now });
    return true;
  } catch (error) {
    // A refused check (CP0003) means "no slider"; anything else is a real fault.
    if (error instanceof GatewayError) return false;
    throw error;
  }
}
