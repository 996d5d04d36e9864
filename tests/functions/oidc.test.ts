import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addClientSql } from '../../scripts/operator-sql.mjs';
import { splitStatements } from './oidc-sql';
import { useWorkerEnv } from './gateway-client';
import { loggableUrl } from '../../functions/edge/request-log';
import { regionRedirectTarget } from '../../functions/edge/region';
import { jwks, KEY_PUBLISHED_AFTER_MS, KEY_SIGNS_FOR_MS, rotateKeys, signingKey } from '../../functions/gateway/oidc/keys';
import { tellConnectedApps } from '../../functions/gateway/oidc/logout';
import { idToken } from '../../functions/gateway/oidc/tokens';
import { vi } from 'vitest';

/**
 * The portal as an OpenID Provider, driven by `openid-client` (a relying-party library nobody here wrote) through
 * the whole Worker: discovery, code + PKCE with ID-token validation, userinfo, refresh rotation and reuse, prompt=none,
 * acr_values, RP-initiated and back-channel logout, client credentials, and the attacks of issue 27.
 */

const ISSUER = 'http://localhost';
const RP = 'http://127.0.0.1:9555';
const { worker, api } = useWorkerEnv('oidc', { PORTAL_ORIGIN: ISSUER });

/** Every request of the relying party goes to this Worker, as a browser-less server would send it. */
const toWorker: oidc.CustomFetch = async (url, options) => {
  const { default: app } = await import('../../functions/worker');
  const answer = await app.request(url, { method: options.method, headers: options.headers as HeadersInit, body: options.body as BodyInit, redirect: 'manual' }, worker.env, worker.ctx);
  await worker.settle();
  return answer;
};

/** A page request of a person's browser (with their session cookie), answered without following redirects. */
async function browse(url: string, cookie?: string): Promise<Response> {
  const { default: app } = await import('../../functions/worker');
  const answer = await app.request(url, { headers: cookie ? { cookie } : {}, redirect: 'manual' }, worker.env, worker.ctx);
  await worker.settle();
  return answer;
}

async function register(options: Parameters<typeof addClientSql>[0]) {
  const { clientId, clientSecret, sql } = addClientSql(options);
  await worker.env.DB.batch(splitStatements(sql).map((statement) => worker.env.DB.prepare(statement)));
  return { clientId, clientSecret };
}

async function relyingParty(client: { clientId: string; clientSecret: string | null }) {
  const auth = client.clientSecret ? oidc.ClientSecretBasic(client.clientSecret) : oidc.None();
  const config = await oidc.discovery(new URL(ISSUER), client.clientId, undefined, auth, { execute: [oidc.allowInsecureRequests], [oidc.customFetch]: toWorker });
  config[oidc.customFetch] = toWorker;
  return config;
}

/** Starts the code flow as the relying party would; returns where the authorization endpoint sent the browser. */
async function authorize(config: oidc.Configuration, cookie: string | undefined, extra: Record<string, string> = {}) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: `${RP}/callback`,
    scope: 'openid profile email phone company offline_access',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  const answer = await browse(url.href, cookie);
  return { answer, location: answer.headers.get('location'), verifier, state, nonce };
}

/** Allows the app on the consent page, as the person's browser does through /api. */
async function allow(location: string, cookie: string): Promise<string> {
  const id = new URL(location, ISSUER).searchParams.get('request')!;
  const view = await api.json<{ needs: string }>(await api.get(`/oidc/v1/requests/${id}`, { cookie }));
  expect(view.code).toBe('0');
  const decided = await api.json<{ redirectTo: string }>(await api.post(`/oidc/v1/requests/${id}/decision`, { allow: true }, { cookie }));
  expect(decided.code).toBe('0');
  return decided.data.redirectTo;
}

async function signInThroughApp(config: oidc.Configuration, cookie: string) {
  const flow = await authorize(config, cookie);
  const callback = flow.location!.startsWith('/connect') ? await allow(flow.location!, cookie) : flow.location!;
  const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce });
  return { tokens, callback };
}

let app: { clientId: string; clientSecret: string | null };
let backChannel: Server;
const logoutTokens: string[] = [];

