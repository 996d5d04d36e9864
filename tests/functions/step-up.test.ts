import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { createWorker } from '../../functions/worker';
import { hashPassword } from '../../src/lib/password-hash';
import { LOGIN_CLIENT } from '../../src/schemas/auth';
import { errorCatalogue } from '../../src/schemas/error-codes';
import type { ProofStart, ProofStep } from '../../src/schemas/step-up';
import { useWorkerEnv, type Envelope } from './gateway-client';
import { SoftAuthenticator } from './soft-authenticator';

/**
 * Proving it's you again (functions/gateway/identity/proof.ts) through the whole Worker on a real local D1, the
 * way a script with a stolen session would try it. The Worker runs on a clock the tests move: a session is
 * "stolen and old" once the clock is past its sign-in by more than STEP_UP_MAX_AGE (10 minutes).
 */
const PORTAL = 'https://portal.example.com';
const { worker, api } = useWorkerEnv('step-up', { PORTAL_ORIGIN: PORTAL, PASSKEY_RP_ID: '', PASSKEY_ORIGINS: '' }, { origin: PORTAL });

const STEP_MS = 30_000;
const MINUTE = 60_000;
let at = Math.floor(Date.now() / STEP_MS) * STEP_MS + 2000;
const app = createWorker({ clock: () => at });
/** Moves the clock forward by `ms`, to 2 s into a 30-second step (each TOTP code of a test is new). */
const later = (ms: number) => {
  at = (Math.floor((at + ms) / STEP_MS) + 1) * STEP_MS + 2000;
};
const AGED = 11 * MINUTE;

const PASSWORD = 'Harbour2026';
type Opts = { cookie?: string; from?: string; lang?: 'zh' | 'en' };
const post = (path: string, body: unknown, { cookie, from = api.ip(), lang }: Opts = {}) =>
  app.request(
    `${PORTAL}/api${path}`,
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: PORTAL,
        'cf-connecting-ip': from,
        ...(cookie || lang ? { cookie: [cookie, lang && `LANG=${lang}`].filter(Boolean).join('; ') } : {}),
      },
      body: JSON.stringify(body),
    },
    worker.env,
    worker.ctx,
  );
const json = <T = Record<string, unknown>>(res: Response) => res.json() as Promise<Envelope<T>>;
/** A GET of `path` with `cookie`: the envelope. */
const read = async <T = Record<string, unknown>>(path: string, cookie: string) =>
  json<T>(await app.request(`${PORTAL}/api${path}`, { headers: { cookie, origin: PORTAL } }, worker.env, worker.ctx));
const call = async <T = Record<string, unknown>>(path: string, body: unknown, opts: Opts = {}) => json<T>(await post(path, body, opts));

const cookieOf = (res: Response, name: string) => {
  const value = new RegExp(`(?:^|\\n)((?:__Host-)?${name})=([^;]*)`).exec(res.headers.getSetCookie().join('\n'));
  return value && value[2] ? `${value[1]}=${value[2]}` : undefined;
};
const signInAnswer = async (email: string) =>
  post('/agg-web/user/v3/userLogin', { loginEmail: email, loginPassword: await hashPassword(PASSWORD), passwordVersion: 2, captchaType: 3, ...LOGIN_CLIENT });
const codeAt = (secret: string, time = at) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: time });

/** A new session of `email`: with `secret` the second step is passed with the app. */
async function signIn(email: string, secret?: string) {
  const res = await signInAnswer(email);
  await res.body?.cancel();
  if (!secret) return cookieOf(res, 'portal_token')!;
  const passed = await post('/agg-web/user/twoStep/verify', { kind: 'totp', code: codeAt(secret) }, { cookie: cookieOf(res, 'portal_second_step') });
  await passed.body?.cancel();
  later(STEP_MS);
  return cookieOf(passed, 'portal_token')!;
}

async function person(extra: Record<string, unknown> = {}) {
  const email = `stepup.${api.unique()}@example.com`;
  const userId = await api.seed({ email, password: PASSWORD, ...extra });
  return { email, userId, cookie: await signIn(email) };
}

