import { sliderCheckSchema } from '../../../src/schemas/auth';
import { GatewayError } from '../errors';
import { consumeSliderCheck } from '../captcha/service';
import type { ThrottlePolicy, ThrottleState } from './db';

/**
 * Password sign-in throttle (security baseline "Lockout is not a weapon"). Failures count per (sign-in name,
 * client network), for known and unknown names alike, so the answers never tell whether an account exists:
 * - after SLIDER_AFTER failures from a network, every attempt from that network must carry a passed human
 *   check (tracelessCheckResult 400 otherwise; the password is not even checked);
 * - every LOCK_EVERY-th failure from a network locks that network out of that name for LOCK_BASE_MS,
 *   doubled for each earlier lock, at most MAX_LOCK_MS; while locked the answer is the same US0010 as any
 *   failure, even for the right password;
 * - other networks are never locked: once the name has ACCOUNT_SLIDER_AFTER failures in all (within
 *   FORGET_AFTER_MS) they are only asked for the human check, so the owner still signs in elsewhere;
 * - a success resets that network's count; a password reset or change resets every network's;
 * - a network quiet for FORGET_AFTER_MS starts again from zero. Code sign-in and reset ignore all of this.
 * The counters live in password_failures (sign-in/db.ts).
 */
export const SLIDER_AFTER = 3;
export const LOCK_EVERY = 10;
export const ACCOUNT_SLIDER_AFTER = LOCK_EVERY;
export const LOCK_BASE_MS = 15 * 60 * 1000;
/** The longest lock: 15 min doubles to 16 h after 6 locks, and the 7th and later stop at 24 h. */
export const MAX_LOCK_MS = 24 * 60 * 60 * 1000;
export const FORGET_AFTER_MS = MAX_LOCK_MS;

/** The numbers above, as sign-in/db.ts counts with them. */
export const THROTTLE: ThrottlePolicy = {
  sliderAfter: SLIDER_AFTER,
  accountSliderAfter: ACCOUNT_SLIDER_AFTER,
  lockEvery: LOCK_EVERY,
  lockBaseMs: LOCK_BASE_MS,
  maxLockMs: MAX_LOCK_MS,
  forgetAfterMs: FORGET_AFTER_MS,
};

export function isLocked(state: ThrottleState, now: number): boolean {
  return state.lockedUntil !== null && state.lockedUntil > now;
}

export function needsSlider(state: ThrottleState): boolean {
  return state.here >= SLIDER_AFTER || state.everywhere >= ACCOUNT_SLIDER_AFTER;
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
