import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hono } from 'hono';
import type { EdgeBindings } from '../../functions/env';
import { createGateway } from '../../functions/gateway/app';
import app from '../../functions/worker';
import { CODE_LIFETIME_MS } from '../../functions/gateway/services/codes';
import { FORCED_CHANGE_WINDOW_MS } from '../../functions/gateway/routes/password';
import { LOCK_EVERY } from '../../functions/gateway/services/risk';
import { hashPassword } from '../../src/lib/password-hash';
import { LOGIN_CLIENT } from '../../src/schemas/auth';
import { startWorkerEnv } from './worker-env';
import { CHEAP_POW, solvePow, type PowChallenge } from './pow-solver';

/**
 * Password reset and change (issue 4) through the whole Worker on a real local D1: the edge's cookie rules
 * apply, codes are read from the dev outbox, sliders are dragged with the dev reveal.
 */
let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
beforeAll(async () => {
  worker = await startWorkerEnv('password', CHEAP_POW);
});
afterAll(() => worker.dispose());

let seq = 0;
const unique = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;
const uniqueEmail = () => `reset.${unique()}@example.com`;
const uniqueMobile = () => `137${String(Date.now() % 1e5).padStart(5, '0')}${String(seq++ % 1000).padStart(3, '0')}`;
const ip = () => `10.7.${seq % 250}.${(seq++ * 7) % 250}`;

type Envelope<T = Record<string, unknown>> = { code: string; message: string; data: T };
let gatewayOnClock: Hono<EdgeBindings> | null = null;
const call = (path: string, init: RequestInit = {}) =>
  gatewayOnClock ? gatewayOnClock.request(path, init, worker.env, worker.ctx) : app.request(`http://localhost/api${path}`, init, worker.env, worker.ctx);
