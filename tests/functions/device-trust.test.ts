import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { createHandoffBlob, DEV_HANDOFF_KEY, handoffClaims, importHandoffKey } from '../../functions/gateway/handoff/blob';
import { LOGIN_CLIENT } from '../../src/schemas/auth';
import { hashPassword } from '../../src/lib/password-hash';
import { cookieValue, jar, json, named, PASSWORD, useDeviceChallenge, type Opts } from './device-challenge';

/**
 * "Trust this device for 30 days" and the company's device rules (issue 44), through the whole Worker (edge cookies
 * included) on a real local D1, tried the way an attacker would: a trusted cookie carried to another account, trust
 * used after a password reset, "sign out everywhere", an operator's two-step reset or block, a replayed challenge,
 * a company that forbids trust, the company's "confirm new devices" where the setting is off, and the credentials
 * hand-off. The Worker runs on a clock the tests move (no sleeps), so TOTP codes are exact.
 */
const STEP_MS = 30_000;
const DAY_MS = 24 * 60 * 60 * 1000;
let at = Math.floor(Date.now() / STEP_MS) * STEP_MS + 2000;
const { worker, api, call, post, passwordSignIn, latestCode } = useDeviceChallenge('device-trust', () => at);
/** Past the 60 s wait between two codes to one recipient, and to a TOTP step not used yet. */
const later = () => {
  at = (Math.floor(at / STEP_MS) + 3) * STEP_MS + 2000;
};

const sql = async <T = Record<string, unknown>>(query: string, ...binds: unknown[]) => (await worker.env.DB.prepare(query).bind(...binds).all<T>()).results;

const verify = (body: Record<string, unknown>, challenge: string | undefined, opts: Opts = {}) =>
  post('/agg-web/user/twoStep/verify', body, { ...opts, cookie: jar(challenge, opts.cookie) });
/** Signed in straight away (a session, no step owed)? */
const straightIn = async (res: Response) => {
  const inside = named(res, 'portal_token') !== undefined && named(res, 'portal_second_step') === undefined;
  await res.body?.cancel();
  return inside;
};

async function person(companies?: Record<string, unknown>[]) {
  const email = `trust.${api.unique()}@example.com`;
  const userId = await api.seed({ email, password: PASSWORD, ...(companies ? { companies } : {}) });
  return { email, userId };
}

/** A password sign-in from a new device and its code, trusting the device or not: the session and the device cookie. */
async function passChallenge(email: string, { trust = false, ...opts }: Opts & { trust?: boolean } = {}) {
  later();
  const first = await passwordSignIn(email, opts);
  const challenge = named(first, 'portal_second_step');
  expect(challenge).toBeDefined();
  const passed = await verify({ kind: 'code', code: await latestCode(email), ...(trust ? { trust } : {}) }, challenge, opts);
  expect((await json(passed)).code).toBe('0');
  return { session: named(passed, 'portal_token')!, device: named(passed, 'portal_device') ?? opts.cookie!, challenge };
}

/** Turns two-step on for the signed-in person (the sign-in is a fresh proof); the TOTP secret. */
async function enrol(session: string) {
  const start = await json<{ secret: string }>(await post('/agg-web/user/twoStep/enrol/start', {}, { cookie: session }));
  expect(start.code).toBe('0');
  const code = TOTP.generate({ secret: Secret.fromBase32(start.data.secret), timestamp: at });
  expect((await json(await post('/agg-web/user/twoStep/enrol/finish', { code }, { cookie: session }))).code).toBe('0');
  later();
  return start.data.secret;
}
const totp = (secret: string) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });

/** A person with two-step on and a device they know (no trust yet): the device cookie and the TOTP secret. */
async function twoStepPerson(companies?: Record<string, unknown>[]) {
  const p = await person(companies);
  const { session, device } = await passChallenge(p.email);
  return { ...p, device, secret: await enrol(session) };
}

