import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { addClientSql, setClientPkceSql } from '../../scripts/operator-sql.mjs';
import type { ConsoleClient } from '../../src/schemas/oidc-clients';
import { splitStatements } from './oidc-sql';
import { useWorkerEnv } from './gateway-client';

/**
 * Issue 43: the OpenID Provider against the standards a certification run checks, as relying parties nobody here
 * wrote (`openid-client`, `oauth4webapi`) and as a script would. Items 1-5 of the issue first (the profile scope,
 * RS256, CORS on revocation, unsupported_grant_type, PKCE per client), then each test of the Basic, Config,
 * RP-Initiated Logout and Back-Channel Logout OP plans that applies locally (README "OpenID certification").
 */

const ISSUER = 'http://localhost';
const RP = 'http://127.0.0.1:9556';
const { worker, api } = useWorkerEnv('oidc-certification', { PORTAL_ORIGIN: ISSUER });

type Client = { clientId: string; clientSecret: string | null };

/** The Worker, on the real clock or on one a test moves. */
async function workerOn(clock?: () => number) {
  const { default: app, createWorker } = await import('../../functions/worker');
  return clock ? createWorker({ clock }) : app;
}

/** Every request of the relying party goes to this Worker (optionally on a moved clock), as a server would send it. */
const fetchOn =
  (clock?: () => number): oidc.CustomFetch =>
  async (url, options) => {
    const app = await workerOn(clock);
    const answer = await app.request(url, { method: options.method, headers: options.headers as HeadersInit, body: options.body as BodyInit, redirect: 'manual' }, worker.env, worker.ctx);
    await worker.settle();
    return answer;
  };
const toWorker = fetchOn();

/** A page request of a person's browser (with their session cookie), answered without following redirects. */
async function browse(url: string, cookie?: string, clock?: () => number): Promise<Response> {
  const app = await workerOn(clock);
  const answer = await app.request(url, { headers: cookie ? { cookie } : {}, redirect: 'manual' }, worker.env, worker.ctx);
  await worker.settle();
  return answer;
}

async function register(options: Parameters<typeof addClientSql>[0]): Promise<Client> {
  const { clientId, clientSecret, sql } = addClientSql(options);
  await worker.env.DB.batch(splitStatements(sql).map((statement) => worker.env.DB.prepare(statement)));
  return { clientId, clientSecret };
}

async function relyingParty(client: Client, metadata: Partial<oidc.ClientMetadata> = {}, clock?: () => number) {
  const auth = client.clientSecret ? oidc.ClientSecretBasic(client.clientSecret) : oidc.None();
  const config = await oidc.discovery(new URL(ISSUER), client.clientId, metadata, auth, { execute: [oidc.allowInsecureRequests], [oidc.customFetch]: toWorker });
  config[oidc.customFetch] = fetchOn(clock);
  return config;
}

/** The code flow's first leg as the relying party starts it; `pkce: false` leaves the challenge out. */
async function authorize(config: oidc.Configuration, cookie: string | undefined, extra: Record<string, string> = {}, { pkce = true, clock }: { pkce?: boolean; clock?: () => number } = {}) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: `${RP}/callback`,
    scope: 'openid profile email phone',
    ...(pkce ? { code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' } : {}),
    state,
    nonce,
    ...extra,
  });
  const answer = await browse(url.href, cookie, clock);
  return { answer, location: answer.headers.get('location')!, verifier, state, nonce };
}

/** Allows the app on the consent page, as the person's browser does through /api. */
async function allow(location: string, cookie: string): Promise<string> {
  const id = new URL(location, ISSUER).searchParams.get('request')!;
  const decided = await api.json<{ redirectTo: string }>(await api.post(`/oidc/v1/requests/${id}/decision`, { allow: true }, { cookie }));
  expect(decided.code).toBe('0');
  return decided.data.redirectTo;
}

