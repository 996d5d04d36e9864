import { describe, expect, it, vi } from 'vitest';
import { createGateway } from '../../functions/gateway/app';
import { LOCK_BASE_MS, SLIDER_AFTER } from '../../functions/gateway/sign-in/risk';
import { NEW_USER_CHECKS_PER_NAME, NEW_USER_CHECKS_PER_NETWORK } from '../../functions/gateway/sign-in/routes';
import app from '../../functions/worker';
import { createHandoffBlob, DEV_HANDOFF_KEY, handoffClaims, importHandoffKey } from '../../functions/gateway/handoff/blob';
import { hashPassword } from '../../src/lib/password-hash';
import { deployedVars } from './worker-env';
import { CHEAP_POW } from './pow-solver';
import { statusOf, useWorkerEnv } from './gateway-client';

/**
 * The sign-in calls through the whole Worker (functions/worker.ts), so the edge's cookie rules are part of
 * every answer, on a real local D1. The clock-dependent lockout test shifts the gateway's clock.
 */
const { worker, api } = useWorkerEnv('auth', CHEAP_POW);

const uniqueEmail = () => `User.${api.unique()}@Example.com`;
const tokenOf = (res: Response) => /(?:^|\n)portal_token=([^;]*)/.exec(res.headers.getSetCookie().join('\n'))?.[1];

async function emailCode(email: string): Promise<string> {
  expect((await api.json(await api.post('/agg-web/user/getRegVerificationCode', { emailAddress: email, type: 3 }))).code).toBe('0');
  return api.latestCode(email.toLowerCase());
}

const quickByEmail = (email: string, code: string, extra: Record<string, unknown> = {}) =>
  api.post('/agg-web/quick/user/login', { loginType: 2, loginEmail: email, code, agreed: true, ...extra });

/** A person seeded as the gateway's dev route makes them, without agreeing to any terms. */
const seed = (body: Record<string, unknown>) => api.seed({ agreed: false, ...body });

const emailLogin = (email: string, password: string, extra: Record<string, unknown> = {}, from?: string) => api.emailLogin(email, password, extra, { from });

const userCount = async (where: string, value: string) =>
  (await worker.env.DB.prepare(`SELECT COUNT(*) AS n FROM users WHERE ${where} = ?`).bind(value).first<{ n: number }>())!.n;