beforeAll(async () => {
  backChannel = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      logoutTokens.push(new URLSearchParams(body).get('logout_token') ?? '');
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => backChannel.listen(0, '127.0.0.1', resolve));
  const port = (backChannel.address() as AddressInfo).port;
  app = await register({
    name: 'Voyage planner',
    redirectUris: [`${RP}/callback`],
    postLogoutUris: [`${RP}/signed-out`],
    backchannelLogoutUri: `http://127.0.0.1:${port}/backchannel`,
  });
});
afterAll(() => new Promise<void>((resolve) => backChannel.close(() => resolve())));

describe('discovery and keys', () => {
  it('publishes the issuer, the code flow with S256 only, and an ES256 key in the JWKS', async () => {
    const config = await relyingParty(app);
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(ISSUER);
    expect(metadata.response_types_supported).toEqual(['code']);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
    const keys = (await (await browse(`${ISSUER}/oidc/jwks`)).json()) as { keys: { kty: string; alg: string; d?: string }[] };
    expect(keys.keys.length).toBeGreaterThan(0);
    expect(keys.keys[0]).toMatchObject({ kty: 'EC', alg: 'ES256' });
    expect(keys.keys.some((key) => 'd' in key)).toBe(false);
  });

  it('is not an issuer on the navigator host', async () => {
    expect((await browse('http://navigator.localhost/.well-known/openid-configuration')).status).toBe(404);
  });
});

