import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import app, { createWorker } from '../../functions/worker';
import type { WorkerEnv } from '../../functions/env';
import { DEV_HANDOFF_KEY, createHandoffBlob, handoffClaims, importHandoffKey, type HandoffPurpose } from '../../functions/gateway/handoff/blob';
import { createSession } from '../../functions/gateway/sessions/service';
import { hashPassword } from '../../src/lib/password-hash';
import { gatewayClient, readToEnd } from './gateway-client';
import { deployedVars, startWorkerEnv } from './worker-env';
import { BASELINE_TARGETS, HOSTILE_PATHS } from '../fixtures/redirect-corpus';
import { workerMessages } from '../../src/i18n/worker';

/** The asset server is not what these tests are about: every shell answers with its own path. */
const ASSETS = {
  fetch: async (input: RequestInfo | URL) =>
    new Response(`<!doctype html><title>${new URL(String(input instanceof Request ? input.url : input)).pathname}</title>`, {
      headers: { 'content-type': 'text/html; charset=utf-8' },
    }),
} as unknown as Fetcher;

let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
/** JSON calls to /api on a named site, with only the client network headers each test sets (`from: null`). */
let api: ReturnType<typeof gatewayClient>;
beforeAll(async () => {
  worker = await startWorkerEnv('edge', { ASSETS });
  api = gatewayClient(worker);
  await worker.env.DB.batch([
    worker.env.DB.prepare("INSERT INTO users (id, email, created_at) VALUES ('user-1', 'one@example.com', 0)"),
    worker.env.DB.prepare("INSERT INTO users (id, email, is_partner, created_at) VALUES ('partner-1', 'nav@example.com', 1, 0)"),
  ]);
});
afterAll(() => worker.dispose());
afterEach(() => vi.restoreAllMocks());

type Init = { headers?: Record<string, string>; env?: Partial<WorkerEnv>; method?: string };
const call = async (url: string, { headers = {}, env = {}, method = 'GET' }: Init = {}) =>
  readToEnd(await app.request(url, { method, headers, redirect: 'manual' }, { ...worker.env, ...env }, worker.ctx));
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
    for (const path of ['/register', '/forget', '/navigator_login', '/navigator_forget']) {
      const res = await call(`http://portal.test${path}`, { headers: signedIn });
      expect(res.status, path).toBe(302);
      expect(res.headers.get('location'), path).toBe('/user_center');
    }
  });

  // The login page routes by login case itself (its script asks the gateway before any form shows), so the edge
  // lets it through unless the visit recorded where to go; from any Host, with a forged client address.
  it('shows the login page to a signed-in visitor without a recorded origin, and follows one that is recorded', async () => {
    const forged = { ...signedIn, 'cf-connecting-ip': '203.0.113.9', 'x-forwarded-host': 'evil.example' };
    const pages = await Promise.all(['http://portal.test/', 'http://portal.test/login', 'http://evil.example/login'].map((url) => call(url, { headers: forged })));
    for (const res of pages) {
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('/en/login');
    }
    const recorded = await call('http://portal.test/login', { headers: { cookie: `portal_token=abc; SOURCE_FROM=${encodeURIComponent('{"source":"portal"}')}` } });
    expect(recorded.status).toBe(302);
    expect(recorded.headers.get('location')).toBe('/user_center');
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
    expect(html).toContain(workerMessages.zh.handoff.replayed);
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
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain(`data-handoff-error="${reason}"`);
    expect(html).toContain(workerMessages.en.handoff[reason as 'invalid']);
    expect(setCookies(res)).toEqual([]);
    expect(await sessionsOf('user-1')).toBe(before);
  });

  it('refuses an expired blob by the injected clock', async () => {
    const token = await blob('user-1', 'session', { ttl: 5 });
    // The Worker's one clock (edge and gateway alike), five seconds on.
    const later = createWorker({ clock: () => Date.now() + 5_000 });
    const res = await later.request(`http://portal.test/login?token=${token}`, { redirect: 'manual' }, worker.env, worker.ctx);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(workerMessages.en.handoff.expired);
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
      expect(await res.text()).toContain(workerMessages.zh.handoff.credentials);
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
    // Another host's WeChat button hands the person to PORTAL_ORIGIN's /login in their language (issue 29).
    expect(await (await page('http://portal.test/login?wechat=qr&lang=zh', { cookie: 'LANG=en' })).text()).toContain('/zh/login');
  });
});