describe('quick login (code)', () => {
  it('registers a new user by e-mail, sets the session cookies and never shows the token', async () => {
    const email = uniqueEmail();
    expect((await api.json<boolean>(await api.post('/agg-web/quick/user/checkIsNewUser', { loginType: 2, loginEmail: email }))).data).toBe(true);
    const code = await emailCode(email);
    const res = await quickByEmail(email, code, { userIdentity: 1, companyName: 'Blue Whale Shipping' });
    const text = await res.clone().text();
    const body = await api.json(res);
    expect(body.code).toBe('0');
    expect(body.data).toMatchObject({ newUser: true, tracelessCheckResult: 100, accountSize: 0, isMaster: false });
    expect(body.data).not.toHaveProperty('oauthVO');
    expect(text).not.toContain('access_token');
    const cookies = res.headers.getSetCookie();
    expect(cookies.find((c) => c.startsWith('portal_token='))).toMatch(/HttpOnly; SameSite=Lax$/);
    expect(cookies.find((c) => c.startsWith('portal_token='))).toContain('Max-Age=604799; Path=/');
    expect(cookies.find((c) => c.startsWith('portal_signed_in=1'))).not.toContain('HttpOnly');
    expect(text).not.toContain(tokenOf(res)!);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await userCount('email', email.toLowerCase())).toBe(1);
    expect((await api.json<boolean>(await api.post('/agg-web/quick/user/checkIsNewUser', { loginType: 2, loginEmail: email }))).data).toBe(false);

    // The session works, and the registration's company name leads to case 6.
    const loginCase = await api.json(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: api.sessionCookie(res) }));
    expect(loginCase.data).toMatchObject({ userLoginCase: 6, companyInfo: { name: 'Blue Whale Shipping', ports: [] }, registerMobile: null });
  });

  it('sets Secure cookies on https', async () => {
    const email = uniqueEmail();
    const code = await emailCode(email);
    const res = await api.post(
      '/agg-web/quick/user/login',
      { loginType: 2, loginEmail: email, code, agreed: true, userIdentity: 2, companyName: 'Harbour Ltd' },
      { origin: 'https://portal.example.com' },
    );
    expect(res.headers.getSetCookie().every((c) => c.includes('; Secure'))).toBe(true);
  });

  it('leaves no user behind for a wrong code', async () => {
    const email = uniqueEmail();
    const code = await emailCode(email);
    const wrong = code === '000000' ? '111111' : '000000';
    const res = await quickByEmail(email, wrong, { userIdentity: 1, companyName: 'Acme' });
    expect(res.status).toBe(400);
    expect((await api.json(res)).code).toBe('CD0010');
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await userCount('email', email.toLowerCase())).toBe(0);
  });

  it('asks a new user for the company name before spending the code', async () => {
    const email = uniqueEmail();
    const code = await emailCode(email);
    const missing = await api.json(await quickByEmail(email, code, { userIdentity: 1 }));
    expect(missing).toMatchObject({ code: 'US0001', message: 'Please enter company name.' });
    expect(await userCount('email', email.toLowerCase())).toBe(0);
    const res = await quickByEmail(email, code, { userIdentity: 1, companyName: 'Acme' });
    expect((await api.json(res)).code).toBe('0');
  });

  it('registers someone joining a company by invitation without identity or company name (issue 47)', async () => {
    const email = uniqueEmail();
    const code = await emailCode(email);
    // A name or port sent anyway is not kept: the company they join has its own.
    const res = await quickByEmail(email, code, { joining: true, companyName: 'Thrown Away', portId: 'CNZOS' });
    expect(await api.json(res)).toMatchObject({ code: '0', data: { newUser: true } });
    const row = await worker.env.DB.prepare(`SELECT identity, pending_company_name, pending_port_id FROM users WHERE email = ?`).bind(email.toLowerCase()).first();
    expect(row).toEqual({ identity: null, pending_company_name: null, pending_port_id: null });
  });

  it('answers an unticked agreement with its own message', async () => {
    const email = uniqueEmail();
    for (const agreed of [false, undefined]) {
      const res = await api.post('/agg-web/quick/user/login', { loginType: 2, loginEmail: email, code: '123456', agreed });
      expect(await api.json(res)).toMatchObject({ code: 'US0002', message: 'Please read and agree to the Terms of Service.' });
    }
  });

  it('creates exactly one user from 20 parallel sign-ins with one code for a new phone', async () => {
    const mobile = api.mobile('139');
    const e164 = `+86${mobile}`;
    const sliderCheck = await api.sliderCheck('sms', e164);
    const sent = await api.post('/agg-web/sms/send', { phoneCode: 'CN', mobile, type: 3, phoneCodeValue: '+86', sliderCheck });
    expect((await api.json(sent)).code).toBe('0');
    const outbox = await api.json<{ text: string }[]>(await api.get(`/dev/outbox?to=${encodeURIComponent(e164)}`));
    const code = /\b(\d{4,8})\b/.exec(outbox.data[0]!.text)![1]!;
    const body = { loginType: 1, mobileCode: '+86', mobile, code, agreed: true, userIdentity: 2, companyName: 'Parallel Co' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => api.post('/agg-web/quick/user/login', body).then(api.json)));
    expect(answers.filter((a) => a.code === '0')).toHaveLength(1);
    expect(answers.find((a) => a.code === '0')!.data).toMatchObject({ newUser: true });
    // Every other call is told the code is spent (used, its tries gone) or the guesses capped, never a server error.
    for (const loser of answers.filter((a) => a.code !== '0')) expect(['CD0012', 'CD0014', 'CD0015', 'CD0016']).toContain(loser.code);
    expect(await userCount('phone_e164', e164)).toBe(1);
    // The code's use, the person and the session were one batch: one session, one sign-in in the history.
    const sessions = await worker.env.DB.prepare('SELECT COUNT(*) AS n FROM sessions WHERE user_id = (SELECT id FROM users WHERE phone_e164 = ?)').bind(e164).first<{ n: number }>();
    expect(sessions?.n).toBe(1);
  });

  it('gives one session from 20 parallel sign-ins with one code for a person who has an account, and tells each loser why', async () => {
    const email = uniqueEmail();
    await seed({ email, password: 'Harbour2024', userType: 2 });
    expect((await api.json(await api.post('/agg-web/user/getRegVerificationCode', { emailAddress: email, type: 3 }))).code).toBe('0');
    const code = await api.latestCode(email);
    const body = { loginType: 2, loginEmail: email, code, agreed: true };
    const answers = await Promise.all(Array.from({ length: 20 }, () => api.post('/agg-web/quick/user/login', body).then(api.json)));
    expect(answers.filter((a) => a.code === '0')).toHaveLength(1);
    expect(answers.find((a) => a.code === '0')!.data).toMatchObject({ newUser: false });
    for (const loser of answers.filter((a) => a.code !== '0')) expect(['CD0012', 'CD0014', 'CD0015', 'CD0016']).toContain(loser.code);
    // The code's use and the account's reads are one round trip: a loser of the use writes no session.
    const sessions = await worker.env.DB.prepare('SELECT COUNT(*) AS n FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = ?)').bind(email.toLowerCase()).first<{ n: number }>();
    expect(sessions?.n).toBe(1);
  });
});