describe('the code flow with PKCE', () => {
  it('asks for consent once, then signs the person in with a valid ID token, userinfo and the company claim', async () => {
    const person = await api.person({ realName: 'Li Wei', companies: [{ nameEn: `Coastal Shipping ${api.unique()}`, isMain: true }] });
    const companyId = (person.answer as { companyId: string }).companyId;
    expect((await api.json(await api.post('/agg-web/user/chooseAccount', { companyId }, { cookie: person.cookie }))).code).toBe('0');
    const config = await relyingParty(app);
    const first = await authorize(config, person.cookie);
    expect(first.location).toMatch(/^\/connect\?request=/);
    const { tokens, callback } = await signInThroughApp(config, person.cookie);
    expect(new URL(callback).searchParams.get('iss')).toBe(ISSUER);
    const claims = tokens.claims()!;
    expect(claims.sub).toBe(person.userId);
    expect(claims.sub).not.toContain('@');
    expect(claims.email).toBe(person.email);
    expect(claims.amr).toEqual(['pwd']);
    expect(claims.acr).toBe('urn:portal:acr:1fa');
    expect(typeof claims.sid).toBe('string');
    expect(claims.company).toMatchObject({ id: companyId, role: 'administrator', name_en: expect.stringContaining('Coastal Shipping') });
    expect(claims.name).toBe('Li Wei');
    const info = await oidc.fetchUserInfo(config, tokens.access_token, person.userId);
    expect(info.email).toBe(person.email);
    // The consent is remembered: the next sign-in goes straight back to the app.
    const again = await authorize(config, person.cookie);
    expect(again.location).toMatch(new RegExp(`^${RP}/callback\\?code=`));
  });

  it('names on the consent page the account, its company, whose app it is and where it answers, and lists only what the account has (issue 47)', async () => {
    const name = `Harbour Freight ${api.unique()}`;
    const person = await api.person({ realName: 'Chen Jing', companies: [{ nameEn: name, isMain: true }] });
    const companyId = (person.answer as { companyId: string }).companyId;
    await worker.env.DB.prepare("UPDATE companies SET name_cn = '港航货运' WHERE id = ?").bind(companyId).run();
    expect((await api.json(await api.post('/agg-web/user/chooseAccount', { companyId }, { cookie: person.cookie }))).code).toBe('0');
    const config = await relyingParty(app);
    const { location } = await authorize(config, person.cookie);
    const id = new URL(location!, ISSUER).searchParams.get('request')!;
    type View = { client: { name: string; address: string; owner: string | null }; account: { name: string | null; signIn: string }; company: string | null; scopes: string[] };
    const view = await api.json<View>(await api.get(`/oidc/v1/requests/${id}`, { cookie: person.cookie, lang: 'zh' }));
    expect(view.data.client).toMatchObject({ address: '127.0.0.1:9555', owner: null });
    expect(view.data.account).toEqual({ name: 'Chen Jing', signIn: person.email });
    expect(view.data.company).toBe('港航货运');
    // Asked for `phone` too, but the account has no phone: the page does not promise one.
    expect(view.data.scopes).toEqual(['openid', 'profile', 'email', 'company', 'offline_access']);

    // Without a company in use, no company is listed either.
    const loner = await api.person();
    const second = await authorize(config, loner.cookie);
    const lonerId = new URL(second.location!, ISSUER).searchParams.get('request')!;
    const bare = await api.json<View>(await api.get(`/oidc/v1/requests/${lonerId}`, { cookie: loner.cookie }));
    expect(bare.data).toMatchObject({ company: null, scopes: ['openid', 'profile', 'email', 'offline_access'] });
  });

  it('"Not you?" lets go of the request, so that the account signed in next may answer it; nobody else may let go of it', async () => {
    const first = await api.person();
    const next = await api.person();
    const config = await relyingParty(app);
    const { location } = await authorize(config, first.cookie);
    const id = new URL(location!, ISSUER).searchParams.get('request')!;
    expect((await api.json(await api.get(`/oidc/v1/requests/${id}`, { cookie: first.cookie }))).code).toBe('0');
    // Claimed by the first session: another can neither open nor release it.
    expect((await api.json(await api.get(`/oidc/v1/requests/${id}`, { cookie: next.cookie }))).code).toBe('OI0001');
    expect((await api.json(await api.post(`/oidc/v1/requests/${id}/release`, {}, { cookie: next.cookie }))).code).toBe('OI0001');
    expect((await api.json(await api.post(`/oidc/v1/requests/${id}/release`, {}, { cookie: first.cookie }))).code).toBe('0');
    const view = await api.json<{ account: { signIn: string } }>(await api.get(`/oidc/v1/requests/${id}`, { cookie: next.cookie }));
    expect(view.data.account.signIn).toBe(next.email);
  });

  it("gives the ID token the locale the app asked for (ui_locales), which the consent page is shown in", async () => {
    const person = await api.person();
    const config = await relyingParty(app);
    // Asked in zh-CN by a visitor whose pages are in English: the consent page switches to Chinese.
    const first = await authorize(config, `${person.cookie}; LANG=en`, { ui_locales: 'zh-CN' });
    expect(first.location).toMatch(/^\/connect\?request=/);
    expect(first.answer.headers.getSetCookie().join('\n')).toMatch(/(?:^|\n)LANG=zh;/);
    const id = new URL(first.location!, ISSUER).searchParams.get('request')!;
    const decided = await api.json<{ redirectTo: string }>(await api.post(`/oidc/v1/requests/${id}/decision`, { allow: true }, { cookie: person.cookie, lang: 'zh' }));
    expect(decided.code).toBe('0');
    const zh = await oidc.authorizationCodeGrant(config, new URL(decided.data.redirectTo), { pkceCodeVerifier: first.verifier, expectedState: first.state, expectedNonce: first.nonce });
    expect(zh.claims()!.locale).toBe('zh-CN');
    // The consent remembered, the code comes at once, in the language asked for this time.
    const again = await authorize(config, `${person.cookie}; LANG=zh`, { ui_locales: 'en' });
    const en = await oidc.authorizationCodeGrant(config, new URL(again.location!), { pkceCodeVerifier: again.verifier, expectedState: again.state, expectedNonce: again.nonce });
    expect(en.claims()!.locale).toBe('en');
  });

  it('answers login_required to prompt=none while signed out, at the redirect_uri with state and iss', async () => {
    const config = await relyingParty(app);
    const { location, state } = await authorize(config, undefined, { prompt: 'none' });
    const answer = new URL(location!);
    expect(answer.origin + answer.pathname).toBe(`${RP}/callback`);
    expect(answer.searchParams.get('error')).toBe('login_required');
    expect(answer.searchParams.get('state')).toBe(state);
    expect(answer.searchParams.get('iss')).toBe(ISSUER);
  });

  it('sends a signed-out visitor to sign in first, then back to the consent page', async () => {
    const config = await relyingParty(app);
    const { location } = await authorize(config, undefined);
    expect(location).toMatch(/^\/connect\?request=/);
    const page = await browse(`${ISSUER}${location}`);
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe(`/login?next=${encodeURIComponent(location!)}`);
  });

  it('demands two factors when acr_values asks: a person without two-step is told to set it up', async () => {
    const person = await api.person();
    const config = await relyingParty(app);
    const { location } = await authorize(config, person.cookie, { acr_values: 'urn:portal:acr:2fa' });
    const id = new URL(location!, ISSUER).searchParams.get('request')!;
    const view = await api.json<{ needs: string }>(await api.get(`/oidc/v1/requests/${id}`, { cookie: person.cookie }));
    expect(view.data.needs).toBe('two-step-setup');
    const refused = await api.json(await api.post(`/oidc/v1/requests/${id}/decision`, { allow: true }, { cookie: person.cookie }));
    expect(refused.code).toBe('OI0003');
  });

  it('answers access_denied at the redirect_uri, with the state, iss and no code, when the person declines', async () => {
    const person = await api.person();
    const config = await relyingParty(app);
    const flow = await authorize(config, person.cookie, { acr_values: 'urn:portal:acr:2fa' });
    const id = new URL(flow.location!, ISSUER).searchParams.get('request')!;
    const decided = await api.json<{ redirectTo: string }>(await api.post(`/oidc/v1/requests/${id}/decision`, { allow: false }, { cookie: person.cookie }));
    expect(decided.code).toBe('0');
    const answer = new URL(decided.data.redirectTo);
    expect(answer.origin + answer.pathname).toBe(`${RP}/callback`);
    expect(answer.searchParams.get('error')).toBe('access_denied');
    expect(answer.searchParams.get('state')).toBe(flow.state);
    expect(answer.searchParams.get('iss')).toBe(ISSUER);
    expect(answer.searchParams.get('code')).toBeNull();
  });

  it('refuses plain PKCE and a missing challenge at the redirect_uri, and implicit flows outright', async () => {
    const base = `${ISSUER}/oidc/authorize?client_id=${app.clientId}&redirect_uri=${encodeURIComponent(`${RP}/callback`)}&scope=openid&state=s1`;
    const plain = new URL((await browse(`${base}&response_type=code&code_challenge=${'a'.repeat(43)}&code_challenge_method=plain`)).headers.get('location')!);
    expect(plain.searchParams.get('error')).toBe('invalid_request');
    const none = new URL((await browse(`${base}&response_type=code`)).headers.get('location')!);
    expect(none.searchParams.get('error')).toBe('invalid_request');
    const implicit = new URL((await browse(`${base}&response_type=id_token%20token&nonce=n`)).headers.get('location')!);
    expect(implicit.searchParams.get('error')).toBe('unsupported_response_type');
    expect(implicit.hash).toBe('');
  });
});