/** Where a browser goes with this Location from `from`: what a redirect test must judge. */
const landing = (location: string | null, from: string) => new URL(location ?? '', from);
/** No hop that decodes once or twice more may read the Location as protocol-relative either. */
const staysPlain = (location: string) => {
  let form = location;
  for (let i = 0; i < 3; i++) {
    if (/^[/\\][/\\]/.test(form) || /^\/[\t\n\r]*[/\\]/.test(form)) return false;
    form = decodeURIComponent(form);
  }
  return true;
};

describe('every redirect of the edge, against hostile paths and forged hosts', () => {
  const on = { REGION_REDIRECT: 'true', SITE_CN: 'https://portal.example.cn', SITE_COM: 'https://portal.example.com' };

  it.each(HOSTILE_PATHS)('region: %j lands on the configured other site', async (path) => {
    const res = await call(`https://portal.example.cn${path}?a=1`, { headers: { 'x-debug-country': 'DE' }, env: on });
    expect(res.status).toBe(302);
    const location = res.headers.get('location')!;
    expect(landing(location, `https://portal.example.cn/`).origin).toBe('https://portal.example.com');
    expect(location.startsWith('https://portal.example.com/')).toBe(true);
    expect(staysPlain(location.slice('https://portal.example.com'.length))).toBe(true);
  });

  it('region: a forged .cn Host is sent to the configured .com site, never to a host of its own', async () => {
    const res = await call('https://evil.example.cn/login?x=1', { headers: { 'x-debug-country': 'DE' }, env: on });
    expect(res.headers.get('location')).toBe('https://portal.example.com/login?x=1');
  });

  it('hand-off: every hostile path answers a 303 to a plain path on this site', async () => {
    const key = await importHandoffKey(DEV_HANDOFF_KEY);
    const answers = await Promise.all(
      HOSTILE_PATHS.map(async (path) => {
        const blob = await createHandoffBlob(key, handoffClaims({ sub: 'user-1', aud: 'portal', purpose: 'session' }));
        const res = await call(`http://portal.test${path}?token=${blob}&x=1`);
        return { path, status: res.status, location: res.headers.get('location')! };
      }),
    );
    for (const { path, status, location } of answers) {
      expect(status, path).toBe(303);
      expect(landing(location, 'http://portal.test/').origin, `${path} -> ${location}`).toBe('http://portal.test');
      expect(staysPlain(location), `${path} -> ${location}`).toBe(true);
      expect(location).not.toContain('token=');
    }
  });

  it('session redirect: the hostile corpus in `redirect` from a forged Host goes to the portal', async () => {
    const targets = [...BASELINE_TARGETS, ...HOSTILE_PATHS];
    const answers = await Promise.all(
      targets.map((target) => call(`http://evil.example/login?redirect=${encodeURIComponent(target)}`, { headers: { cookie: 'portal_token=abc' } })),
    );
    // A value the source filter drops (empty, or over its 512 characters) records no origin: the login page then
    // shows and routes by login case itself. Either way nothing leaves the site.
    for (const [i, res] of answers.entries()) {
      const target = targets[i]!;
      if (target === '' || target.length > 512) {
        expect(res.status, target.slice(0, 40)).toBe(200);
        expect(await res.text()).toContain('/en/login');
      } else {
        expect(res.status, target).toBe(302);
        expect(res.headers.get('location'), target).toBe('/user_center');
      }
    }
  });

  // A configured value that is neither a path nor an http(s) URL stops the Worker (a 500 naming the var, no
  // redirect at all); one that parses but is not an allowed origin falls back to the portal.
  it('/go: a hostile configured destination never redirects off site, from any Host', async () => {
    for (const target of [...BASELINE_TARGETS, ...HOSTILE_PATHS]) {
      const res = await call('http://evil.example/go/web_app', { env: { WEB_APP_URL: target } });
      const body = await res.text();
      if (res.status === 500) {
        expect(body, target).toContain('WEB_APP_URL');
        expect(res.headers.get('location'), target).toBeNull();
      } else {
        expect(res.headers.get('location'), target).toBe('/user_center');
      }
    }
  });
});

const deployed = deployedVars;

