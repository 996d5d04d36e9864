import { describe, expect, it } from 'vitest';
import { createGateway } from '../../functions/gateway/app';
import { CODE_LIFETIME_MS } from '../../functions/gateway/services/codes';
import { FORCED_CHANGE_WINDOW_MS } from '../../functions/gateway/routes/password';
import { LOCK_EVERY } from '../../functions/gateway/services/risk';
import { hashPassword } from '../../src/lib/password-hash';
import { useWorkerEnv } from './gateway-client';
import { CHEAP_POW } from './pow-solver';

/**
 * Password reset and change (issue 4) through the whole Worker on a real local D1: the edge's cookie rules
 * apply, codes are read from the dev outbox, sliders are dragged with the dev reveal.
 */
const { worker, api } = useWorkerEnv('password', CHEAP_POW);

const uniqueEmail = () => `reset.${api.unique()}@example.com`;
const emailLogin = (email: string, password: string) => api.emailLogin(email, password);
const phoneLogin = async (mobile: string, password: string) =>
  api.post('/agg-web/user/loginByPhone', { mobile, mobileCode: '+86', password: await hashPassword(password), passwordVersion: 2, loginType: 101, captchaType: 3 });

const sendEmailCode = (email: string) => api.post('/agg-web/user/password/reset/sendCode', { loginType: 2, loginEmail: email });
const resetByEmail = async (email: string, code: string, password: string, confirm = password) =>
  api.post('/agg-web/user/password/reset', {
    loginType: 2,
    loginEmail: email,
    code,
    newPassword: await hashPassword(password),
    newPasswordSubmit: await hashPassword(confirm),
  });