describe('refresh tokens', () => {
  it('rotates on every use; a reused one ends the whole family and the grant', async () => {
    const person = await api.person();
    const config = await relyingParty(app);
    const { tokens } = await signInThroughApp(config, person.cookie);
    const second = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(second.refresh_token).not.toBe(tokens.refresh_token);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(oidc.refreshTokenGrant(config, second.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(oidc.fetchUserInfo(config, second.access_token, person.userId)).rejects.toBeTruthy();
  });
});

describe('logout', () => {
  it('RP-initiated logout ends the session and returns to the registered address with state; the app is told on the back channel', async () => {
    const person = await api.person();
    const config = await relyingParty(app);
    const { tokens } = await signInThroughApp(config, person.cookie);
    const sid = tokens.claims()!.sid;
    const before = logoutTokens.length;
    const url = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: `${RP}/signed-out`, state: 'bye' });
    const answer = await browse(url.href, person.cookie);
    expect(answer.headers.get('location')).toBe(`${RP}/signed-out?state=bye`);
    expect((await api.json(await api.post('/c/user/v2/getCompanyListByToken', {}, { cookie: person.cookie }))).code).toBe('TK00001');
    expect(logoutTokens.length).toBe(before + 1);
    const jwks = (await (await browse(`${ISSUER}/oidc/jwks`)).json()) as Parameters<typeof createLocalJWKSet>[0];
    const { payload, protectedHeader } = await jwtVerify(logoutTokens.at(-1)!, createLocalJWKSet(jwks), { issuer: ISSUER, audience: app.clientId });
    expect(protectedHeader.typ).toBe('logout+jwt');
    expect(payload.sid).toBe(sid);
    expect(payload.events).toEqual({ 'http://schemas.openid.net/event/backchannel-logout': {} });
  });

  it('tells the app once per session, however many times the person signed in to it in that session (issue 47)', async () => {
    const person = await api.person();
    const config = await relyingParty(app);
    await signInThroughApp(config, person.cookie);
    // The app asks again in the same session (a second tab, an expired app session): a second grant, the same sid.
    const { tokens } = await signInThroughApp(config, person.cookie);
    const before = logoutTokens.length;
    const url = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: `${RP}/signed-out`, state: 'bye' });
    await browse(url.href, person.cookie);
    expect(logoutTokens.length).toBe(before + 1);
    // The cron's later sweeps send nothing more for it.
    await tellConnectedApps(worker.env, Date.now() + 60_000);
    expect(logoutTokens.length).toBe(before + 1);
  });

  it('tells the app when the person signs out in the portal', async () => {
    const person = await api.person();
    const config = await relyingParty(app);
    await signInThroughApp(config, person.cookie);
    const before = logoutTokens.length;
    await api.post('/c/user/v2/loginout', {}, { cookie: person.cookie });
    expect(logoutTokens.length).toBe(before + 1);
  });
});

