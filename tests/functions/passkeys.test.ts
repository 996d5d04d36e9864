import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../../functions/gateway/app';
import { PASSKEYS_PER_USER } from '../../functions/gateway/passkeys/db';
import { CHALLENGE_LIFETIME_MS } from '../../functions/gateway/passkeys/service';

/** A small cap for this test file (PASSKEY_SIGN_IN_CAP; deployed default 600). */
const SIGN_IN_CAP = 40;
import { hashPassword } from '../../src/lib/password-hash';
import { LOGIN_CLIENT } from '../../src/schemas/auth';
import { errorCatalogue } from '../../src/schemas/error-codes';
import type { Passkey } from '../../src/schemas/passkeys';
import { gatewayClient, useWorkerEnv } from './gateway-client';
import { SoftAuthenticator } from './soft-authenticator';

/**
 * Passkeys through the whole Worker on a real local D1, with a software authenticator that makes real
 * attestation and assertion responses (soft-authenticator.ts), attacked the way a script would: other people's
 * passkey ids, replays, forged hosts and origins, responses made for another site, parallel bursts.
 */
const PORTAL = 'https://portal.example.com';
// The relying party comes from PORTAL_ORIGIN (PASSKEY_* unset, as deployed); the .cn site of the pair is an
// origin the cross-site guard accepts, so a page there can call /api but is no passkey origin.
const { worker, api } = useWorkerEnv(
  'passkeys',
  { PORTAL_ORIGIN: PORTAL, SITE_CN: 'https://portal.example.cn', PASSKEY_RP_ID: '', PASSKEY_ORIGINS: '', PASSKEY_SIGN_IN_CAP: String(SIGN_IN_CAP) },
  { origin: PORTAL },
);

type Options = { options: PublicKeyCredentialCreationOptionsJSON & { rpId?: string } };
type Call = { cookie?: string; from?: string; lang?: 'zh' | 'en' };
const call = async <T = unknown>(path: string, body: unknown, options: Call = {}) => api.json<T>(await api.post(`/agg-web/passkeys/${path}`, body, options));

async function person() {
  const email = `pk.${api.unique()}@example.com`;
  const userId = await api.seed({ email, password: 'Harbour2024', realName: 'Wang Wu' });
  const res = await api.post('/agg-web/user/v3/userLogin', {
    loginEmail: email,
    loginPassword: await hashPassword('Harbour2024'),
    passwordVersion: 2,
    captchaType: 3,
    ...LOGIN_CLIENT,
  });
  expect((await api.json(res.clone())).code).toBe('0');
  return { email, userId, cookie: api.sessionCookie(res) };
}

/** Registers a passkey of `authenticator` for the person behind `cookie`; answers the verify call. */
async function register(authenticator: SoftAuthenticator, cookie: string, name = 'Work laptop', lies = {}) {
  const { data, code } = await call<Options>('registration/options', {}, { cookie });
  expect(code).toBe('0');
  const response = await authenticator.register(data.options, PORTAL, lies);
  return call<Passkey>('registration/verify', { name, response }, { cookie });
}

async function signInOptions(from?: string) {
  const answer = await call<Options>('authentication/options', {}, { from });
  expect(answer.code).toBe('0');
  return answer.data.options;
}

const signIn = (response: unknown, options: Call = {}) => api.post('/agg-web/passkeys/authentication/verify', { response }, options);
const list = async (cookie: string) => (await call<Passkey[]>('list', {}, { cookie })).data;
const me = async (cookie: string) => (await api.json<{ userId: string }>(await api.call('/agg-web/user/fetchMeByUserToken', { headers: { cookie } }))).data;
const liveSessions = async (userId: string) =>
  (await worker.env.DB.prepare('SELECT COUNT(*) AS n FROM sessions WHERE user_id = ? AND revoked_at IS NULL').bind(userId).first<{ n: number }>())!.n;