/** Turns two-step on for the session (fresh) and answers the secret and the recovery codes. */
async function enrol(cookie: string) {
  const start = await call<{ secret: string }>('/agg-web/user/twoStep/enrol/start', {}, { cookie });
  expect(start.code).toBe('0');
  const finish = await call<{ recoveryCodes: string[] }>('/agg-web/user/twoStep/enrol/finish', { code: codeAt(start.data.secret) }, { cookie });
  expect(finish.code).toBe('0');
  later(STEP_MS);
  return { secret: start.data.secret, recoveryCodes: finish.data.recoveryCodes };
}

async function addPasskey(cookie: string, authenticator = new SoftAuthenticator()) {
  const options = await call<{ options: PublicKeyCredentialCreationOptionsJSON }>('/agg-web/passkeys/registration/options', {}, { cookie });
  expect(options.code).toBe('0');
  const added = await call<{ id: string }>('/agg-web/passkeys/registration/verify', { name: 'Laptop', response: await authenticator.register(options.data.options, PORTAL) }, { cookie });
  expect(added.code).toBe('0');
  return { authenticator, id: added.data.id };
}

const proveWithPassword = (cookie: string, password = PASSWORD, opts: Opts = {}) =>
  hashPassword(password).then((hash) => call<ProofStep>('/agg-web/user/proof/password', { password: hash }, { ...opts, cookie }));

async function proveWithPasskey(cookie: string, authenticator: SoftAuthenticator) {
  const options = await call<{ options: PublicKeyCredentialRequestOptionsJSON }>('/agg-web/user/proof/passkey/options', {}, { cookie });
  expect(options.code).toBe('0');
  return call<ProofStep>('/agg-web/user/proof/passkey/verify', { response: await authenticator.authenticate(options.data.options.challenge, PORTAL) }, { cookie });
}

const db = () => worker.env.DB;
const passkeyCount = async (userId: string) => (await db().prepare('SELECT COUNT(*) AS n FROM passkeys WHERE user_id = ?').bind(userId).first<{ n: number }>())!.n;
const twoStepOn = async (userId: string) => (await db().prepare('SELECT 1 FROM two_step WHERE user_id = ? AND enabled_at IS NOT NULL').bind(userId).first()) !== null;
const liveSessions = async (userId: string) =>
  (await db().prepare('SELECT COUNT(*) AS n FROM sessions WHERE user_id = ? AND revoked_at IS NULL').bind(userId).first<{ n: number }>())!.n;
/** A password change as the form sends it: the current password (asked on the change itself) and the new one twice. */
const newPassword = async (password: string) => ({ currentPassword: await hashPassword(PASSWORD), newPassword: await hashPassword(password), newPasswordSubmit: await hashPassword(password) });

