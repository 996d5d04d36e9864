import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { CHALLENGE_LIFETIME_MS, SECOND_STEP_OPTIONS_CAP } from '../../functions/gateway/passkeys/service';
import { CHALLENGE_MAX_TRIES } from '../../functions/gateway/second-step/service';
import { createWorker } from '../../functions/worker';
import { errorCatalogue } from '../../src/schemas/error-codes';
import type { Passkey } from '../../src/schemas/passkeys';
import { useWorkerEnv, type CallOptions } from './gateway-client';
import { SoftAuthenticator } from './soft-authenticator';

/**
 * A passkey as the second step of a sign-in, through the whole Worker (the edge's second-step and session
 * cookies included) on a real local D1, with the software authenticator. Attacked as a script would: other
 * people's passkeys and challenges, challenges of the other ceremony, bursts of one good assertion, a late clock.
 */
const PORTAL = 'https://portal.example.com';
const PASSWORD = 'Harbour2024';
const { worker, api } = useWorkerEnv('passkey-second-step', { PORTAL_ORIGIN: PORTAL, PASSKEY_RP_ID: '', PASSKEY_ORIGINS: '' }, { origin: PORTAL });

type Options = { options: PublicKeyCredentialRequestOptionsJSON };
const cookieOf = (res: Response, name: string) => {
  const [, full, value] = new RegExp(`(?:^|\\n)((?:__Host-)?${name})=([^;]*)`).exec(res.headers.getSetCookie().join('\n')) ?? [];
  return full && value ? `${full}=${value}` : undefined;
};
const call = async <T = unknown>(path: string, body: unknown, options: CallOptions = {}) => api.json<T>(await api.post(path, body, options));

/** A person with a passkey of `authenticator` and two-step (an authenticator app) on. */
async function enrolled(authenticator = new SoftAuthenticator()) {
  const email = `pk2.${api.unique()}@example.com`;
  const userId = await api.seed({ email, password: PASSWORD });
  const { cookie } = await api.signIn(email, PASSWORD);
  const { data } = await call<Options & { options: { rp: { id: string }; user: { id: string }; challenge: string } }>('/agg-web/passkeys/registration/options', {}, { cookie });
  const registered = await call<Passkey>('/agg-web/passkeys/registration/verify', { name: 'Laptop', response: await authenticator.register(data.options as never, PORTAL) }, { cookie });
  expect(registered.code).toBe('0');
  const start = await call<{ secret: string }>('/agg-web/user/twoStep/enrol/start', {}, { cookie });
  const code = TOTP.generate({ secret: Secret.fromBase32(start.data.secret) });
  expect((await call('/agg-web/user/twoStep/enrol/finish', { code }, { cookie })).code).toBe('0');
  return { email, userId, authenticator, passkeyId: registered.data.id };
}

/** A password sign-in that owes the second step: the second-step cookie the edge set. */
async function firstFactor(email: string) {
  const res = await api.emailLogin(email, PASSWORD);
  const body = await api.json<{ secondStep?: unknown; oauthVO?: unknown }>(res.clone());
  await res.body?.cancel();
  expect(body.data.secondStep).toEqual({ expiresIn: CHALLENGE_LIFETIME_MS / 1000 });
  expect(cookieOf(res, 'portal_token')).toBeUndefined();
  const challenge = cookieOf(res, 'portal_second_step');
  expect(challenge).toBeDefined();
  return challenge!;
}

const secondStepOptions = async (cookie: string | undefined, options: CallOptions = {}) =>
  call<Options>('/agg-web/passkeys/secondStep/options', {}, { ...options, cookie });
const verify = (cookie: string | undefined, response: unknown, options: CallOptions = {}) =>
  api.post('/agg-web/passkeys/secondStep/verify', { response }, { ...options, cookie });
const liveSessions = async (userId: string) =>
  (await worker.env.DB.prepare('SELECT COUNT(*) AS n FROM sessions WHERE user_id = ? AND revoked_at IS NULL').bind(userId).first<{ n: number }>())!.n;

