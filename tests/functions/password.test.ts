import { describe, expect, it } from 'vitest';
import { createGateway } from '../../functions/gateway/app';
import { CODE_LIFETIME_MS } from '../../functions/gateway/codes/service';
import { LOCK_EVERY } from '../../functions/gateway/sign-in/risk';
import { hashPassword } from '../../src/lib/password-hash';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { useWorkerEnv } from './gateway-client';
import { CHEAP_POW } from './pow-solver';
import { PROOF_PASSWORD_GUESS_CAP } from '../../functions/gateway/step-up/service';

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

    const body = { currentPassword: await hashPassword('OldPass123'), newPassword: await hashPassword('Fresh2024'), newPasswordSubmit: await hashPassword('Fresh2024') };
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
    const currentPassword = await hashPassword('OldPass123');
    const same = { currentPassword, newPassword: await hashPassword('OldPass123'), newPasswordSubmit: await hashPassword('OldPass123') };
    expect((await api.json(await api.post('/agg-web/user/changePassword', same))).code).toBe('TK00001');
    expect((await api.json(await api.post('/agg-web/user/changePassword', same, { cookie }))).code).toBe('RS0002');
    const mismatch = { currentPassword, newPassword: await hashPassword('Fresh2024'), newPasswordSubmit: await hashPassword('Fresh2025') };
    expect((await api.json(await api.post('/agg-web/user/changePassword', mismatch, { cookie }))).code).toBe('RS0001');
    const common = { currentPassword, newPassword: await hashPassword('qwerty123'), newPasswordSubmit: await hashPassword('qwerty123') };
    expect((await api.json(await api.post('/agg-web/user/changePassword', common, { cookie }))).code).toBe('PW0002');
  });

  // Since step-up (identity/proof.ts, tests/functions/step-up.test.ts) the change takes no proof in its body:
  // the session needs a fresh proof (its sign-in is one, for ten minutes), made through agg-web/user/proof/*.
  // These run on a gateway with a clock the test moves, so sessions are named by their bearer token.
  let at = Date.now();
  const onClock = createGateway({ clock: () => at });
  const TEN_MINUTES = 10 * 60 * 1000;
  type Bearer = { headers: { authorization: string } };
  const bearerOf = async (res: Response): Promise<Bearer> => {
    const answer = await api.json<{ oauthVO: { access_token: string } }>(res);
    expect(answer.code).toBe('0');
    return { headers: { authorization: `Bearer ${answer.data.oauthVO.access_token}` } };
  };
  /** The change as the form sends it: the current password of these accounts (OldPass123; none for an account without one) and the new one twice. */
  const change = async (session: Bearer, password: string, from?: string, current: string | null = 'OldPass123') =>
    api.post(
      '/agg-web/user/changePassword',
      { ...(current ? { currentPassword: await hashPassword(current) } : {}), newPassword: await hashPassword(password), newPasswordSubmit: await hashPassword(password) },
      { ...session, from },
    );
  const prove = async (session: Bearer, password: string, from?: string) =>
    api.json<{ proved: boolean }>(await api.post('/agg-web/user/proof/password', { password: await hashPassword(password) }, { ...session, from }));

  it('a session taken within ten minutes of its sign-in (a fresh proof) cannot change the password without the current one, 20 tries at once', async () => {
    await api.throughGateway(onClock, async () => {
      const email = uniqueEmail();
      await api.seed({ email, password: 'OldPass123' });
      const stolen = await bearerOf(await emailLogin(email, 'OldPass123'));
      const from = api.ip();
      const answers = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => (await api.json(await change(stolen, 'Taken2024', from, i % 3 === 1 ? `Guess${1000 + i}` : null))).code),
      );
      // Without it: PW0004; a wrong one (fewer than the proof's 10 an hour, so the owner is not kept out): PW0003.
      expect(answers.filter((_, i) => i % 3 !== 1)).toEqual(Array(13).fill('PW0004'));
      expect(answers.filter((_, i) => i % 3 === 1)).toEqual(Array(7).fill('PW0003'));
      expect((await api.json(await emailLogin(email, 'Taken2024'))).code).toBe('US0010');
      expect((await api.json(await change(stolen, 'Fresh2024', api.ip()))).code).toBe('0');
      expect((await api.json(await emailLogin(email, 'Fresh2024'))).code).toBe('0');
    });
  });

  it('needs a fresh proof from an old session (the current password), and signs out every other session', async () => {
    await api.throughGateway(onClock, async () => {
      const email = uniqueEmail();
      await api.seed({ email, password: 'OldPass123' });
      const other = await bearerOf(await emailLogin(email, 'OldPass123'));
      const mine = await bearerOf(await emailLogin(email, 'OldPass123'));
      at += TEN_MINUTES + 1;
      expect(await api.json(await change(mine, 'Fresh2024'))).toMatchObject({ code: 'SU0001', message: errorCatalogue.SU0001.en });
      expect(await prove(mine, 'NotMine99')).toMatchObject({ code: 'PW0003', message: 'The current password is wrong.' });
      expect((await api.json(await emailLogin(email, 'OldPass123'))).code).toBe('0');
      expect((await prove(mine, 'OldPass123')).data.proved).toBe(true);
      expect((await api.json(await change(mine, 'Fresh2024'))).code).toBe('0');
      expect((await api.json(await api.post('/agg-web/quick/user/findUserLoginCase', {}, mine))).code).toBe('0');
      expect((await api.json(await api.post('/agg-web/quick/user/findUserLoginCase', {}, other))).code).toBe('TK00001');
      expect((await api.json(await emailLogin(email, 'Fresh2024'))).code).toBe('0');
    });
  });

  it('a stolen session guessing the current password in parallel is locked out and changes nothing', async () => {
    await api.throughGateway(onClock, async () => {
      const email = uniqueEmail();
      await api.seed({ email, password: 'OldPass123' });
      const stolen = await bearerOf(await emailLogin(email, 'OldPass123'));
      at += TEN_MINUTES + 1;
      const from = api.ip();
      const guesses = await Promise.all(Array.from({ length: 30 }, (_, i) => prove(stolen, `Guess${1000 + i}`, from)));
      // At most PROOF_PASSWORD_GUESS_CAP are compared (wrong: PW0003); the rest wait for the hour (SU0005).
      expect(guesses.every((g) => g.code === 'PW0003' || g.code === 'SU0005')).toBe(true);
      expect(guesses.filter((g) => g.code === 'PW0003').length).toBeLessThanOrEqual(PROOF_PASSWORD_GUESS_CAP);
      // Past LOCK_EVERY failures even the right current password is refused from that network.
      expect(guesses.length).toBeGreaterThan(LOCK_EVERY);
      expect(['PW0003', 'SU0005']).toContain((await prove(stolen, 'OldPass123', from)).code);
      expect((await api.json(await change(stolen, 'Taken2024', from))).code).toBe('SU0001');
      expect((await api.json(await emailLogin(email, 'Taken2024'))).code).toBe('US0010');
      expect((await api.json(await emailLogin(email, 'OldPass123'))).code).toBe('0');
    });
  }, 90_000);

  it('lets the forced change right after the sign-in go without another proof (the sign-in is one), not later', async () => {
    await api.throughGateway(onClock, async () => {
      const email = uniqueEmail();
      await api.seed({ email, password: 'OldPass123', originalFlag: true });
      const late = await bearerOf(await emailLogin(email, 'OldPass123'));
      const session = await bearerOf(await emailLogin(email, 'OldPass123'));
      expect((await api.json(await change(session, 'Fresh2024'))).code).toBe('0');
      at += TEN_MINUTES + 1;
      // (The change ended the other session; a later forced change of an old session needs the proof.)
      expect((await api.json(await change(late, 'Fresh2025'))).code).toBe('TK00001');
      const email2 = uniqueEmail();
      await api.seed({ email: email2, password: 'OldPass123', originalFlag: true });
      const old = await bearerOf(await emailLogin(email2, 'OldPass123'));
      at += TEN_MINUTES + 1;
      expect((await api.json(await change(old, 'Fresh2024'))).code).toBe('SU0001');
    });
  });

  it('asks a person without a password for a code sent to the account', async () => {
    await api.throughGateway(onClock, async () => {
      const email = uniqueEmail();
      await api.seed({ email });
      // Signs in by a code (a fresh one each time: the resend wait is not this test's subject).
      const codeSignIn = async () => {
        await worker.env.DB.prepare('DELETE FROM codes WHERE recipient = ?').bind(email).run();
        expect((await api.json(await api.post('/agg-web/user/getRegVerificationCode', { emailAddress: email, type: 3 }))).code).toBe('0');
        return bearerOf(await api.post('/agg-web/quick/user/login', { loginType: 2, loginEmail: email, code: await api.latestCode(email), agreed: true }));
      };
      const other = await codeSignIn();
      const session = await codeSignIn();
      at += TEN_MINUTES + 1;
      const start = await api.json<{ password: boolean; code: string }>(await api.post('/agg-web/user/proof/start', {}, session));
      expect(start.data).toMatchObject({ password: false, code: 'email' });
      expect((await api.json(await change(session, 'First2024', undefined, null))).code).toBe('SU0001');
      expect((await prove(session, 'Anything1')).code).toBe('SU0004');
      await worker.env.DB.prepare('DELETE FROM codes WHERE recipient = ?').bind(email).run();
      expect((await api.json(await api.post('/agg-web/user/proof/sendCode', {}, session))).code).toBe('0');
      const code = await api.latestCode(email);
      expect((await api.json(await api.post('/agg-web/user/proof/code', { code: code === '000000' ? '111111' : '000000' }, session))).code).toBe('CD0010');
      expect((await api.json(await api.post('/agg-web/user/proof/code', { code }, session))).code).toBe('0');
      expect((await api.json(await change(session, 'First2024', undefined, null))).code).toBe('0');
      expect((await api.json(await emailLogin(email, 'First2024'))).code).toBe('0');
      expect((await api.json(await api.post('/agg-web/quick/user/findUserLoginCase', {}, other))).code).toBe('TK00001');
      expect((await api.json(await api.post('/agg-web/quick/user/findUserLoginCase', {}, session))).code).toBe('0');
    });
  });
});
