import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { messages } from '../../src/i18n';
import { langs } from '../../src/lib/lang';
import { legalDocs, legalPaths } from '../../src/lib/legal';
import { pageShells, sessionShells } from '../../src/lib/routes';
import { readLegalContent } from '../../scripts/legal-source';
import { DIST, DIST_ASSETS } from './built-site';
import { readToEnd, statusOf, useWorkerEnv } from './gateway-client';

/**
 * The pages as the Worker serves them, with the built site (dist/, `npm run build`, which `npm test` runs
 * before these tests) as its asset server: which shell answers each route in each language, what the host
 * and the LANG cookie decide, the framing rule of the legal pages, the security headers of every answer,
 * and the envelope and trace id of /api. What a person then sees on those pages is the browser's (tests/e2e).
 */
const { worker, api } = useWorkerEnv('page-shells', { ASSETS: DIST_ASSETS });

/** A page request of a browser, through the whole Worker, answered without following redirects and read to the end. */
async function visit(url: string, headers: Record<string, string> = {}) {
  const { default: app } = await import('../../functions/worker');
  const answer = await app.request(url, { headers, redirect: 'manual' }, worker.env, worker.ctx);
  await worker.settle();
  return readToEnd(answer);
}

const routes = ['/', ...pageShells.map((shell) => `/${shell}`)];
const htmlLang = { zh: 'zh-CN', en: 'en' } as const;
const { entries } = readLegalContent();
const legalTitle = (lang: string, doc: string) => entries.find((e) => e.lang === lang && e.doc === doc)!.data.title;

describe('/partner (issue 47 item 12)', () => {
  for (const lang of langs) {
    it(`links each task where it is done, and says where that is (${lang})`, async () => {
      const res = await visit('http://127.0.0.1/partner', { cookie: `LANG=${lang}; portal_token=not-checked-by-the-page-route` });
      const html = (await res.text()).replaceAll('&amp;', '&');
      const p = messages[lang].partner;
      expect(html).toContain(`<a href="/go/web_app">${p.workspaceTaskLinks[0]}</a>`);
      expect(html).toContain(`<a href="/go/web_app">${p.workspaceTaskLinks[1]}</a>`);
      expect(html).toContain(`<a href="/user_center">${p.workspaceTaskLinks[2]}</a>`);
      expect(html).toContain(p.workspaceWhere);
    });
  }
});

describe('every route answers its own shell', () => {
  for (const lang of langs) {
    it(`in ${lang}, with its title and heading, varying by cookie`, async () => {
      // A page that needs a session is asked for with a session cookie (the edge sends a visitor without one to
      // /login); the sign-in pages without one (the edge sends a session on).
      for (const route of routes) {
        const needsSession = sessionShells.some((shell) => route === `/${shell}`);
        const cookie = `LANG=${lang}${needsSession ? '; portal_token=not-checked-by-the-page-route' : ''}`;
        const res = await visit(`http://127.0.0.1${route}`, { cookie });
        expect(res.status, route).toBe(200);
        expect(res.headers.get('vary'), route).toContain('Cookie');
        const html = (await res.text()).replaceAll('&amp;', '&');
        const shell = route === '/' ? 'login' : (route.slice(1) as (typeof pageShells)[number]);
        expect(html, route).toContain(`<html lang="${htmlLang[lang]}"`);
        expect(html, route).toContain(`<title>${messages[lang].pages[shell].title} · ${messages[lang].meta.siteName}</title>`);
        expect(html, route).toContain(`<h1 id="page-title">${messages[lang].pages[shell].title}</h1>`);
      }
    });
  }

  it('with no cookie, the host decides the language; a bad cookie is ignored', async () => {
    const htmlOf = async (host: string, cookie?: string) => (await visit(`http://${host}/login`, cookie ? { cookie } : {})).text();
    expect(await htmlOf('portal.example.com')).toContain('<html lang="en"');
    expect(await htmlOf('portal.example.cn')).toContain('<html lang="zh-CN"');
    expect(await htmlOf('portal.example.cn', 'LANG=fr')).toContain('<html lang="zh-CN"');
    expect(await htmlOf('portal.example.cn', 'LANG=en')).toContain('<html lang="en"');
  });

  it('"/" is the partner login on a navigator host and the login elsewhere', async () => {
    const titleOf = async (host: string) => /<title>([^<]*)/.exec(await (await visit(`http://${host}/`)).text())?.[1]?.replaceAll('&amp;', '&');
    expect(await titleOf('navigator.example.com')).toContain(messages.en.pages.navigator_login.title);
    expect(await titleOf('portal.example.com')).toContain(messages.en.pages.login.title);
  });

  it('sends a visitor without a session from a page that needs one to sign in, with the page and its query to return to', async () => {
    for (const shell of sessionShells) {
      const res = await visit(`http://127.0.0.1/${shell}`);
      expect(res.status, shell).toBe(302);
      expect(res.headers.get('location'), shell).toBe(`/login?next=${encodeURIComponent(`/${shell}`)}`);
    }
    const join = await visit('http://127.0.0.1/join?code=AB12CD');
    expect(join.headers.get('location')).toBe('/login?next=%2Fjoin%3Fcode%3DAB12CD');
  });

  it("puts the header's sign-out on the user center too (issue 47), not on /account, which has its own", async () => {
    expect(await (await visit('http://127.0.0.1/user_center', { cookie: 'portal_token=unchecked' })).text()).toContain('data-logout');
    expect(await (await visit('http://127.0.0.1/account', { cookie: 'portal_token=unchecked' })).text()).not.toContain('data-logout');
  });
});

