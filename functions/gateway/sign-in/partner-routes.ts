import { Hono } from 'hono';
import { partnerLoginRequest } from '../../../src/schemas/password';
import { identityKey } from '../identity/db/people';
import { consumeSliderCheck } from '../captcha/service';
import { now } from '../../contract';
import { identity } from '../identity/sign-in-names';
import { passwordSignIn, type SignInEnv } from './service';
import { validate } from '../validate';

/**
 * POST agg-web/partner/v2/passwordLogin: the navigator partner signs in by phone and
 * password with the slider on every attempt (captchaType 2).
 *
 * - The sliderCheck (scene 'login', bound to this phone) is consumed first: CP0003 when missing, forged,
 *   used or bound to another phone. So each password guess costs a solved slider.
 * - Everything else is the password sign-in of sign-in/service.ts: an unknown phone and an account that
 *   is not a partner (is_partner 0) answer like a wrong password (US0010, same KDF work, counted against
 *   the phone from this network), SY9990 for a legacy record, the insecure-password `newPassword`.
 * - The session is of kind 'partner'. The answer is the login response plus oauthVO, which the edge turns
 *   into the HttpOnly cookie of the host: navigator_token on the navigator host.
 */
export const partnerRoutes = new Hono<SignInEnv>().post('/agg-web/partner/v2/passwordLogin', validate('json', partnerLoginRequest), async (c) => {
  const body = c.req.valid('json');
  const name = identity({ loginType: 1, mobileCode: body.phoneCode, mobile: body.phone });
  await consumeSliderCheck(c.env, body.sliderCheck, { scene: 'login', subject: identityKey(name), now: now(c) });
  return passwordSignIn(c, name, body, { kind: 'partner', partnersOnly: true, humanChecked: true });
});