/** A two-step sign-in from `device`, its second step passed with the app, trusting the device or not. */
async function passSecondStep(p: { email: string; device: string; secret: string }, trust: boolean) {
  later();
  const first = await passwordSignIn(p.email, { cookie: p.device });
  await first.body?.cancel();
  const challenge = named(first, 'portal_second_step');
  expect(challenge).toBeDefined();
  // What the screen is told of this step (GET agg-web/user/twoStep/challenge).
  const facts = (await json<{ newDevice: unknown; trustable: boolean }>(await call('/agg-web/user/twoStep/challenge', { headers: { cookie: challenge! } }))).data;
  const passed = await verify({ kind: 'totp', code: totp(p.secret), ...(trust ? { trust } : {}) }, challenge, { cookie: p.device });
  expect((await json(passed)).code).toBe('0');
  return { facts, session: named(passed, 'portal_token')!, device: named(passed, 'portal_device') ?? p.device, challenge };
}

const trustedRows = (userId: string) => sql<{ trusted_until: number | null }>('SELECT trusted_until FROM known_devices WHERE user_id = ? AND trusted_until IS NOT NULL', userId);
const trustEvents = async (userId: string) =>
  (await sql<{ n: number }>("SELECT COUNT(*) AS n FROM audit_log WHERE target_id = ? AND action = 'user.device_trusted'", userId))[0]!.n;

/** A country this test never used: a known but untrusted device from it owes the code (NEW_DEVICE_NEW_COUNTRY). */
const countries = ['FR', 'DE', 'JP', 'BR', 'IN', 'KR', 'SG', 'AU', 'CA', 'MX', 'ZA', 'NL'];
const newCountry = () => countries.shift()!;

describe('trusting the device on the second step (two-step)', () => {
  it('skips the second step from that device for 30 days, with an activity row and a notice; then asks again', async () => {
    const p = await twoStepPerson();
    const before = at;
    const { facts, device } = await passSecondStep(p, true);
    expect(facts).toEqual({ newDevice: null, trustable: true });
    expect(await trustEvents(p.userId)).toBe(1);
    const [row] = await trustedRows(p.userId);
    expect(row!.trusted_until).toBeGreaterThan(before + 29 * DAY_MS);
    expect(row!.trusted_until).toBeLessThan(at + 31 * DAY_MS);
    await worker.settle();
    expect((await api.outbox(p.email)).some((m) => /trusted for 30 days/.test(m.text))).toBe(true);

    later();
    expect(await straightIn(await passwordSignIn(p.email, { cookie: device }))).toBe(true);
    // The list says until when.
    const session = named(await passwordSignIn(p.email, { cookie: device }), 'portal_token')!;
    const listed = await json<{ current: boolean; trustedUntil: number | null }[]>(await call('/agg-web/user/security/devices', { headers: { cookie: jar(session, device)! } }));
    expect(listed.data.find((d) => d.current)?.trustedUntil).toBe(row!.trusted_until);

    // Past the 30 days: the second step again.
    at = row!.trusted_until! + STEP_MS;
    expect(await straightIn(await passwordSignIn(p.email, { cookie: device }))).toBe(false);
  });

  it('without the tick, the next sign-in from the same device is asked again', async () => {
    const p = await twoStepPerson();
    const { device } = await passSecondStep(p, false);
    expect(await trustEvents(p.userId)).toBe(0);
    later();
    expect(await straightIn(await passwordSignIn(p.email, { cookie: device }))).toBe(false);
  });
});

describe('trusting the device on the new-device challenge', () => {
  it('skips the challenge from that device, even from a country the account never used', async () => {
    const p = await person();
    const { device } = await passChallenge(p.email, { trust: true, country: 'CN' });
    expect(await trustEvents(p.userId)).toBe(1);
    later();
    expect(await straightIn(await passwordSignIn(p.email, { cookie: device, country: newCountry() }))).toBe(true);
  });

  it("the screen's facts come from a live challenge only: none, or a used one, answers MF0001", async () => {
    const p = await person();
    const facts = async (cookie?: string) => json(await call('/agg-web/user/twoStep/challenge', cookie ? { headers: { cookie } } : {}));
    expect((await facts()).code).toBe('MF0001');
    const { challenge, session } = await passChallenge(p.email);
    expect((await facts(challenge)).code).toBe('MF0001');
    // A session is no challenge.
    expect((await facts(session)).code).toBe('MF0001');
  });

  it('a replayed challenge trusts nothing more: MF0001, no session, one activity row', async () => {
    const p = await person();
    const { challenge } = await passChallenge(p.email, { trust: true });
    later();
    await (await passwordSignIn(p.email)).body?.cancel();
    const replay = await verify({ kind: 'code', code: await latestCode(p.email), trust: true }, challenge);
    expect((await json(replay)).code).toBe('MF0001');
    expect(named(replay, 'portal_token')).toBeUndefined();
    expect(await trustEvents(p.userId)).toBe(1);
  });
});

