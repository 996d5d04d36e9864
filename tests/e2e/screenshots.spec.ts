import { expect, test, type Page } from '@playwright/test';
import { langs } from '../../src/lib/lang';
import { openInLanguage, seedUser, signInByRequest, uniqueEmail } from './helpers';

/**
 * @screenshots: every page at 360, 390 and 1280 px in both languages, written to
 * test-results/screenshots/<lang>-<width>-<page>.png for a person to look at. Not part of the normal run
 * (playwright.config.ts leaves @screenshots out); run it with
 *   npm run build && SCREENSHOTS=1 E2E_PORT=8823 npx playwright test tests/e2e/screenshots.spec.ts
 * Besides the pictures it checks what a script can: nothing scrolls sideways and no word is cut by its box.
 */

const WIDTHS = [360, 390, 1280];
const SIGNED_OUT = ['/login', '/register', '/forget', '/navigator_login', '/navigator_forget', '/pass_email_login', '/share_login', '/terms', '/no-such-page'];
const SIGNED_IN = ['/enterprise_adm_and_staff', '/create_account', '/join', '/completion_of_application?userType=2&loginType=2', '/account', '/user_center', '/change_password', '/fill_account'];
const PASSWORD = 'harbourShot1';

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.spinner')).toHaveCount(0);
}

/** Text cut off by its own box: an element whose content is wider than it and hidden or clipped. */
const clipped = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((el) => el.children.length === 0 && !el.closest('.visually-hidden') && el.textContent?.trim() && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent!.trim().slice(0, 40)}`),
  );

const fileName = (lang: string, width: number, path: string) => `test-results/screenshots/${lang}-${width}-${path.slice(1).split('?')[0] || 'root'}.png`;

for (const lang of langs) {
  test(`@screenshots every page at 360, 390 and 1280 px (${lang})`, async ({ page }) => {
    test.setTimeout(300_000);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 860 });
      await page.context().clearCookies();
      for (const path of SIGNED_OUT) {
        await openInLanguage(page, lang, path);
        await settle(page);
        await page.screenshot({ path: fileName(lang, width, path), fullPage: true });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect.soft(overflow, `${path} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
        expect.soft(await clipped(page), `${path} at ${width} px`).toEqual([]);
      }
      const email = uniqueEmail(`shot-${lang}-${width}`);
      await seedUser(page.request, {
        email,
        password: PASSWORD,
        userType: 2,
        realName: 'Zhang San',
        agreed: true,
        companies: [
          { nameEn: `Harbour Screens ${width} Shipping Agency Company Limited`, type: 'ship_agent', status: 'verified', role: 'administrator' },
          { nameEn: `Waiting Line ${width} Fuel Supply`, type: 'fuel_supplier', status: 'approving', role: 'staff', memberStatus: 'active' },
        ],
      });
      await signInByRequest(page.request, email, PASSWORD);
      for (const path of SIGNED_IN) {
        await openInLanguage(page, lang, path);
        await settle(page);
        await page.screenshot({ path: fileName(lang, width, path), fullPage: true });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect.soft(overflow, `${path} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
        expect.soft(await clipped(page), `${path} at ${width} px`).toEqual([]);
      }
    }
  });
}