describe('a stolen session older than ten minutes', { timeout: 90_000 }, () => {
  it('cannot add or remove a passkey, turn two-step on or off, make recovery codes, change the password or end the other sessions', async () => {
    const owner = await person();
    const { id: passkeyId } = await addPasskey(owner.cookie);
    const spare = await signIn(owner.email);
    const pending = await call<{ options: PublicKeyCredentialCreationOptionsJSON }>('/agg-web/passkeys/registration/options', {}, { cookie: owner.cookie });
    // Another person without two-step, whose old session tries to turn it on.
    const other = await person();
    later(AGED);

    const refused = async (path: string, body: unknown, cookie: string) => {
      const res = await post(path, body, { cookie, lang: 'zh' });
      const answer = await json(res);
      expect({ path, status: res.status, code: answer.code, message: answer.message }).toEqual({ path, status: 403, code: 'SU0001', message: errorCatalogue.SU0001.zh });
    };
    await refused('/agg-web/passkeys/registration/options', {}, owner.cookie);
    await refused('/agg-web/passkeys/registration/verify', { name: 'Thief', response: await new SoftAuthenticator().register(pending.data.options, PORTAL) }, owner.cookie);
    await refused('/agg-web/passkeys/remove', { id: passkeyId }, owner.cookie);
    await refused('/agg-web/user/twoStep/enrol/start', {}, other.cookie);
    await refused('/agg-web/user/twoStep/enrol/finish', { code: '123456' }, other.cookie);
    await refused('/agg-web/user/changePassword', await newPassword('Stolen2026'), owner.cookie);
    await refused('/agg-web/user/security/sessions/signOutOthers', {}, owner.cookie);

    // Nothing changed: the passkey, the password and the other session are all still there.
    expect(await passkeyCount(owner.userId)).toBe(1);
    expect(await liveSessions(owner.userId)).toBe(2);
    expect(await twoStepOn(other.userId)).toBe(false);
    const res = await signInAnswer(owner.email);
    expect((await json(res)).code).toBe('0');
    // Reading is still allowed: the session itself is live.
    expect((await call('/agg-web/passkeys/list', {}, { cookie: spare })).code).toBe('0');
  });

  it('cannot turn two-step off or make recovery codes, and the password alone is no proof when two-step is on', async () => {
    const owner = await person();
    const { secret, recoveryCodes } = await enrol(owner.cookie);
    later(AGED);
    expect((await call('/agg-web/user/twoStep/disable', {}, { cookie: owner.cookie })).code).toBe('SU0001');
    // The old request shape (the password in the body) proves nothing any more.
    expect((await call('/agg-web/user/twoStep/disable', { password: await hashPassword(PASSWORD) }, { cookie: owner.cookie })).code).toBe('SU0001');
    expect((await call('/agg-web/user/twoStep/recoveryCodes', {}, { cookie: owner.cookie })).code).toBe('SU0001');

    const start = await call<ProofStart>('/agg-web/user/proof/start', {}, { cookie: owner.cookie });
    expect(start.data).toMatchObject({ freshUntil: null, password: true, code: 'email', twoStep: true, passkey: false });
    expect(start.data.codeTo).not.toBe(owner.email);
    const half = await proveWithPassword(owner.cookie);
    expect(half.code).toBe('0');
    expect(half.data).toMatchObject({ proved: false, expiresIn: 300 });
    // The password alone: still no proof.
    expect((await call('/agg-web/user/twoStep/disable', {}, { cookie: owner.cookie })).code).toBe('SU0001');
    expect(await twoStepOn(owner.userId)).toBe(true);

    // A wrong app code counts a try; the right one proves; the proof then makes recovery codes and turns it off.
    const challenge = half.data.proved ? '' : half.data.challenge;
    expect((await call('/agg-web/user/proof/secondFactor', { challenge, kind: 'totp', code: codeAt(secret, at + 10 * STEP_MS) }, { cookie: owner.cookie })).code).toBe('MF0002');
    const proved = await call<ProofStep>('/agg-web/user/proof/secondFactor', { challenge, kind: 'recovery', code: recoveryCodes[0] }, { cookie: owner.cookie });
    expect(proved.data).toMatchObject({ proved: true, freshUntil: at + 10 * MINUTE });
    const row = await db().prepare('SELECT proved_with FROM sessions WHERE user_id = ? AND revoked_at IS NULL ORDER BY proved_at DESC').bind(owner.userId).first<{ proved_with: string }>();
    expect(row!.proved_with).toBe('password+recovery');
    // Single use: the same challenge again proves nothing.
    expect((await call('/agg-web/user/proof/secondFactor', { challenge, kind: 'recovery', code: recoveryCodes[1] }, { cookie: owner.cookie })).code).toBe('SU0002');

    const regenerated = await call<{ recoveryCodes: string[] }>('/agg-web/user/twoStep/recoveryCodes', {}, { cookie: owner.cookie });
    expect(regenerated.data.recoveryCodes).toHaveLength(10);
    expect((await call('/agg-web/user/twoStep/disable', {}, { cookie: owner.cookie })).code).toBe('0');
    expect(await twoStepOn(owner.userId)).toBe(false);
  });
});

