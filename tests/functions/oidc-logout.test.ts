import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import worker from '../../functions/worker';
import { addClientSql } from '../../scripts/operator-sql.mjs';
import { useWorkerEnv } from './gateway-client';
import { splitStatements } from './oidc-sql';

/**
 * Four small gaps of landed features, each as a client or a person meets it: the OpenID Provider's RP-initiated
 * logout asks before it signs anyone out, a login_hint fills the sign-in form, two parallel WeChat bindings give
 * the loser a clear answer, and the WeChat stand-in's rows are pruned.
 */
const ISSUER = 'http://localhost';
const { worker: env, api } = useWorkerEnv('gaps', { PORTAL_ORIGIN: ISSUER });

// ---------------------------------------------------------------------------------------------------------
// WeChat: a flow through the stand-in, as tests/functions/wechat.test.ts drives it.
// ---------------------------------------------------------------------------------------------------------

type Flow = { cookie: string; code: string; state: string };
const flowCookieOf = (res: Response) => {
  const match = /(?:^|\n)(portal_wechat)=([^;]*)/.exec(res.headers.getSetCookie().join('\n'));
  return match ? `${match[1]}=${match[2]}` : '';
};

/** Starts a QR flow (a binding one with `session`) and confirms it as `who` on the stand-in's page. */
async function scan(who: string, session?: string): Promise<Flow> {
  const start = await api.post(session ? '/agg-web/user/wechat/bind' : '/agg-web/wechat/start', { method: 'qr' }, { cookie: session });
  const started = await api.json<{ authorizeUrl: string }>(start);
  expect(started.code, JSON.stringify(started)).toBe('0');
  const url = new URL(started.data.authorizeUrl, ISSUER);
  const html = await (await api.get(url.pathname.replace(/^\/api/, '') + url.search)).text();
  const form = new URLSearchParams([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))]));
  form.set('person', who);
  form.set('answer', 'confirm');
  const back = new URL((await api.postRaw('/dev/wechat/confirm', form.toString(), { headers: { 'content-type': 'application/x-www-form-urlencoded' } })).headers.get('location')!);
  return { cookie: flowCookieOf(start), code: back.searchParams.get('code')!, state: back.searchParams.get('state')! };
}

const callback = (flow: Flow, cookie = flow.cookie, lang?: 'zh' | 'en') => api.post('/agg-web/wechat/callback', { code: flow.code, state: flow.state }, { cookie, lang });

async function phoneCode(mobile: string) {
  const sliderCheck = await api.sliderCheck('sms', `+86${mobile}`);
  expect((await api.json(await api.post('/agg-web/sms/send', { phoneCode: 'CN', mobile, type: 3, phoneCodeValue: '+86', sliderCheck }))).code).toBe('0');
  return api.latestCode(`+86${mobile}`);
}

/** The binding ticket of a first scan of `who` (an unknown WeChat): the cookie the phone form sends. */
const ticketOf = async (who: string) => flowCookieOf(await callback(await scan(who)));