describe('password sign-in', () => {
  it('signs in by phone and by e-mail with a seeded password', async () => {
    const mobile = api.mobile('139');
    const email = uniqueEmail();
    await seed({ phone: { callingCode: '+86', mobile }, email, password: 'Harbour2024', userType: 2 });
    const byPhone = await api.post('/agg-web/user/loginByPhone', {
      mobile,
      mobileCode: '+86',
      password: await hashPassword('Harbour2024'),
      passwordVersion: 2,
      loginType: 101,
      captchaType: 3,
    });
    expect((await api.json(byPhone)).data).toMatchObject({ tracelessCheckResult: 100, newUser: false, type: 2 });
    expect(tokenOf(byPhone)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const byEmail = await emailLogin(email, 'Harbour2024');
    expect((await api.json(byEmail)).code).toBe('0');
    expect(tokenOf(byEmail)).not.toBe(tokenOf(byPhone));
  });

  it('answers one generic error for a wrong password and for an unknown account', async () => {
    const email = uniqueEmail();
    await seed({ email, password: 'Harbour2024' });
    const wrong = await api.json(await emailLogin(email, 'Harbour2025'));
    const unknown = await api.json(await emailLogin(uniqueEmail(), 'Harbour2024'));
    expect(wrong).toEqual({ code: 'US0010', message: 'Wrong account or password.', data: null });
    expect(unknown).toEqual(wrong);
  });

  it('says with the third failure from a network that a human check comes next, for known and unknown names alike', async () => {
    const email = uniqueEmail();
    await seed({ email, password: 'Harbour2024' });
    for (const name of [email, uniqueEmail()]) {
      const from = api.ip();
      const first = await Promise.all([emailLogin(name, 'wrong-one', {}, from), emailLogin(name, 'wrong-two', {}, from)].map((r) => r.then((a) => api.json(a))));
      expect(first).toEqual([0, 1].map(() => ({ code: 'US0010', message: 'Wrong account or password.', data: null })));
      // The third failure is told that the check comes next; a burst after it gets the check, not a count.
      expect(await api.json(await emailLogin(name, 'wrong-three', {}, from))).toEqual({ code: 'US0010', message: 'Wrong account or password.', data: { humanCheckNext: true } });
      const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => emailLogin(name, `wrong-${i}`, {}, from).then((a) => api.json(a))));
      expect(burst.every((answer) => answer.code === '0' && (answer.data as { tracelessCheckResult: number }).tracelessCheckResult === 400)).toBe(true);
      // Another network starts from nothing.
      expect((await api.json(await emailLogin(name, 'wrong-one', {}, api.ip()))).data).toBeNull();
    }
  });

  it('asks for the slider after 3 failures from a network and accepts a passed one', async () => {
    const email = uniqueEmail();
    const from = api.ip();
    await seed({ email, password: 'Harbour2024' });
    for (let i = 0; i < 3; i++) expect((await api.json(await emailLogin(email, 'wrong-one', {}, from))).code).toBe('US0010');
    const challenged = await emailLogin(email, 'Harbour2024', {}, from);
    expect(await api.json(challenged)).toMatchObject({ code: '0', data: { tracelessCheckResult: 400, userId: '' } });
    expect(challenged.headers.getSetCookie()).toEqual([]);
    // A check for another subject does not count.
    const elsewhere = await api.sliderCheck('login', uniqueEmail());
    expect((await api.json(await emailLogin(email, 'Harbour2024', { nvcvalStr: JSON.stringify(elsewhere) }, from))).data).toMatchObject({
      tracelessCheckResult: 400,
    });
    // Another network is not asked after 3 failures elsewhere.
    expect((await api.json(await emailLogin(email, 'Harbour2024', {}, api.ip()))).data).toMatchObject({ tracelessCheckResult: 100 });
    const check = await api.sliderCheck('login', email);
    const passed = await emailLogin(email, 'Harbour2024', { nvcvalStr: JSON.stringify(check) }, from);
    expect((await api.json(passed)).data).toMatchObject({ tracelessCheckResult: 100 });
    expect(tokenOf(passed)).toBeTruthy();
    // Success reset the network's counter: no slider next time.
    expect((await api.json(await emailLogin(email, 'Harbour2024', {}, from))).data).toMatchObject({ tracelessCheckResult: 100 });
  });

  it('locks one network out after 10 failures, doubling; other networks only pass the slider; code sign-in works', async () => {
    let clock = Date.now();
    await api.throughGateway(createGateway({ clock: () => clock }), async () => {
      const email = uniqueEmail();
      const attacker = api.ip();
      await seed({ email, password: 'Harbour2024' });
      const attempt = async (password: string, from = attacker) =>
        api.json(await emailLogin(email, password, { nvcvalStr: JSON.stringify(await api.sliderCheck('login', email)) }, from));
      for (let i = 0; i < 10; i++) expect((await attempt('wrong-one')).code).toBe('US0010');
      // Locked: the right password reads like any failure.
      expect((await attempt('Harbour2024')).code).toBe('US0010');
      clock += LOCK_BASE_MS - 1000;
      expect((await attempt('Harbour2024')).code).toBe('US0010');

      // Another network: asked for the slider (the name is under attack), then signed in.
      const owner = api.ip();
      expect((await api.json(await emailLogin(email, 'Harbour2024', {}, owner))).data).toMatchObject({ tracelessCheckResult: 400 });
      expect((await attempt('Harbour2024', owner)).code).toBe('0');
      // A code still signs in, from the locked network too.
      expect((await api.json(await quickByEmail(email, await emailCode(email)))).code).toBe('0');

      clock += 2000;
      // Unlocked, but still failing: the next lock (after 10 more failures) lasts twice as long.
      for (let i = 0; i < 10; i++) expect((await attempt('wrong-one')).code).toBe('US0010');
      clock += LOCK_BASE_MS + 1000;
      expect((await attempt('Harbour2024')).code).toBe('US0010');
      clock += LOCK_BASE_MS;
      expect((await attempt('Harbour2024')).code).toBe('0');
      const rows = await worker.env.DB.prepare('SELECT network FROM password_failures WHERE subject = ?').bind(email.toLowerCase()).all();
      expect(rows.results).toEqual([]);
    });
  }, 120_000);

  it('runs the SY9990 salt round trip for a legacy record', async () => {
    const mobile = api.mobile('139');
    const legacySalt = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    await seed({ phone: { callingCode: '+86', mobile }, password: 'Legacy123', legacySalt });
    const login = (password: string, passwordVersion: 1 | 2) =>
      api.post('/agg-web/user/loginByPhone', { mobile, mobileCode: '+86', password, passwordVersion, loginType: 101, captchaType: 3 });
    const first = await login(await hashPassword('Legacy123'), 2);
    expect(first.status).toBe(200);
    expect((await api.json(first)).code).toBe('SY9990');
    const salt = await api.json<{ salt: string }>(await api.post('/agg-web/user/getUserSalt', { type: 1, phone: mobile, phoneCode: '+86' }));
    expect(salt.data.salt).toBe(legacySalt);
    const retried = await login(await hashPassword('Legacy123', salt.data.salt), 1);
    expect((await api.json(retried)).code).toBe('0');
    expect(tokenOf(retried)).toBeTruthy();
  });

  it('answers getUserSalt for unknown and version-2 accounts with a stable salt that looks the same', async () => {
    const email = uniqueEmail();
    await seed({ email, password: 'Harbour2024' });
    const salt = async (loginName: string) =>
      (await api.json<{ salt: string }>(await api.post('/agg-web/user/getUserSalt', { type: 2, loginName }))).data.salt;
    const unknown = await salt(uniqueEmail());
    const modern = await salt(email);
    expect(unknown).toMatch(/^[0-9a-f]{32}$/);
    expect(modern).toMatch(/^[0-9a-f]{32}$/);
    expect(await salt(email)).toBe(modern);
    expect(unknown).not.toBe(modern);
  });

  it('sets the new password from the insecure-password modal: the old one stops working', async () => {
    const email = uniqueEmail();
    await seed({ email, password: 'abc', insecurePassword: true, originalFlag: true });
    const common = await api.json(await emailLogin(email, 'abc', { newPassword: await hashPassword('password1') }));
    expect(common.code).toBe('PW0002');
    const changed = await api.json(await emailLogin(email, 'abc', { newPassword: await hashPassword('Harbour7Crane') }));
    expect(changed.data).toMatchObject({ originalFlag: false });
    expect((await api.json(await emailLogin(email, 'abc'))).code).toBe('US0010');
    expect((await api.json(await emailLogin(email, 'Harbour7Crane'))).code).toBe('0');
  });

  it('signs a chain partner in by user id', async () => {
    const usId = `BR${api.unique()}`;
    await seed({ usId, password: 'Chain2024' });
    const res = await api.post('/agg-web/user/v2/yunLianLogin', {
      usId,
      password: await hashPassword('Chain2024'),
      passwordVersion: 2,
      captchaType: 3,
    });
    expect((await api.json(res)).code).toBe('0');
  });
});