describe('a passkey as the second step', { timeout: 90_000 }, () => {
  it("passes the second step with the person's own passkey: one session, recorded as the password sign-in it finishes, with the passkey as its second step", async () => {
    const p = await enrolled();
    const challenge = await firstFactor(p.email);
    const options = await secondStepOptions(challenge);
    expect(options.code).toBe('0');
    expect(options.data.options.rpId).toBe('portal.example.com');
    expect(options.data.options.userVerification).toBe('required');
    expect(options.data.options.allowCredentials?.map((c) => c.id)).toEqual([p.passkeyId]);

    const before = await liveSessions(p.userId);
    const res = await verify(challenge, await p.authenticator.authenticate(options.data.options.challenge, PORTAL));
    const { body, headers } = await api.readAll<{ userId: string; oauthVO?: unknown }>(res);
    expect(body.code).toBe('0');
    expect(body.data.userId).toBe(p.userId);
    // The token reaches the browser only as the HttpOnly session cookie; the second-step cookie goes.
    expect(body.data.oauthVO).toBeUndefined();
    expect(headers).toMatch(/__Host-portal_token=[^;]+;.*HttpOnly/);
    expect(headers).toMatch(/__Host-portal_second_step=;/);
    expect(await liveSessions(p.userId)).toBe(before + 1);
    const history = await worker.env.DB.prepare('SELECT method, second_step FROM sign_ins WHERE user_id = ? AND success = 1 ORDER BY id DESC LIMIT 1')
      .bind(p.userId)
      .first<{ method: string; second_step: string | null }>();
    expect(history).toEqual({ method: 'password', second_step: 'passkey' });

    // Single use: the same challenge passes nothing again, with a fresh assertion or the TOTP verify.
    const again = await secondStepOptions(challenge, { lang: 'zh' });
    expect(again.code).toBe('MF0001');
    expect(again.message).toBe(errorCatalogue.MF0001.zh);
  });

  it('is never asked after a passkey sign-in: the passkey (with user verification) is both steps, and the history says passkey alone', async () => {
    const p = await enrolled();
    const { data } = await call<Options>('/agg-web/passkeys/authentication/options', {});
    const res = await api.post('/agg-web/passkeys/authentication/verify', { response: await p.authenticator.authenticate(data.options.challenge, PORTAL) });
    const { body } = await api.readAll<{ userId: string; secondStep?: unknown }>(res);
    expect(body.code).toBe('0');
    expect(body.data.userId).toBe(p.userId);
    expect(body.data.secondStep).toBeUndefined();
    expect(cookieOf(res, 'portal_token')).toBeDefined();
    expect(cookieOf(res, 'portal_second_step')).toBeUndefined();
    const history = await worker.env.DB.prepare('SELECT method, second_step FROM sign_ins WHERE user_id = ? AND success = 1 ORDER BY id DESC LIMIT 1')
      .bind(p.userId)
      .first<{ method: string; second_step: string | null }>();
    expect(history).toEqual({ method: 'passkey', second_step: null });
  });

  it('answers MF0001 without a second-step challenge, or with a made-up one, in the visitor language', async () => {
    for (const cookie of [undefined, '__Host-portal_second_step=' + 'x'.repeat(43)]) {
      const answer = await secondStepOptions(cookie, { lang: 'en' });
      expect(answer.code).toBe('MF0001');
      expect(answer.message).toBe(errorCatalogue.MF0001.en);
    }
    const p = await enrolled();
    const options = (await secondStepOptions(await firstFactor(p.email))).data.options;
    const response = await p.authenticator.authenticate(options.challenge, PORTAL);
    expect((await api.json(await verify(undefined, response))).code).toBe('MF0001');
  });

  it("refuses another person's passkey on the challenge minted for this person, and then still takes the right one", async () => {
    const a = await enrolled();
    const b = await enrolled();
    const challenge = await firstFactor(a.email);
    const options = (await secondStepOptions(challenge)).data.options;
    // B's authenticator signs A's challenge: a real assertion, of the wrong person.
    const res = await verify(challenge, await b.authenticator.authenticate(options.challenge, PORTAL), { lang: 'zh' });
    const answer = await api.json(res.clone());
    expect(answer.code).toBe('PK0014');
    expect(answer.message).toBe(errorCatalogue.PK0014.zh);
    expect(cookieOf(res, 'portal_token')).toBeUndefined();
    await res.body?.cancel();

    const fresh = (await secondStepOptions(challenge)).data.options;
    expect((await api.json(await verify(challenge, await a.authenticator.authenticate(fresh.challenge, PORTAL)))).code).toBe('0');
  });

  it("refuses a challenge minted for another person, and the challenges of the passkey sign-in, both ways", async () => {
    const a = await enrolled();
    const b = await enrolled();
    const aChallenge = await firstFactor(a.email);
    const bChallenge = await firstFactor(b.email);
    // Minted for A, signed by B's own passkey, sent with B's second step: the claim is bound to A.
    const forA = (await secondStepOptions(aChallenge)).data.options;
    expect((await api.json(await verify(bChallenge, await b.authenticator.authenticate(forA.challenge, PORTAL)))).code).toBe('PK0002');
    // An anonymous sign-in challenge is no second-step one...
    const anonymous = (await call<Options>('/agg-web/passkeys/authentication/options', {})).data.options;
    expect((await api.json(await verify(bChallenge, await b.authenticator.authenticate(anonymous.challenge, PORTAL)))).code).toBe('PK0002');
    // ...and a second-step challenge signs nobody in without the first factor.
    const forB = (await secondStepOptions(bChallenge)).data.options;
    const direct = await api.post('/agg-web/passkeys/authentication/verify', { response: await b.authenticator.authenticate(forB.challenge, PORTAL) });
    expect((await api.json(direct)).code).toBe('PK0002');
    // A response made for another origin is refused.
    const other = (await secondStepOptions(bChallenge)).data.options;
    expect((await api.json(await verify(bChallenge, await b.authenticator.authenticate(other.challenge, PORTAL, { origin: 'https://evil.example' })))).code).toBe('PK0003');
    expect(await liveSessions(a.userId)).toBe(1);
    expect(await liveSessions(b.userId)).toBe(1);
  });

  it('gives exactly one session for 20 parallel verifies of one good assertion', async () => {
    const p = await enrolled();
    const challenge = await firstFactor(p.email);
    const response = await p.authenticator.authenticate((await secondStepOptions(challenge)).data.options.challenge, PORTAL);
    const before = await liveSessions(p.userId);
    const answers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const res = await verify(challenge, response);
        const session = cookieOf(res, 'portal_token');
        return { code: (await api.json<{ oauthVO?: unknown }>(res)).code, session };
      }),
    );
    expect(answers.filter((a) => a.code === '0')).toHaveLength(1);
    expect(answers.filter((a) => a.session)).toHaveLength(1);
    // The second-step challenge takes CHALLENGE_MAX_TRIES tries (MF0004 after, MF0001 once it is used); of the
    // tries, the one that claims the assertion's challenge wins and the others find it used (PK0002).
    const refused = answers.filter((a) => a.code !== '0').map((a) => a.code);
    expect(refused.filter((code) => !['PK0002', 'MF0004', 'MF0001'].includes(code))).toEqual([]);
    expect(refused.filter((code) => code === 'PK0002').length).toBeLessThan(CHALLENGE_MAX_TRIES);
    expect(await liveSessions(p.userId)).toBe(before + 1);
  });

  it('refuses an expired second step, options and verify alike (clock moved past its lifetime), and uses nothing up', async () => {
    const p = await enrolled();
    const challenge = await firstFactor(p.email);
    const options = (await secondStepOptions(challenge)).data.options;
    const response = await p.authenticator.authenticate(options.challenge, PORTAL);
    const late = createWorker({ clock: () => Date.now() + CHALLENGE_LIFETIME_MS + 1 });
    const lateCall = (path: string, body: unknown) =>
      late.request(
        `${PORTAL}/api${path}`,
        { method: 'POST', headers: { 'content-type': 'application/json', cookie: `${challenge}; LANG=zh`, 'cf-connecting-ip': api.ip() }, body: JSON.stringify(body) },
        worker.env,
        worker.ctx,
      );
    for (const [path, body] of [
      ['/agg-web/passkeys/secondStep/verify', { response }],
      ['/agg-web/passkeys/secondStep/options', {}],
    ] as const) {
      const answer = await api.json(await lateCall(path, body));
      expect(answer.code, path).toBe('MF0001');
      expect(answer.message).toBe(errorCatalogue.MF0001.zh);
    }
    // Nothing was used up by the late tries: on time, the same assertion still passes.
    expect((await api.json(await verify(challenge, response))).code).toBe('0');
  });

  it('answers PK0013 to a person without passkeys, whose authenticator app still passes', async () => {
    const email = `pk2.none.${api.unique()}@example.com`;
    await api.seed({ email, password: PASSWORD });
    const { cookie } = await api.signIn(email, PASSWORD);
    const start = await call<{ secret: string }>('/agg-web/user/twoStep/enrol/start', {}, { cookie });
    const secret = Secret.fromBase32(start.data.secret);
    expect((await call('/agg-web/user/twoStep/enrol/finish', { code: TOTP.generate({ secret }) }, { cookie })).code).toBe('0');
    const challenge = await firstFactor(email);
    for (const lang of ['zh', 'en'] as const) {
      const answer = await secondStepOptions(challenge, { lang });
      expect(answer.code).toBe('PK0013');
      expect(answer.message).toBe(errorCatalogue.PK0013[lang]);
    }
    // The next step's code (the enrolment took this one); ±1 step is accepted.
    const code = TOTP.generate({ secret, timestamp: Date.now() + 30_000 });
    expect((await call('/agg-web/user/twoStep/verify', { kind: 'totp', code }, { cookie: challenge })).code).toBe('0');
  });

  it(`caps second-step options at ${SECOND_STEP_OPTIONS_CAP} an hour per person, from any number of networks`, async () => {
    const p = await enrolled();
    const challenge = await firstFactor(p.email);
    const codes = await Promise.all(Array.from({ length: SECOND_STEP_OPTIONS_CAP + 15 }, async () => (await secondStepOptions(challenge)).code));
    expect(codes.filter((code) => code === '0')).toHaveLength(SECOND_STEP_OPTIONS_CAP);
    expect(new Set(codes.filter((code) => code !== '0'))).toEqual(new Set(['PK0015']));
    const refused = await secondStepOptions(challenge, { lang: 'zh' });
    expect(refused.message).toBe(errorCatalogue.PK0015.zh);
  });
});