describe('a fresh proof', { timeout: 90_000 }, () => {
  it('lets the session make the changes for ten minutes; a wrong password is no proof and counts as a failure', async () => {
    const owner = await person();
    const other = await signIn(owner.email);
    later(AGED);
    const from = api.ip();
    expect(await proveWithPassword(owner.cookie, 'Wrong2026', { lang: 'zh', from })).toMatchObject({ code: 'PW0003', message: errorCatalogue.PW0003.zh });
    const failures = await db().prepare('SELECT failures FROM password_failures WHERE subject = ? AND network = ?').bind(owner.userId, from).first<{ failures: number }>();
    expect(failures!.failures).toBe(1);
    const proof = await proveWithPassword(owner.cookie);
    expect(proof.data).toMatchObject({ proved: true });
    expect((await call<ProofStart>('/agg-web/user/proof/start', {}, { cookie: owner.cookie })).data.freshUntil).toBe(at + 10 * MINUTE);

    const { secret } = await enrol(owner.cookie);
    expect(await twoStepOn(owner.userId)).toBe(true);
    const { id } = await addPasskey(owner.cookie);
    expect((await call('/agg-web/passkeys/remove', { id }, { cookie: owner.cookie })).code).toBe('0');
    expect((await call('/agg-web/user/security/sessions/signOutOthers', {}, { cookie: owner.cookie })).code).toBe('0');
    expect((await read('/agg-web/user/fetchMeByUserToken', other)).code).toBe('TK00001');
    expect((await call('/agg-web/user/changePassword', await newPassword('Renewed2026'), { cookie: owner.cookie })).code).toBe('0');
    // Ten minutes after the proof it is over.
    later(10 * MINUTE);
    expect((await call('/agg-web/user/twoStep/recoveryCodes', {}, { cookie: owner.cookie })).code).toBe('SU0001');
    expect(secret).toBeTruthy();
  });

  it('can be a passkey alone, or a one-time code to the account\'s own e-mail', async () => {
    const owner = await person();
    const { authenticator, id } = await addPasskey(owner.cookie);
    later(AGED);
    expect((await call('/agg-web/passkeys/remove', { id }, { cookie: owner.cookie })).code).toBe('SU0001');
    expect((await call<ProofStart>('/agg-web/user/proof/start', {}, { cookie: owner.cookie })).data.passkey).toBe(true);
    expect((await proveWithPasskey(owner.cookie, authenticator)).data).toMatchObject({ proved: true });
    expect((await call('/agg-web/passkeys/remove', { id }, { cookie: owner.cookie })).code).toBe('0');

    later(AGED);
    expect((await call('/agg-web/user/proof/sendCode', {}, { cookie: owner.cookie })).code).toBe('0');
    const code = await api.latestCode(owner.email);
    expect((await call('/agg-web/user/proof/code', { code: code === '000000' ? '111111' : '000000' }, { cookie: owner.cookie })).code).toMatch(/^CD/);
    expect((await call<ProofStep>('/agg-web/user/proof/code', { code }, { cookie: owner.cookie })).data).toMatchObject({ proved: true });
    expect((await call('/agg-web/user/security/sessions/signOutOthers', {}, { cookie: owner.cookie })).code).toBe('0');
  });

  it('is recorded by the sign-in itself: the forced change of an original password needs nothing more', async () => {
    const owner = await person({ originalFlag: true });
    const row = await db().prepare('SELECT proved_at, proved_with, created_at FROM sessions WHERE user_id = ?').bind(owner.userId).first<{ proved_at: number; proved_with: string; created_at: number }>();
    expect(row).toMatchObject({ proved_with: 'password', proved_at: row!.created_at });
    expect((await call('/agg-web/user/changePassword', await newPassword('Changed2026'), { cookie: owner.cookie })).code).toBe('0');
    // With two-step on, the sign-in records both factors.
    const second = await person();
    const { secret } = await enrol(second.cookie);
    await signIn(second.email, secret);
    const signedIn = await db().prepare('SELECT proved_with FROM sessions WHERE user_id = ? ORDER BY created_at DESC').bind(second.userId).first<{ proved_with: string }>();
    expect(signedIn!.proved_with).toBe('password+totp');
  });
});

