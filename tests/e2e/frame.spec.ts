import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { langs } from '../../src/lib/lang';

/**
 * What a person meets on every page: the 404 page and its way back, the language switch, the sign-out icon and
 * the old-browser notice. Which shell answers each route, the language the host decides, the security headers
 * and /api's envelope are tests/functions/page-shells.test.ts.
 */
const htmlLang = { zh: 'zh-CN', en: 'en' } as const;

for (const lang of langs) {
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

test('the language switch flips the page and the LANG cookie', async ({ page, context }) => {
  await page.goto('/register');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.waitForLoadState('domcontentloaded');
  const toggle = page.getByRole('button', { name: messages.en.header.langToggle });
  // The specification's switch: "CN" on an English page, named in full (issue 33).
  await expect(toggle).toHaveText(messages.en.header.langToggleShort);
  await expect(toggle).toHaveAccessibleName(`CN · ${messages.en.header.langToggle}`);
  // A switch loads js-cookie on the click, then reloads the whole page: wait for the new page's load event itself.
  let reloaded = page.waitForEvent('load');
  await toggle.click();
  await reloaded;
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page).toHaveURL(/\/register$/);
  await expect(page.locator('h1')).toHaveText(messages.zh.pages.register.title);
  const cookie = (await context.cookies()).find((c) => c.name === 'LANG');
  expect(cookie?.value).toBe('zh');
  // 863,999 s from now, give or take the test's own duration.
  expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(863_999 - 120);
  // The switch is wired by the page's module script, which has run once the document is parsed.
  await page.waitForLoadState('domcontentloaded');
  reloaded = page.waitForEvent('load');
  await page.getByRole('button', { name: messages.zh.header.langToggle }).click();
  await reloaded;
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test('the logout icon shows only with a session marker', async ({ page, context }) => {
  await page.goto('/login');
  await expect(page.locator('[data-logout]')).toBeHidden();
  await context.addCookies([{ name: 'portal_signed_in', value: '1', url: 'http://127.0.0.1' }]);
  await page.goto('/forget');
  await expect(page.getByRole('button', { name: messages.en.header.logout })).toBeVisible();
  // Never on the user center: tests/functions/page-shells.test.ts.
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