describe('abuse of the password sign-in, as a script does it', () => {
  const failureRows = async (email: string) =>
    (await worker.env.DB.prepare('SELECT network, failures FROM password_failures WHERE subject = ? ORDER BY network').bind(email.toLowerCase()).all()).results;

  it('50 parallel wrong passwords from network A do not stop the owner on network B', async () => {
    const email = uniqueEmail();
    await seed({ email, password: 'Harbour2024' });
    const attacker = api.ip();
    const burst = await Promise.all(Array.from({ length: 50 }, () => emailLogin(email, 'Guess0000', {}, attacker).then(api.json)));
    // Every answer read: only the generic failure or the human-check answer, never a session.
    for (const answer of burst) {
      if (answer.code === '0') expect(answer.data).toEqual(expect.objectContaining({ tracelessCheckResult: 400, userId: '' }));
      else expect({ code: answer.code, message: answer.message }).toEqual({ code: 'US0010', message: 'Wrong account or password.' });
    }
    // Counted and checked in one statement: the burst got its 3 free guesses, not 50, and the last of them (only)
    // says that the security check comes next.
    const refusals = burst.filter((a) => a.code === 'US0010');
    expect(refusals).toHaveLength(SLIDER_AFTER);
    expect(refusals.map((a) => a.data).sort()).toEqual([...Array<null>(SLIDER_AFTER - 1).fill(null), { humanCheckNext: true }].sort());
    expect(await failureRows(email)).toEqual([{ network: attacker, failures: SLIDER_AFTER }]);
    // The owner elsewhere signs in as usual; network A still needs the human check.
    const owner = await emailLogin(email, 'Harbour2024', {}, api.ip());
    expect((await api.json(owner)).data).toMatchObject({ tracelessCheckResult: 100 });
    expect((await api.json(await emailLogin(email, 'Harbour2024', {}, attacker))).data).toMatchObject({ tracelessCheckResult: 400 });
  }, 90_000);

  it('forged client-IP headers do not reset the count of a network in production mode', async () => {
    const email = uniqueEmail();
    await seed({ email, password: 'Harbour2024' });
    const production = {
      ...worker.env,
      ...deployedVars,
      // The pepper the local seeding used, so the right password is right in this environment too.
      PASSWORD_PEPPER: 'dev-only-pepper-not-for-production',
    };
    const network = api.ip();
    const attempt = async (password: string, forged: string) =>
      api
        .emailLogin(email, password, {}, {
          origin: 'https://portal.example.com',
          env: production,
          // What Cloudflare sets; the client's own copy never survives Cloudflare.
          from: network,
          headers: { 'x-client-ip': forged, 'x-forwarded-for': forged, 'x-real-ip': forged, 'true-client-ip': forged },
        })
        .then(api.json);
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt('Guess0000', `203.0.113.${i + 1}`)));
    expect(burst.filter((a) => a.code === 'US0010')).toHaveLength(SLIDER_AFTER);
    expect(burst.filter((a) => a.code === '0').every((a) => a.data.tracelessCheckResult === 400)).toBe(true);
    expect(await failureRows(email)).toEqual([{ network, failures: SLIDER_AFTER }]);
    // New forged addresses change nothing: still the human check, even with the right password.
    expect((await attempt('Harbour2024', '198.51.100.99')).data).toMatchObject({ tracelessCheckResult: 400 });
  }, 90_000);

  it('answers a known and an unknown name alike: the failure, the human check after 3, and the KDF work', async () => {
    const known = uniqueEmail();
    const unknown = uniqueEmail();
    await seed({ email: known, password: 'Harbour2024' });
    const from = api.ip();
    const answers = async (email: string) => {
      const all = [];
      for (let i = 0; i < SLIDER_AFTER + 1; i++) {
        const res = await emailLogin(email, 'Guess0000', {}, from);
        all.push({ status: res.status, cookies: res.headers.getSetCookie(), body: await res.text() });
      }
      return all;
    };
    const derive = vi.spyOn(crypto.subtle, 'deriveBits');
    const knownAnswers = await answers(known);
    const knownWork = derive.mock.calls.length;
    derive.mockClear();
    const unknownAnswers = await answers(unknown);
    expect(derive.mock.calls.length).toBe(knownWork);
    derive.mockRestore();
    expect(unknownAnswers).toEqual(knownAnswers);
    expect(JSON.parse(knownAnswers.at(-1)!.body).data).toMatchObject({ tracelessCheckResult: 400 });
    // One PBKDF2 per counted attempt, for the known name and the unknown one; the human-check answer costs none.
    expect(knownWork).toBe(SLIDER_AFTER);
  });

  it(`caps checkIsNewUser at ${NEW_USER_CHECKS_PER_NAME} per name and ${NEW_USER_CHECKS_PER_NETWORK} per network an hour`, async () => {
    const email = uniqueEmail();
    const check = (loginEmail: string, from = api.ip()) => api.post('/agg-web/quick/user/checkIsNewUser', { loginType: 2, loginEmail }, { from }).then(api.json);
    const byName = await Promise.all(Array.from({ length: 40 }, () => check(email)));
    expect(byName.filter((a) => a.code === '0')).toHaveLength(NEW_USER_CHECKS_PER_NAME);
    expect(byName.filter((a) => a.code === 'US0040')).toHaveLength(40 - NEW_USER_CHECKS_PER_NAME);
    const network = api.ip();
    const byNetwork = await Promise.all(Array.from({ length: NEW_USER_CHECKS_PER_NETWORK + 5 }, () => check(uniqueEmail(), network)));
    expect(byNetwork.filter((a) => a.code === '0')).toHaveLength(NEW_USER_CHECKS_PER_NETWORK);
    expect(byNetwork.find((a) => a.code !== '0')).toMatchObject({ code: 'US0040', message: 'Too many checks. Please try again in an hour.' });
  }, 90_000);

  it('holds the credentials hand-off to the same rules: its failures count, a throttled network and a common password get no session', async () => {
    const email = uniqueEmail();
    const userId = await seed({ email, password: 'Harbour2024' });
    const network = api.ip();
    const handoff = async (password: string) => {
      const blob = await createHandoffBlob(
        await importHandoffKey(DEV_HANDOFF_KEY),
        handoffClaims({ sub: userId, aud: 'portal', purpose: 'credentials', loginName: email, passwordHash: await hashPassword(password) }),
      );
      const res = await app.request(`http://localhost/account?userNameAndPwd=${blob}`, { headers: { 'cf-connecting-ip': network } }, worker.env, worker.ctx);
      await res.body?.cancel();
      return { status: res.status, signedIn: res.headers.getSetCookie().some((c) => c.startsWith('portal_token=')) };
    };
    expect(await handoff('password1')).toEqual({ status: 400, signedIn: false });
    for (let i = 0; i < SLIDER_AFTER; i++) expect(await handoff('Guess0000')).toEqual({ status: 400, signedIn: false });
    expect(await failureRows(email)).toEqual([{ network, failures: SLIDER_AFTER }]);
    // The network now owes a human check, which the edge cannot show: no silent sign-in from there.
    expect(await handoff('Harbour2024')).toEqual({ status: 400, signedIn: false });
    expect((await api.json(await emailLogin(email, 'Harbour2024', {}, network))).data).toMatchObject({ tracelessCheckResult: 400 });
    // From another network the same blob signs in.
    const other = api.ip();
    const blob = await createHandoffBlob(
      await importHandoffKey(DEV_HANDOFF_KEY),
      handoffClaims({ sub: userId, aud: 'portal', purpose: 'credentials', loginName: email, passwordHash: await hashPassword('Harbour2024') }),
    );
    const res = await app.request(`http://localhost/account?userNameAndPwd=${blob}`, { headers: { 'cf-connecting-ip': other } }, worker.env, worker.ctx);
    await res.body?.cancel();
    expect(res.status).toBe(303);
  });
});