describe('a proof belongs to its session', { timeout: 90_000 }, () => {
  it("does nothing for another session of the same person or for anyone else; a half-way challenge passes only for its session and never signs in", async () => {
    const a = await person();
    const { secret } = await enrol(a.cookie);
    const a2 = await signIn(a.email, secret);
    const b = await person();
    later(AGED);
    const half = await proveWithPassword(a.cookie);
    expect(half.data.proved).toBe(false);
    const challenge = half.data.proved ? '' : half.data.challenge;
    // Another session of A, and B, cannot complete A's challenge.
    for (const cookie of [a2, b.cookie]) {
      expect((await call('/agg-web/user/proof/secondFactor', { challenge, kind: 'totp', code: codeAt(secret) }, { cookie })).code).toBe('SU0002');
    }
    // Nor is it a sign-in's second step (through the edge's cookie).
    expect((await call('/agg-web/user/twoStep/verify', { kind: 'totp', code: codeAt(secret) }, { cookie: `portal_second_step=${challenge}` })).code).toBe('MF0001');
    expect((await call<ProofStep>('/agg-web/user/proof/secondFactor', { challenge, kind: 'totp', code: codeAt(secret) }, { cookie: a.cookie })).data.proved).toBe(true);
    expect((await call('/agg-web/user/twoStep/recoveryCodes', {}, { cookie: a.cookie })).code).toBe('0');
    expect((await call('/agg-web/user/twoStep/recoveryCodes', {}, { cookie: a2 })).code).toBe('SU0001');
    expect((await call('/agg-web/user/security/sessions/signOutOthers', {}, { cookie: b.cookie })).code).toBe('SU0001');
  });

  it('twenty parallel completions of one half-way challenge give exactly one proof', async () => {
    const owner = await person();
    const { secret, recoveryCodes } = await enrol(owner.cookie);
    later(AGED);
    const half = await proveWithPassword(owner.cookie);
    const challenge = half.data.proved ? '' : half.data.challenge;
    const attempts = Array.from({ length: 20 }, (_, n) =>
      call('/agg-web/user/proof/secondFactor', { challenge, ...(n < 10 ? { kind: 'recovery', code: recoveryCodes[n] } : { kind: 'totp', code: codeAt(secret) }) }, { cookie: owner.cookie }),
    );
    const codes = (await Promise.all(attempts)).map((answer) => answer.code);
    expect(codes.filter((code) => code === '0')).toHaveLength(1);
    const used = await db().prepare('SELECT tries, used_at FROM second_step_challenges WHERE user_id = ?').bind(owner.userId).first<{ tries: number; used_at: number }>();
    expect(used!.used_at).not.toBeNull();
    expect(used!.tries).toBeLessThanOrEqual(5);
  });
});

describe('notices', { timeout: 90_000 }, () => {
  it('a new passkey, an authenticator app and new recovery codes each send the person a notice: e-mail, else SMS, in the language of the change', async () => {
    const owner = await person();
    await addPasskey(owner.cookie);
    // Turned on in Chinese: the notice is in Chinese.
    const start = await call<{ secret: string }>('/agg-web/user/twoStep/enrol/start', {}, { cookie: owner.cookie });
    expect((await call('/agg-web/user/twoStep/enrol/finish', { code: codeAt(start.data.secret) }, { cookie: owner.cookie, lang: 'zh' })).code).toBe('0');
    later(STEP_MS);
    expect((await call('/agg-web/user/twoStep/recoveryCodes', {}, { cookie: owner.cookie })).code).toBe('0');
    const mail = await api.outbox(owner.email);
    expect(mail.map((m) => m.subject)).toEqual(['A security change on your account', '账号安全设置变更提醒', 'A security change on your account']);
    expect(mail[0]!.text).toContain('a new set of recovery codes was made');
    expect(mail[1]!.text).toContain('开启了两步验证');
    expect(mail[2]!.text).toContain('a new passkey was added');
    expect(mail[2]!.text).toContain(`${PORTAL}/user_center#security`);

    // An account without an e-mail is told by SMS.
    const phoneOnly = await person();
    const phone = `+86139${String(Date.now()).slice(-8)}`;
    await db().prepare('UPDATE users SET email = NULL, phone_e164 = ? WHERE id = ?').bind(phone, phoneOnly.userId).run();
    await enrol(phoneOnly.cookie);
    const texts = await api.outbox(phone);
    expect(texts).toHaveLength(1);
    expect(texts[0]!.text).toContain('two-step verification was turned on');
    // Turning two-step off, removing a passkey and signing out elsewhere send none of these.
    expect(await api.outbox(phoneOnly.email)).toEqual([]);
  });
});

