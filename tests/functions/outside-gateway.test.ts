import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { unstable_splitSqlQuery } from 'wrangler';
import { addOperatorSql, newEnrolmentToken } from '../../scripts/operator-sql.mjs';
import app from '../../functions/worker';
import type { WorkerEnv } from '../../functions/env';
import { createGateway } from '../../functions/gateway/app';
import { createHandoffBlob, DEV_HANDOFF_KEY, handoffClaims, importHandoffKey, openHandoffBlob, type HandoffPurpose } from '../../functions/gateway/handoff/blob';
import { hashPassword } from '../../src/lib/password-hash';
import { gatewayClient } from './gateway-client';
import { startWorkerEnv } from './worker-env';

/**
 * The edge with GATEWAY_URL set and no D1 and no R2 of its own: the gateway is a second server (createGateway on
 * a local HTTP server, with the real local D1 and R2), and every path a person takes (sign-in by code and by
 * password, the second step, a hand-off with its account choice, /go, an operator's sign-in) goes there.
 * Any read of DB or UPLOADS from the edge's bindings throws and is recorded.
 */
// Sign-ins run PBKDF2 in Node on a shared machine; a few of them take longer than the default 20 s.
vi.setConfig({ testTimeout: 90_000 });
const ORIGIN = 'http://localhost';
const PASSWORD = 'Harbour2024';

let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
let server: Server;
/** What the edge touched of the bindings it does not have. */
const touched: string[] = [];
/** Every path the outside gateway was asked for. */
const asked: string[] = [];
/** The outside gateway's clock runs ahead by this much: a TOTP code is good once per 30-second step. */
let skew = 0;
const edge = {} as Awaited<ReturnType<typeof startWorkerEnv>>;
const api = gatewayClient(edge, { origin: ORIGIN });

beforeAll(async () => {
  worker = await startWorkerEnv('outside-gateway');
  const gateway = createGateway({ clock: () => Date.now() + skew });
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`http://gateway.test${req.url}`, {
      method: req.method,
      headers,
      body: hasBody ? (Readable.toWeb(req) as unknown as ReadableStream) : undefined,
      ...(hasBody ? { duplex: 'half' } : {}),
    } as RequestInit);
    void (async () => {
      const answer = await gateway.fetch(request, worker.env, worker.ctx);
      res.writeHead(answer.status, [...answer.headers].flat());
      res.end(Buffer.from(await answer.arrayBuffer()));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const { DB: _db, UPLOADS: _uploads, ...bindings } = worker.env;
  const own = {
    ...bindings,
    GATEWAY_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    GATEWAY_TIMEOUT_MS: '60000',
    WEB_APP_URL: 'https://app.example.com/home',
    REDIRECT_ALLOWLIST: 'https://app.example.com',
  };
  const env = new Proxy(own, {
    get(target, key, receiver) {
      if (key === 'DB' || key === 'UPLOADS') {
        touched.push(key);
        throw new Error(`the edge read its own ${key}`);
      }
      return Reflect.get(target, key, receiver);
    },
  }) as unknown as WorkerEnv;
  Object.assign(edge, { env, ctx: worker.ctx, dispose: async () => {} });
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await worker?.dispose();
});

/** A page request through the edge, as a browser sends it. */
const page = (path: string, cookie?: string) =>
  app.request(`${ORIGIN}${path}`, { headers: { 'cf-connecting-ip': api.ip(), ...(cookie ? { cookie } : {}) }, redirect: 'manual' }, edge.env, edge.ctx);

const cookieOf = (res: Response, name: string) => {
  const [, value] = new RegExp(`(?:^|\\n)${name}=([^;]*)`).exec(res.headers.getSetCookie().join('\n')) ?? [];
  return value ? `${name}=${value}` : undefined;
};

/** The envelope code of a session-only call with `cookie`: '0' for a live session. */
const sessionCall = async (cookie: string | undefined) => (await api.json(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie }))).code;

const blob = async (sub: string, purpose: HandoffPurpose = 'session', extra: { loginName?: string; passwordHash?: string } = {}) =>
  createHandoffBlob(await importHandoffKey(DEV_HANDOFF_KEY), handoffClaims({ sub, aud: 'portal', purpose, now: Date.now() + skew, ...extra }));

const codeAt = (secret: string) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + skew });