describe('a trusted device cookie, attacked', () => {
  it('copied to another account is unknown there: the other account is asked (new device, and two-step)', async () => {
    const owner = await person();
    const { device } = await passChallenge(owner.email, { trust: true });
    const other = await person();
    later();
    const res = await passwordSignIn(other.email, { cookie: device });
    expect(await straightIn(res)).toBe(false);
    const otherTwoStep = await twoStepPerson();
    later();
    expect(await straightIn(await passwordSignIn(otherTwoStep.email, { cookie: device }))).toBe(false);
  });

  it('is refused after a password reset', async () => {
    const p = await person();
    const { device } = await passChallenge(p.email, { trust: true, country: 'CN' });
    later();
    expect((await json(await post('/agg-web/user/password/reset/sendCode', { loginType: 2, loginEmail: p.email }))).code).toBe('0');
    const reset = await post('/agg-web/user/password/reset', {
      loginType: 2,
      loginEmail: p.email,
      code: await latestCode(p.email),
      newPassword: await hashPassword(PASSWORD),
      newPasswordSubmit: await hashPassword(PASSWORD),
    });
    expect((await json(reset)).code).toBe('0');
    expect(await trustedRows(p.userId)).toEqual([]);
    later();
    expect(await straightIn(await passwordSignIn(p.email, { cookie: device, country: 'CN' }))).toBe(false);
  });

  it('is refused after a password change (and the changing session keeps no trust either)', async () => {
    const p = await person();
    const { session, device } = await passChallenge(p.email, { trust: true, country: 'CN' });
    const NEW = 'Quayside2027';
    const changed = await post(
      '/agg-web/user/changePassword',
      { currentPassword: await hashPassword(PASSWORD), newPassword: await hashPassword(NEW), newPasswordSubmit: await hashPassword(NEW) },
      { cookie: session },
    );
    expect((await json(changed)).code).toBe('0');
    expect(await trustedRows(p.userId)).toEqual([]);
    later();
    const res = await post('/agg-web/user/v3/userLogin', { loginEmail: p.email, loginPassword: await hashPassword(NEW), passwordVersion: 2, captchaType: 3, ...LOGIN_CLIENT }, { cookie: device, country: 'CN' });
    expect(await straightIn(res)).toBe(false);
  });

  it('is refused after "sign out everywhere"', async () => {
    const p = await person();
    const { session, device } = await passChallenge(p.email, { trust: true, country: 'CN' });
    expect((await json(await post('/agg-web/user/security/sessions/signOutOthers', {}, { cookie: session }))).code).toBe('0');
    expect(await trustedRows(p.userId)).toEqual([]);
    later();
    expect(await straightIn(await passwordSignIn(p.email, { cookie: device, country: 'CN' }))).toBe(false);
  });

  it("is refused after an operator's block (and unblock), and ends with an operator's two-step reset", async () => {
    // On this test's clock, which is past a month by now.
    const support = await post('/dev/operator-session', { login: `support.${api.unique()}@ops.example.com`, role: 'support' });
    const operator = `portal_operator=${cookieValue(support, 'portal_operator')}`;
    const act = async (path: string) => (await json(await post(path, { reason: 'Person called the help desk, identity checked' }, { cookie: operator }))).code;

    const blocked = await person();
    const { device } = await passChallenge(blocked.email, { trust: true, country: 'CN' });
    expect(await act(`/ops/v1/people/${blocked.userId}/block`)).toBe('0');
    expect(await trustedRows(blocked.userId)).toEqual([]);
    expect(await act(`/ops/v1/people/${blocked.userId}/unblock`)).toBe('0');
    later();
    expect(await straightIn(await passwordSignIn(blocked.email, { cookie: device, country: newCountry() }))).toBe(false);

    const reset = await twoStepPerson();
    const trusted = await passSecondStep(reset, true);
    expect(await trustedRows(reset.userId)).toHaveLength(1);
    expect(await act(`/ops/v1/people/${reset.userId}/resetTwoStep`)).toBe('0');
    expect(await trustedRows(reset.userId)).toEqual([]);
    // Two-step is off now; the device, known but no longer trusted, is asked from a new country.
    later();
    expect(await straightIn(await passwordSignIn(reset.email, { cookie: trusted.device, country: newCountry() }))).toBe(false);
  });
});