describe('WeChat bind race', () => {
  it('two parallel phone forms binding one WeChat: one binds, the other hears WX0007 in its language, and nothing of it is written', async () => {
    const who = `race${api.unique()}`;
    const [a, b] = [await ticketOf(who), await ticketOf(who)];
    const [mobileA, mobileB] = [api.mobile(), api.mobile()];
    const [codeA, codeB] = [await phoneCode(mobileA), await phoneCode(mobileB)];
    const answers = await Promise.all([
      api.post('/agg-web/wechat/bindPhone', { mobileCode: '+86', mobile: mobileA, code: codeA, agreed: true }, { cookie: a, lang: 'zh' }),
      api.post('/agg-web/wechat/bindPhone', { mobileCode: '+86', mobile: mobileB, code: codeB, agreed: true }, { cookie: b, lang: 'zh' }),
    ]);
    const bodies = await Promise.all(answers.map((res) => api.json<{ userId: string }>(res)));
    expect(bodies.map((body) => body.code).sort()).toEqual(['0', 'WX0007']);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
    const loser = bodies.find((body) => body.code === 'WX0007')!;
    expect(loser.message).toMatch(/微信/);
    // One account, one binding: the loser's phone registered nothing and has no session.
    const loserMobile = bodies[0]!.code === 'WX0007' ? mobileA : mobileB;
    const db = env.env.DB;
    expect(await db.prepare('SELECT COUNT(*) AS n FROM users WHERE phone_e164 = ?').bind(`+86${loserMobile}`).first('n')).toBe(0);
    const winner = bodies.find((body) => body.code === '0')!;
    expect(await db.prepare("SELECT user_id FROM social_bindings WHERE provider = 'wechat' AND user_id = ?").bind(winner.data.userId).first('user_id')).toBe(winner.data.userId);
  });

  it("two parallel user-center bindings of one WeChat to two accounts: one binds, the other hears WX0007", async () => {
    const who = `race${api.unique()}`;
    const [me, you] = [await api.person(), await api.person()];
    const [mine, yours] = [await scan(who, me.cookie), await scan(who, you.cookie)];
    const answers = await Promise.all([callback(mine, `${mine.cookie}; ${me.cookie}`, 'en'), callback(yours, `${yours.cookie}; ${you.cookie}`, 'en')]);
    const bodies = await Promise.all(answers.map((res) => api.json(res)));
    expect(bodies.map((body) => body.code).sort()).toEqual(['0', 'WX0007']);
    expect(bodies.find((body) => body.code === 'WX0007')!.message).toMatch(/WeChat/);
    // The WeChat is tied to one account only, the winner's.
    const winner = bodies[0]!.code === '0' ? me : you;
    const tied = await env.env.DB.prepare("SELECT user_id FROM social_bindings WHERE provider = 'wechat' AND user_id IN (?, ?)").bind(me.userId, you.userId).all();
    expect(tied.results).toEqual([{ user_id: winner.userId }]);
  });

  it('two parallel user-center bindings of two WeChats to one account: one binds, the other hears WX0008', async () => {
    const me = await api.person();
    const [first, second] = [await scan(`race${api.unique()}`, me.cookie), await scan(`race${api.unique()}`, me.cookie)];
    const answers = await Promise.all([callback(first, `${first.cookie}; ${me.cookie}`), callback(second, `${second.cookie}; ${me.cookie}`)]);
    const bodies = await Promise.all(answers.map((res) => api.json(res)));
    expect(bodies.map((body) => body.code).sort()).toEqual(['0', 'WX0008']);
    const audit = await env.env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'user.social_bound' AND actor_id = ?").bind(me.userId).first('n');
    expect(audit).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------------------
// The WeChat stand-in's rows are pruned by the hourly cron, only while the stand-in is on.
// ---------------------------------------------------------------------------------------------------------

describe('the WeChat stand-in is pruned', () => {
  const HOUR = 60 * 60_000;
  const rows = (tag: string, at: number) => {
    const db = env.env.DB;
    return [
      db.prepare("INSERT INTO dev_wechat_codes (code, app_id, person, scope, created_at) VALUES (?, 'app', 'p', 'snsapi_login', ?)").bind(`${tag}-code`, at - 5 * 60_000),
      db.prepare("INSERT INTO dev_wechat_tokens (token, app_id, person, scope, expires_at) VALUES (?, 'app', 'p', 'snsapi_login', ?)").bind(`${tag}-token`, at),
      db.prepare("INSERT INTO dev_wechat_grants (app_id, person, created_at) VALUES ('app', ?, ?)").bind(`${tag}-grant`, at - 30 * 24 * HOUR),
    ];
  };
  const left = async () => {
    const db = env.env.DB;
    const [codes, tokens, grants] = await db.batch([db.prepare('SELECT code AS k FROM dev_wechat_codes'), db.prepare('SELECT token AS k FROM dev_wechat_tokens'), db.prepare('SELECT person AS k FROM dev_wechat_grants')]);
    return [...codes!.results, ...tokens!.results, ...grants!.results].map((row) => (row as { k: string }).k).filter((k) => k.startsWith('prune-'));
  };
  const hourly = (at: number, vars: Record<string, unknown> = {}) =>
    worker.scheduled!({ scheduledTime: at, cron: '17 * * * *', noRetry() {} } as ScheduledController, { ...env.env, ...vars } as never);

  it('the hourly cron deletes an expired code, token and grant and keeps live ones; with the stand-in off it leaves them', async () => {
    const at = Date.UTC(2027, 2, 1, 9, 17);
    await env.env.DB.batch([...rows('prune-old', at - HOUR), ...rows('prune-live', at + HOUR)]);
    const quiet = { log: console.log };
    console.log = () => {};
    try {
      await hourly(at, { DEV_OUTBOX: 'false', DEV_TRUST_COUNTRY_HEADER: 'false', DEV_TRUST_CLIENT_IP_HEADER: 'false', OIDC_KEY: btoa('k'.repeat(32)) });
      expect((await left()).sort()).toEqual(['prune-live-code', 'prune-live-grant', 'prune-live-token', 'prune-old-code', 'prune-old-grant', 'prune-old-token']);
      await hourly(at);
    } finally {
      console.log = quiet.log;
    }
    expect((await left()).sort()).toEqual(['prune-live-code', 'prune-live-grant', 'prune-live-token']);
  });
});

// ---------------------------------------------------------------------------------------------------------
// OpenID Connect: RP-initiated logout asks the person unless the app proves it is their session.
// ---------------------------------------------------------------------------------------------------------

const RP = 'http://127.0.0.1:9556';

/** A request of the person's browser (with their cookies), answered without following redirects. */
async function browse(url: string, cookie?: string): Promise<Response> {
  const answer = await worker.request(url, { headers: cookie ? { cookie } : {}, redirect: 'manual' }, env.env, env.ctx);
  await env.settle();
  return answer;
}

const toWorker: oidc.CustomFetch = async (url, options) => {
  const answer = await worker.request(url, { method: options.method, headers: options.headers as HeadersInit, body: options.body as BodyInit, redirect: 'manual' }, env.env, env.ctx);
  await env.settle();
  return answer;
};

let app: { clientId: string; clientSecret: string | null };
let config: oidc.Configuration;
beforeAll(async () => {
  const { clientId, clientSecret, sql } = addClientSql({ name: 'Voyage planner', redirectUris: [`${RP}/callback`], postLogoutUris: [`${RP}/signed-out`], trusted: true });
  await env.env.DB.batch(splitStatements(sql).map((statement) => env.env.DB.prepare(statement)));
  app = { clientId, clientSecret };
  config = await oidc.discovery(new URL(ISSUER), clientId, undefined, oidc.ClientSecretBasic(clientSecret!), { execute: [oidc.allowInsecureRequests], [oidc.customFetch]: toWorker });
  config[oidc.customFetch] = toWorker;
});

/** Signs `cookie`'s person in to the (trusted) app; its ID token. */
async function idTokenFor(cookie: string): Promise<string> {
  const verifier = oidc.randomPKCECodeVerifier();
  const url = oidc.buildAuthorizationUrl(config, { redirect_uri: `${RP}/callback`, scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 's' });
  const back = (await browse(url.href, cookie)).headers.get('location')!;
  const tokens = await oidc.authorizationCodeGrant(config, new URL(back), { pkceCodeVerifier: verifier, expectedState: 's' });
  return tokens.id_token!;
}

const stillSignedIn = async (cookie: string) => (await api.json(await api.get('/c/user/v2/getCompanyListByToken', { cookie }))).code !== 'TK00001';
const requestOf = (location: string | null) => {
  const url = new URL(location ?? '', ISSUER);
  expect(url.pathname).toBe('/sign_out');
  return url.searchParams.get('request')!;
};

describe('RP-initiated logout asks first', () => {
  it('a bare GET (a link or an image on another site) signs nobody out: it asks, naming the app, and "Sign out" ends the session and returns with state', async () => {
    const person = await api.person();
    const bare = await browse(`${ISSUER}/oidc/logout`, person.cookie);
    expect(bare.status).toBe(302);
    const unnamed = requestOf(bare.headers.get('location'));
    expect(await stillSignedIn(person.cookie)).toBe(true);
    expect((await api.json(await api.get(`/oidc/v1/logouts/${unnamed}`, { cookie: person.cookie }))).data).toEqual({ app: null });

    const asked = await browse(`${ISSUER}/oidc/logout?${new URLSearchParams({ client_id: app.clientId, post_logout_redirect_uri: `${RP}/signed-out`, state: 'bye' })}`, person.cookie);
    const id = requestOf(asked.headers.get('location'));
    expect(asked.headers.get('location')).not.toContain('signed-out');
    const view = await api.json<{ app: string | null }>(await api.get(`/oidc/v1/logouts/${id}`, { cookie: person.cookie, lang: 'zh' }));
    expect(view.data).toEqual({ app: 'Voyage planner' });

    const confirmed = await api.post(`/oidc/v1/logouts/${id}/decision`, { signOut: true }, { cookie: person.cookie });
    expect((await api.json(confirmed)).data).toEqual({ redirectTo: `${RP}/signed-out?state=bye`, signedOut: true });
    // The edge clears the session cookie with the answer, and the session is over on the server.
    expect(confirmed.headers.getSetCookie().join('\n')).toMatch(/portal_token=;/);
    expect(await stillSignedIn(person.cookie)).toBe(false);
  });

  it('"Stay signed in" keeps the session and still returns to the app; an unregistered address is never used', async () => {
    const person = await api.person();
    const stay = requestOf((await browse(`${ISSUER}/oidc/logout?${new URLSearchParams({ client_id: app.clientId, post_logout_redirect_uri: `${RP}/signed-out`, state: 'st' })}`, person.cookie)).headers.get('location'));
    expect((await api.json(await api.post(`/oidc/v1/logouts/${stay}/decision`, { signOut: false }, { cookie: person.cookie }))).data).toEqual({ redirectTo: `${RP}/signed-out?state=st`, signedOut: false });
    expect(await stillSignedIn(person.cookie)).toBe(true);

    const evil = requestOf((await browse(`${ISSUER}/oidc/logout?${new URLSearchParams({ client_id: app.clientId, post_logout_redirect_uri: 'https://evil.example/x', state: 'st' })}`, person.cookie)).headers.get('location'));
    expect((await api.json(await api.post(`/oidc/v1/logouts/${evil}/decision`, { signOut: true }, { cookie: person.cookie }))).data).toEqual({ redirectTo: '/login', signedOut: true });
  });

  it('a hint of another session (the same person elsewhere) asks too; a hint of this session signs out at once', async () => {
    const person = await api.person();
    const elsewhere = await api.signIn(person.email);
    const otherHint = await idTokenFor(elsewhere.cookie);
    const asked = await browse(oidc.buildEndSessionUrl(config, { id_token_hint: otherHint, post_logout_redirect_uri: `${RP}/signed-out`, state: 'x' }).href, person.cookie);
    requestOf(asked.headers.get('location'));
    expect(await stillSignedIn(person.cookie)).toBe(true);
    expect(await stillSignedIn(elsewhere.cookie)).toBe(true);

    const ownHint = await idTokenFor(person.cookie);
    const direct = await browse(oidc.buildEndSessionUrl(config, { id_token_hint: ownHint, post_logout_redirect_uri: `${RP}/signed-out`, state: 'x' }).href, person.cookie);
    expect(direct.headers.get('location')).toBe(`${RP}/signed-out?state=x`);
    expect(await stillSignedIn(person.cookie)).toBe(false);
    expect(await stillSignedIn(elsewhere.cookie)).toBe(true);
  });

  it('a forged hint, or a hint of one app with the client_id of another, signs nobody out and names no app', async () => {
    const person = await api.person();
    const forged = requestOf((await browse(`${ISSUER}/oidc/logout?${new URLSearchParams({ id_token_hint: 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln', post_logout_redirect_uri: 'https://evil.example/' })}`, person.cookie)).headers.get('location'));
    expect((await api.json(await api.get(`/oidc/v1/logouts/${forged}`, { cookie: person.cookie }))).data).toEqual({ app: null });
    const hint = await idTokenFor(person.cookie);
    const mixed = await browse(oidc.buildEndSessionUrl(config, { id_token_hint: hint, client_id: 'another-app', post_logout_redirect_uri: `${RP}/signed-out` }).href, person.cookie);
    const id = requestOf(mixed.headers.get('location'));
    expect((await api.json(await api.get(`/oidc/v1/logouts/${id}`, { cookie: person.cookie }))).data).toEqual({ app: null });
    expect(await stillSignedIn(person.cookie)).toBe(true);
  });

  it('the confirmation works once, only in the browser that opened it, and never from another site', async () => {
    const [person, other] = [await api.person(), await api.person()];
    const id = requestOf((await browse(`${ISSUER}/oidc/logout`, person.cookie)).headers.get('location'));
    // Another site posting the form with the person's cookies: refused by the edge's cross-site rule.
    const forged = await api.json(await api.post(`/oidc/v1/logouts/${id}/decision`, { signOut: true }, { cookie: person.cookie, headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } }));
    expect(forged.code).toBe('GW0403');
    // Another session (someone who got the link): nothing to see, nothing to decide, in their language.
    expect((await api.json(await api.get(`/oidc/v1/logouts/${id}`, { cookie: other.cookie }))).code).toBe('OI0900');
    const replayed = await api.json(await api.post(`/oidc/v1/logouts/${id}/decision`, { signOut: true }, { cookie: other.cookie, lang: 'zh' }));
    expect(replayed.code).toBe('OI0900');
    expect(replayed.message).toMatch(/退出请求/);
    expect(await stillSignedIn(other.cookie)).toBe(true);
    expect(await stillSignedIn(person.cookie)).toBe(true);
    // Its own browser decides once; a second answer finds it spent.
    const parallel = await Promise.all(Array.from({ length: 5 }, () => api.post(`/oidc/v1/logouts/${id}/decision`, { signOut: false }, { cookie: person.cookie })));
    expect((await Promise.all(parallel.map(async (res) => (await api.json(res)).code))).sort()).toEqual(['0', 'OI0900', 'OI0900', 'OI0900', 'OI0900']);
  });

  it('without a session there is nothing to end: back to the app only with a hint it verified, else to the sign-in page', async () => {
    // A bare client_id must not let any site bounce visitors through the portal to an app with a state of its choosing.
    const bare = await browse(`${ISSUER}/oidc/logout?${new URLSearchParams({ client_id: app.clientId, post_logout_redirect_uri: `${RP}/signed-out`, state: 'z' })}`);
    expect(bare.headers.get('location')).toBe('/login');
    const person = await api.person();
    const hint = await idTokenFor(person.cookie);
    await browse(oidc.buildEndSessionUrl(config, { id_token_hint: hint }).href, person.cookie);
    expect(await stillSignedIn(person.cookie)).toBe(false);
    const back = await browse(oidc.buildEndSessionUrl(config, { id_token_hint: hint, post_logout_redirect_uri: `${RP}/signed-out`, state: 'z' }).href);
    expect(back.headers.get('location')).toBe(`${RP}/signed-out?state=z`);
    const unknown = await browse(`${ISSUER}/oidc/logout?${new URLSearchParams({ client_id: 'nobody', post_logout_redirect_uri: `${RP}/signed-out`, state: 'z' })}`);
    expect(unknown.headers.get('location')).toBe('/login');
  });

  it('names only an app a person signs in to: a machine client named by client_id is "a site"', async () => {
    // A client's name is shown as the portal's own words; a machine client (or a company's API client, named by a
    // company administrator) signs nobody in, so it has nothing to ask.
    const machine = addClientSql({ name: 'Portal security: call +86 400 000 0000' });
    await env.env.DB.batch(splitStatements(machine.sql).map((statement) => env.env.DB.prepare(statement)));
    const person = await api.person();
    const id = requestOf((await browse(`${ISSUER}/oidc/logout?client_id=${machine.clientId}`, person.cookie)).headers.get('location'));
    expect((await api.json(await api.get(`/oidc/v1/logouts/${id}`, { cookie: person.cookie }))).data).toEqual({ app: null });
  });
});

// ---------------------------------------------------------------------------------------------------------
// OpenID Connect: login_hint fills the sign-in form, without ever being in a URL.
// ---------------------------------------------------------------------------------------------------------

describe('login_hint prefills the sign-in page', () => {
  /** A signed-out authorization request with `hint`: the sign-in page it leads to, and the request id. */
  async function signInPageFor(hint: string) {
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: `${RP}/callback`, scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', login_hint: hint });
    const connect = (await browse(url.href)).headers.get('location')!;
    const login = (await browse(new URL(connect, ISSUER).href)).headers.get('location')!;
    const id = new URL(connect, ISSUER).searchParams.get('request')!;
    return { connect, login, id };
  }
  const hintOf = async (id: string, cookie?: string) => (await api.json(await api.get(`/oidc/v1/hints/${id}`, { cookie }))).data;

  it('answers a phone or an e-mail hint as the form fields, and never puts it in a URL', async () => {
    const phone = await signInPageFor('138 0013 8000');
    expect(new URL(phone.login, ISSUER).pathname).toBe('/login');
    expect(`${phone.connect} ${phone.login}`).not.toMatch(/138|0013|8000|hint/);
    expect(await hintOf(phone.id)).toEqual({ channel: 'phone', areaId: 'CN', callingCode: '+86', mobile: '13800138000' });

    expect(await hintOf((await signInPageFor('+44 7400 123456')).id)).toEqual({ channel: 'phone', areaId: 'GB', callingCode: '+44', mobile: '7400123456' });
    const email = await signInPageFor('Li.Wei@Example.com');
    expect(`${email.connect} ${email.login}`).not.toMatch(/Wei|example/i);
    expect(await hintOf(email.id)).toEqual({ channel: 'email', email: 'li.wei@example.com' });
  });

  it('ignores a hint that is not a phone number or an e-mail address (markup included)', async () => {
    for (const hint of ['<img src=x onerror=alert(1)>', '"><script>alert(1)</script>@example.com', 'user-4711', '+999 123']) {
      expect(await hintOf((await signInPageFor(hint)).id), hint).toBeNull();
    }
  });

  it('answers nothing once a session has opened the request, or for an unknown one', async () => {
    const { id } = await signInPageFor('li.na@example.com');
    const person = await api.person();
    expect((await api.json(await api.get(`/oidc/v1/requests/${id}`, { cookie: person.cookie }))).code).toBe('0');
    expect(await hintOf(id)).toBeNull();
    expect(await hintOf('x'.repeat(43))).toBeNull();
  });
});
