import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from '../../functions/worker';
import { createHandoffBlob, DEV_HANDOFF_KEY, handoffClaims, importHandoffKey } from '../../functions/gateway/handoff/blob';
import { prune } from '../../functions/gateway/maintenance/prune';
import { findSessionWithOwner } from '../../functions/gateway/identity/db/sessions';
import { primaryFirst } from '../../functions/gateway/identity/db/replicas';
import { idleTimeoutMs, revokeSession } from '../../functions/gateway/sessions/service';
import { FAILURES_KEPT_PER_HOUR } from '../../functions/gateway/sign-in/history';
import { hashPassword } from '../../src/lib/password-hash';
import { LOGIN_CLIENT } from '../../src/schemas/auth';
import type { SessionEntry, SignInEntry } from '../../src/schemas/security';
import { startWorkerEnv } from './worker-env';

/**
 * Sessions and devices, and the sign-in history, through the whole Worker (edge cookies and headers
 * included) on a real local D1, as a script would go at them. Time is the Worker's injected clock. The env
 * shortens the timeouts (idle 1 h, absolute 1 day) so both can be crossed.
 */
const IDLE_S = 3600;
const ABSOLUTE_S = 86_400;
const PORTAL = 'https://portal.example.com';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const T0 = Date.UTC(2026, 10, 1, 8, 0, 0);

const UA = {
  chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  chromeWindowsNewer: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
};

let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
let time = T0;
const app = createWorker({ clock: () => time });
let seq = 0;

beforeAll(async () => {
  worker = await startWorkerEnv('sessions', { SESSION_IDLE_TIMEOUT: String(IDLE_S), SESSION_ABSOLUTE_TIMEOUT: String(ABSOLUTE_S), PORTAL_ORIGIN: PORTAL });
});
afterAll(() => worker.dispose());

interface Client {
  ua?: string;
  ip?: string;
  country?: string;
  cookie?: string;
  lang?: 'zh' | 'en';
  origin?: string;
  headers?: Record<string, string>;
}
type Envelope<T> = { code: string; message: string; data: T };

