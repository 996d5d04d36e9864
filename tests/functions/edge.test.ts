import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import app from '../../functions/worker';
import type { WorkerEnv } from '../../functions/env';
import { DEV_HANDOFF_KEY, createHandoffBlob, handoffClaims, handoffClock, importHandoffKey, type HandoffPurpose } from '../../functions/edge/handoff';
import { messages } from '../../src/i18n';
import { hashPassword } from '../../src/lib/password-hash';
import { startWorkerEnv } from './worker-env';

/** The asset server is not what these tests are about: every shell answers with its own path. */
const ASSETS = {
  fetch: async (input: RequestInfo | URL) =>
    new Response(`<!doctype html><title>${new URL(String(input instanceof Request ? input.url : input)).pathname}</title>`, {
      headers: { 'content-type': 'text/html; charset=utf-8' },
    }),
} as unknown as Fetcher;

let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
beforeAll(async () => {
  worker = await startWorkerEnv('edge', { ASSETS });
  await worker.env.DB.batch([
    worker.env.DB.prepare("INSERT INTO users (id, email, created_at) VALUES ('user-1', 'one@example.com', 0)"),
    worker.env.DB.prepare("INSERT INTO users (id, email, is_partner, created_at) VALUES ('partner-1', 'nav@example.com', 1, 0)"),
  ]);
});
afterAll(() => worker.dispose());
afterEach(() => vi.restoreAllMocks());

type Init = { headers?: Record<string, string>; env?: Partial<WorkerEnv>; method?: string };
const call = (url: string, { headers = {}, env = {}, method = 'GET' }: Init = {}) =>
  app.request(url, { method, headers, redirect: 'manual' }, { ...worker.env, ...env }, worker.ctx);
const setCookies = (res: Response) => res.headers.getSetCookie();
const cookieNamed = (res: Response, name: string) => setCookies(res).find((c) => c.startsWith(`${name}=`));

describe('region redirect', () => {
  const on = { REGION_REDIRECT: 'true', SITE_CN: 'https://portal.example.cn', SITE_COM: 'https://portal.example.com' };

  it('sends a visitor outside China from .cn to .com, path and query kept', async () => {
    const res = await call('https://portal.example.cn/register?source=zhoushan&page=a', { headers: { 'x-debug-country': 'DE' }, env: on });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://portal.example.com/register?source=zhoushan&page=a');
    expect(res.headers.get('strict-transport-security')).toContain('max-age=31536000');
  });

  it('sends a visitor in China from .com to .cn', async () => {
    const res = await call('https://portal.example.com/login', { headers: { 'x-debug-country': 'cn' }, env: on });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://portal.example.cn/login');
  });

  it('leaves the right site, /api, a switched-off rule and an untrusted header alone', async () => {
    expect((await call('https://portal.example.cn/login', { headers: { 'x-debug-country': 'CN' }, env: on })).status).toBe(200);
    const api = await call('https://portal.example.cn/api/agg-web/ip/queryIPRegion', { headers: { 'x-debug-country': 'DE' }, env: on });
    expect(api.status).toBe(200);
    expect(await api.json()).toMatchObject({ data: 0 });
    expect((await call('https://portal.example.cn/login', { headers: { 'x-debug-country': 'DE' } })).status).toBe(200);
    const forged = await call('https://portal.example.cn/login', { headers: { 'x-debug-country': 'DE' }, env: { ...on, DEV_TRUST_COUNTRY_HEADER: 'false' } });
    expect(forged.status).toBe(200);
  });

  it('never moves the navigator host', async () => {
    const res = await call('https://navigator.example.com/', { headers: { 'x-debug-country': 'CN' }, env: on });
    expect(res.status).toBe(200);
  });
});

