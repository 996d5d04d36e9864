import { Hono } from 'hono';
import { LOGIN_TYPE } from '../../../src/schemas/auth';
import { changePasswordRequest, resetPasswordRequest, resetSendCodeRequest } from '../../../src/schemas/password';
import type { WorkerEnv } from '../../env';
import { readJson } from '../body';
import { findUserByIdentity, identityKey, resetPasswordFailuresStatement, runBatch, setPasswordStatement, storedPasswordOf, type LoginIdentity } from '../db/users';
import { clientIp, GatewayError, ok, requestLang } from '../errors';
import { consumeSliderCheck } from '../services/captcha';
import { now } from '../services/clock';
import { consumeCode, issueCode, MAX_TRIES } from '../services/codes';
import { emailRecipient, phoneRecipient } from '../services/identity';
import { assertNewPasswordAllowed, hashPassword, verifyPassword } from '../services/passwords';
import { requireSession, revokeAllSessionsOfUser, type SessionVariables } from '../services/sessions';

type PasswordEnv = { Bindings: WorkerEnv; Variables: SessionVariables };

/**
 * Password reset and change (issue 4), the spec's "not shown" calls in the usual envelope:
 *
 * - `agg-web/user/password/reset/sendCode` sends a 'verify' code (codes.ts: 5 min, 5 tries, single use, 60 s
 *   resend wait, send caps) to a phone (after a passed slider of scene 'sms') or an e-mail. For an unknown
 *   phone or e-mail it sends nothing but answers exactly the same, waits and caps included (a decoy code).
 * - `agg-web/user/password/reset` consumes that code and stores the new password: the old one stops working
 *   at once, the original-password flag and the password failures/lock clear, every session of the user ends.
 *   A code for an unknown account fails like a wrong code.
 * - `agg-web/user/changePassword` (session) does the same for the signed-in person, keeping this session.
 */

function resetIdentity(body: { loginType: 1 | 2; mobileCode?: string; mobile?: string; loginEmail?: string }): LoginIdentity {
  if (body.loginType === LOGIN_TYPE.phone) {
    if (!body.mobileCode || !body.mobile) throw new GatewayError('US0005');
    return { phone: phoneRecipient(body.mobileCode, body.mobile) };
  }
  if (!body.loginEmail) throw new GatewayError('US0005');
  return { email: emailRecipient(body.loginEmail) };
}


/** RS0001 unless both hashes are equal (the client checks the same before sending). */
function assertConfirmed(body: { newPassword: string; newPasswordSubmit: string }) {
  if (body.newPassword !== body.newPasswordSubmit) throw new GatewayError('RS0001');
}

export const passwordRoutes = new Hono<PasswordEnv>()
  .post('/agg-web/user/password/reset/sendCode', async (c) => {
    const body = await readJson(c, resetSendCodeRequest);
    const at = now(c);
    const identity = resetIdentity(body);
    const recipient = identityKey(identity);
    const channel = 'phone' in identity ? 'sms' : 'email';
    // The slider is asked of every phone, known or not, before anything else is looked up.
    if (channel === 'sms') {
      if (!body.sliderCheck) throw new GatewayError('CP0003');
      await consumeSliderCheck(c.env, body.sliderCheck, { scene: 'sms', subject: recipient, now: at });
    }
    // An unknown account gets a code nobody receives (a decoy) under the same waits and caps, so it answers alike.
    const user = await findUserByIdentity(c.env.DB, identity);
    await issueCode(c.env, { recipient, channel, purpose: 'verify', ip: clientIp(c), now: at, lang: requestLang(c), deliver: user !== null });
    return ok(c, null);
  })

  .post('/agg-web/user/password/reset', async (c) => {
    const body = await readJson(c, resetPasswordRequest);
    const at = now(c);
    const db = c.env.DB;
    const identity = resetIdentity(body);
    // Checked before the code is spent, so the person can fix the form and use the same code.
    assertConfirmed(body);
    await assertNewPasswordAllowed(body.newPassword);
    const user = await findUserByIdentity(db, identity);
    // An unknown account's code (a decoy, or none) answers what consumeCode answers for a wrong code; should a
    // real code exist (from another flow), it still fails like a wrong code.
    await consumeCode(db, { recipient: identityKey(identity), purpose: 'verify', code: body.code, ip: clientIp(c), now: at });
    if (!user) throw new GatewayError('CD0010', { triesLeft: MAX_TRIES - 1 });

    const stored = await hashPassword(body.newPassword, c.env);
    await runBatch(db, [setPasswordStatement(db, user.id, stored, { version: 2, clearOriginalFlag: true }), resetPasswordFailuresStatement(db, user.id)]);
    await revokeAllSessionsOfUser(db, user.id, undefined, at);
    return ok(c, null);
  })

  .use('/agg-web/user/changePassword', requireSession)
  .post('/agg-web/user/changePassword', async (c) => {
    const body = await readJson(c, changePasswordRequest);
    const { user, session } = c.var;
    const db = c.env.DB;
    assertConfirmed(body);
    await assertNewPasswordAllowed(body.newPassword);
    const current = storedPasswordOf(user);
    // The forced change of an original password must actually change it.
    if (current && user.password_version === 2 && (await verifyPassword(body.newPassword, current, c.env)).ok) throw new GatewayError('RS0002');
    const stored = await hashPassword(body.newPassword, c.env);
    await runBatch(db, [setPasswordStatement(db, user.id, stored, { version: 2, clearOriginalFlag: true }), resetPasswordFailuresStatement(db, user.id)]);
    await revokeAllSessionsOfUser(db, user.id, session.token_hash, now(c));
    return ok(c, null);
  });
