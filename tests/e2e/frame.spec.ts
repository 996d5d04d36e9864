import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { langs } from '../../src/lib/lang';
import { pageShells, sessionShells } from '../../src/lib/routes';

const routes = ['/', ...pageShells.map((shell) => `/${shell}`)];
const htmlLang = { zh: 'zh-CN', en: 'en' } as const;

for (const lang of langs) {
  test(`every route answers its own ${lang} shell`, async ({ request }) => {
    // The served HTML itself. A page that needs a session is asked for with a session cookie (the edge sends
    // a visitor without one to /login); the sign-in pages without one (the edge sends a session on).
    for (const route of routes) {
      const needsSession = sessionShells.some((shell) => route === `/${shell}`);
      const cookie = `LANG=${lang}${needsSession ? '; portal_token=not-checked-by-the-page-route' : ''}`;
      const res = await request.get(route, { headers: { cookie } });
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
  await page.waitForLoadState('domcontentloaded');
  const toggle = page.getByRole('button', { name: messages.en.header.langToggle });
  // The specification's switch: "CN" on an English page, named in full (issue 33).
  await expect(toggle).toHaveText(messages.en.header.langToggleShort);
  await expect(toggle).toHaveAccessibleName(`CN · ${messages.en.header.langToggle}`);
  await toggle.click();
  // A switch loads js-cookie on the click, then reloads the whole page: seconds on a loaded machine.
  const reload = { timeout: 20_000 };
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN', reload);
  await expect(page).toHaveURL(/\/register$/);
  await expect(page.locator('h1')).toHaveText(messages.zh.pages.register.title);
  const cookie = (await context.cookies()).find((c) => c.name === 'LANG');
  expect(cookie?.value).toBe('zh');
  // 863,999 s from now, give or take the test's own duration.
  expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(863_999 - 120);
  // The switch is wired by the page's module script, which has run once the document is parsed.
  await page.waitForLoadState('domcontentloaded');
  await page.getByRole('button', { name: messages.zh.header.langToggle }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en', reload);
});

test('the logout icon shows only with a session marker, and never on the user center', async ({ page, context }) => {
  await page.goto('/login');
  await expect(page.locator('[data-logout]')).toBeHidden();
  await context.addCookies([{ name: 'portal_signed_in', value: '1', url: 'http://127.0.0.1' }]);
  await page.goto('/forget');
  await expect(page.getByRole('button', { name: messages.en.header.logout })).toBeVisible();
  // The page itself (the edge lets a session cookie through; the island's calls would then send it to sign-in).
  const userCenter = await (await page.request.get('/user_center', { headers: { cookie: 'portal_token=unchecked' } })).text();
  expect(userCenter).not.toContain('data-logout');
});

test('a current browser never sees the browser notice', async ({ page }) => {
  for (const path of ['/login', '/register', '/forget']) {
    await page.goto(path);
    await expect(page.locator('[data-browser-notice]')).toBeHidden();
  }
});

test.describe('an old browser', () => {
  // Chrome 63 (one version below what the portal asks for), as its user agent says.
  test.use({ userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/63.0.3239.132 Safari/537.36' });

  test('sees the notice above the form, covering nothing, and it stays dismissed', async ({ page }) => {
    await page.goto('/login');
    const notice = page.getByText(messages.en.browserNotice.text);
    await expect(notice).toBeVisible();
    // Nothing of the sign-in form lies under the notice.
    const box = (await page.locator('[data-browser-notice]').boundingBox())!;
    for (const control of await page.locator('main a:visible, main button:visible, main input:visible').all()) {
      const other = (await control.boundingBox())!;
      const overlaps = other.x < box.x + box.width && box.x < other.x + other.width && other.y < box.y + box.height && box.y < other.y + other.height;
      expect(overlaps, await control.evaluate((node) => node.outerHTML.slice(0, 80))).toBe(false);
    }
    await page.getByRole('button', { name: messages.en.browserNotice.dismiss }).click();
    await expect(notice).toBeHidden();
    await page.goto('/forget');
    await expect(page.getByText(messages.en.browserNotice.text)).toBeHidden();
  });
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
  const paths = [...routes, '/terms', '/privacy', '/nope', '/favicon.svg', '/robots.txt', '/browser-check.js', asset!, '/api/agg-web/country/selectPhoneCode'];
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