describe('the edge with GATEWAY_URL and no D1 or R2 of its own', () => {
  it('signs in by code and by password', async () => {
    const email = `code.${api.unique()}@example.com`;
    await api.seed({ email, password: PASSWORD });
    expect((await api.json(await api.post('/agg-web/user/getRegVerificationCode', { emailAddress: email, type: 3 }))).code).toBe('0');
    const code = await api.latestCode(email);
    const byCode = await api.post('/agg-web/quick/user/login', { loginType: 2, loginEmail: email, code, agreed: true });
    const cookie = api.sessionCookie(byCode);
    expect((await api.json(byCode)).code).toBe('0');
    expect(await sessionCall(cookie)).toBe('0');

    const who = await api.person();
    expect(who.cookie).toMatch(/^portal_token=.{16,}/);
    expect(await sessionCall(who.cookie)).toBe('0');
  });

  it('passes the second step with an app code, from a password sign-in and from a credentials hand-off', async () => {
    const who = await api.person();
    const start = await api.json<{ secret: string }>(await api.post('/agg-web/user/twoStep/enrol/start', {}, { cookie: who.cookie }));
    expect((await api.json(await api.post('/agg-web/user/twoStep/enrol/finish', { code: codeAt(start.data.secret) }, { cookie: who.cookie }))).code).toBe('0');

    skew += 30_000;
    const first = await api.emailLogin(who.email, PASSWORD);
    const challenge = cookieOf(first, 'portal_second_step');
    expect(challenge).toBeDefined();
    expect(cookieOf(first, 'portal_token')).toBeUndefined();
    await first.body?.cancel();
    const verified = await api.post('/agg-web/user/twoStep/verify', { kind: 'totp', code: codeAt(start.data.secret) }, { cookie: challenge });
    expect((await api.json(verified)).code).toBe('0');
    expect(await sessionCall(api.sessionCookie(verified))).toBe('0');

    // Name and password in a hand-off are a first factor too: the challenge cookie, then /login's second step.
    skew += 30_000;
    const credentials = await blob(who.userId, 'credentials', { loginName: who.email, passwordHash: await hashPassword(PASSWORD) });
    const handed = await page(`/user_center?userNameAndPwd=${credentials}`);
    expect(handed.status).toBe(303);
    expect(handed.headers.get('location')).toBe('/login?secondStep=1&next=%2Fuser_center');
    const owed = cookieOf(handed, 'portal_second_step');
    expect(owed).toBeDefined();
    const passed = await api.post('/agg-web/user/twoStep/verify', { kind: 'totp', code: codeAt(start.data.secret) }, { cookie: owed });
    expect((await api.json(passed)).code).toBe('0');
  });

  it('takes a hand-off: a session, a refused replay, and the account choice before a switch', async () => {
    const one = await api.person();
    const other = await api.person();
    const token = await blob(one.userId);
    const res = await page(`/user_center?token=${token}&tab=security`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/user_center?tab=security');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const cookie = cookieOf(res, 'portal_token')!;
    expect(await sessionCall(cookie)).toBe('0');

    const replayed = await page(`/user_center?token=${token}`);
    expect(replayed.status).toBe(400);
    expect(await replayed.text()).toContain('data-handoff-error="replayed"');

    // Signed in as `one`, a blob for `other` asks first and uses nothing; the person's own click switches.
    const otherToken = await blob(other.userId);
    const choice = await page(`/user_center?token=${otherToken}`, cookie);
    expect(choice.status).toBe(200);
    expect(await choice.text()).toContain('data-handoff-choice');
    const form = new URLSearchParams({ next: '/user_center', token: otherToken });
    const switched = await app.request(
      `${ORIGIN}/handoff/continue`,
      { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', cookie }, redirect: 'manual' },
      edge.env,
      edge.ctx,
    );
    expect(switched.status).toBe(303);
    expect(switched.headers.get('location')).toBe('/user_center');
    const otherCookie = cookieOf(switched, 'portal_token')!;
    expect(otherCookie).not.toBe(cookie);
    expect(await sessionCall(otherCookie)).toBe('0');
    expect(asked.filter((path) => path === '/edge/v1/handoff/intake').length).toBeGreaterThanOrEqual(4);
  });

  it('sends a signed-in person on with /go, with a blob the gateway sealed', async () => {
    const who = await api.person();
    const res = await page('/go/web_app', who.cookie);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('https://app.example.com/home');
    const opened = await openHandoffBlob(location.searchParams.get('token')!, {
      keys: [await importHandoffKey(DEV_HANDOFF_KEY)],
      audience: 'web-app',
      purpose: 'session',
      now: Date.now() + skew,
    });
    expect(opened.ok && opened.claims.sub).toBe(who.userId);
    expect(asked).toContain('/edge/v1/destinations/token');
    // The edge's own calls are not a browser's to make.
    for (const path of ['/edge/v1/destinations/token', '/%65dge/v1/destinations/token', '//edge/v1/destinations/token', '/EDGE/v1/destinations/token']) {
      expect((await api.json(await api.post(path, {}, { cookie: who.cookie }))).code, path).toBe('GW0404');
    }
  });

  it("signs an operator in: password, then the app code, into the operator's HttpOnly cookie", async () => {
    const login = `op.${api.unique()}@ops.example.com`;
    const { token, hash } = newEnrolmentToken();
    // The operator CLI's own SQL, on the gateway's database.
    await worker.env.DB.batch(unstable_splitSqlQuery(addOperatorSql({ login, name: 'Test Operator', role: 'reviewer', tokenHash: hash })).map((sql) => worker.env.DB.prepare(sql)));
    const start = await api.json<{ secret: string }>(await api.post('/ops/v1/enrolment/start', { token }));
    const password = await hashPassword('Quay7Harbour9');
    expect((await api.json(await api.post('/ops/v1/enrolment/finish', { token, password, code: codeAt(start.data.secret) }))).code).toBe('0');

    skew += 30_000;
    const { challenge } = (await api.json<{ challenge: string }>(await api.post('/ops/v1/login', { login, password }))).data;
    const res = await api.post('/ops/v1/login/totp', { challenge, code: codeAt(start.data.secret) });
    const operator = cookieOf(res, 'portal_operator');
    expect((await api.json(res)).code).toBe('0');
    expect(operator).toBeDefined();
    expect((await api.json(await api.get('/ops/v1/me', { cookie: operator }))).code).toBe('0');
  });

  it('never touched a D1 or R2 binding of its own', () => {
    expect(touched).toEqual([]);
    // And the calls did reach the outside gateway.
    expect(asked.length).toBeGreaterThan(20);
  });
});