describe('registering and signing in', () => {
  it('registers a named passkey and signs its person in with it, as the configured relying party', async () => {
    const p = await person();
    const authenticator = new SoftAuthenticator();
    const options = (await call<Options>('registration/options', {}, { cookie: p.cookie })).data.options;
    expect(options.rp).toMatchObject({ id: 'portal.example.com' });
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(options.user.name).toBe(p.email);
    const registered = await call<Passkey>('registration/verify', { name: '  Work laptop ', response: await authenticator.register(options, PORTAL) }, { cookie: p.cookie });
    expect(registered.code).toBe('0');
    expect(registered.data).toMatchObject({ name: 'Work laptop', lastUsedAt: null, synced: false });
    expect(await list(p.cookie)).toEqual([registered.data]);

    const sessionsBefore = await liveSessions(p.userId);
    const res = await signIn(await authenticator.authenticate((await signInOptions()).challenge, PORTAL));
    const body = await api.json<{ userId: string; oauthVO?: unknown }>(res.clone());
    expect(body.code).toBe('0');
    expect(body.data.userId).toBe(p.userId);
    // The token reaches the browser only as the HttpOnly cookie, and it is a working session.
    expect(body.data.oauthVO).toBeUndefined();
    expect((await me(api.sessionCookie(res))).userId).toBe(p.userId);
    expect(await liveSessions(p.userId)).toBe(sessionsBefore + 1);
    expect((await list(p.cookie))[0]!.lastUsedAt).toEqual(expect.any(Number));
  });

  it('excludes the passkeys a person already has from a new registration', async () => {
    const p = await person();
    const first = await register(new SoftAuthenticator(), p.cookie, 'Phone');
    const options = (await call<Options>('registration/options', {}, { cookie: p.cookie })).data.options;
    expect(options.excludeCredentials?.map((c) => c.id)).toEqual([first.data.id]);
  });

  it('signs in again and again with a synced passkey whose counter stays 0', async () => {
    const p = await person();
    const authenticator = new SoftAuthenticator({ syncedCounter: true });
    expect((await register(authenticator, p.cookie)).data.synced).toBe(true);
    for (let i = 0; i < 2; i++) {
      expect((await api.json(await signIn(await authenticator.authenticate((await signInOptions()).challenge, PORTAL)))).code).toBe('0');
    }
  });

  it('needs a session to register, list, rename or remove', async () => {
    for (const path of ['registration/options', 'list']) expect((await call(path, {})).code).toBe('TK00001');
    expect((await call('remove', { id: 'abc' })).code).toBe('TK00001');
  });
});

describe('the relying party is configuration, never the request', () => {
  it('names the configured rp id to a forged Host and to another allowed Origin', async () => {
    const p = await person();
    const evil = gatewayClient(worker, { origin: 'https://evil.example' });
    const forged = await evil.json<Options>(await evil.post('/agg-web/passkeys/registration/options', {}, { cookie: p.cookie }));
    expect(forged.data.options.rp.id).toBe('portal.example.com');
    const anonymous = await evil.json<Options>(await evil.post('/agg-web/passkeys/authentication/options', {}));
    expect(anonymous.data.options.rpId).toBe('portal.example.com');

    // The .cn site may call /api (the cross-site guard lets it), but its Origin changes nothing.
    const fromCn = await api.json<Options>(
      await api.call('/agg-web/passkeys/authentication/options', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://portal.example.cn', host: 'portal.example.cn', 'cf-connecting-ip': api.ip() },
        body: '{}',
      }),
    );
    expect(fromCn.code).toBe('0');
    expect(fromCn.data.options.rpId).toBe('portal.example.com');
  });

  it('refuses a registration made for another origin or rp id, or without user verification, and stores nothing', async () => {
    const p = await person();
    for (const lies of [{ origin: 'https://evil.example' }, { origin: 'https://portal.example.cn' }, { rpId: 'evil.example' }, { userVerified: false }]) {
      const answer = await register(new SoftAuthenticator(), p.cookie, 'Phone', lies);
      expect(answer.code, JSON.stringify(lies)).toBe('PK0003');
    }
    expect(await list(p.cookie)).toEqual([]);
  });

  it('refuses a sign-in made for another origin or rp id, or without user verification, in the visitor language', async () => {
    const p = await person();
    const authenticator = new SoftAuthenticator();
    await register(authenticator, p.cookie);
    for (const lies of [{ origin: 'https://evil.example' }, { rpId: 'example.com' }, { userVerified: false }]) {
      const res = await signIn(await authenticator.authenticate((await signInOptions()).challenge, PORTAL, lies), { lang: 'zh' });
      const body = await api.json(res);
      expect(body.code, JSON.stringify(lies)).toBe('PK0003');
      expect(body.message).toBe(errorCatalogue.PK0003.zh);
      expect(res.headers.getSetCookie().join()).not.toMatch(/portal_token=[^;]/);
    }
  });
});