describe('signed-in calls', () => {
  const signIn = async (seedBody: Record<string, unknown>) => {
    const email = uniqueEmail();
    await seed({ email, password: 'Harbour2024', ...seedBody });
    const res = await emailLogin(email, 'Harbour2024');
    expect((await api.json(res.clone())).code).toBe('0');
    return { cookie: api.sessionCookie(res), answer: (await api.json(res)).data };
  };
  const loginCase = async (cookie: string) => (await api.json(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie }))).data;

  it('derives the login case from the user state', async () => {
    expect(await loginCase((await signIn({})).cookie)).toMatchObject({ userLoginCase: 1, accountSize: 0 });
    expect(await loginCase((await signIn({ originalFlag: true })).cookie)).toMatchObject({ userLoginCase: 2, originalFlag: true });
    expect(await loginCase((await signIn({ userType: 1 })).cookie)).toMatchObject({ userLoginCase: 3 });
    expect(await loginCase((await signIn({ userType: 2 })).cookie)).toMatchObject({ userLoginCase: 2, accountSize: 0 });
    const admin = await signIn({ userType: 2, companies: [{ nameEn: `Pending ${api.unique()}`, status: 'approving' }] });
    expect(await loginCase(admin.cookie)).toMatchObject({ userLoginCase: 4, ifJumpToSaas: false });
    const staff = await signIn({ userType: 2, companies: [{ nameEn: `Joined ${api.unique()}`, role: 'staff', memberStatus: 'pending' }] });
    expect(await loginCase(staff.cookie)).toMatchObject({ userLoginCase: 5 });
    const member = await signIn({ userType: 2, companies: [{ nameEn: `Verified ${api.unique()}` }, { nameEn: `Active ${api.unique()}`, status: 'active' }] });
    expect(await loginCase(member.cookie)).toMatchObject({ userLoginCase: 2, accountSize: 2 });
    const phoneUser = api.mobile('139');
    await seed({ phone: { callingCode: '+86', mobile: phoneUser }, password: 'Harbour2024' });
    const byPhone = await api.post('/agg-web/user/loginByPhone', {
      mobile: phoneUser,
      mobileCode: '+86',
      password: await hashPassword('Harbour2024'),
      passwordVersion: 2,
      loginType: 101,
      captchaType: 3,
    });
    expect(await loginCase(api.sessionCookie(byPhone))).toMatchObject({ userLoginCase: 1, registerMobile: phoneUser });
  });

  it('lists the companies, chooses one, refuses another, and reports a master account', async () => {
    const name = `Main ${api.unique()}`;
    const { cookie, answer } = await signIn({ userType: 2, realName: 'Li Lei', companies: [{ nameEn: name, isMain: true }] });
    expect(answer).toMatchObject({ isMaster: true, accountSize: 1 });
    const list = await api.json<{ companyId: string; companyNameEn: string; role: string; isMain: boolean }[]>(
      await api.post('/c/user/v2/getCompanyListByToken', {}, { cookie }),
    );
    expect(list.data).toEqual([expect.objectContaining({ companyNameEn: name, role: 'administrator', isMain: true, status: 'verified' })]);
    expect(answer.companyId).toBe(list.data[0]!.companyId);
    expect((await api.json(await api.post('/agg-web/user/chooseAccount', { companyId: list.data[0]!.companyId }, { cookie }))).code).toBe('0');
    expect((await api.json(await api.post('/agg-web/user/chooseAccount', { companyId: 'not-mine' }, { cookie }))).code).toBe('US0020');
    const me = await api.json(await api.get('/agg-web/user/fetchMeByUserToken', { cookie }));
    expect(me.data).toMatchObject({ realName: 'Li Lei', passwordVersion: 2, registerMobile: null });
  });

  it('turns an individual choice into case 3', async () => {
    const { cookie } = await signIn({});
    expect((await api.json(await api.post('/agg-web/quick/user/anonymity/account/login', { loginType: 2 }, { cookie }))).data).toBeNull();
    expect(await loginCase(cookie)).toMatchObject({ userLoginCase: 3, userType: 1 });
  });

  it('answers TK00001 without a session and clears the cookies', async () => {
    const res = await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: 'portal_token=' + 'x'.repeat(43) });
    expect(res.status).toBe(401);
    expect((await api.json(res)).code).toBe('TK00001');
    expect(res.headers.getSetCookie()).toEqual(expect.arrayContaining([expect.stringMatching(/^portal_token=; Max-Age=0/), expect.stringMatching(/^portal_signed_in=; Max-Age=0/)]));
    expect(await statusOf(api.post('/c/user/v2/getCompanyListByToken', {}))).toBe(401);
  });

  it('revokes the session on logout', async () => {
    const { cookie } = await signIn({});
    const out = await api.post('/c/user/v2/loginout', {}, { cookie });
    expect((await api.json(out)).data).toBe(true);
    expect(out.headers.getSetCookie()).toEqual(expect.arrayContaining([expect.stringMatching(/^portal_token=; Max-Age=0/)]));
    const after = await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie });
    expect((await api.json(after)).code).toBe('TK00001');
    // Logout without a session still answers true and clears the cookies.
    expect((await api.json(await api.post('/c/user/v2/loginout', {}))).data).toBe(true);
  });
});

describe('dev users', () => {
  it('holds a seeded plain password to the whole rule unless it is marked insecure', async () => {
    const seedWith = (password: string, extra: Record<string, unknown> = {}) => api.post('/dev/users', { email: uniqueEmail(), password, ...extra }).then(api.json);
    expect(await seedWith('ab#1')).toMatchObject({ code: 'PW0001', message: 'Please use 6 to 18 letters and digits for the password.' });
    expect(await seedWith('abc')).toMatchObject({ code: 'PW0001' });
    expect(await seedWith('password1')).toMatchObject({ code: 'PW0002' });
    expect((await seedWith('ab#1', { insecurePassword: true })).code).toBe('0');
  });

  it('answers the 404 envelope when DEV_OUTBOX is off', async () => {
    const res = await app.request(
      'http://localhost/api/dev/users',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: uniqueEmail(), password: 'x' }) },
      { ...worker.env, DEV_OUTBOX: 'false' },
      worker.ctx,
    );
    expect(res.status).toBe(404);
    expect((await api.json(res)).code).toBe('GW0404');
  });
});