/** Signs the person in to the app: consent when asked, then the code redeemed by the library (which checks the ID token). */
async function signIn(config: oidc.Configuration, cookie: string, extra: Record<string, string> = {}, options: { pkce?: boolean } = {}) {
  const flow = await authorize(config, cookie, extra, options);
  const callback = flow.location.startsWith('/connect') ? await allow(flow.location, cookie) : flow.location;
  const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), { pkceCodeVerifier: options.pkce === false ? undefined : flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce });
  return { tokens, callback, flow };
}

/** A token-endpoint call as any HTTP client sends it. */
async function tokenCall(client: Client, fields: Record<string, string>, clock?: () => number) {
  const answer = await fetchOn(clock)(`${ISSUER}/oidc/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${btoa(`${client.clientId}:${client.clientSecret}`)}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  } as never);
  return { status: answer.status, ...((await answer.json()) as { error?: string; access_token?: string; id_token?: string }) };
}

const jwksNow = async () => (await (await browse(`${ISSUER}/oidc/jwks`)).json()) as JSONWebKeySet;
const errorOf = (location: string) => new URL(location).searchParams.get('error');
const mobilePerson = () => api.person({ phone: { callingCode: '+86', mobile: api.mobile('137') } });

describe('1. the profile scope gives the name and language, never the e-mail or the phone', () => {
  it('a person with no real name gets no name and no preferred_username from profile: the sign-in name is not given away (Core §5.4)', async () => {
    const app = await register({ name: 'Profile app', redirectUris: [`${RP}/callback`] });
    const person = await mobilePerson();
    const phone = (await worker.env.DB.prepare('SELECT phone_e164 FROM users WHERE id = ?').bind(person.userId).first<{ phone_e164: string }>())!.phone_e164;
    const config = await relyingParty(app);
    const { tokens } = await signIn(config, person.cookie, { scope: 'openid profile' });
    const info = await oidc.fetchUserInfo(config, tokens.access_token, person.userId);
    for (const claims of [tokens.claims()!, info]) {
      const text = JSON.stringify(claims);
      expect(text).not.toContain(person.email);
      expect(text).not.toContain(phone.slice(3));
      expect(claims).not.toHaveProperty('preferred_username');
      expect(claims).not.toHaveProperty('name');
      expect(claims).toMatchObject({ sub: person.userId, locale: expect.any(String) });
    }
  });

  it('gives the real name under profile, and the e-mail and phone each only under its own scope', async () => {
    const app = await register({ name: 'Scopes app', redirectUris: [`${RP}/callback`] });
    const person = await api.person({ realName: 'Wang Fang', phone: { callingCode: '+86', mobile: api.mobile('136') } });
    const config = await relyingParty(app);
    const scopeRuns: [string, string[], string[]][] = [
      ['openid profile', ['name', 'locale'], ['email', 'phone_number', 'preferred_username']],
      ['openid email', ['email', 'email_verified'], ['name', 'phone_number']],
      ['openid phone', ['phone_number', 'phone_number_verified'], ['name', 'email']],
      // address is not offered (scopes_supported): ignored, the sign-in goes on (Core §3.1.2.1; oidcc-scope-address).
      ['openid address', [], ['address', 'name', 'email', 'phone_number']],
      ['openid profile email phone address', ['name', 'email', 'phone_number'], ['address', 'preferred_username']],
    ];
    for (const [scope, present, absent] of scopeRuns) {
      const { tokens } = await signIn(config, person.cookie, { scope });
      const info = await oidc.fetchUserInfo(config, tokens.access_token, person.userId);
      for (const claim of present) expect(info, `${scope}: ${claim}`).toHaveProperty(claim);
      for (const claim of absent) expect(info, `${scope}: no ${claim}`).not.toHaveProperty(claim);
      expect(tokens.scope?.split(' ')).not.toContain('address');
    }
  });
});

describe('2. RS256 is offered and used when a client names it', () => {
  it('discovery lists RS256 (Discovery §3 MUST), the JWKS carries a public RSA key, and a client registered for RS256 gets RS256 ID tokens', async () => {
    const metadata = (await (await browse(`${ISSUER}/.well-known/openid-configuration`)).json()) as { id_token_signing_alg_values_supported: string[]; grant_types_supported: string[] };
    expect(metadata.id_token_signing_alg_values_supported).toEqual(expect.arrayContaining(['RS256', 'ES256']));
    const keys = await jwksNow();
    const rsa = keys.keys.find((key) => key.alg === 'RS256')!;
    expect(rsa).toMatchObject({ kty: 'RSA', use: 'sig', kid: expect.any(String) });
    for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(keys.keys.some((key) => secret in key)).toBe(false);

    const app = await register({ name: 'RSA-only app', redirectUris: [`${RP}/callback`], idTokenAlg: 'RS256' });
    const person = await api.person();
    // The library is told the client's registered algorithm and refuses any other (as an RS256-only RP does).
    const config = await relyingParty(app, { id_token_signed_response_alg: 'RS256' });
    const { tokens } = await signIn(config, person.cookie);
    expect(decodeProtectedHeader(tokens.id_token!)).toMatchObject({ alg: 'RS256', kid: rsa.kid });
    await expect(jwtVerify(tokens.id_token!, createLocalJWKSet(keys), { issuer: ISSUER, audience: app.clientId, algorithms: ['RS256'] })).resolves.toBeTruthy();
    // Access tokens are the portal's own and stay ES256; userinfo reads them.
    expect(decodeProtectedHeader(tokens.access_token).alg).toBe('ES256');
    expect((await oidc.fetchUserInfo(config, tokens.access_token, person.userId)).sub).toBe(person.userId);

    // A client that did not name RS256 keeps ES256, and an RP expecting RS256 from it refuses the token.
    const es = await register({ name: 'EC app', redirectUris: [`${RP}/callback`] });
    await expect(signIn(await relyingParty(es, { id_token_signed_response_alg: 'RS256' }), person.cookie)).rejects.toThrow();
  });

  it('an RS256 client’s id_token_hint is honoured at logout, and its back-channel logout token is RS256 too (Back-Channel Logout §2.4)', async () => {
    const received: string[] = [];
    const backChannel = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        received.push(new URLSearchParams(body).get('logout_token') ?? '');
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => backChannel.listen(0, '127.0.0.1', resolve));
    try {
      const port = (backChannel.address() as AddressInfo).port;
      const app = await register({ name: 'RSA logout app', redirectUris: [`${RP}/callback`], postLogoutUris: [`${RP}/bye`], backchannelLogoutUri: `http://127.0.0.1:${port}/bcl`, idTokenAlg: 'RS256' });
      const person = await api.person();
      const config = await relyingParty(app, { id_token_signed_response_alg: 'RS256' });
      const { tokens } = await signIn(config, person.cookie);
      const answer = await browse(oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: `${RP}/bye`, state: 'x' }).href, person.cookie);
      expect(answer.headers.get('location')).toBe(`${RP}/bye?state=x`);
      expect(received).toHaveLength(1);
      expect(decodeProtectedHeader(received[0]!)).toMatchObject({ alg: 'RS256', typ: 'logout+jwt' });
      const { payload } = await jwtVerify(received[0]!, createLocalJWKSet(await jwksNow()), { issuer: ISSUER, audience: app.clientId, algorithms: ['RS256'] });
      expect(payload).toMatchObject({ sub: person.userId, sid: tokens.claims()!.sid });
    } finally {
      await new Promise<void>((resolve) => backChannel.close(() => resolve()));
    }
  });
});