describe('password reset', () => {
  it('resets by e-mail: the old password stops at once, the new one works, sessions and the flag end', async () => {
    const email = uniqueEmail();
    await api.seed({ email, password: 'OldPass123', originalFlag: true });
    const before = await emailLogin(email, 'OldPass123');
    expect((await api.json(before)).code).toBe('0');
    const cookie = api.sessionCookie(before);

    expect((await api.json(await sendEmailCode(email))).code).toBe('0');
    const code = await api.latestCode(email);
    const reset = await api.json(await resetByEmail(email, code, 'NewPass456'));
    expect(reset).toMatchObject({ code: '0', data: null });

    expect((await api.json(await emailLogin(email, 'OldPass123'))).code).toBe('US0010');
    const after = await api.json<{ originalFlag: boolean }>(await emailLogin(email, 'NewPass456'));
    expect(after.code).toBe('0');
    expect(after.data.originalFlag).toBe(false);
    // The session from before the reset is revoked on the server.
    expect((await api.json(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie }))).code).toBe('TK00001');
  });

  it('resets by phone after a slider, and refuses a phone code request without one', async () => {
    const mobile = api.mobile('137');
    await api.seed({ phone: { callingCode: '+86', mobile }, password: 'OldPass123' });
    const noSlider = await api.json(await api.post('/agg-web/user/password/reset/sendCode', { loginType: 1, mobileCode: '+86', mobile }));
    expect(noSlider.code).toBe('CP0003');
    const sliderCheck = await api.sliderCheck('sms', `+86${mobile}`);
    expect((await api.json(await api.post('/agg-web/user/password/reset/sendCode', { loginType: 1, mobileCode: '+86', mobile, sliderCheck }))).code).toBe('0');
    const code = await api.latestCode(`+86${mobile}`);
    const reset = await api.post('/agg-web/user/password/reset', {
      loginType: 1,
      mobileCode: '+86',
      mobile,
      code,
      newPassword: await hashPassword('Phone2024x'),
      newPasswordSubmit: await hashPassword('Phone2024x'),
    });
    expect((await api.json(reset)).code).toBe('0');
    expect((await api.json(await phoneLogin(mobile, 'OldPass123'))).code).toBe('US0010');
    expect((await api.json(await phoneLogin(mobile, 'Phone2024x'))).code).toBe('0');
  });

  it('answers an unknown e-mail exactly like a known one, sends nothing, and keeps the resend wait', async () => {
    const known = uniqueEmail();
    const unknown = uniqueEmail();
    await api.seed({ email: known, password: 'OldPass123' });
    const a = await sendEmailCode(known);
    const b = await sendEmailCode(unknown);
    expect(b.status).toBe(a.status);
    expect(await api.json(b)).toEqual(await api.json(a));
    expect(await api.outbox(unknown)).toEqual([]);
    // A second request within 60 s: the same CD0001 for both.
    const a2 = await api.json(await sendEmailCode(known));
    const b2 = await api.json(await sendEmailCode(unknown));
    expect(a2.code).toBe('CD0001');
    expect(b2.code).toBe(a2.code);
  });

  it('fails a reset for an unknown account like a wrong code', async () => {
    const known = uniqueEmail();
    const unknown = uniqueEmail();
    await api.seed({ email: known, password: 'OldPass123' });
    expect((await api.json(await sendEmailCode(known))).code).toBe('0');
    expect((await api.json(await sendEmailCode(unknown))).code).toBe('0');
    const wrongKnown = await resetByEmail(known, '000000', 'NewPass456');
    const guessUnknown = await resetByEmail(unknown, '000000', 'NewPass456');
    expect(guessUnknown.status).toBe(wrongKnown.status);
    const known1 = await api.json(wrongKnown);
    expect(await api.json(guessUnknown)).toEqual(known1);
    expect(known1.code).toBe('CD0010');
  });

  it('refuses a reused reset code', async () => {
    const email = uniqueEmail();
    await api.seed({ email, password: 'OldPass123' });
    expect((await api.json(await sendEmailCode(email))).code).toBe('0');
    const code = await api.latestCode(email);
    expect((await api.json(await resetByEmail(email, code, 'NewPass456'))).code).toBe('0');
    expect((await api.json(await resetByEmail(email, code, 'Other7890'))).code).toBe('CD0014');
    expect((await api.json(await emailLogin(email, 'NewPass456'))).code).toBe('0');
  });

  it('refuses mismatched and common passwords before spending the code, in both languages', async () => {
    const email = uniqueEmail();
    await api.seed({ email, password: 'OldPass123' });
    expect((await api.json(await sendEmailCode(email))).code).toBe('0');
    const code = await api.latestCode(email);
    const mismatch = await resetByEmail(email, code, 'NewPass456', 'NewPass457');
    expect(mismatch.status).toBe(400);
    expect(await api.json(mismatch)).toMatchObject({ code: 'RS0001', message: 'The two passwords must be the same.' });
    const zh = await api.post(
      '/agg-web/user/password/reset',
      { loginType: 2, loginEmail: email, code, newPassword: await hashPassword('a1b2c3d4'), newPasswordSubmit: await hashPassword('x1b2c3d4') },
      { lang: 'zh' },
    );
    expect((await api.json(zh)).message).toBe('两次输入的密码必须一致。');
    expect((await api.json(await resetByEmail(email, code, 'password1'))).code).toBe('PW0002');
    // The code is still good.
    expect((await api.json(await resetByEmail(email, code, 'NewPass456'))).code).toBe('0');
  });

  it('lets an expired code fail and clears a password lock on success', async () => {
    const email = uniqueEmail();
    await api.seed({ email, password: 'OldPass123' });
    for (let i = 0; i < 10; i++) await api.json(await emailLogin(email, 'Wrong0000'));
    let at = Date.now();
    await api.throughGateway(createGateway({ clock: () => at }), async () => {
      expect((await api.json(await sendEmailCode(email))).code).toBe('0');
      const code = await api.latestCode(email);
      at += CODE_LIFETIME_MS + 1;
      expect((await api.json(await resetByEmail(email, code, 'NewPass456'))).code).toBe('CD0011');
      at += 61_000;
      expect((await api.json(await sendEmailCode(email))).code).toBe('0');
      expect((await api.json(await resetByEmail(email, await api.latestCode(email), 'NewPass456'))).code).toBe('0');
    });
    // Locked before; the reset ended the lock and the failure run.
    expect((await api.json(await emailLogin(email, 'NewPass456'))).code).toBe('0');
  });

  it('rejects malformed bodies with GW0400', async () => {
    expect((await api.json(await api.post('/agg-web/user/password/reset', { loginType: 2, loginEmail: 'x@example.com', code: '1', newPassword: 'plain', newPasswordSubmit: 'plain' }))).code).toBe('GW0400');
    expect((await api.json(await api.post('/agg-web/user/password/reset/sendCode', { loginType: 2 }))).code).toBe('US0005');
  });
});