describe('connected apps', () => {
  it('lists the app the person allowed; disconnecting it ends its tokens and tells it on the back channel', async () => {
    const person = await api.person();
    const config = await relyingParty(app);
    const { tokens } = await signInThroughApp(config, person.cookie);
    const listed = await api.json<{ clientId: string; name: string; scopes: string[] }[]>(await api.get('/oidc/v1/connected', { cookie: person.cookie }));
    expect(listed.data).toEqual([expect.objectContaining({ clientId: app.clientId, name: 'Voyage planner', scopes: expect.arrayContaining(['openid', 'email']) })]);
    const before = logoutTokens.length;
    expect((await api.json(await api.post(`/oidc/v1/connected/${app.clientId}/disconnect`, {}, { cookie: person.cookie }))).code).toBe('0');
    expect(logoutTokens.length).toBe(before + 1);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await api.json(await api.get('/oidc/v1/connected', { cookie: person.cookie }))).data).toEqual([]);
    // Someone else's app, or one never connected: nothing to disconnect.
    expect((await api.json(await api.post(`/oidc/v1/connected/${app.clientId}/disconnect`, {}, { cookie: person.cookie }))).code).toBe('OI0004');
  });
});

describe('account erasure', () => {
  it("tells every connected app and ends the person's grants and consents before the account is erased", async () => {
    const { tellConnectedAppsAndDeleteGrants } = await import('../../functions/gateway/data-rights/service');
    const person = await api.person();
    const config = await relyingParty(app);
    const { tokens } = await signInThroughApp(config, person.cookie);
    const before = logoutTokens.length;
    await tellConnectedAppsAndDeleteGrants(worker.env, person.userId, Date.now());
    expect(logoutTokens.length).toBe(before + 1);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    const left = await worker.env.DB.prepare('SELECT (SELECT COUNT(*) FROM oidc_consents WHERE user_id = ?1) AS consents, (SELECT COUNT(*) FROM oidc_grants WHERE user_id = ?1 AND revoked_at IS NULL) AS live').bind(person.userId).first<{ consents: number; live: number }>();
    expect(left).toEqual({ consents: 0, live: 0 });
  });
});

describe('client credentials', () => {
  it('gives a machine client an access token for its own scopes and nothing else', async () => {
    const machine = await register({ name: 'Berth scheduler' });
    const config = await relyingParty(machine);
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'company' });
    expect(tokens.token_type).toBe('bearer');
    // A signed JWT: header, payload, signature.
    expect(tokens.access_token.split('.')).toHaveLength(3);
    await expect(oidc.clientCredentialsGrant(config, { scope: 'email' })).rejects.toMatchObject({ error: 'invalid_scope' });
    const wrong = await relyingParty({ clientId: machine.clientId, clientSecret: 'not-the-secret' });
    await expect(oidc.clientCredentialsGrant(wrong, { scope: 'company' })).rejects.toMatchObject({ status: 401 });
  });
});