/** One call through the Worker; the body is read in full, the session cookie picked out. */
async function call<T = unknown>(path: string, { method = 'POST', body, ...client }: Client & { method?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = { 'cf-connecting-ip': client.ip ?? `203.0.113.${++seq % 250}`, ...client.headers };
  if (client.ua) headers['user-agent'] = client.ua;
  if (client.country) headers['x-debug-country'] = client.country;
  const cookies = [client.cookie, client.lang && `LANG=${client.lang}`].filter(Boolean).join('; ');
  if (cookies) headers.cookie = cookies;
  if (method === 'POST') headers['content-type'] = 'application/json';
  const res = await app.request(
    `${client.origin ?? PORTAL}${path}`,
    { method, headers, body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined, redirect: 'manual' },
    worker.env,
    worker.ctx,
  );
  const text = await res.text();
  const setCookies = res.headers.getSetCookie();
  const token = /^(?:__Host-)?(portal_token|navigator_token)=([^;]*)/.exec(setCookies.find((c) => /(portal|navigator)_token=/.test(c)) ?? '');
  return {
    status: res.status,
    text,
    body: (text.startsWith('{') ? JSON.parse(text) : null) as Envelope<T>,
    setCookies,
    cookie: token && token[2] ? `${setCookies.find((c) => c.includes('_token='))!.split(';')[0]}` : undefined,
  };
}

const db = () => worker.env.DB;
const unique = () => `${Date.now().toString(36)}${(++seq).toString(36)}`;

async function seed(body: Record<string, unknown>): Promise<string> {
  const res = await call<{ userId: string }>('/api/dev/users', { body: { agreed: true, ...body } });
  expect(res.body.code).toBe('0');
  return res.body.data.userId;
}

/** A seeded account with an e-mail and a password. */
async function account(extra: Record<string, unknown> = {}) {
  const email = `sessions.${unique()}@example.com`;
  const userId = await seed({ email, password: 'Harbour2024', ...extra });
  return { email, userId };
}

async function passwordLogin(email: string, password: string, client: Client = {}) {
  return call('/api/agg-web/user/v3/userLogin', {
    ...client,
    body: { loginEmail: email, loginPassword: await hashPassword(password), passwordVersion: 2, captchaType: 3, ...LOGIN_CLIENT },
  });
}

async function signIn(email: string, client: Client = {}) {
  const res = await passwordLogin(email, 'Harbour2024', client);
  expect(res.body.code, res.text).toBe('0');
  expect(res.cookie).toBeTruthy();
  return res.cookie!;
}

const sessions = (cookie: string, client: Client = {}) => call<SessionEntry[]>('/api/agg-web/user/security/sessions', { method: 'GET', cookie, ...client });
const history = async (cookie: string) => {
  const res = await call<SignInEntry[]>('/api/agg-web/user/security/signIns', { method: 'GET', cookie });
  expect(res.body.code).toBe('0');
  return res.body.data;
};
const signOut = (cookie: string, id: string, client: Client = {}) => call('/api/agg-web/user/security/sessions/signOut', { cookie, body: { id }, ...client });
const signOutOthers = (cookie: string) => call<{ ended: number }>('/api/agg-web/user/security/sessions/signOutOthers', { cookie, body: {} });
const me = (cookie: string) => call('/api/agg-web/user/fetchMeByUserToken', { method: 'GET', cookie });

const sessionRows = (userId: string) =>
  db()
    .prepare('SELECT public_id, last_seen_at, created_at, expires_at, revoked_at, user_agent, device, country, network FROM sessions WHERE user_id = ? ORDER BY created_at')
    .bind(userId)
    .all<{ public_id: string; last_seen_at: number; created_at: number; expires_at: number; revoked_at: number | null; user_agent: string; device: string; country: string; network: string }>()
    .then((r) => r.results);
const outbox = async (to: string) =>
  (await db().prepare('SELECT channel, subject, body FROM outbox WHERE recipient = ? ORDER BY id').bind(to).all<{ channel: string; subject: string; body: string }>()).results;
const noticesTo = async (to: string) => (await outbox(to)).filter((m) => /new device|新设备/i.test(m.subject + m.body));

describe('sessions and devices', () => {
  it('keeps device, country and network on the session and lists them, this one marked current, by a public id only', async () => {
    time = T0;
    const { email, userId } = await account();
    const phone = await signIn(email, { ua: UA.safariIphone, country: 'SG', ip: '2001:db8:1:2:aaaa::1' });
    time = T0 + 5 * MINUTE;
    const desk = await signIn(email, { ua: UA.chromeWindows, country: 'CN', ip: '198.51.100.7' });
    const rows = await sessionRows(userId);
    expect(rows.map((r) => [r.device, r.country, r.network])).toEqual([
      ['safari|ios|mobile', 'SG', '2001:db8:1:2::/64'],
      ['chrome|windows|desktop', 'CN', '198.51.100.7'],
    ]);
    time = T0 + 7 * MINUTE;
    const listed = await sessions(desk);
    expect(listed.body.code).toBe('0');
    expect(listed.body.data).toEqual([
      { id: rows[1]!.public_id, current: true, browser: 'Chrome', os: 'Windows', type: 'desktop', country: 'CN', createdAt: T0 + 5 * MINUTE, lastSeenAt: T0 + 7 * MINUTE, partner: false },
      { id: rows[0]!.public_id, current: false, browser: 'Safari', os: 'iOS', type: 'mobile', country: 'SG', createdAt: T0, lastSeenAt: T0, partner: false },
    ]);
    // Neither token nor its hash is in the answer.
    const hashes = (await db().prepare('SELECT token_hash FROM sessions WHERE user_id = ?').bind(userId).all<{ token_hash: string }>()).results;
    for (const secret of [phone.split('=')[1]!, desk.split('=')[1]!, ...hashes.map((h) => h.token_hash)]) expect(listed.text).not.toContain(secret);
    // A country header from the browser is not the edge's country once the edge does not trust it.
    const forged = await call('/api/agg-web/user/security/sessions', { method: 'GET', cookie: desk, headers: { 'x-client-country': 'KP' } });
    // (The countries, not the whole text: a random public id may contain the letters KP.)
    const countries = (JSON.parse(forged.text) as { data: { country: string | null }[] }).data.map((session) => session.country);
    expect(countries).toEqual(['CN', 'SG']);
  });

  it('writes last activity at most once a minute, one conditional write for a burst', async () => {
    time = T0;
    const { email, userId } = await account();
    const cookie = await signIn(email);
    const lastSeen = async () => (await sessionRows(userId))[0]!.last_seen_at;
    time = T0 + 59_999;
    expect((await me(cookie)).body.code).toBe('0');
    expect(await lastSeen()).toBe(T0);
    time = T0 + 60_001;
    const burst = await Promise.all(Array.from({ length: 20 }, () => me(cookie)));
    expect(burst.map((r) => r.body.code)).toEqual(Array(20).fill('0'));
    expect(await lastSeen()).toBe(T0 + 60_001);
    time = T0 + 90_000;
    await Promise.all(Array.from({ length: 20 }, () => me(cookie)));
    expect(await lastSeen()).toBe(T0 + 60_001);
  });

  it('ends a session idle for SESSION_IDLE_TIMEOUT (TK00001, cookies cleared), and an active one at SESSION_ABSOLUTE_TIMEOUT', async () => {
    time = T0;
    const { email } = await account();
    const idle = await signIn(email);
    const active = await signIn(email);
    // Kept alive by a call every 50 minutes, up to the absolute end.
    for (time = T0 + 50 * MINUTE; time < T0 + ABSOLUTE_S * 1000; time += 50 * MINUTE) expect((await me(active)).body.code).toBe('0');
    time = T0 + ABSOLUTE_S * 1000 - 1;
    expect((await me(active)).body.code).toBe('0');
    time = T0 + ABSOLUTE_S * 1000;
    const ended = await me(active);
    expect([ended.status, ended.body.code]).toEqual([401, 'TK00001']);
    expect(ended.setCookies).toEqual(expect.arrayContaining([expect.stringMatching(/^__Host-portal_token=; Max-Age=0/)]));
    // The other session went quiet after its sign-in: valid within the idle timeout, ended after.
    time = T0;
    const fresh = await signIn(email);
    time = T0 + IDLE_S * 1000 - 1;
    expect((await me(fresh)).body.code).toBe('0');
    time = T0 + IDLE_S * 1000 + 2 * IDLE_S * 1000 - 2;
    expect((await me(fresh)).body.code).toBe('TK00001');
    expect((await me(idle)).body.code).toBe('TK00001');
  });

  it('sets the cookie for as long as the session can live (SESSION_ABSOLUTE_TIMEOUT)', async () => {
    time = T0;
    const { email } = await account();
    const res = await passwordLogin(email, 'Harbour2024');
    expect(res.setCookies).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^__Host-portal_token=[A-Za-z0-9_-]{43}; Max-Age=${ABSOLUTE_S};`))]));
    expect(res.setCookies).toEqual(expect.arrayContaining([`portal_signed_in=1; Max-Age=${ABSOLUTE_S}; Path=/; Secure; SameSite=Lax`]));
  });

  it("answers the account's own creation date, not the session's, from the one statement that reads both", async () => {
    // Sessions and accounts both have a created_at; the signed-in call reads them joined (identity/db/sessions.ts).
    time = T0;
    const { email } = await account();
    time = T0 + 3 * 60 * MINUTE;
    const cookie = await signIn(email);
    const record = await me(cookie);
    expect(record.body.code).toBe('0');
    expect((record.body.data as { dateCreate: number }).dateCreate).toBe(T0);
  });

  it("reads a deployed Worker's signed-in call through D1's Sessions API: the same row as the binding, and none once revoked", async () => {
    // Local runs read the binding itself (no replicas there); a deployed Worker takes this path, so it is run here.
    time = T0;
    const { email, userId } = await account();
    await signIn(email);
    const { token_hash: hash } = (await db().prepare('SELECT token_hash FROM sessions WHERE user_id = ?1 ORDER BY created_at DESC LIMIT 1').bind(userId).first<{ token_hash: string }>())!;
    const deployedRead = primaryFirst(db(), true);
    expect(deployedRead).not.toBe(db());
    const read = (on: D1Database) => findSessionWithOwner(on, 'person', 'users', hash, time, idleTimeoutMs(worker.env));
    const [throughSession, direct] = await Promise.all([read(deployedRead), read(db())]);
    expect(throughSession).not.toBeNull();
    expect(throughSession).toEqual(direct);
    await revokeSession(db(), { token_hash: hash, user_id: userId }, time);
    expect(await read(primaryFirst(db(), true))).toBeNull();
  });

  it('signs one other session out: its cookie answers TK00001 next, this one goes on; a second sign-out of it is SS0001', async () => {
    time = T0;
    const { email } = await account();
    const a = await signIn(email, { ua: UA.chromeWindows });
    const b = await signIn(email, { ua: UA.safariIphone });
    const other = (await sessions(a)).body.data.find((s) => !s.current)!;
    const ended = await signOut(a, other.id);
    expect(ended.body.code).toBe('0');
    const next = await me(b);
    expect([next.status, next.body.code]).toEqual([401, 'TK00001']);
    expect((await me(a)).body.code).toBe('0');
    expect((await sessions(a)).body.data.map((s) => s.current)).toEqual([true]);
    expect((await signOut(a, other.id)).body).toMatchObject({ code: 'SS0001' });
  });

  it('lets no one end a session that is not theirs: an attacker with the id is refused, forged headers change nothing', async () => {
    time = T0;
    const victim = await account();
    const attacker = await account();
    const victimCookie = await signIn(victim.email);
    const attackerCookie = await signIn(attacker.email);
    const [victimRow] = await sessionRows(victim.userId);
    const tries = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        signOut(attackerCookie, victimRow!.public_id, {
          headers: { 'x-client-ip': '127.0.0.1', origin: PORTAL, authorization: `Bearer ${victimCookie.split('=')[1]}`, 'x-user-id': victim.userId, host: `evil${i}.example` },
        }),
      ),
    );
    expect(tries.map((r) => r.body.code)).toEqual(Array(20).fill('SS0001'));
    expect((await me(victimCookie)).body.code).toBe('0');
    expect((await sessionRows(victim.userId))[0]!.revoked_at).toBeNull();
    // Neither the public id nor the stored hash works as a session token.
    const hash = (await db().prepare('SELECT token_hash FROM sessions WHERE user_id = ?').bind(victim.userId).first<{ token_hash: string }>())!.token_hash;
    expect((await me(`__Host-portal_token=${victimRow!.public_id}`)).body.code).toBe('TK00001');
    expect((await me(`__Host-portal_token=${hash}`)).body.code).toBe('TK00001');
    // The calls are session-only and validated; a cross-site POST is refused at the edge.
    expect((await sessions('')).body.code).toBe('TK00001');
    expect((await signOut(attackerCookie, 'not an id!')).body.code).toBe('GW0400');
    const crossSite = await signOut(attackerCookie, victimRow!.public_id, { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.body.code).toBe('GW0403');
  });

  it('ends exactly one session for 20 parallel sign-outs of it, and 20 parallel "sign out all others" leave only this one', async () => {
    time = T0;
    const { email, userId } = await account();
    const cookies = [];
    for (let i = 0; i < 6; i++) cookies.push(await signIn(email));
    const [keep, target] = cookies as [string, string];
    const targetId = (await sessions(keep)).body.data.find((s) => !s.current && s.createdAt === T0)!.id;
    const single = await Promise.all(Array.from({ length: 20 }, () => signOut(keep, targetId)));
    expect(single.filter((r) => r.body.code === '0')).toHaveLength(1);
    expect(single.filter((r) => r.body.code === 'SS0001')).toHaveLength(19);
    const all = await Promise.all(Array.from({ length: 20 }, () => signOutOthers(keep)));
    expect(all.map((r) => r.body.code)).toEqual(Array(20).fill('0'));
    expect(all.reduce((sum, r) => sum + r.body.data.ended, 0)).toBe(cookies.length - 2);
    const live = (await sessionRows(userId)).filter((r) => r.revoked_at === null);
    expect(live).toHaveLength(1);
    expect((await me(keep)).body.code).toBe('0');
    for (const cookie of cookies.slice(1)) expect((await me(cookie)).body.code).toBe('TK00001');
    void target;
  });
});

describe('sign-in history', () => {
  it('records password successes and failures with time, method, country, network and device; marks a streak of 3+ failures', async () => {
    time = T0;
    const { email, userId } = await account();
    await signIn(email, { ua: UA.chromeWindows, country: 'CN', ip: '198.51.100.20' });
    for (let i = 1; i <= 2; i++) {
      time = T0 + i * MINUTE;
      expect((await passwordLogin(email, 'Wrong0000', { ua: UA.firefoxLinux, country: 'RU', ip: '192.0.2.9' })).body.code).toBe('US0010');
    }
    time = T0 + 3 * MINUTE;
    const cookie = await signIn(email, { ua: UA.chromeWindows, country: 'CN' });
    // From another network (three failures of one network would ask the human check first).
    for (let i = 4; i <= 6; i++) {
      time = T0 + i * MINUTE;
      expect((await passwordLogin(email, 'Wrong0000', { ua: UA.firefoxLinux, country: 'RU', ip: '192.0.2.10' })).body.code).toBe('US0010');
    }
    // An unknown name is no one's history.
    expect((await passwordLogin(`nobody.${unique()}@example.com`, 'Wrong0000')).body.code).toBe('US0010');
    const entries = await history(cookie);
    expect(entries.map((e) => [e.at - T0, e.method, e.success, e.failureStreak])).toEqual([
      [6 * MINUTE, 'password', false, true],
      [5 * MINUTE, 'password', false, true],
      [4 * MINUTE, 'password', false, true],
      [3 * MINUTE, 'password', true, false],
      [2 * MINUTE, 'password', false, false],
      [1 * MINUTE, 'password', false, false],
      [0, 'password', true, false],
    ]);
    expect(entries[0]).toMatchObject({ country: 'RU', network: '192.0.2.10', browser: 'Firefox', os: 'Linux', type: 'desktop', partner: false });
    expect(entries[6]).toMatchObject({ country: 'CN', network: '198.51.100.20', browser: 'Chrome', os: 'Windows', newDevice: false, newCountry: false });
    const rows = await db().prepare('SELECT COUNT(*) AS n FROM sign_ins WHERE user_id = ?').bind(userId).first<{ n: number }>();
    expect(rows?.n).toBe(7);
  });

  it('records code sign-ins (a wrong code of an existing account too) and link sign-ins (a spent link too), capped per hour', async () => {
    time = T0;
    const { email } = await account();
    const getCode = async () => {
      expect((await call('/api/agg-web/user/getRegVerificationCode', { body: { emailAddress: email, type: 3 } })).body.code).toBe('0');
      const [latest] = (await outbox(email)).slice(-1);
      return /\b(\d{6})\b/.exec(latest!.body)![1]!;
    };
    const codeLogin = (code: string) => call('/api/agg-web/quick/user/login', { body: { loginType: 2, loginEmail: email, code, agreed: true } });
    const code = await getCode();
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await codeLogin(wrong)).body.code).toBe('CD0010');
    time += MINUTE;
    const signedIn = await codeLogin(code);
    expect(signedIn.body.code).toBe('0');
    const cookie = signedIn.cookie!;
    // A shared sign-in link, used once, then replayed.
    time += MINUTE;
    const link = await call<{ url: string }>('/api/agg-web/user/shareLogin/create', { cookie, body: {} });
    const share = new URL(link.body.data.url).searchParams.get('share')!;
    expect((await call('/api/agg-web/user/shareLogin/login', { body: { share } })).body.code).toBe('0');
    time += MINUTE;
    const replays = await Promise.all(Array.from({ length: FAILURES_KEPT_PER_HOUR + 10 }, () => call('/api/agg-web/user/shareLogin/login', { body: { share } })));
    expect(new Set(replays.map((r) => r.body.code))).toEqual(new Set(['LK0003']));
    const entries = await history(cookie);
    const summary = entries.map((e) => `${e.method}:${e.success}`);
    expect(summary.filter((s) => s === 'link:false')).toHaveLength(FAILURES_KEPT_PER_HOUR - 1);
    expect(summary.slice(-3)).toEqual(['link:true', 'code:true', 'code:false']);
  });

  it('records partner sign-ins as partner, and the credentials hand-off as "handoff" with its device and country', async () => {
    time = T0;
    const mobile = `139${String(Date.now()).slice(-8)}`;
    const userId = await seed({ phone: { callingCode: '+86', mobile }, password: 'Partner123', isPartner: true, userType: 2 });
    const partnerLogin = async (password: string) => {
      const challenge = await call<{ sessionId: string; pow: never }>('/api/agg-web/captcha/slider/init', { origin: 'https://navigator.example.com', body: { scene: 'login', subject: `+86${mobile}` } });
      void challenge;
      return call('/api/agg-web/partner/v2/passwordLogin', {
        origin: 'https://navigator.example.com',
        body: { phone: mobile, phoneCode: '+86', password: await hashPassword(password), captchaType: 2, passwordVersion: 2 },
      });
    };
    // The partner login asks a human check on every attempt; without one it records nothing.
    expect((await partnerLogin('Wrong0000')).body.code).not.toBe('0');
    const handoff = async (password: string, client: Client) => {
      const blob = await createHandoffBlob(
        await importHandoffKey(DEV_HANDOFF_KEY),
        handoffClaims({ sub: userId, aud: 'portal', purpose: 'credentials', loginName: `+86${mobile}`, passwordHash: await hashPassword(password), now: time }),
      );
      return call(`/account?userNameAndPwd=${blob}`, { method: 'GET', ...client });
    };
    time += MINUTE;
    expect((await handoff('Wrong0000', { ua: UA.firefoxLinux, country: 'DE' })).status).toBe(400);
    time += MINUTE;
    const ok = await handoff('Partner123', { ua: UA.safariIphone, country: 'JP', ip: '2001:db8:7:8:1::5' });
    expect(ok.status).toBe(303);
    const entries = await history(ok.cookie!);
    expect(entries.slice(0, 2)).toEqual([
      expect.objectContaining({ method: 'handoff', success: true, country: 'JP', network: '2001:db8:7:8::/64', browser: 'Safari', os: 'iOS' }),
      expect.objectContaining({ method: 'handoff', success: false, country: 'DE', browser: 'Firefox' }),
    ]);
    const session = await db().prepare("SELECT device, country FROM sessions WHERE user_id = ? AND revoked_at IS NULL").bind(userId).first();
    expect(session).toEqual({ device: 'safari|ios|mobile', country: 'JP' });
  });

  it('marks partner sign-ins of the navigator site as partner (success and wrong password)', async () => {
    time = T0;
    const mobile = `138${String(Date.now()).slice(-8)}`;
    await seed({ phone: { callingCode: '+86', mobile }, password: 'Partner123', isPartner: true, userType: 2 });
    const NAV = 'https://navigator.example.com';
    const sliderCheck = async () => {
      const challenge = await call<{ sessionId: string; pow: import('./pow-solver').PowChallenge }>('/api/agg-web/captcha/slider/init', { origin: NAV, body: { scene: 'login', subject: `+86${mobile}` } });
      const { x } = (await call<{ x: number }>(`/api/dev/captcha/${challenge.body.data.sessionId}`, { method: 'GET', origin: NAV })).body.data;
      const trail = [0, 0.2, 0.45, 0.7, 0.85, 0.95, 1].map((p, i) => [i * 60 + (i % 2) * 15, Math.round(x * p)]);
      const { solvePow } = await import('./pow-solver');
      const pow = await solvePow(challenge.body.data.pow);
      return (await call('/api/agg-web/captcha/slider/verify', { origin: NAV, body: { sessionId: challenge.body.data.sessionId, x, trail, pow } })).body.data;
    };
    const login = async (password: string) =>
      call('/api/agg-web/partner/v2/passwordLogin', {
        origin: NAV,
        body: { phone: mobile, phoneCode: '+86', password: await hashPassword(password), captchaType: 2, passwordVersion: 2, sliderCheck: await sliderCheck() },
      });
    expect((await login('Wrong0000')).body.code).toBe('US0010');
    const ok = await login('Partner123');
    expect(ok.body.code).toBe('0');
    const entries = (await call<SignInEntry[]>('/api/agg-web/user/security/signIns', { method: 'GET', origin: NAV, cookie: ok.cookie })).body.data;
    expect(entries.map((e) => [e.method, e.partner, e.success])).toEqual([
      ['password', true, true],
      ['password', true, false],
    ]);
  });
});

describe('new-device notice', () => {
  it('sends one notice, in the sign-in language with a link to the Security section, for a device new to the account only', async () => {
    time = T0;
    const { email, userId } = await account();
    // The first sign-in ever is not "new".
    await signIn(email, { ua: UA.chromeWindows, country: 'CN', lang: 'en' });
    await signIn(email, { ua: UA.chromeWindowsNewer, country: 'CN', lang: 'en' });
    expect(await noticesTo(email)).toEqual([]);
    // 20 parallel sign-ins (session hand-offs) from one new device, with a forged Host: one notice, on the
    // configured origin.
    time += MINUTE;
    const key = await importHandoffKey(DEV_HANDOFF_KEY);
    const blobs = await Promise.all(Array.from({ length: 20 }, () => createHandoffBlob(key, handoffClaims({ sub: userId, aud: 'portal', purpose: 'session', now: time }))));
    const burst = await Promise.all(
      blobs.map((blob) =>
        call(`/user_center?token=${blob}`, { method: 'GET', ua: UA.safariIphone, country: 'SG', lang: 'zh', headers: { 'x-forwarded-host': 'evil.example', host: 'evil.example' } }),
      ),
    );
    expect(burst.map((r) => [r.status, Boolean(r.cookie)])).toEqual(Array(20).fill([303, true]));
    const notices = await noticesTo(email);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ channel: 'email', subject: '新设备登录提醒' });
    expect(notices[0]!.body).toContain(`${PORTAL}/user_center#security`);
    expect(notices[0]!.body).toContain('Safari，iOS');
    expect(notices[0]!.body).toContain('SG');
    expect(notices[0]!.body).not.toContain('evil');
    const entries = await history(burst[0]!.cookie!);
    expect(entries.filter((e) => e.newDevice)).toHaveLength(1);
    expect(entries.filter((e) => e.newCountry)).toHaveLength(1);
    expect(entries.find((e) => e.newDevice)).toMatchObject({ browser: 'Safari', country: 'SG' });
    // A known device again: nothing more.
    await signIn(email, { ua: UA.chromeWindows, country: 'CN' });
    expect(await noticesTo(email)).toHaveLength(1);
  });

  it('sends it by SMS in English where the account has no e-mail', async () => {
    time = T0;
    const mobile = `137${String(Date.now()).slice(-8)}`;
    const phone = `+86${mobile}`;
    await seed({ phone: { callingCode: '+86', mobile }, password: 'Harbour2024' });
    const phoneLogin = async (client: Client) =>
      call('/api/agg-web/user/loginByPhone', {
        ...client,
        body: { mobile, mobileCode: '+86', password: await hashPassword('Harbour2024'), passwordVersion: 2, loginType: 101, captchaType: 3 },
      });
    expect((await phoneLogin({ ua: UA.chromeWindows })).body.code).toBe('0');
    expect(await noticesTo(phone)).toEqual([]);
    time += MINUTE;
    expect((await phoneLogin({ ua: UA.firefoxLinux, lang: 'en' })).body.code).toBe('0');
    const notices = await noticesTo(phone);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ channel: 'sms', subject: 'New sign-in to your account' });
    expect(notices[0]!.body).toContain('Firefox on Linux');
    expect(notices[0]!.body).toContain(`${PORTAL}/user_center#security`);
  });

  it('sends none for the first sign-in of a brand-new account (registration by code)', async () => {
    time = T0;
    const email = `new.${unique()}@example.com`;
    expect((await call('/api/agg-web/user/getRegVerificationCode', { body: { emailAddress: email, type: 3 } })).body.code).toBe('0');
    const code = /\b(\d{6})\b/.exec((await outbox(email)).at(-1)!.body)![1]!;
    const registered = await call('/api/agg-web/quick/user/login', {
      ua: UA.chromeWindows,
      body: { loginType: 2, loginEmail: email, code, agreed: true, userIdentity: 1, companyName: `Sessions ${unique()}` },
    });
    expect(registered.body.code, registered.text).toBe('0');
    expect(await noticesTo(email)).toEqual([]);
    const entries = await history(registered.cookie!);
    expect(entries).toEqual([expect.objectContaining({ method: 'code', success: true, newDevice: false, browser: 'Chrome' })]);
  });
});

describe('prune', () => {
  it('keeps the sign-in history 90 days', async () => {
    const { userId } = await account();
    const now = T0 + 200 * DAY;
    const insert = (at: number) =>
      db().prepare("INSERT INTO sign_ins (user_id, created_at, method, success) VALUES (?, ?, 'password', 1)").bind(userId, at).run();
    await insert(now - 91 * DAY);
    await insert(now - 89 * DAY);
    const deleted = await prune(db(), now);
    expect(deleted.sign_ins).toBeGreaterThanOrEqual(1);
    const left = await db().prepare('SELECT created_at FROM sign_ins WHERE user_id = ?').bind(userId).all<{ created_at: number }>();
    expect(left.results.map((r) => r.created_at)).toEqual([now - 89 * DAY]);
  });
});