describe('password change', () => {
  it('changes the password of the session: flag cleared, other sessions revoked, this one kept', async () => {
    const email = uniqueEmail();
    await api.seed({ email, password: 'OldPass123', originalFlag: true, userType: 2 });
    const other = (await api.signIn(email, 'OldPass123')).cookie;
    const first = await api.json<{ originalFlag: boolean }>(await emailLogin(email, 'OldPass123'));
    expect(first.data.originalFlag).toBe(true);
    const mine = (await api.signIn(email, 'OldPass123')).cookie;
    const caseBefore = await api.json<{ userLoginCase: number }>(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: mine }));
    expect(caseBefore.data.userLoginCase).toBe(2);

    const body = { newPassword: await hashPassword('Fresh2024'), newPasswordSubmit: await hashPassword('Fresh2024') };
    expect(await api.json(await api.post('/agg-web/user/changePassword', body, { cookie: mine }))).toMatchObject({ code: '0', data: null });

    const caseAfter = await api.json<{ originalFlag: boolean }>(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: mine }));
    expect(caseAfter.code).toBe('0');
    expect(caseAfter.data.originalFlag).toBe(false);
    expect((await api.json(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: other }))).code).toBe('TK00001');
    expect((await api.json(await emailLogin(email, 'OldPass123'))).code).toBe('US0010');
    expect((await api.json(await emailLogin(email, 'Fresh2024'))).code).toBe('0');
  });

  it('needs a session, matching passwords, and a password other than the current one', async () => {
    const email = uniqueEmail();
    await api.seed({ email, password: 'OldPass123', originalFlag: true });
    const cookie = (await api.signIn(email, 'OldPass123')).cookie;
    const same = { newPassword: await hashPassword('OldPass123'), newPasswordSubmit: await hashPassword('OldPass123') };
    expect((await api.json(await api.post('/agg-web/user/changePassword', same))).code).toBe('TK00001');
    expect((await api.json(await api.post('/agg-web/user/changePassword', same, { cookie }))).code).toBe('RS0002');
    const mismatch = { newPassword: await hashPassword('Fresh2024'), newPasswordSubmit: await hashPassword('Fresh2025') };
    expect((await api.json(await api.post('/agg-web/user/changePassword', mismatch, { cookie }))).code).toBe('RS0001');
    const common = { newPassword: await hashPassword('qwerty123'), newPasswordSubmit: await hashPassword('qwerty123') };
    expect((await api.json(await api.post('/agg-web/user/changePassword', common, { cookie }))).code).toBe('PW0002');
  });

  const change = async (cookie: string, password: string, proof: { current?: string; code?: string } = {}, from?: string) =>
    api.post(
      '/agg-web/user/changePassword',
      {
        newPassword: await hashPassword(password),
        newPasswordSubmit: await hashPassword(password),
        ...(proof.current ? { currentPassword: await hashPassword(proof.current) } : {}),
        ...(proof.code ? { code: proof.code } : {}),
      },
      { cookie, from },
    );
  const proofOf = async (cookie: string) =>
    (await api.json<{ proof: string; salt: string | null }>(await api.get('/agg-web/user/changePassword/proof', { cookie }))).data;

  it('needs the current password from a session alone, and signs out every other session', async () => {
    const email = uniqueEmail();
    await api.seed({ email, password: 'OldPass123' });
    const other = (await api.signIn(email, 'OldPass123')).cookie;
    const mine = (await api.signIn(email, 'OldPass123')).cookie;
    expect(await proofOf(mine)).toEqual({ proof: 'password', salt: null });
    expect(await api.json(await change(mine, 'Fresh2024'))).toMatchObject({ code: 'PW0004', message: 'Please enter your current password.' });
    expect(await api.json(await change(mine, 'Fresh2024', { current: 'NotMine99' }))).toMatchObject({ code: 'PW0003', message: 'The current password is wrong.' });
    expect((await api.json(await emailLogin(email, 'OldPass123'))).code).toBe('0');
    expect((await api.json(await change(mine, 'Fresh2024', { current: 'OldPass123' }))).code).toBe('0');
    expect((await api.json(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: mine }))).code).toBe('0');
    expect((await api.json(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: other }))).code).toBe('TK00001');
    expect((await api.json(await emailLogin(email, 'Fresh2024'))).code).toBe('0');
  });

  it('a stolen session guessing the current password in parallel is locked out and changes nothing', async () => {
    const email = uniqueEmail();
    await api.seed({ email, password: 'OldPass123' });
    const stolen = (await api.signIn(email, 'OldPass123')).cookie;
    const from = api.ip();
    const guesses = await Promise.all(Array.from({ length: 30 }, (_, i) => change(stolen, 'Taken2024', { current: `Guess${1000 + i}` }, from).then(api.json)));
    expect(guesses.every((g) => g.code === 'PW0003')).toBe(true);
    // Past LOCK_EVERY failures even the right current password is refused from that network.
    expect(guesses.length).toBeGreaterThan(LOCK_EVERY);
    expect((await api.json(await change(stolen, 'Taken2024', { current: 'OldPass123' }, from))).code).toBe('PW0003');
    expect((await api.json(await emailLogin(email, 'Taken2024'))).code).toBe('US0010');
    expect((await api.json(await emailLogin(email, 'OldPass123'))).code).toBe('0');
  }, 90_000);

  it('lets only the forced change right after the sign-in skip the proof', async () => {
    let at = Date.now();
    await api.throughGateway(createGateway({ clock: () => at }), async () => {
      const email = uniqueEmail();
      await api.seed({ email, password: 'OldPass123', originalFlag: true });
      const signIn = await api.emailLogin(email, 'OldPass123');
      const token = (await api.json<{ oauthVO: { access_token: string } }>(signIn)).data.oauthVO.access_token;
      const bearer = { headers: { authorization: `Bearer ${token}` } };
      const proof = async () => (await api.json<{ proof: string }>(await api.get('/agg-web/user/changePassword/proof', bearer))).data.proof;
      const changeNow = async () =>
        api.json(
          await api.post('/agg-web/user/changePassword', { newPassword: await hashPassword('Fresh2024'), newPasswordSubmit: await hashPassword('Fresh2024') }, bearer),
        );
      expect(await proof()).toBe('none');
      at += FORCED_CHANGE_WINDOW_MS + 1;
      expect(await proof()).toBe('password');
      expect((await changeNow()).code).toBe('PW0004');
      at -= 2;
      expect((await changeNow()).code).toBe('0');
    });
  });

  it('asks a person without a password for a code sent to the account', async () => {
    const email = uniqueEmail();
    await api.seed({ email });
    // Signs in by a code (a fresh one each time: the resend wait is not this test's subject).
    const codeSignIn = async () => {
      await worker.env.DB.prepare('DELETE FROM codes WHERE recipient = ?').bind(email).run();
      expect((await api.json(await api.post('/agg-web/user/getRegVerificationCode', { emailAddress: email, type: 3 }))).code).toBe('0');
      const signedIn = await api.post('/agg-web/quick/user/login', { loginType: 2, loginEmail: email, code: await api.latestCode(email), agreed: true });
      expect((await api.json(signedIn)).code).toBe('0');
      return api.sessionCookie(signedIn);
    };
    const other = await codeSignIn();
    const cookie = await codeSignIn();
    expect(await proofOf(cookie)).toEqual({ proof: 'code', salt: null });
    expect((await api.json(await change(cookie, 'First2024'))).code).toBe('PW0005');
    expect((await api.json(await change(cookie, 'First2024', { current: 'Anything1' }))).code).toBe('PW0005');
    await worker.env.DB.prepare('DELETE FROM codes WHERE recipient = ?').bind(email).run();
    expect((await api.json(await api.post('/agg-web/user/changePassword/sendCode', {}, { cookie }))).code).toBe('0');
    const code = await api.latestCode(email);
    expect((await api.json(await change(cookie, 'First2024', { code: code === '000000' ? '111111' : '000000' }))).code).toBe('CD0010');
    expect((await api.json(await change(cookie, 'First2024', { code }))).code).toBe('0');
    expect((await api.json(await emailLogin(email, 'First2024'))).code).toBe('0');
    expect((await api.json(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: other }))).code).toBe('TK00001');
    expect((await api.json(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie }))).code).toBe('0');
  });
});
