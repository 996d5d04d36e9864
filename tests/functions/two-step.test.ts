import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandoffBlob, DEV_HANDOFF_KEY, handoffClaims, importHandoffKey } from '../../functions/gateway/handoff/blob';
import { createGateway } from '../../functions/gateway/app';
import { CHALLENGE_LIFETIME_MS, CHALLENGE_MAX_TRIES, IP_GUESS_CAP, USER_GUESS_CAP } from '../../functions/gateway/second-step/service';
import { createWorker } from '../../functions/worker';
import { LOGIN_CLIENT } from '../../src/schemas/auth';
import { errorCatalogue } from '../../src/schemas/error-codes';
import type { SignInEntry } from '../../src/schemas/security';
import { hashPassword } from '../../src/lib/password-hash';
import { gatewayClient, type Envelope } from './gateway-client';
import { startWorkerEnv } from './worker-env';

// PBKDF2 sign-ins and bursts of 20 on a shared 2-core machine: each test gets 90 s (most take a few).
/**
 * Two-step verification through the whole Worker (edge cookies included) on a real local D1. The Worker runs
 * on a clock the tests move (no sleeps): TOTP codes are computed from the secret the enrolment answers, at
 * that clock.
 */
let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
let api: ReturnType<typeof gatewayClient>;
const STEP_MS = 30_000;
// Two seconds into a 30-second step, so "this step" is unambiguous for every call of a test.
let at = Math.floor(Date.now() / STEP_MS) * STEP_MS + 2000;
const app = createWorker({ clock: () => at });
/** Moves the clock to the start (+2 s) of a step no test has used yet. */
const nextStep = (steps = 3) => {
  at = (Math.floor(at / STEP_MS) + steps) * STEP_MS + 2000;
};

beforeAll(async () => {
  worker = await startWorkerEnv('two-step');
  api = gatewayClient(worker);
});
afterAll(() => worker.dispose());

const PASSWORD = 'Harbour2026';
type Opts = { cookie?: string; from?: string; lang?: 'zh' | 'en'; headers?: Record<string, string> };
const call = async (path: string, init: RequestInit = {}) => app.request(`http://localhost/api${path}`, init, worker.env, worker.ctx);
const post = (path: string, body: unknown, { cookie, from = api.ip(), lang, headers = {} }: Opts = {}) =>
  call(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': from, ...(lang ? { cookie: [cookie, `LANG=${lang}`].filter(Boolean).join('; ') } : cookie ? { cookie } : {}), ...headers },
    body: JSON.stringify(body),
  });
const get = (path: string, cookie: string) => call(path, { headers: { cookie } });
const json = <T = Record<string, unknown>>(res: Response) => res.json() as Promise<Envelope<T>>;

const cookieValue = (res: Response, name: string) => new RegExp(`(?:^|\\n)${name}=([^;]*)`).exec(res.headers.getSetCookie().join('\n'))?.[1];
const sessionOf = (res: Response) => {
  const value = cookieValue(res, 'portal_token');
  return value ? `portal_token=${value}` : undefined;
};
const challengeOf = (res: Response) => {
  const value = cookieValue(res, 'portal_second_step');
  return value ? `portal_second_step=${value}` : undefined;
};

const passwordSignIn = async (email: string, opts: Opts = {}) =>
  post('/agg-web/user/v3/userLogin', { loginEmail: email, loginPassword: await hashPassword(PASSWORD), passwordVersion: 2, captchaType: 3, ...LOGIN_CLIENT }, opts);

/** A person with a password and a session. */
async function person(extra: Record<string, unknown> = {}) {
  const email = `two.${api.unique()}@example.com`;
  const userId = await api.seed({ email, password: PASSWORD, ...extra });
  const res = await passwordSignIn(email);
  const cookie = sessionOf(res)!;
  await res.body?.cancel();
  expect(cookie).toBeDefined();
  return { email, userId, cookie };
}

const codeAt = (secret: string, time = at) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: time });

