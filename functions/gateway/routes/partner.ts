import { Hono } from 'hono';
import { TRACELESS, type LoginAnswer } from '../../../src/schemas/auth';
import { partnerLoginRequest } from '../../../src/schemas/password';
import type { WorkerEnv } from '../../env';
import { readJson } from '../body';
import { asLoginCaseMembership, membershipsOfUser } from '../db/companies';
import { findUserByIdentity, recordPasswordFailure, resetPasswordFailuresStatement, runBatch, setPasswordStatement } from '../db/users';
import { fail, GatewayError, ok } from '../errors';
import { consumeSliderCheck } from '../services/captcha';
import { now } from '../services/clock';
import { needsConsent } from '../services/consents';
import { phoneRecipient } from '../services/identity';
import { accountSizeOf } from '../services/login-case';
import { assertNewPasswordAllowed, hashPassword, verifyPassword } from '../services/passwords';
import { isLocked } from '../services/risk';
import { prepareSession, revokeAllSessionsOfUser, SESSION_LIFETIME_S } from '../services/sessions';

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
export const partnerRoutes = new Hono<{ Bindings: WorkerEnv }>().post('/agg-web/partner/v2/passwordLogin', async (c) => {
  const body = await readJson(c, partnerLoginRequest);
  const db = c.env.DB;
  const at = now(c);
  const phone = phoneRecipient(body.phoneCode, body.phone);
  await consumeSliderCheck(c.env, body.sliderCheck, { scene: 'login', subject: phone, now: at });

  const user = await findUserByIdentity(db, { phone });
  if (!user || user.is_partner !== 1 || isLocked({ failedLogins: user.failed_logins, lockedUntil: user.locked_until }, at)) {
    await verifyPassword(body.password, null, c.env);
    throw new GatewayError('US0010');
  }
  if (user.password_version === 1 && body.passwordVersion === 2) return fail(c, 'SY9990');
  const stored =
    user.password_hash && user.password_salt && user.password_algo && user.password_params
      ? { hash: user.password_hash, salt: user.password_salt, algo: user.password_algo, params: user.password_params }
      : null;
  const check = await verifyPassword(body.password, stored, c.env);
  if (!check.ok || body.passwordVersion !== user.password_version) {
    await recordPasswordFailure(db, user.id, at);
    throw new GatewayError('US0010');
  }

  const before = [resetPasswordFailuresStatement(db, user.id)];
  let originalFlag = user.original_flag === 1;
  if (body.newPassword) {
    await assertNewPasswordAllowed(body.newPassword);
    before.push(setPasswordStatement(db, user.id, await hashPassword(body.newPassword, c.env), { version: 2, clearOriginalFlag: true }));
    await revokeAllSessionsOfUser(db, user.id, undefined, at);
    originalFlag = false;
  } else if (check.needsRehash) {
    before.push(setPasswordStatement(db, user.id, await hashPassword(body.password, c.env), { version: user.password_version }));
  }

  const memberships = await membershipsOfUser(db, user.id);
  const main = memberships.find((m) => m.is_main === 1 && accountSizeOf([asLoginCaseMembership(m)]) === 1);
  const session = await prepareSession(db, { userId: user.id, kind: 'partner', now: at, companyId: main?.company_id ?? null });
  await runBatch(db, [...before, session.statement]);
  const answer: LoginAnswer = {
    accountSize: accountSizeOf(memberships.map(asLoginCaseMembership)),
    companyId: main?.company_id ?? null,
    isMaster: Boolean(main),
    originalFlag,
    tracelessCheckResult: TRACELESS.pass,
    userId: user.id,
    newUser: false,
    type: user.user_type,
    needsConsent: await needsConsent(db, user.id),
  };
  return ok(c, {
    ...answer,
    oauthVO: {
      access_token: session.token,
      refresh_token: session.refreshToken,
      token_type: 'bearer',
      expires_in: SESSION_LIFETIME_S,
      isMainAccount: Boolean(main),
    },
  });
});
