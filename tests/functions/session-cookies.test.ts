import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app from '../../functions/worker';
import { takeSession } from '../../functions/edge/session-cookies';
import { findSession } from '../../functions/gateway/sessions/service';
import { startWorkerEnv } from './worker-env';

/**
 * The session cookies as a browser (and a hostile page or script) meets them, through the whole Worker:
 * `__Host-` on https, the plain name on http localhost, logout by POST only, and no cross-site state change.
 */
let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
let seq = 0;
beforeAll(async () => {
  worker = await startWorkerEnv('session-cookies', { PORTAL_ORIGIN: 'https://portal.example.com' });
});
afterAll(() => worker.dispose());

const TOKEN = 'A'.repeat(43);

async function call(url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const headers: Record<string, string> = { 'cf-connecting-ip': `198.51.100.${++seq % 250}`, ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await app.request(
    url,
    { method: init.method ?? (init.body === undefined ? 'GET' : 'POST'), headers, body: init.body === undefined ? undefined : JSON.stringify(init.body), redirect: 'manual' },
    worker.env,
    worker.ctx,
  );
  const text = await res.text();
  return { res, text, cookies: res.headers.getSetCookie() };
}

/** A signed-in person, by a code sign-in through the Worker on `origin`; the session cookie as it was set. */
async function signIn(origin: string) {
  const email = `cookie.${Date.now().toString(36)}.${++seq}@example.com`;
  expect(JSON.parse((await call(`${origin}/api/agg-web/user/getRegVerificationCode`, { body: { emailAddress: email, type: 3 } })).text).code).toBe('0');
  const outbox = JSON.parse((await call(`${origin}/api/dev/outbox?to=${encodeURIComponent(email)}`)).text) as { data: { text: string }[] };
  const code = /\b(\d{6})\b/.exec(outbox.data[0]!.text)![1]!;
  const login = await call(`${origin}/api/agg-web/quick/user/login`, {
    body: { loginType: 2, loginEmail: email, code, agreed: true, userIdentity: 1, companyName: `Cookie Co ${seq}` },
  });
  expect(JSON.parse(login.text).code).toBe('0');
  return login.cookies;
}

const pair = (setCookie: string) => setCookie.split(';')[0]!;
const loginCase = (origin: string, cookie: string) => call(`${origin}/api/agg-web/quick/user/findUserLoginCase`, { body: {}, headers: { cookie } });

describe('session cookies', () => {
  it('takes the __Host- prefix on https, with Secure, Path=/ and no Domain, and only that name signs in', async () => {
    const cookies = await signIn('https://portal.example.com');
    const token = cookies.find((c) => c.startsWith('__Host-portal_token='))!;
    expect(token).toMatch(/^__Host-portal_token=[A-Za-z0-9_-]{43}; Max-Age=604799; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    expect(cookies.some((c) => c.startsWith('portal_token='))).toBe(false);
    expect(cookies.find((c) => c.startsWith('portal_signed_in='))).toBe('portal_signed_in=1; Max-Age=604799; Path=/; Secure; SameSite=Lax');
    expect(JSON.parse((await loginCase('https://portal.example.com', pair(token))).text).code).toBe('0');
    // A cookie without the prefix could have been planted by a sibling host or over http: it is not read.
    const planted = `portal_token=${pair(token).split('=')[1]}`;
    expect(JSON.parse((await loginCase('https://portal.example.com', planted)).text).code).toBe('TK00001');
  });

  it('keeps the plain name on http localhost, where a Secure cookie cannot be set', async () => {
    const cookies = await signIn('http://localhost:8787');
    expect(cookies.find((c) => c.startsWith('portal_token='))).toMatch(/^portal_token=[A-Za-z0-9_-]{43}; Max-Age=604799; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(cookies.some((c) => c.startsWith('__Host-'))).toBe(false);
  });

  it('names the partner cookie by host, with the prefix on https', async () => {
    // A POSTed logout on the navigator host clears that host's cookie, whatever the gateway answered.
    const out = await call('https://navigator.example.com/api/c/user/v2/loginout', { body: {}, headers: { cookie: `__Host-navigator_token=${TOKEN}` } });
    expect(out.cookies.find((c) => c.startsWith('__Host-navigator_token='))).toMatch(/^__Host-navigator_token=; Max-Age=0; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
  });

  it('ends a session only by a POSTed logout: twenty GETs (an <img> on any page) sign nobody out', async () => {
    const token = pair((await signIn('https://portal.example.com')).find((c) => c.startsWith('__Host-portal_token='))!);
    const gets = await Promise.all(
      Array.from({ length: 20 }, () => call('https://portal.example.com/api/c/user/v2/loginout', { headers: { cookie: token, 'sec-fetch-site': 'cross-site' } })),
    );
    for (const get of gets) expect(get.cookies).toEqual([]);
    expect(JSON.parse((await loginCase('https://portal.example.com', token)).text).code).toBe('0');

    const out = await call('https://portal.example.com/api/c/user/v2/loginout', { body: {}, headers: { cookie: token, 'sec-fetch-site': 'same-origin' } });
    expect(out.cookies.map((c) => c.split(';')[0])).toEqual(['__Host-portal_token=', 'portal_signed_in=']);
    expect(out.res.headers.get('cache-control')).toBe('no-store');
    expect(JSON.parse((await loginCase('https://portal.example.com', token)).text).code).toBe('TK00001');
  });

  it('refuses a logout posted from another site, forged Host or not, and keeps the session', async () => {
    const token = pair((await signIn('https://portal.example.com')).find((c) => c.startsWith('__Host-portal_token='))!);
    const attempts = await Promise.all([
      ...Array.from({ length: 10 }, () => ({ origin: 'https://evil.example' })),
      ...Array.from({ length: 10 }, () => ({ 'sec-fetch-site': 'cross-site' })),
      ...Array.from({ length: 10 }, () => ({ 'sec-fetch-site': 'same-site', origin: 'https://evil.portal.example.com' })),
    ].map((headers) => call('https://portal.example.com/api/c/user/v2/loginout', { body: {}, headers: { cookie: token, ...headers } })));
    for (const attempt of attempts) {
      expect(attempt.res.status).toBe(403);
      expect(JSON.parse(attempt.text).code).toBe('GW0403');
      expect(attempt.cookies).toEqual([]);
    }
    // The Host names the attacker's site and Origin matches it: still not a configured site.
    const forged = await call('https://evil.example/api/c/user/v2/loginout', { body: {}, headers: { cookie: token, origin: 'https://evil.example' } });
    expect(forged.res.status).toBe(403);
    expect(await findSession(worker.env.DB, token.split('=')[1]!, Date.now())).not.toBeNull();
  });

  it('takes the token out of a login answer and leaves the rest', () => {
    const answer = { code: '0', message: 'success', data: { userId: 'u1', oauthVO: { access_token: TOKEN, refresh_token: 'r' } } };
    expect(takeSession(answer)).toEqual({ token: TOKEN, body: { code: '0', message: 'success', data: { userId: 'u1' } } });
    expect(takeSession({ code: '0', data: { userId: 'u1' } })).toBeNull();
    expect(takeSession({ code: '0', data: { oauthVO: { access_token: 'bad token;' } } })).toBeNull();
    expect(takeSession('text')).toBeNull();
  });

  it('never lets the token reach the page: the login answer has no oauthVO and is not cached', async () => {
    const email = `cookie.answer.${++seq}@example.com`;
    await call('https://portal.example.com/api/agg-web/user/getRegVerificationCode', { body: { emailAddress: email, type: 3 } });
    const outbox = JSON.parse((await call(`https://portal.example.com/api/dev/outbox?to=${encodeURIComponent(email)}`)).text) as { data: { text: string }[] };
    const code = /\b(\d{6})\b/.exec(outbox.data[0]!.text)![1]!;
    const login = await call('https://portal.example.com/api/agg-web/quick/user/login', {
      body: { loginType: 2, loginEmail: email, code, agreed: true, userIdentity: 1, companyName: `Answer Co ${seq}` },
    });
    expect(login.text).not.toContain('oauthVO');
    expect(login.text).not.toContain(pair(login.cookies[0]!).split('=')[1]);
    expect(login.res.headers.get('cache-control')).toBe('no-store');
  });
});