describe('source origin', () => {
  it('keeps the whitelisted query in SOURCE_FROM and sets the zhoushan port type', async () => {
    const res = await call('http://portal.test/login?source=zhoushan&page=%2Fberths&channel=britc&secret=1');
    expect(res.status).toBe(200);
    const source = cookieNamed(res, 'SOURCE_FROM')!;
    expect(source).not.toMatch(/HttpOnly/i);
    expect(source).not.toMatch(/Max-Age|Expires/i);
    expect(JSON.parse(decodeURIComponent(source.split(';')[0]!.slice('SOURCE_FROM='.length)))).toEqual({ source: 'zhoushan', page: '/berths' });
    expect(cookieNamed(res, 'PORT_TYPE')).toMatch(/^PORT_TYPE=zhoushan; Max-Age=863999; Path=\//);
  });

  it('removes the port type for any other source', async () => {
    const res = await call('http://portal.test/register?source=mail', { headers: { cookie: 'PORT_TYPE=zhoushan' } });
    expect(cookieNamed(res, 'PORT_TYPE')).toMatch(/^PORT_TYPE=; Max-Age=0/);
    expect(cookieNamed(res, 'SOURCE_FROM')).toContain(encodeURIComponent('{"source":"mail"}'));
  });

  it('ignores internal queries, /api, the 404 page and requests without a query', async () => {
    for (const url of ['http://portal.test/completion_of_application?userType=1', 'http://portal.test/login', 'http://portal.test/nope?source=x']) {
      expect(setCookies(await call(url)), url).toEqual([]);
    }
    const api = await call('http://portal.test/api/agg-web/ip/queryIPRegion?source=zhoushan');
    expect(cookieNamed(api, 'SOURCE_FROM')).toBeUndefined();
  });

  it('caps the cookie', async () => {
    const res = await call(`http://portal.test/login?source=portal&redirect=${'r'.repeat(500)}&page=${'p'.repeat(500)}&address=${'a'.repeat(500)}`);
    const value = cookieNamed(res, 'SOURCE_FROM')!.split(';')[0]!;
    expect(value.length).toBeLessThanOrEqual('SOURCE_FROM='.length + 1024);
    expect(JSON.parse(decodeURIComponent(value.slice('SOURCE_FROM='.length)))).toMatchObject({ source: 'portal', redirect: 'r'.repeat(500) });
  });
});

describe('session redirect', () => {
  const signedIn = { cookie: 'portal_token=abc' };

  it('sends a signed-in visitor from a sign-in page to the portal by default', async () => {
    for (const path of ['/', '/login', '/register', '/forget', '/navigator_login', '/navigator_forget']) {
      const res = await call(`http://portal.test${path}`, { headers: signedIn });
      expect(res.status, path).toBe(302);
      expect(res.headers.get('location'), path).toBe('/user_center');
    }
  });

  it('shows /join and other pages, and sign-in pages to visitors without a session', async () => {
    expect((await call('http://portal.test/join', { headers: signedIn })).status).toBe(200);
    expect((await call('http://portal.test/account', { headers: signedIn })).status).toBe(200);
    expect((await call('http://portal.test/login')).status).toBe(200);
  });

  it('goes to the zhoushan site with its page, and keeps the port type on the way', async () => {
    const res = await call('http://portal.test/login?source=zhoushan&page=berths', { headers: signedIn });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://zhoushan.example.com/berths');
    expect(cookieNamed(res, 'PORT_TYPE')).toContain('PORT_TYPE=zhoushan');
  });

  it('reads the source from the SOURCE_FROM cookie when the URL has none', async () => {
    const cookie = `portal_token=abc; LANG=zh; SOURCE_FROM=${encodeURIComponent('{"source":"invitationLetterOnline"}')}`;
    const res = await call('http://portal.test/login', { headers: { cookie } });
    expect(res.headers.get('location')).toBe('https://www.example.com/zh/invitation-letter-online');
  });

  it('follows an allowed redirect and drops a foreign one', async () => {
    const ok = await call(`http://portal.test/login?redirect=${encodeURIComponent('http://127.0.0.1:8787/account')}`, { headers: signedIn });
    expect(ok.headers.get('location')).toBe('http://127.0.0.1:8787/account');
    const evil = await call(`http://portal.test/login?redirect=${encodeURIComponent('//evil.example')}`, { headers: signedIn });
    expect(evil.headers.get('location')).toBe('/user_center');
  });

  it('uses the partner cookie on the navigator host', async () => {
    expect((await call('http://navigator.portal.test/', { headers: signedIn })).status).toBe(200);
    const res = await call('http://navigator.portal.test/', { headers: { cookie: 'navigator_token=abc' } });
    expect(res.status).toBe(302);
  });
});

describe('hand-off intake', () => {
  const blob = async (sub: string, purpose: HandoffPurpose = 'session', over: { aud?: string; ttl?: number } = {}) =>
    createHandoffBlob(
      await importHandoffKey(DEV_HANDOFF_KEY),
      handoffClaims({ sub, aud: over.aud ?? 'portal', purpose, ttl: over.ttl, ...(purpose === 'credentials' ? { loginName: 'one@example.com', passwordHash: 'ab'.repeat(32) } : {}) }),
    );
  const sessionsOf = async (userId: string) =>
    (await worker.env.DB.prepare('SELECT count(*) AS n FROM sessions WHERE user_id = ?').bind(userId).first<{ n: number }>())!.n;

  it('starts a session from a valid blob and answers 303 to the clean URL', async () => {
    const before = await sessionsOf('user-1');
    const res = await call(`http://portal.test/user_center?source=portal&token=${await blob('user-1')}&x=1`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/user_center?source=portal&x=1');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(cookieNamed(res, 'portal_token')).toMatch(/^portal_token=[A-Za-z0-9_-]{43}; Max-Age=604799; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    expect(cookieNamed(res, 'portal_signed_in')).toContain('portal_signed_in=1');
    expect(await sessionsOf('user-1')).toBe(before + 1);
  });

  it('answers the hand-off with Referrer-Policy no-referrer', async () => {
    const res = await call(`http://portal.test/login?userToken=${await blob('user-1')}`);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('accepts token and userToken together for one person', async () => {
    const res = await call(`http://portal.test/login?token=${await blob('user-1')}&userToken=${await blob('user-1')}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login');
  });

  it('refuses a replayed blob with the 400 page in the visitor language and no session', async () => {
    const token = await blob('user-1');
    expect((await call(`http://portal.test/login?token=${token}`)).status).toBe(303);
    const before = await sessionsOf('user-1');
    const res = await call(`http://portal.test/login?token=${token}`, { headers: { cookie: 'LANG=zh' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('<html lang="zh-CN">');
    expect(html).toContain(messages.zh.handoff.replayed);
    expect(setCookies(res)).toEqual([]);
    expect(await sessionsOf('user-1')).toBe(before);
  });

  it('lets exactly one of twenty parallel uses of a blob win', async () => {
    const token = await blob('user-1');
    const statuses = await Promise.all(Array.from({ length: 20 }, () => call(`http://portal.test/login?token=${token}`).then((r) => r.status)));
    expect(statuses.filter((s) => s === 303)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(19);
  });

  it.each([
    ['tampered', async () => (await blob('user-1')).replace(/^(.{30})(.)/, (_, head: string, ch: string) => head + (ch === 'A' ? 'B' : 'A')), 'invalid'],
    ['truncated', async () => (await blob('user-1')).slice(0, 40), 'invalid'],
    ['for another audience', () => blob('user-1', 'session', { aud: 'navigator' }), 'invalid'],
    ['for an unknown user', () => blob('nobody'), 'invalid'],
    ['a credentials blob in the token slot', () => blob('user-1', 'credentials'), 'invalid'],
  ])('refuses a blob %s', async (_, make, reason) => {
    const before = await sessionsOf('user-1');
    const res = await call(`http://portal.test/login?token=${await make()}`);
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain(`data-handoff-error="${reason}"`);
    expect(html).toContain(messages.en.handoff[reason as 'invalid']);
    expect(setCookies(res)).toEqual([]);
    expect(await sessionsOf('user-1')).toBe(before);
  });

  it('refuses an expired blob by the injected clock', async () => {
    const token = await blob('user-1', 'session', { ttl: 5 });
    vi.spyOn(handoffClock, 'now').mockReturnValue(Date.now() + 5_000);
    const res = await call(`http://portal.test/login?token=${token}`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(messages.en.handoff.expired);
  });

  it('refuses everything when no key is configured outside development', async () => {
    const res = await call(`http://portal.test/login?token=${await blob('user-1')}`, { env: { DEV_OUTBOX: 'false' } });
    expect(res.status).toBe(400);
  });

  describe('userNameAndPwd', () => {
    const PASSWORD = 'Harbour2026';
    let userId: string;
    beforeAll(async () => {
      const res = await app.request(
        'http://portal.test/api/dev/users',
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'crew@example.com', password: PASSWORD, agreed: true }) },
        worker.env,
        worker.ctx,
      );
      userId = ((await res.json()) as { data: { userId: string } }).data.userId;
    });
    const credentials = async (password: string, over: { sub?: string; loginName?: string } = {}) =>
      createHandoffBlob(
        await importHandoffKey(DEV_HANDOFF_KEY),
        handoffClaims({
          sub: over.sub ?? userId,
          aud: 'portal',
          purpose: 'credentials',
          loginName: over.loginName ?? 'Crew@Example.com',
          passwordHash: await hashPassword(password),
        }),
      );
    const failures = async () =>
      (await worker.env.DB.prepare("SELECT COALESCE(SUM(failures), 0) AS n FROM password_failures WHERE subject = 'crew@example.com'").first<{ n: number }>())!.n;

    it('signs the person in with the right name and password, once, and cleans the URL', async () => {
      const before = await sessionsOf(userId);
      const blobText = await credentials(PASSWORD);
      const res = await call(`http://portal.test/account?userNameAndPwd=${blobText}`);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/account');
      expect(cookieNamed(res, 'portal_token')).toContain('HttpOnly');
      expect(await sessionsOf(userId)).toBe(before + 1);
      const replay = await call(`http://portal.test/account?userNameAndPwd=${blobText}`);
      expect(replay.status).toBe(400);
      expect(await sessionsOf(userId)).toBe(before + 1);
    });

    it('refuses a wrong password with the 400 page in the visitor language, counting the failure', async () => {
      const before = await failures();
      const res = await call(`http://portal.test/login?userNameAndPwd=${await credentials('Wrong2026')}`, { headers: { cookie: 'LANG=zh' } });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(messages.zh.handoff.credentials);
      expect(setCookies(res)).toEqual([]);
      expect(await failures()).toBe(before + 1);
    });

    it('refuses a name that belongs to someone else than the blob speaks for', async () => {
      const res = await call(`http://portal.test/login?userNameAndPwd=${await credentials(PASSWORD, { sub: 'user-1' })}`);
      expect(res.status).toBe(400);
      expect(setCookies(res)).toEqual([]);
    });

    it('refuses a platform account on the partner host', async () => {
      const res = await call(`http://navigator.portal.test/?userNameAndPwd=${await credentials(PASSWORD)}`);
      expect(res.status).toBe(400);
    });
  });

  it('starts a partner session on the navigator host, for partners only', async () => {
    const res = await call(`http://navigator.portal.test/?token=${await blob('partner-1')}`);
    expect(res.status).toBe(303);
    expect(cookieNamed(res, 'navigator_token')).toContain('HttpOnly');
    expect((await call(`http://navigator.portal.test/?token=${await blob('user-1')}`)).status).toBe(400);
  });

  it('leaves /api alone', async () => {
    const res = await call(`http://portal.test/api/agg-web/ip/queryIPRegion?token=${await blob('user-1')}`);
    expect(res.status).toBe(200);
  });
});

describe('page variants', () => {
  /** An asset server whose shells have a real <html> element, as Astro builds them. */
  const HTML_ASSETS = {
    fetch: async (input: RequestInfo | URL) =>
      new Response(`<!doctype html><html lang="en"><title>${new URL(String(input instanceof Request ? input.url : input)).pathname}</title></html>`, {
        headers: { 'content-type': 'text/html; charset=utf-8', etag: '"shell"' },
      }),
  } as unknown as Fetcher;
  const page = (url: string, headers: Record<string, string> = {}) => call(url, { headers, env: { ASSETS: HTML_ASSETS } });
  const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
  const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36';

  it('gives a mobile user agent the mobile variant of /pass_email_login, and a desktop one the usual page', async () => {
    const phone = await page('http://portal.test/pass_email_login', { 'user-agent': IPHONE });
    expect(await phone.text()).toContain('<html data-mobile lang="en">');
    expect(phone.headers.get('etag')).toBeNull();
    expect(phone.headers.get('vary')).toContain('User-Agent');
    const hinted = await page('http://portal.test/pass_email_login', { 'user-agent': DESKTOP, 'sec-ch-ua-mobile': '?1' });
    expect(await hinted.text()).toContain('data-mobile');
    const desktop = await page('http://portal.test/pass_email_login', { 'user-agent': DESKTOP });
    expect(await desktop.text()).not.toContain('data-mobile');
    // Only the pass page has a mobile variant.
    expect(await (await page('http://portal.test/login', { 'user-agent': IPHONE })).text()).not.toContain('data-mobile');
  });

  it('serves a legal page framed by the agreement modal without the portal chrome (embed=1)', async () => {
    expect(await (await page('http://portal.test/terms?lang=en&embed=1')).text()).toContain('<html data-embedded');
    expect(await (await page('http://portal.test/terms?lang=en')).text()).not.toContain('data-embedded');
    // Only legal pages are embeddable.
    expect(await (await page('http://portal.test/login?embed=1')).text()).not.toContain('data-embedded');
  });

  it('lets a sign-in link fix its language with ?lang=, but not other pages', async () => {
    const shared = await page('http://portal.test/share_login?share=x&lang=zh', { cookie: 'LANG=en' });
    expect(await shared.text()).toContain('/zh/share_login');
    expect(cookieNamed(shared, 'LANG')).toMatch(/^LANG=zh; Max-Age=863999; Path=\/; SameSite=Lax$/);
    expect(cookieNamed(await page('http://portal.test/terms?lang=zh', { cookie: 'LANG=en' }), 'LANG')).toBeUndefined();
    expect(await (await page('http://portal.test/pass_email_login?lang=en', { cookie: 'LANG=zh' })).text()).toContain('/en/pass_email_login');
    expect(await (await page('http://portal.test/login?lang=zh', { cookie: 'LANG=en' })).text()).toContain('/en/login');
  });
});