describe('client network', () => {
  let seq = 0;
  // Pass links to unknown addresses: nothing is sent, but the per-network cap (20 an hour) counts them.
  const sendLink = (headers: Record<string, string>, env: Partial<WorkerEnv> = {}) =>
    api.post('/agg-web/user/passEmail/send', { loginEmail: `nobody.${++seq}.${Date.now()}@example.com` }, { origin: 'http://portal.test', from: null, headers, env }).then(api.readAll);
  const codes = async (calls: Promise<{ body: { code: string } }>[]) => (await Promise.all(calls)).map((answer) => answer.body.code);
  const tally = (list: string[]) => list.reduce<Record<string, number>>((acc, code) => ({ ...acc, [code]: (acc[code] ?? 0) + 1 }), {});

  it('counts every address of one IPv6 /64 as one network: a burst of 25 from 25 addresses gets 20', async () => {
    const answers = await codes(Array.from({ length: 25 }, (_, i) => sendLink({ 'cf-connecting-ip': `2001:db8:aa:1:${(i + 1).toString(16)}::${i + 7}` })));
    expect(tally(answers)).toEqual({ '0': 20, LK0011: 5 });
    // The neighbouring /64 is another network.
    expect((await sendLink({ 'cf-connecting-ip': '2001:db8:aa:2::1' })).body.code).toBe('0');
  });

  it('when deployed, reads CF-Connecting-IP only: forged X-Forwarded-For, X-Real-IP and the test header change nothing', async () => {
    const answers = await codes(
      Array.from({ length: 25 }, (_, i) =>
        sendLink(
          {
            'cf-connecting-ip': '203.0.113.201',
            'x-forwarded-for': `10.1.${i}.1`,
            'x-real-ip': `10.2.${i}.1`,
            'true-client-ip': `10.3.${i}.1`,
            'x-test-client-ip': `10.4.${i}.1`,
          },
          deployed,
        ),
      ),
    );
    expect(tally(answers)).toEqual({ '0': 20, LK0011: 5 });
  });

  it('when deployed, refuses a call without CF-Connecting-IP instead of sharing one bucket', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => sendLink({ 'x-forwarded-for': '198.51.100.1' }, deployed)));
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('GW0400');
    }
  });

  it('in a local run, the test header names the client, and a call naming none gets a bucket of its own', async () => {
    const named = await codes(Array.from({ length: 25 }, (_, i) => sendLink({ 'cf-connecting-ip': '203.0.113.202', 'x-test-client-ip': `192.0.2.${i + 1}` })));
    expect(tally(named)).toEqual({ '0': 25 });
    const unnamed = await codes(Array.from({ length: 25 }, () => sendLink({})));
    expect(tally(unnamed)).toEqual({ '0': 25 });
  });
});

describe('sign-in links are built on the configured origin', () => {
  const origins = { PORTAL_ORIGIN: 'https://portal.example.com', NAVIGATOR_ORIGIN: 'https://navigator.example.com' };
  const seed = async (email: string) =>
    (await api.post('/dev/users', { email, password: 'Harbour2026', agreed: true }, { origin: 'http://portal.test', from: null }).then(api.readAll)).body.data as { userId: string };
  const linkIn = async (email: string) => {
    const res = await app.request(`http://portal.test/api/dev/outbox?to=${encodeURIComponent(email)}`, {}, worker.env, worker.ctx);
    const text = await res.text();
    return /https?:\/\/[^\s"\\]+\?pass=[^\s"\\]+/.exec(text)?.[0];
  };
  const forged = { 'cf-connecting-ip': '203.0.113.210', 'x-portal-origin': 'https://evil.example', 'x-portal-site': 'navigator', 'x-forwarded-host': 'evil.example' };

  it('mails a pass link on PORTAL_ORIGIN whatever Host and headers the request forged', async () => {
    const email = `links.${Date.now()}@example.com`;
    await seed(email);
    const sent = await api.post('/agg-web/user/passEmail/send', { loginEmail: email }, { origin: 'http://evil.example', from: null, headers: forged, env: origins }).then(api.readAll);
    expect(sent.body.code).toBe('0');
    const link = new URL((await linkIn(email))!);
    expect(link.origin + link.pathname).toBe('https://portal.example.com/pass_email_login');
  });

  it('builds the navigator site links on NAVIGATOR_ORIGIN', async () => {
    const email = `links.nav.${Date.now()}@example.com`;
    await seed(email);
    await api.post('/agg-web/user/passEmail/send', { loginEmail: email }, { origin: 'http://navigator.evil.example', from: null, headers: forged, env: origins }).then(api.readAll);
    expect(new URL((await linkIn(email))!).origin).toBe('https://navigator.example.com');
  });

  it('answers a shared link on PORTAL_ORIGIN to a forged Host', async () => {
    // Freshly signed in with the password: making a share link needs a fresh proof (identity/proof.ts).
    const session = await createSession(worker.env.DB, { userId: 'user-1', kind: 'platform', now: Date.now(), proof: 'password' });
    const answer = await api.post('/agg-web/user/shareLogin/create', {}, { origin: 'http://evil.example', from: null, headers: { ...forged, cookie: `portal_token=${session.token}` }, env: origins }).then(api.readAll);
    expect(answer.body.code).toBe('0');
    expect(new URL((answer.body.data as { url: string }).url).origin).toBe('https://portal.example.com');
  });
});

