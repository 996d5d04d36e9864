import { expect, test } from '@playwright/test';
import { messages } from '../../src/i18n';
import { langs } from '../../src/lib/lang';
import { pageShells } from '../../src/lib/routes';

const routes = ['/', ...pageShells.map((shell) => `/${shell}`)];
const htmlLang = { zh: 'zh-CN', en: 'en' } as const;

for (const lang of langs) {
  test(`every route answers its own ${lang} shell`, async ({ request }) => {
    // The served HTML itself: islands of signed-in pages move a visitor without a session on to /login.
    for (const route of routes) {
      const res = await request.get(route, { headers: { cookie: `LANG=${lang}` } });
      expect(res.status(), route).toBe(200);
      expect(res.headers()['vary'], route).toContain('Cookie');
      const html = (await res.text()).replaceAll('&amp;', '&');
      const shell = route === '/' ? 'login' : (route.slice(1) as (typeof pageShells)[number]);
      expect(html, route).toContain(`<html lang="${htmlLang[lang]}"`);
      expect(html, route).toContain(`<title>${messages[lang].pages[shell].title} · ${messages[lang].meta.siteName}</title>`);
      expect(html, route).toContain(`<h1 id="page-title">${messages[lang].pages[shell].title}</h1>`);
    }
  });

  test(`an unknown path gets the ${lang} 404 page`, async ({ page, context }) => {
    await context.addCookies([{ name: 'LANG', value: lang, url: 'http://127.0.0.1' }]);
    for (const path of ['/nope', '/login/', '/en/login', '/zh/login.html']) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(404);
      await expect(page.locator('h1')).toHaveText(messages[lang].pages.not_found.title);
      await expect(page.locator('html')).toHaveAttribute('lang', htmlLang[lang]);
    }
    await page.getByRole('link', { name: messages[lang].common.backToLogin }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
}

test('with no cookie, the host decides the language; a bad cookie is ignored', async ({ request }) => {
  const htmlOf = async (host: string, cookie?: string) =>
    (await request.get('/login', { headers: { host, ...(cookie ? { cookie } : {}) } })).text();
  expect(await htmlOf('portal.example.com')).toContain('<html lang="en"');
  expect(await htmlOf('portal.example.cn')).toContain('<html lang="zh-CN"');
  expect(await htmlOf('portal.example.cn', 'LANG=fr')).toContain('<html lang="zh-CN"');
  expect(await htmlOf('portal.example.cn', 'LANG=en')).toContain('<html lang="en"');
});

test('"/" is the partner login on a navigator host and the login elsewhere', async ({ request }) => {
  const titleOf = async (host: string) => /<title>([^<]*)/.exec(await (await request.get('/', { headers: { host } })).text())?.[1];
  expect(await titleOf('navigator.example.com')).toContain(messages.en.pages.navigator_login.title);
  expect(await titleOf('portal.example.com')).toContain(messages.en.pages.login.title);
});

test('the language switch flips the page and the LANG cookie', async ({ page, context }) => {
  await page.goto('/register');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  const toggle = page.getByRole('button', { name: messages.en.header.langToggleLabel });
  await expect(toggle).toHaveText('CN');
  await toggle.click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page).toHaveURL(/\/register$/);
  await expect(page.locator('h1')).toHaveText(messages.zh.pages.register.title);
  const cookie = (await context.cookies()).find((c) => c.name === 'LANG');
  expect(cookie?.value).toBe('zh');
  // 863,999 s from now, give or take the test's own duration.
  expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(863_999 - 120);
  await page.getByRole('button', { name: messages.zh.header.langToggleLabel }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test('the logout icon shows only with a session marker, and never on the user center', async ({ page, context }) => {
  await page.goto('/login');
  await expect(page.locator('[data-logout]')).toBeHidden();
  await context.addCookies([{ name: 'portal_signed_in', value: '1', url: 'http://127.0.0.1' }]);
  await page.goto('/forget');
  await expect(page.getByRole('button', { name: messages.en.header.logout })).toBeVisible();
  await page.goto('/user_center');
  await expect(page.locator('[data-logout]')).toHaveCount(0);
});

test('the browser notice shows and stays dismissed', async ({ page }) => {
  await page.goto('/login');
  const notice = page.getByText(messages.en.browserNotice.text);
  await expect(notice).toBeVisible();
  await page.getByRole('button', { name: messages.en.browserNotice.dismiss }).click();
  await expect(notice).toBeHidden();
  await page.goto('/join');
  await expect(page.getByText(messages.en.browserNotice.text)).toBeHidden();
});

test('/api answers unknown calls with the envelope, never HTML', async ({ request }) => {
  const res = await request.post('/api/agg-web/unknown', { data: {} });
  expect(res.status()).toBe(404);
  expect(await res.json()).toMatchObject({ code: 'GW0404' });
});

test('every page, static file and API answer carries the security headers', async ({ request }) => {
  const login = await (await request.get('/login')).text();
  const asset = /(?:src|href)="(\/_astro\/[^"]+)"/.exec(login)?.[1];
  expect(asset, 'a hashed build file on /login').toBeTruthy();
  const paths = [...routes, '/terms', '/privacy', '/nope', '/favicon.svg', '/robots.txt', asset!, '/api/agg-web/country/selectPhoneCode'];
  for (const path of paths) {
    const headers = (await request.get(path)).headers();
    expect(headers['strict-transport-security'], path).toBe('max-age=31536000; includeSubDomains');
    expect(headers['x-content-type-options'], path).toBe('nosniff');
    expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
    expect(headers['permissions-policy'], path).toContain('camera=()');
    expect(headers['content-security-policy'], path).toMatch(/frame-ancestors '(none|self)'/);
    expect(headers['content-security-policy'], path).toContain("object-src 'none'");
  }
});