describe("support's two-step reset", { timeout: 90_000 }, () => {
  it('removes the passkeys with the authenticator app, ends the sessions and is audited; a refused reset keeps them', async () => {
    const owner = await person();
    await addPasskey(owner.cookie);
    const res = await post('/dev/operator-session', { login: `support.${api.unique()}@ops.example.com`, role: 'support' });
    await res.body?.cancel();
    const support = cookieOf(res, 'portal_operator')!;
    const reset = () => call(`/ops/v1/people/${owner.userId}/resetTwoStep`, { reason: 'Lost phone, identity checked by call-back' }, { cookie: support });
    // Two-step is not on: refused, and the passkey stays. (The refused reset still ends the sessions, as before.)
    expect((await reset()).code).toBe('PS0007');
    expect(await passkeyCount(owner.userId)).toBe(1);

    await enrol(await signIn(owner.email));
    expect((await reset()).code).toBe('0');
    expect(await passkeyCount(owner.userId)).toBe(0);
    expect(await twoStepOn(owner.userId)).toBe(false);
    expect(await liveSessions(owner.userId)).toBe(0);
    const audited = await db().prepare("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'user.two_step_reset' AND target_id = ?").bind(owner.userId).first<{ n: number }>();
    expect(audited!.n).toBe(1);
  });
});

describe('a password reset by code', { timeout: 90_000 }, () => {
  it('keeps no passkey silently: the person is asked to review them after signing in, until they say they are all theirs', async () => {
    const owner = await person();
    const { id } = await addPasskey(owner.cookie);
    await addPasskey(owner.cookie);
    const review = async (cookie: string) => (await call<{ since: number | null }>('/agg-web/user/proof/passkeyReview', {}, { cookie })).data.since;
    expect(await review(owner.cookie)).toBeNull();

    later(AGED);
    expect((await call('/agg-web/user/password/reset/sendCode', { loginType: 2, loginEmail: owner.email })).code).toBe('0');
    // The code is delivered after the answer (waitUntil): read once that work is done.
    await worker.settle();
    const code = await api.latestCode(owner.email);
    const reset = await call('/agg-web/user/password/reset', { loginType: 2, loginEmail: owner.email, code, ...(await newPassword(PASSWORD)) });
    expect(reset.code).toBe('0');
    const resetAt = at;
    // The reset ended every session; the next sign-in (a fresh proof) sees the passkeys to review and may remove one.
    const cookie = await signIn(owner.email);
    expect(await review(cookie)).toBe(resetAt);
    expect((await call('/agg-web/passkeys/remove', { id }, { cookie })).code).toBe('0');
    expect(await review(cookie)).toBe(resetAt);
    expect((await call('/agg-web/user/proof/passkeyReview/done', {}, { cookie })).code).toBe('0');
    expect(await review(cookie)).toBeNull();
  });

  it('asks nothing of an account without passkeys', async () => {
    const owner = await person();
    expect((await call('/agg-web/user/password/reset/sendCode', { loginType: 2, loginEmail: owner.email })).code).toBe('0');
    // The code is delivered after the answer (waitUntil): read once that work is done.
    await worker.settle();
    const code = await api.latestCode(owner.email);
    expect((await call('/agg-web/user/password/reset', { loginType: 2, loginEmail: owner.email, code, ...(await newPassword('Other2026')) })).code).toBe('0');
    const row = await db().prepare('SELECT passkeys_review_since FROM users WHERE id = ?').bind(owner.userId).first<{ passkeys_review_since: number | null }>();
    expect(row!.passkeys_review_since).toBeNull();
  });
});

describe('the dev clock', { timeout: 90_000 }, () => {
  it('moves the Worker\'s time for every call in a local run, back with reset, and does not exist when the dev routes are off', async () => {
    const email = `clock.${api.unique()}@example.com`;
    await api.seed({ email, password: PASSWORD });
    const { cookie } = await api.signIn(email, PASSWORD);
    const advanced = await api.json<{ offsetMs: number }>(await api.post('/dev/clock', { advanceMs: AGED }));
    expect(advanced).toMatchObject({ code: '0', data: { offsetMs: AGED } });
    try {
      expect((await api.json(await api.post('/agg-web/user/security/sessions/signOutOthers', {}, { cookie }))).code).toBe('SU0001');
    } finally {
      expect((await api.json(await api.post('/dev/clock', { reset: true }))).data).toMatchObject({ offsetMs: 0 });
    }
    expect((await api.json(await api.post('/agg-web/user/security/sessions/signOutOthers', {}, { cookie }))).code).toBe('0');
    const off = await api.post('/dev/clock', { advanceMs: AGED }, { env: { DEV_OUTBOX: 'false' } });
    expect(off.status).toBe(404);
    expect((await api.json(off)).code).toBe('GW0404');
  });
});