/** A person with two-step on: the secret, the recovery codes, a session. */
async function enrolled(extra: Record<string, unknown> = {}) {
  const who = await person(extra);
  const start = await json<{ secret: string; uri: string }>(await post('/agg-web/user/twoStep/enrol/start', {}, { cookie: who.cookie }));
  expect(start.code).toBe('0');
  const finish = await json<{ recoveryCodes: string[] }>(await post('/agg-web/user/twoStep/enrol/finish', { code: codeAt(start.data.secret) }, { cookie: who.cookie }));
  expect(finish.code).toBe('0');
  nextStep();
  return { ...who, secret: start.data.secret, recoveryCodes: finish.data.recoveryCodes };
}

/** A first factor that owes the second step: its challenge cookie. */
async function firstFactor(email: string) {
  const res = await passwordSignIn(email);
  const challenge = challengeOf(res);
  await res.body?.cancel();
  expect(challenge).toBeDefined();
  return challenge!;
}
const verify = (challenge: string | undefined, body: unknown, opts: Opts = {}) => post('/agg-web/user/twoStep/verify', body, { ...opts, cookie: challenge });

describe('enrolment', { timeout: 90_000 }, () => {
  it('needs one valid code of the new secret; shows ten recovery codes once; the QR URI names the secret', async () => {
    const who = await person();
    const start = await json<{ secret: string; uri: string }>(await post('/agg-web/user/twoStep/enrol/start', {}, { cookie: who.cookie }));
    expect(start.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(start.data.uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(start.data.secret);
    // Stored encrypted: the row does not contain the secret.
    const row = await worker.env.DB.prepare('SELECT secret_enc, enabled_at FROM two_step WHERE user_id = ?').bind(who.userId).first<{ secret_enc: string; enabled_at: null }>();
    expect(row!.secret_enc).not.toContain(start.data.secret);
    expect(row!.enabled_at).toBeNull();

    const wrong = await json(await post('/agg-web/user/twoStep/enrol/finish', { code: codeAt(start.data.secret, at + 5 * STEP_MS) }, { cookie: who.cookie, lang: 'zh' }));
    expect(wrong.code).toBe('MF0002');
    expect(wrong.message).toBe(errorCatalogue.MF0002.zh);
    // Pending: signing in still gives a session at once.
    const stillOff = await passwordSignIn(who.email);
    expect(sessionOf(stillOff)).toBeDefined();
    await stillOff.body?.cancel();

    const finish = await json<{ recoveryCodes: string[] }>(await post('/agg-web/user/twoStep/enrol/finish', { code: codeAt(start.data.secret) }, { cookie: who.cookie }));
    expect(finish.code).toBe('0');
    expect(finish.data.recoveryCodes).toHaveLength(10);
    expect(new Set(finish.data.recoveryCodes).size).toBe(10);
    const stored = await worker.env.DB.prepare('SELECT code_hash FROM recovery_codes WHERE user_id = ?').bind(who.userId).all<{ code_hash: string }>();
    expect(stored.results).toHaveLength(10);
    for (const { code_hash } of stored.results) expect(finish.data.recoveryCodes.map((c) => c.replace('-', ''))).not.toContain(code_hash);

    const status = await json<{ enabled: boolean; recoveryCodesLeft: number }>(await get('/agg-web/user/twoStep/status', who.cookie));
    expect(status.data).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    // Shown once: a second enrolment is refused, the codes are nowhere to be read again.
    expect((await json(await post('/agg-web/user/twoStep/enrol/start', {}, { cookie: who.cookie }))).code).toBe('MF0010');
    expect((await json(await post('/agg-web/user/twoStep/enrol/finish', { code: codeAt(start.data.secret) }, { cookie: who.cookie }))).code).toBe('MF0011');
    nextStep();
  });

  it('is for a session only', async () => {
    const res = await post('/agg-web/user/twoStep/enrol/start', {});
    expect((await json(res)).code).toBe('TK00001');
  });
});

describe('the second step', { timeout: 90_000 }, () => {
  it('stops every first factor before a session exists; the challenge opens nothing else; the right code signs in', async () => {
    const who = await enrolled();
    const res = await passwordSignIn(who.email);
    const body = await json<Record<string, unknown>>(res);
    expect(body.code).toBe('0');
    expect(sessionOf(res)).toBeUndefined();
    expect(body.data.oauthVO).toBeUndefined();
    expect(body.data.userId).toBe('');
    // The challenge is an HttpOnly cookie; the page's scripts never see it.
    expect(body.data.secondStep).toEqual({ expiresIn: CHALLENGE_LIFETIME_MS / 1000 });
    expect(JSON.stringify(body)).not.toContain(cookieValue(res, 'portal_second_step'));
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('portal_second_step='))!;
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    const challenge = challengeOf(res)!;

    // Skipping the second step: the challenge is no session, as a cookie or as the session cookie's value.
    const token = challenge.split('=')[1]!;
    for (const cookie of [challenge, `portal_token=${token}`]) {
      for (const path of ['/agg-web/user/fetchMeByUserToken', '/agg-web/user/twoStep/status']) {
        expect((await json(await get(path, cookie))).code).toBe('TK00001');
      }
      expect((await json(await post('/agg-web/quick/user/findUserLoginCase', {}, { cookie }))).code).toBe('TK00001');
      expect((await json(await post('/agg-web/user/twoStep/disable', { password: await hashPassword(PASSWORD) }, { cookie }))).code).toBe('TK00001');
    }
    // A browser cannot name the challenge itself: the edge forwards only its own cookie.
    expect((await json(await verify(undefined, { kind: 'totp', code: codeAt(who.secret) }, { headers: { 'x-second-step': token } }))).code).toBe('MF0001');

    const passed = await verify(challenge, { kind: 'totp', code: codeAt(who.secret) });
    const answer = await json<{ userId: string; oauthVO?: unknown }>(passed);
    expect(answer.code).toBe('0');
    expect(answer.data.userId).toBe(who.userId);
    expect(answer.data.oauthVO).toBeUndefined();
    expect(passed.headers.getSetCookie().find((c) => c.startsWith('portal_second_step='))).toMatch(/Max-Age=0/);
    const me = await json<{ userId: string }>(await get('/agg-web/user/fetchMeByUserToken', sessionOf(passed)!));
    expect(me.data.userId).toBe(who.userId);
    // Single use: the same challenge with a fresh code is refused.
    nextStep(1);
    expect((await json(await verify(challenge, { kind: 'totp', code: codeAt(who.secret) }))).code).toBe('MF0001');
    nextStep();
  });

  it('is recorded with the sign-in: the history and the audit row say the password, then the app code or the recovery code', async () => {
    const who = await enrolled();
    expect((await json(await verify(await firstFactor(who.email), { kind: 'totp', code: codeAt(who.secret) }))).code).toBe('0');
    const byRecovery = await verify(await firstFactor(who.email), { kind: 'recovery', code: who.recoveryCodes[0] });
    const history = await json<SignInEntry[]>(await get('/agg-web/user/security/signIns', sessionOf(byRecovery)!));
    expect(history.data.map(({ method, secondStep }) => ({ method, secondStep }))).toEqual([
      { method: 'password', secondStep: 'recovery' },
      { method: 'password', secondStep: 'totp' },
      // Before two-step was turned on: no second step.
      { method: 'password', secondStep: null },
    ]);
    const audited = await worker.env.DB.prepare("SELECT detail FROM audit_log WHERE action = 'user.signed_in' AND actor_id = ? ORDER BY id").bind(who.userId).all<{ detail: string }>();
    expect(audited.results.map((row) => JSON.parse(row.detail))).toEqual([{ method: 'password' }, { method: 'password', secondStep: 'totp' }, { method: 'password', secondStep: 'recovery' }]);
  });

  it('gates the code sign-in and the shared sign-in link too', async () => {
    const who = await enrolled();
    expect((await json(await post('/agg-web/user/getRegVerificationCode', { emailAddress: who.email, type: 3 }))).code).toBe('0');
    const [mail] = await api.outbox(who.email);
    const code = /\b(\d{4,8})\b/.exec(mail!.text)![1];
    const byCode = await post('/agg-web/quick/user/login', { loginType: 2, loginEmail: who.email, code, agreed: true });
    expect(sessionOf(byCode)).toBeUndefined();
    expect(challengeOf(byCode)).toBeDefined();
    expect((await json<{ secondStep?: unknown }>(byCode)).data.secondStep).toBeDefined();

    const link = await json<{ url: string }>(await post('/agg-web/user/shareLogin/create', {}, { cookie: who.cookie }));
    expect(link.code).toBe('0');
    const share = new URL(link.data.url).searchParams.get('share')!;
    const byLink = await post('/agg-web/user/shareLogin/login', { share });
    expect(sessionOf(byLink)).toBeUndefined();
    const challenge = challengeOf(byLink)!;
    await byLink.body?.cancel();
    expect((await json(await verify(challenge, { kind: 'recovery', code: who.recoveryCodes[0] }))).code).toBe('0');
  });

  it('accepts a code one step either side, not two; a used code never again', async () => {
    const who = await enrolled();
    for (const [offset, expected] of [
      [-2, 'MF0002'],
      [2, 'MF0002'],
      [-1, '0'],
      [-1, 'MF0003'],
      [0, '0'],
      // An older code after a newer one: refused as used.
      [-1, 'MF0003'],
      [1, '0'],
      [0, 'MF0003'],
    ] as const) {
      const res = await verify(await firstFactor(who.email), { kind: 'totp', code: codeAt(who.secret, at + offset * STEP_MS) });
      expect((await json(res)).code, `offset ${offset}`).toBe(expected);
    }
    nextStep();
  });

  it('20 parallel verifies of one challenge with the right code give exactly one session', async () => {
    const who = await enrolled();
    const challenge = await firstFactor(who.email);
    const code = codeAt(who.secret);
    const answers = await Promise.all(Array.from({ length: 20 }, () => verify(challenge, { kind: 'totp', code })));
    const sessions = answers.filter((res) => sessionOf(res) !== undefined);
    const codes = await Promise.all(answers.map(async (res) => (await json(res)).code));
    expect(sessions).toHaveLength(1);
    expect(codes.filter((c) => c === '0')).toHaveLength(1);
    // The rest: the code was used, the challenge ran out of tries, or the person's cap refused the guess.
    expect(codes.filter((c) => c !== '0').every((c) => ['MF0003', 'MF0004', 'MF0005'].includes(c))).toBe(true);
    nextStep();
  });

  it('one TOTP code used on 20 challenges at once wins exactly once', async () => {
    const who = await enrolled();
    const challenges: string[] = [];
    for (let i = 0; i < 20; i++) challenges.push(await firstFactor(who.email));
    const code = codeAt(who.secret);
    const codes = await Promise.all(challenges.map(async (challenge) => (await json(await verify(challenge, { kind: 'totp', code }))).code));
    expect(codes.filter((c) => c === '0')).toHaveLength(1);
    // The rest: the code was used, or the burst ran into the person's wrong-guess cap (guesses are counted
    // before they are compared).
    expect(new Set(codes.filter((c) => c !== '0'))).toEqual(new Set(['MF0003', 'MF0005']));
    nextStep();
  });

  it('one recovery code used on 20 challenges at once wins exactly once; any case and spacing', async () => {
    const who = await enrolled();
    const challenges: string[] = [];
    for (let i = 0; i < 20; i++) challenges.push(await firstFactor(who.email));
    const typed = ` ${who.recoveryCodes[0]!.toLowerCase().replace('-', ' ')} `.trim();
    const answers = await Promise.all(challenges.map((challenge) => verify(challenge, { kind: 'recovery', code: typed })));
    const codes = await Promise.all(answers.map(async (res) => (await json(res)).code));
    expect(codes.filter((c) => c === '0')).toHaveLength(1);
    expect(new Set(codes.filter((c) => c !== '0'))).toEqual(new Set(['MF0003', 'MF0005']));
    expect(answers.filter((res) => sessionOf(res)).length).toBe(1);
    const status = await json<{ recoveryCodesLeft: number }>(await get('/agg-web/user/twoStep/status', who.cookie));
    expect(status.data.recoveryCodesLeft).toBe(9);
  });

  it("refuses another person's code on a challenge, and an expired challenge by the clock", async () => {
    const one = await enrolled();
    const other = await enrolled();
    const challenge = await firstFactor(one.email);
    expect((await json(await verify(challenge, { kind: 'totp', code: codeAt(other.secret) }))).code).toBe('MF0002');
    expect((await json(await verify(challenge, { kind: 'recovery', code: other.recoveryCodes[0] }))).code).toBe('MF0002');
    at += CHALLENGE_LIFETIME_MS + 1;
    const expired = await json(await verify(challenge, { kind: 'totp', code: codeAt(one.secret) }, { lang: 'en' }));
    expect(expired.code).toBe('MF0001');
    expect(expired.message).toBe(errorCatalogue.MF0001.en);
    nextStep();
  });

  it('takes at most CHALLENGE_MAX_TRIES tries per challenge, even in a burst, and counts wrong codes per person', async () => {
    const who = await enrolled();
    const challenge = await firstFactor(who.email);
    const wrong = codeAt(who.secret, at + 10 * STEP_MS);
    const burst = await Promise.all(Array.from({ length: 20 }, () => verify(challenge, { kind: 'totp', code: wrong }).then(json)));
    const codes = burst.map((b) => b.code);
    expect(codes.filter((c) => c === 'MF0002')).toHaveLength(CHALLENGE_MAX_TRIES);
    // The others were never compared: out of tries (MF0004) or past the person's cap (MF0005).
    expect(codes.filter((c) => c !== 'MF0002').every((c) => c === 'MF0004' || c === 'MF0005')).toBe(true);
    // Out of tries: even the right code is refused now.
    expect((await json(await verify(challenge, { kind: 'totp', code: codeAt(who.secret) }))).code).toBe('MF0004');

    // A new sign-in does not buy unlimited guesses: USER_GUESS_CAP wrong codes an hour across challenges.
    const second = await firstFactor(who.email);
    const more: string[] = [];
    for (let i = 0; i < CHALLENGE_MAX_TRIES; i++) more.push((await json(await verify(second, { kind: 'recovery', code: 'AAAAA-BBBBB' }))).code);
    expect(more).toEqual(Array(CHALLENGE_MAX_TRIES).fill('MF0002'));
    expect(USER_GUESS_CAP).toBe(2 * CHALLENGE_MAX_TRIES);
    const third = await firstFactor(who.email);
    const capped = await json(await verify(third, { kind: 'totp', code: codeAt(who.secret) }, { lang: 'zh' }));
    expect(capped.code).toBe('MF0005');
    expect(capped.message).toBe(errorCatalogue.MF0005.zh);
    // An hour later the person may try again.
    at += 60 * 60 * 1000 + 1;
    const later = await firstFactor(who.email);
    expect((await json(await verify(later, { kind: 'totp', code: codeAt(who.secret) }))).code).toBe('0');
    nextStep();
  });

  it('caps wrong codes per client network across people', async () => {
    const from = '10.77.1.1';
    const people = await Promise.all(Array.from({ length: Math.ceil(IP_GUESS_CAP / CHALLENGE_MAX_TRIES) + 1 }, () => enrolled()));
    const codes: string[] = [];
    for (const who of people) {
      const challenge = await firstFactor(who.email);
      for (let i = 0; i < CHALLENGE_MAX_TRIES; i++) codes.push((await json(await verify(challenge, { kind: 'recovery', code: 'ZZZZZ-ZZZZZ' }, { from }))).code);
    }
    expect(codes.filter((c) => c === 'MF0002')).toHaveLength(IP_GUESS_CAP);
    expect(codes.at(-1)).toBe('MF0006');
    nextStep();
  });
});

describe('turning it off and new recovery codes', { timeout: 90_000 }, () => {
  // Since step-up (identity/proof.ts, tests/functions/step-up.test.ts) these take no proof in their body: the
  // session needs a fresh proof, and an old one makes it with the password and then a current code.
  const aged = () => nextStep(22);
  const proveWithPassword = async (cookie: string, password = PASSWORD) =>
    json<{ proved: boolean; challenge?: string }>(await post('/agg-web/user/proof/password', { password: await hashPassword(password) }, { cookie }));
  it('needs a fresh proof: the current password, then a current code', async () => {
    const who = await enrolled();
    aged();
    expect((await json(await post('/agg-web/user/twoStep/disable', {}, { cookie: who.cookie }))).code).toBe('SU0001');
    expect((await json(await post('/agg-web/user/twoStep/disable', { password: await hashPassword(PASSWORD) }, { cookie: who.cookie }))).code).toBe('SU0001');
    expect((await proveWithPassword(who.cookie, 'Wrong2026')).code).toBe('PW0003');
    const half = await proveWithPassword(who.cookie);
    expect(half.data.proved).toBe(false);
    const secondFactor = (factor: Record<string, unknown>) => post('/agg-web/user/proof/secondFactor', { challenge: half.data.challenge, ...factor }, { cookie: who.cookie }).then(json);
    expect((await secondFactor({ kind: 'totp', code: codeAt(who.secret, at + 9 * STEP_MS) })).code).toBe('MF0002');
    expect((await secondFactor({ kind: 'totp', code: codeAt(who.secret) })).code).toBe('0');

    const fresh = await json<{ recoveryCodes: string[] }>(await post('/agg-web/user/twoStep/recoveryCodes', {}, { cookie: who.cookie }));
    expect(fresh.code).toBe('0');
    expect(fresh.data.recoveryCodes).toHaveLength(10);
    // The old codes died with the new batch.
    nextStep();
    const next = await proveWithPassword(who.cookie);
    expect((await json(await post('/agg-web/user/proof/secondFactor', { challenge: next.data.challenge, kind: 'recovery', code: who.recoveryCodes[1] }, { cookie: who.cookie }))).code).toBe('MF0002');

    expect((await json(await post('/agg-web/user/twoStep/disable', {}, { cookie: who.cookie }))).code).toBe('0');
    const status = await json<{ enabled: boolean; recoveryCodesLeft: number }>(await get('/agg-web/user/twoStep/status', who.cookie));
    expect(status.data).toMatchObject({ enabled: false, recoveryCodesLeft: 0 });
    const res = await passwordSignIn(who.email);
    expect(sessionOf(res)).toBeDefined();
    await res.body?.cancel();
    nextStep();
  });

  it('a recovery code proves the person too', async () => {
    const who = await enrolled();
    aged();
    const half = await proveWithPassword(who.cookie);
    expect((await json(await post('/agg-web/user/proof/secondFactor', { challenge: half.data.challenge, kind: 'recovery', code: who.recoveryCodes[3] }, { cookie: who.cookie }))).code).toBe('0');
    expect((await json(await post('/agg-web/user/twoStep/disable', {}, { cookie: who.cookie }))).code).toBe('0');
    expect((await json(await post('/agg-web/user/twoStep/recoveryCodes', {}, { cookie: who.cookie }))).code).toBe('MF0012');
  });
});

describe('the credentials hand-off', { timeout: 90_000 }, () => {
  it('starts no session for a two-step person: the second-step cookie and /login?secondStep=1 with the return path (next)', async () => {
    const who = await enrolled();
    const blob = await createHandoffBlob(
      await importHandoffKey(DEV_HANDOFF_KEY),
      handoffClaims({ sub: who.userId, aud: 'portal', purpose: 'credentials', now: at, loginName: who.email, passwordHash: await hashPassword(PASSWORD) }),
    );
    const res = await app.request(`http://localhost/user_center?tab=1&userNameAndPwd=${blob}`, { redirect: 'manual' }, worker.env, worker.ctx);
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!, 'http://localhost');
    expect(location.pathname).toBe('/login');
    expect(location.searchParams.get('secondStep')).toBe('1');
    expect(location.searchParams.get('next')).toBe('/user_center?tab=1');
    expect(sessionOf(res)).toBeUndefined();
    const challenge = challengeOf(res)!;
    expect(challenge).toBeDefined();
    const passed = await verify(challenge, { kind: 'totp', code: codeAt(who.secret) });
    expect((await json(passed)).code).toBe('0');
    expect(sessionOf(passed)).toBeDefined();
    nextStep();
  });
});

