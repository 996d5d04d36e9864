import { Hono } from 'hono';
import { partnerLoginRequest } from '../../../src/schemas/password';
import { readJson } from '../body';
import { consumeSliderCheck } from '../services/captcha';
import { now } from '../services/clock';
import { phoneRecipient } from '../services/identity';
import { passwordSignIn, type AuthEnv } from './auth';

/**
 * POST agg-web/partner/v2/passwordLogin (spec 7, issue 4): the navigator partner signs in by phone and
 * password with the slider on every attempt (captchaType 2).
 *
 * - The sliderCheck (scene 'login', bound to this phone) is consumed first: CP0003 when missing, forged,
 *   used or bound to another phone. So each password guess costs a solved slider.
 * - Unknown phone, an account that is not a partner (is_partner 0), a wrong password, a wrong protocol
 *   version and a locked account all answer the same US0010, after the same KDF work.
 * - A partner's wrong password counts toward the lockout of security baseline "Lockout"; success resets it.
 * - A legacy record asked with version 2 answers SY9990 (the client retries with the salt of getUserSalt).
 * - `newPassword` (the insecure-password modal) replaces the password, clears the original flag and ends
 *   every other session, as on the platform login.
 * - The session is of kind 'partner'. The answer is the login response plus oauthVO, which the edge turns
 *   into the HttpOnly cookie of the host: navigator_token on the navigator host.
 */
export const partnerRoutes = new Hono<AuthEnv>().post('/agg-web/partner/v2/passwordLogin', async (c) => {
  const body = await readJson(c, partnerLoginRequest);
  const phone = phoneRecipient(body.phoneCode, body.phone);
  await consumeSliderCheck(c.env, body.sliderCheck, { scene: 'login', subject: phone, now: now(c) });
  return passwordSignIn(c, { phone }, body, { kind: 'partner', partnersOnly: true, sliderPassed: true });
});