describe('a company that requires two-step and forbids trusted devices', () => {
  it('offers no trust, ignores a forged tick, and ends the trust its members had', async () => {
    // The administrator's company requires two-step (seeded so), trusted devices still allowed; they turn it on.
    const admin = await twoStepPerson([{ nameEn: `Trust Lines ${api.unique()}`, role: 'administrator', requireTwoStep: true }]);
    const companyId = (await sql<{ company_id: string }>('SELECT company_id FROM company_members WHERE user_id = ?', admin.userId))[0]!.company_id;
    const member = await twoStepPerson([{ companyId, role: 'staff' }]);
    const trusted = await passSecondStep(member, true);
    expect(trusted.facts).toEqual({ newDevice: null, trustable: true });
    later();
    expect(await straightIn(await passwordSignIn(member.email, { cookie: trusted.device }))).toBe(true);

    // The administrator (with two-step) forbids trusted devices.
    const adminSession = (await passSecondStep(admin, false)).session;
    const set = await json<{ confirmNewDevices: boolean; forbidTrustedDevices: boolean }>(
      await post('/agg-web/company/devices', { companyId, forbidTrustedDevices: true }, { cookie: adminSession }),
    );
    expect(set).toMatchObject({ code: '0', data: { confirmNewDevices: false, forbidTrustedDevices: true } });

    // The member's trusted device no longer skips the step; the answer says no trust is offered; a tick is ignored.
    const again = await passSecondStep({ ...member, device: trusted.device }, true);
    expect(again.facts).toEqual({ newDevice: null, trustable: false });
    expect(await trustEvents(member.userId)).toBe(1);
    later();
    expect(await straightIn(await passwordSignIn(member.email, { cookie: trusted.device }))).toBe(false);
  });

  it('only its administrator sets the rules; forbidding trust needs the two-step rule first (ND0004)', async () => {
    const admin = await person([{ nameEn: `Device Rules ${api.unique()}`, role: 'administrator' }]);
    const companyId = (await sql<{ company_id: string }>('SELECT company_id FROM company_members WHERE user_id = ?', admin.userId))[0]!.company_id;
    const staff = await person([{ companyId, role: 'staff' }]);
    const adminSession = (await passChallenge(admin.email)).session;
    const staffSession = (await passChallenge(staff.email)).session;
    expect((await json(await post('/agg-web/company/devices', { companyId, confirmNewDevices: true }, { cookie: staffSession }))).code).toBe('MF0020');
    expect((await json(await post('/agg-web/company/devices', { companyId, forbidTrustedDevices: true }, { cookie: adminSession }))).code).toBe('ND0004');
    expect((await json(await post('/agg-web/company/devices', { companyId, confirmNewDevices: true }))).code).toBe('TK00001');
    const set = await json(await post('/agg-web/company/devices', { companyId, confirmNewDevices: true }, { cookie: adminSession }));
    expect(set).toMatchObject({ code: '0', data: { confirmNewDevices: true, forbidTrustedDevices: false } });
    // Read back by its administrator only.
    const rules = (cookie: string) => call(`/agg-web/company/devices?companyId=${companyId}`, { headers: { cookie } });
    expect(await json(await rules(adminSession))).toMatchObject({ code: '0', data: { confirmNewDevices: true, forbidTrustedDevices: false } });
    expect((await json(await rules(staffSession))).code).toBe('CO0008');
  });
});