describe('challenges', () => {
  it('refuses a replayed sign-in, a made-up challenge, a registration challenge and an expired one', async () => {
    const p = await person();
    const authenticator = new SoftAuthenticator({ syncedCounter: true });
    await register(authenticator, p.cookie);
    const response = await authenticator.authenticate((await signInOptions()).challenge, PORTAL);
    expect((await api.json(await signIn(response))).code).toBe('0');
    expect((await api.json(await signIn(response))).code).toBe('PK0002');

    const madeUp = await authenticator.authenticate('A'.repeat(43), PORTAL);
    expect((await api.json(await signIn(madeUp))).code).toBe('PK0002');

    const registration = (await call<Options>('registration/options', {}, { cookie: p.cookie })).data.options;
    expect((await api.json(await signIn(await authenticator.authenticate(registration.challenge, PORTAL)))).code).toBe('PK0002');

    const late = createGateway({ clock: () => Date.now() + CHALLENGE_LIFETIME_MS + 1 });
    const expired = await late.request(
      '/agg-web/passkeys/authentication/verify',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', language: 'en' },
        body: JSON.stringify({ response: await authenticator.authenticate((await signInOptions()).challenge, PORTAL) }),
      },
      worker.env,
      worker.ctx,
    );
    expect((await api.json(expired)).code).toBe('PK0002');
  });

  it("refuses a registration on someone else's challenge", async () => {
    const victim = await person();
    const attacker = await person();
    const options = (await call<Options>('registration/options', {}, { cookie: victim.cookie })).data.options;
    const response = await new SoftAuthenticator().register(options, PORTAL);
    expect((await call('registration/verify', { name: 'Mine', response }, { cookie: attacker.cookie })).code).toBe('PK0002');
    expect(await list(attacker.cookie)).toEqual([]);
  });

  it('gives at most one session for 20 parallel uses of one assertion', async () => {
    const p = await person();
    const authenticator = new SoftAuthenticator();
    await register(authenticator, p.cookie);
    const before = await liveSessions(p.userId);
    const response = await authenticator.authenticate((await signInOptions()).challenge, PORTAL);
    const codes = await Promise.all(Array.from({ length: 20 }, async () => (await api.json(await signIn(response))).code));
    expect(codes.filter((code) => code === '0')).toHaveLength(1);
    expect(new Set(codes.filter((code) => code !== '0'))).toEqual(new Set(['PK0002']));
    expect(await liveSessions(p.userId)).toBe(before + 1);
  });

  it('registers at most one passkey from 20 parallel uses of one registration', async () => {
    const p = await person();
    const options = (await call<Options>('registration/options', {}, { cookie: p.cookie })).data.options;
    const response = await new SoftAuthenticator().register(options, PORTAL);
    const codes = await Promise.all(Array.from({ length: 20 }, async () => (await call('registration/verify', { name: 'Key', response }, { cookie: p.cookie })).code));
    expect(codes.filter((code) => code === '0')).toHaveLength(1);
    expect(await list(p.cookie)).toHaveLength(1);
  });

  it('caps anonymous sign-in options per client network, in the visitor language', async () => {
    const network = '10.77.1.1';
    const codes = await Promise.all(Array.from({ length: SIGN_IN_CAP + 10 }, async () => (await call('authentication/options', {}, { from: network })).code));
    expect(codes.filter((code) => code === '0')).toHaveLength(SIGN_IN_CAP);
    const refused = await call('authentication/options', {}, { from: network, lang: 'zh' });
    expect(refused.code).toBe('PK0010');
    expect(refused.message).toBe(errorCatalogue.PK0010.zh);
    // Another network is not affected.
    expect((await call('authentication/options', {}, { from: '10.77.2.1' })).code).toBe('0');
  });
});