describe('cross-site calls to /api', () => {
  const env = { PORTAL_ORIGIN: 'https://portal.example.com', SITE_CN: 'https://portal.example.cn', SITE_COM: 'https://portal.example.com' };
  let seq = 0;
  const ask = (headers: Record<string, string>, url = 'https://portal.example.com') =>
    api.post(`/agg-web/user/getRegVerificationCode`, { emailAddress: `csrf.${++seq}.${Date.now()}@example.com`, type: 3 }, { origin: url, from: null, headers: { 'cf-connecting-ip': `198.51.100.${100 + (seq % 100)}`, ...headers },
      env,
    }).then(api.readAll);

  it('refuses a burst of forged Origin and Sec-Fetch-Site, from the real Host and from a forged one', async () => {
    const forged: [Record<string, string>, string?][] = [
      ...Array.from({ length: 10 }, (): [Record<string, string>] => [{ origin: 'https://evil.example' }]),
      ...Array.from({ length: 10 }, (): [Record<string, string>] => [{ 'sec-fetch-site': 'cross-site' }]),
      ...Array.from({ length: 10 }, (): [Record<string, string>] => [{ 'sec-fetch-site': 'same-site', origin: 'https://shop.portal.example.com' }]),
      ...Array.from({ length: 10 }, (): [Record<string, string>, string] => [{ origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' }, 'https://evil.example']),
      ...Array.from({ length: 10 }, (): [Record<string, string>] => [{ origin: 'null' }]),
    ];
    // A forged Host with a matching Origin and Sec-Fetch-Site: same-origin is only refused through Origin.
    const answers = await Promise.all(forged.map(([headers, url]) => ask(headers, url)));
    const refused = answers.filter((a) => a.status === 403 && a.body.code === 'GW0403').length;
    expect(refused).toBe(40);
    // Sec-Fetch-Site same-origin is the browser's own word for "this page": it passes whatever Origin says.
    expect(answers.slice(30, 40).every((a) => a.body.code === '0')).toBe(true);
  });

  it('lets this site, the other site of the pair and clients that are no browser through', async () => {
    expect((await ask({ 'sec-fetch-site': 'same-origin', origin: 'https://portal.example.com' })).body.code).toBe('0');
    expect((await ask({ 'sec-fetch-site': 'cross-site', origin: 'https://portal.example.cn' })).body.code).toBe('0');
    expect((await ask({})).body.code).toBe('0');
  });

  it('refuses a cross-site text/plain post (no preflight) as well as JSON', async () => {
    const res = await app.request(
      'https://portal.example.com/api/agg-web/user/getRegVerificationCode',
      { method: 'POST', headers: { 'content-type': 'text/plain', origin: 'https://evil.example' }, body: '{"emailAddress":"x@example.com","type":3}' },
      { ...worker.env, ...env },
      worker.ctx,
    );
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('GW0403');
  });
});

describe('a hand-off while someone else is signed in', () => {
  beforeAll(async () => {
    await worker.env.DB.prepare("INSERT INTO users (id, email, created_at) VALUES ('user-2', 'two@example.com', 0)").run();
  });
  const blobFor = async (sub: string) =>
    createHandoffBlob(await importHandoffKey(DEV_HANDOFF_KEY), handoffClaims({ sub, aud: 'portal', purpose: 'session' }));
  const sessionOf = async (userId: string) => `portal_token=${(await createSession(worker.env.DB, { userId, kind: 'platform', now: Date.now() })).token}`;
  const sessionsOf = async (userId: string) =>
    (await worker.env.DB.prepare('SELECT count(*) AS n FROM sessions WHERE user_id = ?').bind(userId).first<{ n: number }>())!.n;
  /** The choice page's form as a script reads it: action and every field. */
  const formOf = (html: string) => {
    const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
    const fields = new URLSearchParams();
    for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields.set(name!, value!.replace(/&amp;/g, '&'));
    return { action, fields };
  };
  const postForm = (action: string, fields: URLSearchParams, headers: Record<string, string>) =>
    app.request(
      `http://portal.test${action}`,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: fields.toString(), redirect: 'manual' },
      worker.env,
      worker.ctx,
    );

  it('asks which account to use, in the visitor language, and changes nothing', async () => {
    const cookie = await sessionOf('user-1');
    const before = await sessionsOf('user-2');
    for (const lang of ['en', 'zh'] as const) {
      const res = await call(`http://portal.test/user_center?token=${await blobFor('user-2')}&x=1`, { headers: { cookie: `${cookie}; LANG=${lang}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(setCookies(res)).toEqual([]);
      const html = await res.text();
      expect(html).toContain(workerMessages[lang].handoff.switchTitle);
      expect(html).toContain(workerMessages[lang].handoff.continueOther);
      expect(html).toContain('<a href="/user_center?x=1" data-keep-current>');
    }
    expect(await sessionsOf('user-2')).toBe(before);
  });

  it('switches only on a same-origin POST: cross-site posts and a form without Origin are refused', async () => {
    const cookie = await sessionOf('user-1');
    const page = await (await call(`http://portal.test/account?token=${await blobFor('user-2')}`, { headers: { cookie } })).text();
    const { action, fields } = formOf(page);
    const before = await sessionsOf('user-2');
    const forged: Record<string, string>[] = [{ 'sec-fetch-site': 'cross-site' }, { origin: 'https://evil.example' }, { 'sec-fetch-site': 'same-site', origin: 'http://evil.portal.test' }, {}];
    for (const headers of forged) {
      const res = await postForm(action, fields, { cookie, ...headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(setCookies(res)).toEqual([]);
      await res.body?.cancel();
    }
    expect(await sessionsOf('user-2')).toBe(before);
    const ok = await postForm(action, fields, { cookie, 'sec-fetch-site': 'same-origin', origin: 'http://portal.test' });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/account');
    expect(cookieNamed(ok, 'portal_token')).toMatch(/^portal_token=[A-Za-z0-9_-]{43};/);
    expect(await sessionsOf('user-2')).toBe(before + 1);
  });

  it('lets exactly one of twenty parallel clicks use the blob', async () => {
    const cookie = await sessionOf('user-1');
    const { action, fields } = formOf(await (await call(`http://portal.test/login?token=${await blobFor('user-2')}`, { headers: { cookie } })).text());
    const before = await sessionsOf('user-2');
    const answers = await Promise.all(Array.from({ length: 20 }, () => postForm(action, fields, { cookie, 'sec-fetch-site': 'same-origin' })));
    const statuses = await Promise.all(answers.map(async (r) => (await r.text(), r.status)));
    expect(statuses.filter((s) => s === 303)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(19);
    expect(await sessionsOf('user-2')).toBe(before + 1);
  });

  it('sends a forged `next` to this site only', async () => {
    const cookie = await sessionOf('user-1');
    for (const next of ['//evil.example', '/\\evil.example', 'https://evil.example/', '/%2F%2Fevil.example']) {
      const { action, fields } = formOf(await (await call(`http://portal.test/login?token=${await blobFor('user-2')}`, { headers: { cookie } })).text());
      fields.set('next', next);
      const res = await postForm(action, fields, { cookie, 'sec-fetch-site': 'same-origin' });
      expect(res.status).toBe(303);
      expect(res.headers.get('location'), next).toBe('/');
    }
  });

  it('goes straight on for the person who is already signed in', async () => {
    const cookie = await sessionOf('user-1');
    const res = await call(`http://portal.test/account?token=${await blobFor('user-1')}`, { headers: { cookie } });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/account');
  });
});