describe('holds against attack', () => {
  it('20 parallel redemptions of one code give exactly one set of tokens, and the second redemption ends it', async () => {
    const person = await api.person();
    const config = await relyingParty(app);
    const flow = await authorize(config, person.cookie);
    const callback = flow.location!.startsWith('/connect') ? await allow(flow.location!, person.cookie) : flow.location!;
    const code = new URL(callback).searchParams.get('code')!;
    const redeem = () =>
      toWorker(`${ISSUER}/oidc/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${btoa(`${app.clientId}:${app.clientSecret}`)}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: `${RP}/callback`, code_verifier: flow.verifier }).toString(),
      } as never);
    const answers = await Promise.all(Array.from({ length: 20 }, redeem));
    const bodies = await Promise.all(answers.map((answer) => answer.json() as Promise<{ access_token?: string; error?: string }>));
    const winners = bodies.filter((body) => body.access_token);
    expect(winners).toHaveLength(1);
    expect(bodies.filter((body) => body.error === 'invalid_grant')).toHaveLength(19);
    // No answer carries the code or a token in a header, and none may be cached.
    expect(answers.every((answer) => answer.headers.get('cache-control') === 'no-store')).toBe(true);
    await expect(oidc.fetchUserInfo(config, winners[0]!.access_token!, person.userId)).rejects.toBeTruthy();
  });

  it('binds a code to its client, its redirect_uri and its PKCE verifier, and lets it live 60 seconds', async () => {
    const { createWorker } = await import('../../functions/worker');
    let time = Date.now();
    const onClock = createWorker({ clock: () => time });
    const person = await api.person();
    const other = await register({ name: 'Other app', redirectUris: [`${RP}/callback`] });
    const config = await relyingParty(app);
    const codeFor = async () => {
      const flow = await authorize(config, person.cookie);
      const callback = flow.location!.startsWith('/connect') ? await allow(flow.location!, person.cookie) : flow.location!;
      return { code: new URL(callback).searchParams.get('code')!, verifier: flow.verifier };
    };
    const redeem = async (client: { clientId: string; clientSecret: string | null }, fields: Record<string, string>) => {
      const answer = await onClock.request(
        `${ISSUER}/oidc/token`,
        {
          method: 'POST',
          headers: { authorization: `Basic ${btoa(`${client.clientId}:${client.clientSecret}`)}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'authorization_code', redirect_uri: `${RP}/callback`, ...fields }).toString(),
        },
        worker.env,
        worker.ctx,
      );
      return (await answer.json()) as { access_token?: string; error?: string };
    };
    // Another client cannot use it, and trying does not spend it.
    const first = await codeFor();
    expect(await redeem(other, { code: first.code, code_verifier: first.verifier })).toMatchObject({ error: 'invalid_grant' });
    // A wrong verifier or redirect_uri spends it for nothing.
    expect(await redeem(app, { code: first.code, code_verifier: oidc.randomPKCECodeVerifier() })).toMatchObject({ error: 'invalid_grant' });
    expect(await redeem(app, { code: first.code, code_verifier: first.verifier })).toMatchObject({ error: 'invalid_grant' });
    const second = await codeFor();
    expect(await redeem(app, { code: second.code, code_verifier: second.verifier, redirect_uri: `${RP}/other` })).toMatchObject({ error: 'invalid_grant' });
    // 61 seconds later a fresh code is dead; within 60 it works.
    const late = await codeFor();
    time = Date.now() + 61_000;
    expect(await redeem(app, { code: late.code, code_verifier: late.verifier })).toMatchObject({ error: 'invalid_grant' });
    const onTime = await codeFor();
    time = Date.now() + 55_000;
    expect((await redeem(app, { code: onTime.code, code_verifier: onTime.verifier })).access_token).toBeTruthy();
  });

  it('never redirects to an unregistered redirect_uri or for an unknown client: the error page, status 400', async () => {
    for (const query of [
      `client_id=${app.clientId}&redirect_uri=${encodeURIComponent('https://evil.example/callback')}`,
      `client_id=${app.clientId}&redirect_uri=${encodeURIComponent(`${RP}/callback/../evil`)}`,
      `client_id=${app.clientId}&redirect_uri=${encodeURIComponent(`${RP}/callback?x=1`)}`,
      `client_id=nobody&redirect_uri=${encodeURIComponent(`${RP}/callback`)}`,
    ]) {
      const answer = await browse(`${ISSUER}/oidc/authorize?${query}&response_type=code&scope=openid`);
      expect(answer.status).toBe(400);
      expect(answer.headers.get('location')).toBeNull();
      await answer.body?.cancel();
    }
  });

  it('answers CORS on the token endpoint only to a public client\'s registered origin', async () => {
    await register({ name: 'Crew app', redirectUris: ['https://crew.example/cb'], isPublic: true });
    const preflight = (origin: string) =>
      toWorker(`${ISSUER}/oidc/token`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } } as never);
    expect((await preflight('https://crew.example')).headers.get('access-control-allow-origin')).toBe('https://crew.example');
    expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    const page = await browse(`${ISSUER}/.well-known/openid-configuration`);
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
    await page.body?.cancel();
  });

  it('caps the token endpoint per network, whatever the client', async () => {
    const { default: worker_ } = await import('../../functions/worker');
    const env = { ...worker.env, OIDC_TOKEN_NETWORK_CAP: '3' };
    const call = () =>
      worker_.request(
        `${ISSUER}/oidc/token`,
        { method: 'POST', headers: { 'cf-connecting-ip': '10.77.0.1', 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials&client_id=nobody&client_secret=x' },
        env,
        worker.ctx,
      );
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await call()).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it("does not let anyone spend a public client's cap from one network", async () => {
    const spa = await register({ name: 'Pilot app', redirectUris: ['https://pilot.example/cb'], isPublic: true });
    const { default: worker_ } = await import('../../functions/worker');
    const env = { ...worker.env, OIDC_TOKEN_CLIENT_CAP: '3' };
    const call = (network: string) =>
      worker_.request(
        `${ISSUER}/oidc/token`,
        { method: 'POST', headers: { 'cf-connecting-ip': network, 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=refresh_token&client_id=${spa.clientId}&refresh_token=junk` },
        env,
        worker.ctx,
      );
    for (let i = 0; i < 4; i++) await (await call('10.78.0.1')).body?.cancel();
    expect((await call('10.78.0.1')).status).toBe(429);
    const other = await call('10.78.0.2');
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('keeps tokens and hints out of the request log, and never bounces the issuer between regional sites', () => {
    const logged = loggableUrl(new URL(`${ISSUER}/oidc/logout?id_token_hint=eyJ.secret.sig&post_logout_redirect_uri=x&login_hint=li%40example.com&code=abc`));
    expect(logged).not.toMatch(/eyJ|secret|li%40example|abc/);
    // The request id unlocks the login hint for 10 minutes: not in /connect's or /sign_out's query, not in /login's
    // return path, not in the hint's or the sign-out's call path.
    const id = 'Req0123456789abcdefghijklmnopqrstuvwxyzABCD';
    for (const path of [`/connect?request=${id}`, `/sign_out?request=${id}`, `/login?next=${encodeURIComponent(`/connect?request=${id}`)}`, `/api/oidc/v1/hints/${id}`, `/api/oidc/v1/logouts/${id}/decision`]) {
      const shown = loggableUrl(new URL(`${ISSUER}${path}`));
      expect(shown).not.toContain(id);
      expect(shown).toContain('redacted');
    }
    expect(loggableUrl(new URL(`${ISSUER}/login?next=%2Fuser_center`))).toBe('/login?next=%2Fuser_center');
    const sites = { enabled: true, siteCn: 'https://portal.example.cn', siteCom: 'https://portal.example.com' };
    for (const path of ['/oidc/token', '/oidc/authorize?client_id=x', '/.well-known/openid-configuration']) {
      expect(regionRedirectTarget(new URL(`https://portal.example.com${path}`), 'CN', sites)).toBeUndefined();
    }
    expect(regionRedirectTarget(new URL('https://portal.example.com/login'), 'CN', sites)).toBe('https://portal.example.cn/login');
  });
});

describe('back-channel logout sends', () => {
  it('retries a failing app with backoff and records every attempt', async () => {
    let failuresLeft = 1;
    const received: string[] = [];
    const flaky = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        if (failuresLeft-- > 0) return void response.writeHead(503).end();
        received.push(request.url ?? '');
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    try {
      const flakyApp = await register({ name: 'Flaky app', redirectUris: [`${RP}/flaky`], backchannelLogoutUri: `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/bc` });
      const person = await api.person();
      const config = await relyingParty(flakyApp);
      const flow = await authorize(config, person.cookie, { redirect_uri: `${RP}/flaky` });
      await allow(flow.location!, person.cookie);
      await api.post('/c/user/v2/loginout', {}, { cookie: person.cookie });
      const sendOf = () => worker.env.DB.prepare('SELECT status, attempts, next_at, last_result FROM oidc_logout_sends WHERE client_id = ?').bind(flakyApp.clientId).first<{ status: string; attempts: number; next_at: number; last_result: string }>();
      const first = (await sendOf())!;
      expect(first).toMatchObject({ status: 'pending', attempts: 1, last_result: 'HTTP 503' });
      // Not before its next attempt is due; then delivered and recorded.
      await tellConnectedApps(worker.env, first.next_at - 1000);
      expect(received).toHaveLength(0);
      await tellConnectedApps(worker.env, first.next_at + 1);
      expect(received).toHaveLength(1);
      expect(await sendOf()).toMatchObject({ status: 'sent', attempts: 2, last_result: 'HTTP 200' });
    } finally {
      await new Promise<void>((resolve) => flaky.close(() => resolve()));
    }
  });
});

describe('tokens are never logged', () => {
  it('prints no code, token or secret while a person signs in to an app and refreshes', async () => {
    const printed: string[] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((name) => vi.spyOn(console, name).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' '))));
    try {
      const person = await api.person();
      const config = await relyingParty(app);
      const { tokens, callback } = await signInThroughApp(config, person.cookie);
      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
      const secrets = [new URL(callback).searchParams.get('code')!, tokens.access_token, tokens.id_token!, tokens.refresh_token!, refreshed.refresh_token!, app.clientSecret!];
      for (const secret of secrets) expect(printed.join('\n')).not.toContain(secret);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});

// Last in the file: it moves the keys' clock a month ahead and removes the first key.
describe('signing key rotation', () => {
  it('publishes the next key a day before it signs, and keeps the old one until its last token has expired', async () => {
    const start = Date.now();
    const { kid: first } = await signingKey(worker.env, start);
    const firstRow = (await worker.env.DB.prepare('SELECT signs_until FROM oidc_keys WHERE kid = ?').bind(first).first<{ signs_until: number }>())!;
    const dayBefore = firstRow.signs_until - 12 * 60 * 60 * 1000;
    // One successor per algorithm (ES256 and RS256, issue 43); this test follows the ES256 line.
    expect((await rotateKeys(worker.env, dayBefore)).made).toBe(2);
    const published = (await jwks(worker.env.DB, dayBefore)).keys.filter((key) => key.alg === 'ES256').map((key) => key.kid);
    expect(published).toContain(first);
    expect(published).toHaveLength(2);
    // Still the old key signs until its time ends; a token it signed then stays verifiable after the switch.
    expect((await signingKey(worker.env, dayBefore)).kid).toBe(first);
    const oldToken = await idToken(worker.env, dayBefore, { issuer: ISSUER, clientId: 'c', subject: 's', nonce: null, sid: null, auth: { authTime: null, amr: [], acr: '' }, profile: {} });
    const afterSwitch = firstRow.signs_until + 60_000;
    const next = (await signingKey(worker.env, afterSwitch)).kid;
    expect(next).not.toBe(first);
    const keySet = createLocalJWKSet(await jwks(worker.env.DB, afterSwitch));
    await expect(jwtVerify(oldToken, keySet, { currentDate: new Date(dayBefore + 60_000) })).resolves.toBeTruthy();
    // Once no token it signed can be alive, the old key leaves the JWKS.
    const later = firstRow.signs_until + KEY_PUBLISHED_AFTER_MS + 1;
    expect((await rotateKeys(worker.env, later)).removed).toBeGreaterThanOrEqual(1);
    expect((await jwks(worker.env.DB, later)).keys.filter((key) => key.alg === 'ES256').map((key) => key.kid)).toEqual([next]);
    expect(KEY_SIGNS_FOR_MS).toBe(30 * 24 * 60 * 60 * 1000);
  });
});
