import { Hono } from 'hono';
import { changePasswordRequest, resetPasswordRequest, resetSendCodeRequest } from '../../../src/schemas/password';
import type { WorkerEnv } from '../../env';
import { findUserByIdentity, identityKey, storedPasswordOf } from '../identity/db/people';
import { newPasswordStatements } from '../sign-in/service';
import { runBatch } from '../identity/db/batch';
import { clientIp, GatewayError, ok, requestLang, traceIdOf } from '../errors';
import { consumeSliderCheck } from '../captcha/service';
import { now } from '../../contract';
import { consumeCode, issueCode, MAX_TRIES } from '../codes/service';
import { identity } from '../identity/sign-in-names';
import { assertNewPasswordAllowed, hashPassword, verifyPassword } from '../identity/passwords';
import { assertNotBreached } from '../identity/breached-passwords';
import { requireFreshProof } from '../identity/proof';
import { currentPasswordChecked } from '../step-up/service';
import { askPasskeyReviewStatement } from '../identity/db/proof';
import { requireSession, revokeAllSessionsOfUser } from '../sessions/service';
import { type SessionVariables } from '../identity/db/sessions';
import { validate } from '../validate';
import { ERR } from '../../../src/schemas/error-codes';

type PasswordEnv = { Bindings: WorkerEnv; Variables: SessionVariables };

/**
 * Password reset and change, answered in the usual envelope:
 *
 * - `agg-web/user/password/reset/sendCode` sends a 'verify' code (codes.ts: 5 min, 5 tries, single use, 60 s
 *   resend wait, send caps) to a phone (after a passed slider of scene 'sms') or an e-mail. For an unknown
 *   phone or e-mail it sends nothing but answers exactly the same, waits and caps included (a decoy code); the
 *   message is delivered after the answer (waitUntil), so the answer takes as long either way, and a failed
 *   delivery is withdrawn there (the person may ask again at once) instead of answering DL0001.
 * - `agg-web/user/password/reset` consumes that code and stores the new password: the old one stops working
 *   at once, the original-password flag and the password failures/lock clear, every session of the user ends.
 *   A code for an unknown account fails like a wrong code. An account with passkeys is asked to review them
 *   (identity/db/proof.ts askPasskeyReviewStatement): the user center lists them with a notice after the reset.
 * - `agg-web/user/changePassword` (session) does the same for the signed-in person, keeping this session,
 *   once the session has a fresh proof of the person (identity/proof.ts): a session alone must not be enough
 *   to take the account over. An account with a password also gives the current one on the change itself,
 *   whatever the proof's age (identity/proof.ts currentPasswordChecked; PW0004 without it, PW0003 wrong). The forced change of an original password needs nothing more: the sign-in that
 *   found the flag is itself a fresh proof.
 */

/** RS0001 unless both hashes are equal (the client checks the same before sending). */
function assertConfirmed(body: { newPassword: string; newPasswordSubmit: string }) {
  if (body.newPassword !== body.newPasswordSubmit) throw new GatewayError(ERR.PASSWORDS_DIFFER);
}

export const passwordRoutes = new Hono<PasswordEnv>()
  .post('/agg-web/user/password/reset/sendCode', validate('json', resetSendCodeRequest), async (c) => {
    const body = c.req.valid('json');
    const at = now(c);
    const name = identity(body);
    const recipient = identityKey(name);
    const channel = 'phone' in name ? 'sms' : 'email';
    // The slider is asked of every phone, known or not, before anything else is looked up.
    if (channel === 'sms') {
      if (!body.sliderCheck) throw new GatewayError(ERR.CAPTCHA_SLIDE_FAILED);
      await consumeSliderCheck(c.env, body.sliderCheck, { scene: 'sms', subject: recipient, now: at });
    }
    // An unknown account gets a code nobody receives (a decoy) under the same waits and caps, so it answers alike.
    const user = await findUserByIdentity(c.env.DB, name);
    await issueCode(c.env, { recipient, channel, purpose: 'verify', ip: clientIp(c), now: at, lang: requestLang(c), traceId: traceIdOf(c), deliver: user !== null,
      humanChecked: channel === 'sms',
      // Delivered after the answer, so a known address does not answer later than an unknown one.
      background: (work) => c.executionCtx.waitUntil(work) });
    return ok(c, null);
  })

  .post('/agg-web/user/password/reset', validate('json', resetPasswordRequest), async (c) => {
    const body = c.req.valid('json');
    const at = now(c);
    const db = c.env.DB;
    const name = identity(body);
    // Checked before the code is spent, so the person can fix the form and use the same code.
    assertConfirmed(body);
    await assertNewPasswordAllowed(db, body.newPassword);
    await assertNotBreached(c.env, body.newPasswordSha1, at);
    const user = await findUserByIdentity(db, name);
    // An unknown account's code (a decoy, or none) answers what consumeCode answers for a wrong code; should a
    // real code exist (from another flow), it still fails like a wrong code.
    await consumeCode(db, { recipient: identityKey(name), purpose: 'verify', code: body.code, ip: clientIp(c), now: at });
    if (!user) throw new GatewayError(ERR.CODE_WRONG, { triesLeft: MAX_TRIES - 1 });

    const stored = await hashPassword(body.newPassword, c.env);
    await runBatch(db, [
      ...newPasswordStatements(db, user, stored, { action: 'user.password_reset', at, network: clientIp(c) }),
      // A code proves the e-mail or phone, not every passkey: the person is shown them after signing in.
      askPasskeyReviewStatement(db, user.id, at),
    ]);
    await revokeAllSessionsOfUser(db, user.id, undefined, at);
    return ok(c, null);
  })

  .use('/agg-web/user/changePassword', requireSession, requireFreshProof)
  .post('/agg-web/user/changePassword', validate('json', changePasswordRequest), async (c) => {
    const body = c.req.valid('json');
    const { user, session } = c.var;
    const db = c.env.DB;
    const at = now(c);
    assertConfirmed(body);
    await assertNewPasswordAllowed(db, body.newPassword);
    await assertNotBreached(c.env, body.newPasswordSha1, at);
    const current = storedPasswordOf(user);
    // The current password on the change itself, whatever the proof's age (ASVS 5.0 V6.2.3).
    if (current && !body.currentPassword) throw new GatewayError(ERR.CURRENT_PASSWORD_REQUIRED);
    const confirmed = current ? await currentPasswordChecked({ env: c.env, user, ip: clientIp(c), now: at }, body.currentPassword!) : [];
    // The forced change of an original password must actually change it.
    if (current && user.password_version === 2 && (await verifyPassword(body.newPassword, current, c.env)).ok) throw new GatewayError(ERR.PASSWORD_UNCHANGED);
    const stored = await hashPassword(body.newPassword, c.env);
    await runBatch(db, [...confirmed, ...newPasswordStatements(db, user, stored, { action: 'user.password_changed', at, network: clientIp(c) })]);
    // Every other session ends; the one that made the change stays.
    await revokeAllSessionsOfUser(db, user.id, session.token_hash, at);
    return ok(c, null);
  });