function post(path: string, body: unknown, { cookie, lang, from }: { cookie?: string; lang?: string; from?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cf-connecting-ip': from ?? ip(), 'x-client-ip': from ?? ip() };
  if (cookie) headers.cookie = cookie;
  if (lang) headers.cookie = `${headers.cookie ? `${headers.cookie}; ` : ''}LANG=${lang}`;
  return call(path, { method: 'POST', headers, body: JSON.stringify(body) });
}
const json = async <T = Record<string, unknown>>(res: Response) => (await res.json()) as Envelope<T>;
const sessionCookie = (res: Response) => `portal_token=${/(?:^|\n)portal_token=([^;]*)/.exec(res.headers.getSetCookie().join('\n'))?.[1]}`;

const seed = async (body: Record<string, unknown>) => {
  const res = await json<{ userId: string }>(await post('/dev/users', { agreed: true, ...body }));
  expect(res.code).toBe('0');
  return res.data.userId;
};
const outbox = async (to: string) => (await json<{ text: string }[]>(await call(`/dev/outbox?to=${encodeURIComponent(to)}`))).data;
const latestCode = async (to: string) => /\b(\d{4,8})\b/.exec((await outbox(to))[0]!.text)![1]!;

async function passSlider(scene: 'sms' | 'login', subject: string) {
  const challenge = await json<{ sessionId: string; pow: PowChallenge }>(await post('/agg-web/captcha/slider/init', { scene, subject }));
  const x = (await json<{ x: number }>(await call(`/dev/captcha/${challenge.data.sessionId}`))).data.x;
  const trail: [number, number][] = [0, 0.2, 0.45, 0.7, 0.85, 0.95, 1].map((p, i) => [i * 60 + (i % 2) * 15, Math.round(x * p)]);
  const pow = await solvePow(challenge.data.pow);
  const verified = await json(await post('/agg-web/captcha/slider/verify', { sessionId: challenge.data.sessionId, x, trail, pow }));
  expect(verified.code).toBe('0');
  return verified.data;
}

const emailLogin = async (email: string, password: string) =>
  post('/agg-web/user/v3/userLogin', { loginEmail: email, loginPassword: await hashPassword(password), passwordVersion: 2, captchaType: 3, ...LOGIN_CLIENT });
const phoneLogin = async (mobile: string, password: string) =>
  post('/agg-web/user/loginByPhone', { mobile, mobileCode: '+86', password: await hashPassword(password), passwordVersion: 2, loginType: 101, captchaType: 3 });

const sendEmailCode = (email: string) => post('/agg-web/user/password/reset/sendCode', { loginType: 2, loginEmail: email });
const resetByEmail = async (email: string, code: string, password: string, confirm = password) =>
  post('/agg-web/user/password/reset', {
    loginType: 2,
    loginEmail: email,
    code,
    newPassword: await hashPassword(password),
    newPasswordSubmit: await hashPassword(confirm),
  });

describe('password reset', () => {
  it('resets by e-mail: the old password stops at once, the new one works, sessions and the flag end', async () => {
    const email = uniqueEmail();
    await seed({ email, password: 'OldPass123', originalFlag: true });
    const before = await emailLogin(email, 'OldPass123');
    expect((await json(before)).code).toBe('0');
    const cookie = sessionCookie(before);

    expect((await json(await sendEmailCode(email))).code).toBe('0');
    const code = await latestCode(email);
    const reset = await json(await resetByEmail(email, code, 'NewPass456'));
    expect(reset).toMatchObject({ code: '0', data: null });

    expect((await json(await emailLogin(email, 'OldPass123'))).code).toBe('US0010');
    const after = await json<{ originalFlag: boolean }>(await emailLogin(email, 'NewPass456'));
    expect(after.code).toBe('0');
    expect(after.data.originalFlag).toBe(false);
    // The session from before the reset is revoked on the server.
    expect((await json(await post('/agg-web/quick/user/findUserLoginCase', {}, { cookie }))).code).toBe('TK00001');
  });

  it('resets by phone after a slider, and refuses a phone code request without one', async () => {
    const mobile = uniqueMobile();
    await seed({ phone: { callingCode: '+86', mobile }, password: 'OldPass123' });
    const noSlider = await json(await post('/agg-web/user/password/reset/sendCode', { loginType: 1, mobileCode: '+86', mobile }));
    expect(noSlider.code).toBe('CP0003');
    const sliderCheck = await passSlider('sms', `+86${mobile}`);
    expect((await json(await post('/agg-web/user/password/reset/sendCode', { loginType: 1, mobileCode: '+86', mobile, sliderCheck }))).code).toBe('0');
    const code = await latestCode(`+86${mobile}`);
    const reset = await post('/agg-web/user/password/reset', {
      loginType: 1,
      mobileCode: '+86',
      mobile,
      code,
      newPassword: await hashPassword('Phone2024x'),
      newPasswordSubmit: await hashPassword('Phone2024x'),
    });
    expect((await json(reset)).code).toBe('0');
    expect((await json(await phoneLogin(mobile, 'OldPass123'))).code).toBe('US0010');
    expect((await json(await phoneLogin(mobile, 'Phone2024x'))).code).toBe('0');
  });

  it('answers an unknown e-mail exactly like a known one, sends nothing, and keeps the resend wait', async () => {
    const known = uniqueEmail();
    const unknown = uniqueEmail();
    await seed({ email: known, password: 'OldPass123' });
    const a = await sendEmailCode(known);
    const b = await sendEmailCode(unknown);
    expect(b.status).toBe(a.status);
    expect(await json(b)).toEqual(await json(a));
    expect(await outbox(unknown)).toEqual([]);
    // A second request within 60 s: the same CD0001 for both.
    const a2 = await json(await sendEmailCode(known));
    const b2 = await json(await sendEmailCode(unknown));
    expect(a2.code).toBe('CD0001');
    expect(b2.code).toBe(a2.code);
  });

  it('fails a reset for an unknown account like a wrong code', async () => {
    const known = uniqueEmail();
    const unknown = uniqueEmail();
    await seed({ email: known, password: 'OldPass123' });
    await sendEmailCode(known);
    await sendEmailCode(unknown);
    const wrongKnown = await resetByEmail(known, '000000', 'NewPass456');
    const guessUnknown = await resetByEmail(unknown, '000000', 'NewPass456');
    expect(guessUnknown.status).toBe(wrongKnown.status);
    const known1 = await json(wrongKnown);
    expect(await json(guessUnknown)).toEqual(known1);
    expect(known1.code).toBe('CD0010');
  });

  it('refuses a reused reset code', async () => {
    const email = uniqueEmail();
    await seed({ email, password: 'OldPass123' });
    await sendEmailCode(email);
    const code = await latestCode(email);
    expect((await json(await resetByEmail(email, code, 'NewPass456'))).code).toBe('0');
    expect((await json(await resetByEmail(email, code, 'Other7890'))).code).toBe('CD0014');
    expect((await json(await emailLogin(email, 'NewPass456'))).code).toBe('0');
  });

  it('refuses mismatched and common passwords before spending the code, in both languages', async () => {
    const email = uniqueEmail();
    await seed({ email, password: 'OldPass123' });
    await sendEmailCode(email);
    const code = await latestCode(email);
    const mismatch = await resetByEmail(email, code, 'NewPass456', 'NewPass457');
    expect(mismatch.status).toBe(400);
    expect(await json(mismatch)).toMatchObject({ code: 'RS0001', message: 'The two passwords must be the same.' });
    const zh = await post(
      '/agg-web/user/password/reset',
      { loginType: 2, loginEmail: email, code, newPassword: await hashPassword('a1b2c3d4'), newPasswordSubmit: await hashPassword('x1b2c3d4') },
      { lang: 'zh' },
    );
    expect((await json(zh)).message).toBe('两次输入的密码必须一致。');
    expect((await json(await resetByEmail(email, code, 'password1'))).code).toBe('PW0002');
    // The code is still good.
    expect((await json(await resetByEmail(email, code, 'NewPass456'))).code).toBe('0');
  });

  it('lets an expired code fail and clears a password lock on success', async () => {
    const email = uniqueEmail();
    await seed({ email, password: 'OldPass123' });
    for (let i = 0; i < 10; i++) await emailLogin(email, 'Wrong0000');
    let at = Date.now();
    gatewayOnClock = createGateway({ clock: () => at });
    try {
      await sendEmailCode(email);
      const code = await latestCode(email);
      at += CODE_LIFETIME_MS + 1;
      expect((await json(await resetByEmail(email, code, 'NewPass456'))).code).toBe('CD0011');
      at += 61_000;
      await sendEmailCode(email);
      expect((await json(await resetByEmail(email, await latestCode(email), 'NewPass456'))).code).toBe('0');
    } finally {
      gatewayOnClock = null;
    }
    // Locked before; the reset ended the lock and the failure run.
    expect((await json(await emailLogin(email, 'NewPass456'))).code).toBe('0');
  });

  it('rejects malformed bodies with GW0400', async () => {
    expect((await json(await post('/agg-web/user/password/reset', { loginType: 2, loginEmail: 'x@example.com', code: '1', newPassword: 'plain', newPasswordSubmit: 'plain' }))).code).toBe('GW0400');
    expect((await json(await post('/agg-web/user/password/reset/sendCode', { loginType: 2 }))).code).toBe('US0005');
  });
});

describe('password change', () => {
  it('changes the password of the session: flag cleared, other sessions revoked, this one kept', async () => {
    const email = uniqueEmail();
    await seed({ email, password: 'OldPass123', originalFlag: true, userType: 2 });
    const other = sessionCookie(await emailLogin(email, 'OldPass123'));
    const first = await json<{ originalFlag: boolean }>(await emailLogin(email, 'OldPass123'));
    expect(first.data.originalFlag).toBe(true);
    const mine = sessionCookie(await emailLogin(email, 'OldPass123'));
    const caseBefore = await json<{ userLoginCase: number }>(await post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: mine }));
    expect(caseBefore.data.userLoginCase).toBe(2);

    const body = { newPassword: await hashPassword('Fresh2024'), newPasswordSubmit: await hashPassword('Fresh2024') };
    expect(await json(await post('/agg-web/user/changePassword', body, { cookie: mine }))).toMatchObject({ code: '0', data: null });

    const caseAfter = await json<{ originalFlag: boolean }>(await post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: mine }));
    expect(caseAfter.code).toBe('0');
    expect(caseAfter.data.originalFlag).toBe(false);
    expect((await json(await post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: other }))).code).toBe('TK00001');
    expect((await json(await emailLogin(email, 'OldPass123'))).code).toBe('US0010');
    expect((await json(await emailLogin(email, 'Fresh2024'))).code).toBe('0');
  });

  it('needs a session, matching passwords, and a password other than the current one', async () => {
    const email = uniqueEmail();
    await seed({ email, password: 'OldPass123', originalFlag: true });
    const cookie = sessionCookie(await emailLogin(email, 'OldPass123'));
    const same = { newPassword: await hashPassword('OldPass123'), newPasswordSubmit: await hashPassword('OldPass123') };
    expect((await json(await post('/agg-web/user/changePassword', same))).code).toBe('TK00001');
    expect((await json(await post('/agg-web/user/changePassword', same, { cookie }))).code).toBe('RS0002');
    const mismatch = { newPassword: await hashPassword('Fresh2024'), newPasswordSubmit: await hashPassword('Fresh2025') };
    expect((await json(await post('/agg-web/user/changePassword', mismatch, { cookie }))).code).toBe('RS0001');
    const common = { newPassword: await hashPassword('qwerty123'), newPasswordSubmit: await hashPassword('qwerty123') };
    expect((await json(await post('/agg-web/user/changePassword', common, { cookie }))).code).toBe('PW0002');
  });

  const change = async (cookie: string, password: string, proof: { current?: string; code?: string } = {}, from?: string) =>
    post(
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
    (await json<{ proof: string; salt: string | null }>(await call('/agg-web/user/changePassword/proof', { headers: { cookie } }))).data;

  it('needs the current password from a session alone, and signs out every other session', async () => {
    const email = uniqueEmail();
    await seed({ email, password: 'OldPass123' });
    const other = sessionCookie(await emailLogin(email, 'OldPass123'));
    const mine = sessionCookie(await emailLogin(email, 'OldPass123'));
    expect(await proofOf(mine)).toEqual({ proof: 'password', salt: null });
    expect(await json(await change(mine, 'Fresh2024'))).toMatchObject({ code: 'PW0004', message: 'Please enter your current password.' });
    expect(await json(await change(mine, 'Fresh2024', { current: 'NotMine99' }))).toMatchObject({ code: 'PW0003', message: 'The current password is wrong.' });
    expect((await json(await emailLogin(email, 'OldPass123'))).code).toBe('0');
    expect((await json(await change(mine, 'Fresh2024', { current: 'OldPass123' }))).code).toBe('0');
    expect((await json(await post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: mine }))).code).toBe('0');
    expect((await json(await post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: other }))).code).toBe('TK00001');
    expect((await json(await emailLogin(email, 'Fresh2024'))).code).toBe('0');
  });

  it('a stolen session guessing the current password in parallel is locked out and changes nothing', async () => {
    const email = uniqueEmail();
    await seed({ email, password: 'OldPass123' });
    const stolen = sessionCookie(await emailLogin(email, 'OldPass123'));
    const from = ip();
    const guesses = await Promise.all(Array.from({ length: 30 }, (_, i) => change(stolen, 'Taken2024', { current: `Guess${1000 + i}` }, from).then(json)));
    expect(guesses.every((g) => g.code === 'PW0003')).toBe(true);
    // Past LOCK_EVERY failures even the right current password is refused from that network.
    expect(guesses.length).toBeGreaterThan(LOCK_EVERY);
    expect((await json(await change(stolen, 'Taken2024', { current: 'OldPass123' }, from))).code).toBe('PW0003');
    expect((await json(await emailLogin(email, 'Taken2024'))).code).toBe('US0010');
    expect((await json(await emailLogin(email, 'OldPass123'))).code).toBe('0');
  }, 90_000);

  it('lets only the forced change right after the sign-in skip the proof', async () => {
    let at = Date.now();
    gatewayOnClock = createGateway({ clock: () => at });
    try {
      const email = uniqueEmail();
      await seed({ email, password: 'OldPass123', originalFlag: true });
      const headers = { 'content-type': 'application/json', 'x-client-ip': ip() };
      const signIn = await call('/agg-web/user/v3/userLogin', {
        method: 'POST',
        headers,
        body: JSON.stringify({ loginEmail: email, loginPassword: await hashPassword('OldPass123'), passwordVersion: 2, captchaType: 3, ...LOGIN_CLIENT }),
      });
      const token = (await json<{ oauthVO: { access_token: string } }>(signIn)).data.oauthVO.access_token;
      const bearer = { ...headers, authorization: `Bearer ${token}` };
      const proof = async () => (await json<{ proof: string }>(await call('/agg-web/user/changePassword/proof', { headers: bearer }))).data.proof;
      const changeNow = async () =>
        json(
          await call('/agg-web/user/changePassword', {
            method: 'POST',
            headers: bearer,
            body: JSON.stringify({ newPassword: await hashPassword('Fresh2024'), newPasswordSubmit: await hashPassword('Fresh2024') }),
          }),
        );
      expect(await proof()).toBe('none');
      at += FORCED_CHANGE_WINDOW_MS + 1;
      expect(await proof()).toBe('password');
      expect((await changeNow()).code).toBe('PW0004');
      at -= 2;
      expect((await changeNow()).code).toBe('0');
    } finally {
      gatewayOnClock = null;
    }
  });

  it('asks a person without a password for a code sent to the account', async () => {
    const email = uniqueEmail();
    await seed({ email });
    // Signs in by a code (a fresh one each time: the resend wait is not this test's subject).
    const codeSignIn = async () => {
      await worker.env.DB.prepare('DELETE FROM codes WHERE recipient = ?').bind(email).run();
      expect((await json(await post('/agg-web/user/getRegVerificationCode', { emailAddress: email, type: 3 }))).code).toBe('0');
      return sessionCookie(await post('/agg-web/quick/user/login', { loginType: 2, loginEmail: email, code: await latestCode(email), agreed: true }));
    };
    const other = await codeSignIn();
    const cookie = await codeSignIn();
    expect(await proofOf(cookie)).toEqual({ proof: 'code', salt: null });
    expect((await json(await change(cookie, 'First2024'))).code).toBe('PW0005');
    expect((await json(await change(cookie, 'First2024', { current: 'Anything1' }))).code).toBe('PW0005');
    await worker.env.DB.prepare('DELETE FROM codes WHERE recipient = ?').bind(email).run();
    expect((await json(await post('/agg-web/user/changePassword/sendCode', {}, { cookie }))).code).toBe('0');
    const code = await latestCode(email);
    expect((await json(await change(cookie, 'First2024', { code: code === '000000' ? '111111' : '000000' }))).code).toBe('CD0010');
    expect((await json(await change(cookie, 'First2024', { code }))).code).toBe('0');
    expect((await json(await emailLogin(email, 'First2024'))).code).toBe('0');
    expect((await json(await post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: other }))).code).toBe('TK00001');
    expect((await json(await post('/agg-web/quick/user/findUserLoginCase', {}, { cookie }))).code).toBe('0');
  });
});