describe('credentials', () => {
  it('refuses an unknown credential and a cloned one whose counter went backwards', async () => {
    const stranger = new SoftAuthenticator();
    const p = await person();
    await register(stranger, p.cookie);
    const unknown = new SoftAuthenticator();
    await unknown.register((await call<Options>('registration/options', {}, { cookie: (await person()).cookie })).data.options, PORTAL);
    expect((await api.json(await signIn(await unknown.authenticate((await signInOptions()).challenge, PORTAL)))).code).toBe('PK0004');

    expect((await api.json(await signIn(await stranger.authenticate((await signInOptions()).challenge, PORTAL, { counter: 5 })))).code).toBe('0');
    // A copy of the key that still counts from before.
    const cloned = await api.json(await signIn(await stranger.authenticate((await signInOptions()).challenge, PORTAL, { counter: 3 })));
    expect(cloned.code).toBe('PK0005');
    expect((await api.json(await signIn(await stranger.authenticate((await signInOptions()).challenge, PORTAL, { counter: 6 })))).code).toBe('0');
  });

  it(`keeps at most ${PASSKEYS_PER_USER} passkeys per person`, async () => {
    const p = await person();
    for (let i = 0; i < PASSKEYS_PER_USER; i++) expect((await register(new SoftAuthenticator(), p.cookie, `Key ${i}`)).code).toBe('0');
    const extra = await register(new SoftAuthenticator(), p.cookie, 'One too many');
    expect(extra.code).toBe('PK0012');
    expect(await list(p.cookie)).toHaveLength(PASSKEYS_PER_USER);
  });
});

describe('managing own passkeys', () => {
  it('renames and removes own passkeys; a removed passkey no longer signs in', async () => {
    const p = await person();
    const authenticator = new SoftAuthenticator();
    const { id } = (await register(authenticator, p.cookie)).data;
    const renamed = await call<Passkey>('rename', { id, name: '办公室电脑' }, { cookie: p.cookie });
    expect(renamed.data).toMatchObject({ id, name: '办公室电脑' });
    expect((await call('rename', { id, name: '   ' }, { cookie: p.cookie })).code).toBe('GW0400');
    expect((await call('rename', { id, name: 'x'.repeat(65) }, { cookie: p.cookie })).code).toBe('GW0400');

    expect((await call('remove', { id }, { cookie: p.cookie })).code).toBe('0');
    expect(await list(p.cookie)).toEqual([]);
    expect((await call('remove', { id }, { cookie: p.cookie })).code).toBe('PK0007');
    expect((await api.json(await signIn(await authenticator.authenticate((await signInOptions()).challenge, PORTAL)))).code).toBe('PK0004');
  });

  it("refuses to rename or remove someone else's passkey by id, and the passkey survives", async () => {
    const victim = await person();
    const attacker = await person();
    const authenticator = new SoftAuthenticator();
    const { id } = (await register(authenticator, victim.cookie, 'Victim key')).data;

    const attempts = await Promise.all([
      ...Array.from({ length: 10 }, () => call('remove', { id }, { cookie: attacker.cookie, lang: 'en' })),
      ...Array.from({ length: 10 }, () => call('rename', { id, name: 'pwned' }, { cookie: attacker.cookie })),
    ]);
    expect(new Set(attempts.map((answer) => answer.code))).toEqual(new Set(['PK0007']));
    expect(attempts[0]!.message).toBe(errorCatalogue.PK0007.en);
    expect(await list(attacker.cookie)).toEqual([]);
    expect(await list(victim.cookie)).toMatchObject([{ id, name: 'Victim key' }]);
    const res = await signIn(await authenticator.authenticate((await signInOptions()).challenge, PORTAL));
    expect((await api.json<{ userId: string }>(res)).data.userId).toBe(victim.userId);
  });
});