describe('3. CORS on the revocation endpoint, for public clients', () => {
  it("answers a public client's registered origin (preflight and call), so a single-page app can revoke at sign-out; other origins get no CORS", async () => {
    const spa = await register({ name: 'Crew SPA', redirectUris: ['https://crew-spa.example/cb'], isPublic: true });
    const preflight = (origin: string) => toWorker(`${ISSUER}/oidc/revoke`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } } as never);
    const allowed = await preflight('https://crew-spa.example');
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://crew-spa.example');
    expect(allowed.headers.get('access-control-allow-methods')).toContain('POST');
    expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();

    // The revocation itself, as openid-client sends it for a public client (RFC 7009 §2.1), from the SPA's origin.
    let seen: Response | undefined;
    const config = await relyingParty(spa);
    config[oidc.customFetch] = async (url, options) => {
      seen = await toWorker(url, { ...options, headers: { ...Object.fromEntries(new Headers(options.headers as HeadersInit).entries()), origin: 'https://crew-spa.example' } });
      return seen.clone();
    };
    await oidc.tokenRevocation(config, 'not-a-token');
    expect(seen!.status).toBe(200);
    expect(seen!.headers.get('access-control-allow-origin')).toBe('https://crew-spa.example');
  });
});

describe('4. grant types: unsupported_grant_type for what the server does not do', () => {
  it('answers unsupported_grant_type to a grant type the server does not know (RFC 6749 §5.2), unauthorized_client to one this client may not use', async () => {
    const app = await register({ name: 'Grants app', redirectUris: [`${RP}/callback`] });
    for (const grant of ['password', 'implicit', 'urn:ietf:params:oauth:grant-type:device_code', 'urn:ietf:params:oauth:grant-type:jwt-bearer']) {
      expect(await tokenCall(app, { grant_type: grant, username: 'a', password: 'b' }), grant).toMatchObject({ status: 400, error: 'unsupported_grant_type' });
    }
    expect(await tokenCall(app, { grant_type: 'client_credentials' })).toMatchObject({ status: 400, error: 'unauthorized_client' });
    expect(await tokenCall(app, {})).toMatchObject({ status: 400, error: 'invalid_request' });
    // The library reads it as the standard error.
    const config = await relyingParty(app);
    await expect(oidc.genericGrantRequest(config, 'password', { username: 'a', password: 'b' })).rejects.toMatchObject({ error: 'unsupported_grant_type' });
  });
});