describe('a company that requires two-step', { timeout: 90_000 }, () => {
  const companyOf = async (userId: string) =>
    (await worker.env.DB.prepare('SELECT company_id FROM company_members WHERE user_id = ?').bind(userId).first<{ company_id: string }>())!.company_id;
  const addMember = (companyId: string, userId: string, role: 'administrator' | 'staff') =>
    worker.env.DB.prepare("INSERT INTO company_members (company_id, user_id, role, status, is_main, joined_at) VALUES (?, ?, ?, 'active', 0, 0)")
      .bind(companyId, userId, role)
      .run();
  const require_ = (cookie: string, companyId: string, required: boolean) => post('/agg-web/company/twoStep', { companyId, required }, { cookie }).then(json);

  it('is set only by an administrator who has it on; a member without it may not enter; with it, may', async () => {
    const admin = await person({ companies: [{ nameEn: `Require ${api.unique()}`, role: 'administrator' }] });
    const companyId = await companyOf(admin.userId);
    const staff = await person();
    await addMember(companyId, staff.userId, 'staff');

    expect((await require_(staff.cookie, companyId, true)).code).toBe('MF0020');
    expect((await require_(staff.cookie, companyId, false)).code).toBe('MF0020');
    expect((await require_(admin.cookie, companyId, true)).code).toBe('MF0022');

    // The administrator turns two-step on, then requires it.
    const start = await json<{ secret: string }>(await post('/agg-web/user/twoStep/enrol/start', {}, { cookie: admin.cookie }));
    expect((await json(await post('/agg-web/user/twoStep/enrol/finish', { code: codeAt(start.data.secret) }, { cookie: admin.cookie }))).code).toBe('0');
    expect((await require_(admin.cookie, companyId, true)).code).toBe('0');
    const list = await json<{ companyId: string; requireTwoStep: boolean }[]>(await post('/c/user/v2/getCompanyListByToken', {}, { cookie: staff.cookie }));
    expect(list.data.find((c) => c.companyId === companyId)?.requireTwoStep).toBe(true);

    const refused = await json(await post('/agg-web/user/chooseAccount', { companyId }, { cookie: staff.cookie, lang: 'zh' }));
    expect(refused.code).toBe('MF0021');
    expect(refused.message).toBe(errorCatalogue.MF0021.zh);
    const session = await worker.env.DB.prepare('SELECT COUNT(*) AS n FROM sessions WHERE user_id = ? AND current_company_id IS NOT NULL').bind(staff.userId).first<{ n: number }>();
    expect(session!.n).toBe(0);

    const staffStart = await json<{ secret: string }>(await post('/agg-web/user/twoStep/enrol/start', {}, { cookie: staff.cookie }));
    nextStep(1);
    expect((await json(await post('/agg-web/user/twoStep/enrol/finish', { code: codeAt(staffStart.data.secret) }, { cookie: staff.cookie }))).code).toBe('0');
    expect((await json(await post('/agg-web/user/chooseAccount', { companyId }, { cookie: staff.cookie }))).code).toBe('0');
    nextStep();
  });

  it('does not enter a required main company straight away at sign-in for a member without two-step', async () => {
    const admin = await enrolled({ companies: [{ nameEn: `Main ${api.unique()}`, role: 'administrator' }] });
    const companyId = await companyOf(admin.userId);
    const member = await person();
    await worker.env.DB.prepare("INSERT INTO company_members (company_id, user_id, role, status, is_main, joined_at) VALUES (?, ?, 'staff', 'active', 1, 0)")
      .bind(companyId, member.userId)
      .run();
    expect((await require_(admin.cookie, companyId, true)).code).toBe('0');
    const answer = await json<{ isMaster: boolean; companyId: string | null }>(await passwordSignIn(member.email));
    expect(answer.data).toMatchObject({ isMaster: false, companyId: null });
  });

  it('two administrators changing it at once: each change is one statement, both answer, the row holds one of them', async () => {
    const one = await enrolled({ companies: [{ nameEn: `Both ${api.unique()}`, role: 'administrator' }] });
    const companyId = await companyOf(one.userId);
    const two = await enrolled();
    await addMember(companyId, two.userId, 'administrator');
    const outsider = await enrolled();
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => require_(i % 2 ? one.cookie : two.cookie, companyId, i % 3 !== 0)),
      ...Array.from({ length: 10 }, () => require_(outsider.cookie, companyId, false)),
    ]);
    expect(answers.slice(0, 10).map((a) => a.code)).toEqual(Array(10).fill('0'));
    expect(answers.slice(10).map((a) => a.code)).toEqual(Array(10).fill('MF0020'));
    const row = await worker.env.DB.prepare('SELECT require_two_step AS r FROM companies WHERE id = ?').bind(companyId).first<{ r: number }>();
    expect([0, 1]).toContain(row!.r);
  });
});

describe('the gateway alone', { timeout: 90_000 }, () => {
  it('answers MF0001 to a verify without the edge header', async () => {
    const gateway = createGateway({ clock: () => at });
    const res = await gateway.request(
      '/agg-web/user/twoStep/verify',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'totp', code: '123456' }) },
      worker.env,
      worker.ctx,
    );
    expect((await json(res)).code).toBe('MF0001');
  });
});