describe('legal pages', () => {
  it('answer in each language, frameable by this site only, with no script, varying by cookie', async () => {
    for (const lang of langs) {
      for (const doc of legalDocs) {
        const path = legalPaths[doc];
        const res = await visit(`http://127.0.0.1${path}`, { cookie: `LANG=${lang}` });
        expect(res.status, path).toBe(200);
        const html = (await res.text()).replaceAll('&amp;', '&');
        expect(html, path).toContain(`<html lang="${htmlLang[lang]}"`);
        expect(html, path).toContain(`<title>${legalTitle(lang, doc)} · ${messages[lang].meta.siteName}</title>`);
        expect(html, path).toContain(`<h1 id="legal-title">${legalTitle(lang, doc)}</h1>`);
        // Nothing that would load a script: no script element, no module preload.
        expect(html, path).not.toMatch(/<script\b|modulepreload/i);
        expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'self'");
        expect(res.headers.get('x-frame-options'), path).toBe('SAMEORIGIN');
        expect(res.headers.get('vary'), path).toContain('Cookie');
      }
    }
  });

  it('leave every other page unframeable, and near-miss paths are 404', async () => {
    expect((await visit('http://127.0.0.1/login')).headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    for (const path of ['/terms/', '/registration', '/en/legal/terms', '/legal/terms']) {
      const res = await visit(`http://127.0.0.1${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
    }
  });

  it('are where queryUserProtocol points, through the Worker', async () => {
    const { status, body } = await api.read<{ urlCn: string; urlEn: string }>(await api.get('/agg-web/protocol/queryUserProtocol?platformCode=1&type=1'));
    expect(status).toBe(200);
    expect(body.code).toBe('0');
    expect((await visit(`http://127.0.0.1${body.data.urlCn}`)).status).toBe(200);
    expect(await (await visit(`http://127.0.0.1${body.data.urlEn}`)).text()).toContain(`<h1 id="legal-title">${legalTitle('en', 'terms')}</h1>`);
    const bad = await api.read(await api.get('/agg-web/protocol/queryUserProtocol?platformCode=1&type=7'));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'LG0001' });
  });
});

describe('unknown paths', () => {
  it('get the 404 page in the visitor language', async () => {
    for (const lang of langs) {
      for (const path of ['/nope', '/login/', '/en/login', '/zh/login.html']) {
        const res = await visit(`http://127.0.0.1${path}`, { cookie: `LANG=${lang}` });
        expect(res.status, path).toBe(404);
        const html = await res.text();
        expect(html, path).toContain(`<html lang="${htmlLang[lang]}"`);
        expect(html, path).toContain(messages[lang].pages.not_found.title);
      }
    }
  });
});

/** The baseline every answer carries (functions/edge/headers.ts), as a browser reads it. */
function expectSecurityHeaders(header: (name: string) => string | null | undefined, where: string) {
  expect(header('strict-transport-security'), where).toBe('max-age=31536000; includeSubDomains');
  expect(header('x-content-type-options'), where).toBe('nosniff');
  expect(header('referrer-policy'), where).toBe('strict-origin-when-cross-origin');
  expect(header('permissions-policy'), where).toContain('camera=()');
  expect(header('content-security-policy'), where).toMatch(/frame-ancestors '(none|self)'/);
  expect(header('content-security-policy'), where).toContain("object-src 'none'");
}

describe('security headers', () => {
  it('are on every page, legal page, the 404 page and an API answer of the Worker', async () => {
    const paths = [...routes, '/terms', '/privacy', '/nope', '/api/agg-web/country/selectPhoneCode'];
    for (const path of paths) {
      const needsSession = sessionShells.some((shell) => path === `/${shell}`);
      const res = await visit(`http://127.0.0.1${path}`, needsSession ? { cookie: 'portal_token=unchecked' } : {});
      expectSecurityHeaders((name) => res.headers.get(name), path);
    }
  });

  it('are on the files the asset server sends without the Worker (public/_headers for /*)', () => {
    // wrangler.toml's run_worker_first leaves exactly these to the asset server.
    const wrangler = readFileSync('wrangler.toml', 'utf8');
    expect(/^run_worker_first = (.*)$/m.exec(wrangler)?.[1]).toBe('["/*", "!/_astro/*", "!/favicon.svg", "!/robots.txt", "!/browser-check.js"]');
    for (const file of ['favicon.svg', 'robots.txt', 'browser-check.js']) expect(existsSync(join(DIST, file)), file).toBe(true);
    const rules = readFileSync(join(DIST, '_headers'), 'utf8').split(/\n(?=\S)/);
    const all = rules.find((rule) => rule.startsWith('/*\n'))!;
    const headers = new Map(
      all
        .split('\n')
        .slice(1)
        .map((line) => /^\s+([^:]+):\s*(.*)$/.exec(line))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => [m[1]!.toLowerCase(), m[2]!.trim()]),
    );
    expectSecurityHeaders((name) => headers.get(name), 'dist/_headers /*');
  });
});

describe('/api', () => {
  it('answers an unknown POST with the envelope, never HTML', async () => {
    const res = await api.post('/agg-web/unknown', {});
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await api.read(res)).toMatchObject({ status: 404, body: { code: 'GW0404' } });
  });

  it('gives every answer the trace id the edge logged', async () => {
    const res = await api.get('/agg-web/country/selectPhoneCode');
    expect(res.headers.get('x-trace-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await statusOf(res)).toBe(200);
  });
});