describe('the company\'s "confirm new devices" where NEW_DEVICE_CHALLENGE is off', () => {
  const OFF = { NEW_DEVICE_CHALLENGE: 'false' };

  it('asks its active members on a new device, and nobody else', async () => {
    const member = await person([{ nameEn: `Confirm Lines ${api.unique()}`, role: 'staff', confirmNewDevices: true }]);
    const pending = await person([{ nameEn: `Pending Lines ${api.unique()}`, role: 'staff', memberStatus: 'pending', confirmNewDevices: true }]);
    const outsider = await person();
    later();
    const asked = await passwordSignIn(member.email, { env: OFF });
    const body = await json<{ secondStep?: { newDevice?: { channel: string } } }>(asked);
    expect(body.data.secondStep?.newDevice?.channel).toBe('email');
    expect(named(asked, 'portal_token')).toBeUndefined();
    expect(await straightIn(await passwordSignIn(pending.email, { env: OFF }))).toBe(true);
    expect(await straightIn(await passwordSignIn(outsider.email, { env: OFF }))).toBe(true);
    // Passed once (trusting nothing), the device is known: not asked again.
    const passed = await verify({ kind: 'code', code: await latestCode(member.email) }, named(asked, 'portal_second_step'), { env: OFF });
    later();
    expect(await straightIn(await passwordSignIn(member.email, { cookie: named(passed, 'portal_device'), env: OFF }))).toBe(true);
  });
});

describe('the credentials hand-off (userNameAndPwd)', () => {
  const credentials = async (p: { email: string; userId: string }) =>
    createHandoffBlob(
      await importHandoffKey(DEV_HANDOFF_KEY),
      handoffClaims({ sub: p.userId, aud: 'portal', purpose: 'credentials', now: at, loginName: p.email, passwordHash: await hashPassword(PASSWORD) }),
    );
  const handOff = async (p: { email: string; userId: string }, cookie?: string) =>
    call(`http://localhost/user_center?userNameAndPwd=${await credentials(p)}`, { headers: { 'cf-connecting-ip': api.ip(), ...(cookie ? { cookie } : {}) } });

  it('from a new device leads to the challenge on /login (no session); the code, trusting the device, opens it; the next hand-off goes straight in', async () => {
    const p = await person();
    later();
    const res = await handOff(p);
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!, 'http://localhost');
    expect(location.pathname).toBe('/login');
    expect(Object.fromEntries(location.searchParams)).toEqual({ secondStep: '1', next: '/user_center' });
    expect(named(res, 'portal_token')).toBeUndefined();
    const challenge = named(res, 'portal_second_step');
    expect(challenge).toBeDefined();
    // The screen asks the challenge which step it is, and whether to offer "Trust this device".
    expect(await json(await call('/agg-web/user/twoStep/challenge', { headers: { cookie: challenge! } }))).toMatchObject({
      code: '0',
      data: { newDevice: { channel: 'email', to: 't***@example.com' }, trustable: true },
    });

    const passed = await verify({ kind: 'code', code: await latestCode(p.email), trust: true }, challenge);
    expect((await json(passed)).code).toBe('0');
    const device = named(passed, 'portal_device')!;
    expect(await trustEvents(p.userId)).toBe(1);

    later();
    const again = await handOff(p, device);
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/user_center');
    expect(named(again, 'portal_token')).toBeDefined();
  });

  it('a person with two-step on, on a trusted device, goes straight in; on another device the second step is owed', async () => {
    const p = await twoStepPerson();
    const { device } = await passSecondStep(p, true);
    later();
    const trusted = await handOff(p, device);
    expect(named(trusted, 'portal_token')).toBeDefined();
    const elsewhere = await handOff(p);
    expect(new URL(elsewhere.headers.get('location')!, 'http://localhost').searchParams.get('secondStep')).toBe('1');
    expect(named(elsewhere, 'portal_token')).toBeUndefined();
  });
});