describe('what a stolen session tries next', { timeout: 120_000 }, () => {
  it('cannot mint a proved session with a shared link: making one needs a fresh proof, and the session it opens proves nobody', async () => {
    const owner = await person();
    later(AGED);
    expect((await call('/agg-web/user/shareLogin/create', {}, { cookie: owner.cookie })).code).toBe('SU0001');
    // The owner, freshly proved, shares the account; the device that opens the link may not make sensitive changes.
    expect((await proveWithPassword(owner.cookie)).data).toMatchObject({ proved: true });
    const shared = await call<{ url: string }>('/agg-web/user/shareLogin/create', {}, { cookie: owner.cookie });
    expect(shared.code).toBe('0');
    const token = new URL(shared.data.url).searchParams.get('share')!;
    const opened = await post('/agg-web/user/shareLogin/login', { share: token });
    expect((await json(opened)).code).toBe('0');
    const linked = cookieOf(opened, 'portal_token')!;
    expect((await call<ProofStart>('/agg-web/user/proof/start', {}, { cookie: linked })).data.freshUntil).toBeNull();
    for (const [path, body] of [
      ['/agg-web/passkeys/registration/options', {}],
      ['/agg-web/user/security/sessions/signOutOthers', {}],
      ['/agg-web/user/shareLogin/create', {}],
    ] as const) {
      expect((await call(path, body, { cookie: linked })).code, path).toBe('SU0001');
    }
  });

  it('cannot end the other sessions one by one; ending its own needs nothing', async () => {
    const owner = await person();
    const other = await signIn(owner.email);
    later(AGED);
    // Reading the list needs no proof: the ids are what a script would use.
    const list = (await read<{ id: string; current: boolean }[]>('/agg-web/user/security/sessions', owner.cookie)).data;
    const others = list.filter((s) => !s.current);
    expect(others.length).toBe(1);
    const refused = await Promise.all(Array.from({ length: 10 }, () => call('/agg-web/user/security/sessions/signOut', { id: others[0]!.id }, { cookie: owner.cookie })));
    expect(refused.map((r) => r.code)).toEqual(Array(10).fill('SU0001'));
    expect((await read('/agg-web/user/fetchMeByUserToken', other)).code).toBe('0');
    const own = list.find((s) => s.current)!;
    expect((await call('/agg-web/user/security/sessions/signOut', { id: own.id }, { cookie: owner.cookie })).code).toBe('0');
  });

  it('cannot guess the password from many networks: ten wrong ones an hour per person, then even the right one waits', async () => {
    const owner = await person();
    later(AGED);
    const wrong = await Promise.all(Array.from({ length: 14 }, (_, i) => proveWithPassword(owner.cookie, `Wrong${i}2026`, { from: api.ip() })));
    const codes = wrong.map((w) => w.code).sort();
    expect(codes.filter((c) => c === 'PW0003')).toHaveLength(10);
    expect(codes.filter((c) => c === 'SU0005')).toHaveLength(4);
    const right = await proveWithPassword(owner.cookie, PASSWORD, { from: api.ip(), lang: 'en' });
    expect(right).toMatchObject({ code: 'SU0005', message: errorCatalogue.SU0005.en });
    // An hour later the right password proves the person again.
    later(61 * MINUTE);
    expect((await proveWithPassword(owner.cookie, PASSWORD, { from: api.ip() })).data).toMatchObject({ proved: true });
  });

  it('cannot flood the person with notices: twenty parallel new code sets send one', async () => {
    const phoneOnly = await person();
    const phone = `+86138${String(Date.now()).slice(-8)}`;
    await db().prepare('UPDATE users SET email = NULL, phone_e164 = ? WHERE id = ?').bind(phone, phoneOnly.userId).run();
    await enrol(phoneOnly.cookie);
    const made = await Promise.all(Array.from({ length: 20 }, () => call('/agg-web/user/twoStep/recoveryCodes', {}, { cookie: phoneOnly.cookie })));
    expect(made.every((m) => m.code === '0')).toBe(true);
    const texts = await api.outbox(phone);
    expect(texts.filter((t) => t.text.includes('recovery codes'))).toHaveLength(1);
    expect(texts.filter((t) => t.text.includes('two-step verification was turned on'))).toHaveLength(1);
  });
});