describe('5. PKCE per client', () => {
  const operator = async () => {
    const res = await api.post('/dev/operator-session', { login: `admin.${api.unique()}@ops.example.com`, role: 'admin' });
    const [, value] = /(?:^|\n)portal_operator=([^;]+)/.exec(res.headers.getSetCookie().join('\n')) ?? [];
    return `portal_operator=${value}`;
  };

  it('is required of public clients and, by default, of confidential ones: no challenge is invalid_request at the redirect URI', async () => {
    const confidential = await register({ name: 'PKCE default', redirectUris: [`${RP}/callback`] });
    const spa = await register({ name: 'PKCE public', redirectUris: [`${RP}/callback`], isPublic: true });
    const person = await api.person();
    for (const client of [confidential, spa]) {
      const { location, state } = await authorize(await relyingParty(client), person.cookie, {}, { pkce: false });
      expect(errorOf(location)).toBe('invalid_request');
      expect(new URL(location).searchParams.get('state')).toBe(state);
    }
  });

  it('an operator may turn it off for a confidential client, with a reason that the trail keeps; then the code flow works without it (certification Basic OP)', async () => {
    const admin = await operator();
    const app = await register({ name: 'Certification RP', redirectUris: [`${RP}/callback`] });
    const spa = await register({ name: 'SPA stays', redirectUris: [`${RP}/callback`], isPublic: true });
    // A public client never, and not without a reason of some length.
    expect((await api.json(await api.post(`/ops/v1/oidc/clients/${spa.clientId}/pkce`, { required: false, reason: 'the suite sends none' }, { cookie: admin }))).code).toBe('OI0430');
    expect((await api.json(await api.post(`/ops/v1/oidc/clients/${app.clientId}/pkce`, { required: false, reason: 'x' }, { cookie: admin }))).code).toBe('OI0430');
    const off = await api.json<ConsoleClient>(await api.post(`/ops/v1/oidc/clients/${app.clientId}/pkce`, { required: false, reason: 'OpenID certification Basic OP plan' }, { cookie: admin }));
    expect(off.data).toMatchObject({ pkceRequired: false, pkceOffReason: 'OpenID certification Basic OP plan', idTokenAlg: 'ES256' });
    const trail = await worker.env.DB.prepare("SELECT actor_kind, reason FROM audit_log WHERE action = 'oidc.client_pkce_off' AND target_id = ?").bind(app.clientId).all<{ actor_kind: string; reason: string }>();
    expect(trail.results).toEqual([{ actor_kind: 'operator', reason: 'OpenID certification Basic OP plan' }]);

    const person = await api.person();
    const config = await relyingParty(app);
    const { tokens } = await signIn(config, person.cookie, {}, { pkce: false });
    expect(tokens.claims()!.sub).toBe(person.userId);
    // With PKCE off a client that sends it still gets it checked, and plain stays refused.
    const withPkce = await signIn(config, person.cookie);
    expect(withPkce.tokens.access_token).toBeTruthy();
    const plain = await authorize(config, person.cookie, { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, { pkce: false });
    expect(errorOf(plain.location)).toBe('invalid_request');
    // A verifier sent for a code asked without a challenge is a downgrade (RFC 9700 §2.1.1); a challenge's code needs its verifier.
    const bare = await authorize(config, person.cookie, {}, { pkce: false });
    expect(await tokenCall(app, { grant_type: 'authorization_code', code: new URL(bare.location).searchParams.get('code')!, redirect_uri: `${RP}/callback`, code_verifier: bare.verifier })).toMatchObject({ error: 'invalid_grant' });
    const challenged = await authorize(config, person.cookie);
    expect(await tokenCall(app, { grant_type: 'authorization_code', code: new URL(challenged.location).searchParams.get('code')!, redirect_uri: `${RP}/callback` })).toMatchObject({ error: 'invalid_grant' });

    // The console shows it; turned back on, the client needs PKCE again.
    const listed = await api.json<ConsoleClient[]>(await api.get('/ops/v1/oidc/clients', { cookie: admin }));
    expect(listed.data.find((client) => client.id === app.clientId)).toMatchObject({ pkceRequired: false, pkceOffReason: 'OpenID certification Basic OP plan' });
    expect((await api.json<ConsoleClient>(await api.post(`/ops/v1/oidc/clients/${app.clientId}/pkce`, { required: true }, { cookie: admin }))).data.pkceRequired).toBe(true);
    expect(errorOf((await authorize(config, person.cookie, {}, { pkce: false })).location)).toBe('invalid_request');
  });

  it("the operator command's SQL turns it off only for a confidential client with a reason, audited; the table refuses it for a public one", async () => {
    const app = await register({ name: 'CLI app', redirectUris: [`${RP}/callback`] });
    const spa = await register({ name: 'CLI SPA', redirectUris: [`${RP}/callback`], isPublic: true });
    expect(() => setClientPkceSql({ clientId: app.clientId, required: false, reason: 'short' })).toThrow(/reason/);
    const run = async (sql: string) => (await worker.env.DB.batch(splitStatements(sql).map((statement) => worker.env.DB.prepare(statement)))).at(-1)!.results[0] as { pkce_required: number; pkce_off_reason: string | null };
    expect(await run(setClientPkceSql({ clientId: app.clientId, required: false, reason: 'legacy ERP sends no PKCE' }))).toMatchObject({ pkce_required: 0, pkce_off_reason: 'legacy ERP sends no PKCE' });
    expect(await run(setClientPkceSql({ clientId: spa.clientId, required: false, reason: 'legacy ERP sends no PKCE' }))).toMatchObject({ pkce_required: 1 });
    await expect(worker.env.DB.prepare("UPDATE oidc_clients SET pkce_required = 0, pkce_off_reason = 'by hand in SQL' WHERE id = ?").bind(spa.clientId).run()).rejects.toThrow(/CHECK/);
    expect(() => addClientSql({ name: 'x', redirectUris: [`${RP}/callback`], isPublic: true, pkceOffReason: 'a long enough reason' })).toThrow(/public/);
    const rows = await worker.env.DB.prepare("SELECT target_id, reason FROM audit_log WHERE action = 'oidc.client_pkce_off' AND target_id IN (?, ?)").bind(app.clientId, spa.clientId).all();
    expect(rows.results).toEqual([{ target_id: app.clientId, reason: 'legacy ERP sends no PKCE' }]);
  });
});

describe('certification: Basic OP plan tests that apply locally', () => {
  it('oidcc-display-page, -display-popup, -claims-locales, -ui-locales and -unknown-parameters: the extra parameters are accepted and the sign-in goes on', async () => {
    const app = await register({ name: 'Params app', redirectUris: [`${RP}/callback`] });
    const person = await api.person();
    const config = await relyingParty(app);
    await signIn(config, person.cookie);
    const runs: Record<string, string>[] = [{ display: 'page' }, { display: 'popup' }, { claims_locales: 'de en' }, { ui_locales: 'se en' }, { extra: 'foobar' }, { vendor_specific: 'x', another: 'y' }];
    for (const extra of runs) {
      const { tokens } = await signIn(config, person.cookie, extra);
      expect(tokens.claims()!.sub, JSON.stringify(extra)).toBe(person.userId);
    }
  });

  it('oidcc-userinfo-get, -post-header and -post-body: the access token in the header (GET, POST) or in a form body (RFC 6750 §2.2), not both', async () => {
    const app = await register({ name: 'Userinfo app', redirectUris: [`${RP}/callback`] });
    const person = await api.person();
    const config = await relyingParty(app);
    const { tokens } = await signIn(config, person.cookie);
    const call = (init: RequestInit) => toWorker(`${ISSUER}/oidc/userinfo`, init as never);
    const bearer = { authorization: `Bearer ${tokens.access_token}` };
    for (const answer of [
      await call({ method: 'GET', headers: bearer }),
      await call({ method: 'POST', headers: bearer }),
      await call({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `access_token=${tokens.access_token}` }),
    ]) {
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { sub: string }).sub).toBe(person.userId);
    }
    const both = await call({ method: 'POST', headers: { ...bearer, 'content-type': 'application/x-www-form-urlencoded' }, body: `access_token=${tokens.access_token}` });
    expect(both.status).toBe(400);
    expect(await both.json()).toMatchObject({ error: 'invalid_request' });
    const none = await call({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'access_token=forged.token.here' });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('oidcc-max-age-1: a sign-in older than max_age is not answered silently; a fresh one carries auth_time', async () => {
    const app = await register({ name: 'Max age app', redirectUris: [`${RP}/callback`] });
    const person = await api.person();
    const config = await relyingParty(app);
    const { tokens } = await signIn(config, person.cookie, { max_age: '3600' });
    expect(typeof tokens.claims()!.auth_time).toBe('number');
    const later = Date.now() + 5_000;
    const stale = await authorize(config, person.cookie, { max_age: '1' }, { clock: () => later });
    // Parked for the person to prove it's them again, never a code.
    expect(stale.location).toMatch(/^\/connect\?request=/);
    const silent = await authorize(config, person.cookie, { max_age: '1', prompt: 'none' }, { clock: () => later });
    expect(errorOf(silent.location)).toBe('login_required');
  });

  it('oidcc-id-token-hint: prompt=none with the hint of the signed-in person answers a code; with another person’s, login_required', async () => {
    const app = await register({ name: 'Hint app', redirectUris: [`${RP}/callback`] });
    const [person, other] = await Promise.all([api.person(), api.person()]);
    const config = await relyingParty(app);
    const mine = (await signIn(config, person.cookie)).tokens.id_token!;
    const theirs = (await signIn(config, other.cookie)).tokens.id_token!;
    const same = await authorize(config, person.cookie, { prompt: 'none', id_token_hint: mine });
    expect(new URL(same.location).searchParams.get('code')).toBeTruthy();
    const tokens = await oidc.authorizationCodeGrant(config, new URL(same.location), { pkceCodeVerifier: same.verifier, expectedState: same.state, expectedNonce: same.nonce });
    expect(tokens.claims()!.sub).toBe(person.userId);
    expect(errorOf((await authorize(config, person.cookie, { prompt: 'none', id_token_hint: theirs })).location)).toBe('login_required');
    expect(errorOf((await authorize(config, person.cookie, { prompt: 'none', id_token_hint: `${mine.slice(0, -4)}AAAA` })).location)).toBe('login_required');
  });

  it('oidcc-ensure-request-with-valid-pkce and oidcc-login-hint: a login_hint does not stop a signed-in person’s sign-in', async () => {
    const app = await register({ name: 'Login hint app', redirectUris: [`${RP}/callback`] });
    const person = await api.person();
    const { tokens } = await signIn(await relyingParty(app), person.cookie, { login_hint: person.email });
    expect(tokens.claims()!.sub).toBe(person.userId);
  });

  it('oidcc-claims-essential: a claims request (not supported: claims_parameter_supported false) is ignored, and the scopes still give the name', async () => {
    const app = await register({ name: 'Claims app', redirectUris: [`${RP}/callback`] });
    const person = await api.person({ realName: 'Zhao Lei' });
    const config = await relyingParty(app);
    const { tokens } = await signIn(config, person.cookie, { scope: 'openid profile', claims: JSON.stringify({ userinfo: { name: { essential: true } } }) });
    expect((await oidc.fetchUserInfo(config, tokens.access_token, person.userId)).name).toBe('Zhao Lei');
  });

  it('oidcc-codereuse-30seconds: a code used again 30 s later is refused and ends the tokens it gave', async () => {
    const app = await register({ name: 'Reuse app', redirectUris: [`${RP}/callback`] });
    const person = await api.person();
    const config = await relyingParty(app);
    await signIn(config, person.cookie);
    const flow = await authorize(config, person.cookie);
    const code = new URL(flow.location).searchParams.get('code')!;
    const fields = { grant_type: 'authorization_code', code, redirect_uri: `${RP}/callback`, code_verifier: flow.verifier };
    const first = await tokenCall(app, fields);
    expect(first.access_token).toBeTruthy();
    const inThirty = Date.now() + 30_000;
    expect(await tokenCall(app, fields, () => inThirty)).toMatchObject({ status: 400, error: 'invalid_grant' });
    await expect(oidc.fetchUserInfo(config, first.access_token!, person.userId)).rejects.toBeTruthy();
  });

  it('oidcc-server / Config OP: discovery names the issuer and endpoints, and every key in the JWKS verifies what it signs', async () => {
    const config = await relyingParty(await register({ name: 'Config app', redirectUris: [`${RP}/callback`] }));
    const metadata = config.serverMetadata();
    expect(metadata).toMatchObject({
      issuer: ISSUER,
      jwks_uri: `${ISSUER}/oidc/jwks`,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      grant_types_supported: expect.arrayContaining(['authorization_code']),
      claims_supported: expect.arrayContaining(['sub', 'name', 'email', 'phone_number']),
    });
    expect(metadata.claims_supported).not.toContain('preferred_username');
    const keys = await jwksNow();
    expect(new Set(keys.keys.map((key) => key.kid)).size).toBe(keys.keys.length);
    expect(new Set(keys.keys.map((key) => key.alg))).toEqual(new Set(['ES256', 'RS256']));
  });
});
