import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { NAVIGATOR_ORIGIN } from './world';
import { messages } from '../../src/i18n';
import { consoleMessages } from '../../src/i18n/ops';
import { langs, type Lang } from '../../src/lib/lang';
import { legalPaths } from '../../src/lib/legal';
import { opsShells, pageShells } from '../../src/lib/routes';
import { seedUser, signInByRequest, uniqueEmail } from './helpers';

/**
 * Every page on a 390 px phone in each language, signed out, signed in and as an operator (a test each):
 * its tab's title is there, in the page's language and says the site once; nothing scrolls sideways; every
 * control that stands alone is at least 44 px tall; and the code's label heads its row on one line.
 */

const PASSWORD = 'harbourTour8';
const CJK = /[\u3400-\u9fff]/;
const NAVIGATOR = NAVIGATOR_ORIGIN;
/** Controls that stand alone (not words inside a sentence): a finger must hit them on a phone. */
const CONTROLS = '.site-header button, .tab, .subtab, .input-action, .links a, .links button, .link-sign-in-alt a, .form-footer-link a, .form-actions .text-link, .ops-nav a';
/** The session pages, visited once signed in (signed out they lead to sign-in). */
const SESSION_PAGES = ['/account', '/user_center', '/create_account', '/fill_account', '/change_password', '/enterprise_adm_and_staff', '/join', '/completion_of_application', '/partner', '/connect', '/sign_out'];

/** What a phone's visitor would notice on the page now: a missing or mixed title, a sideways scroll, a small control. */
async function defects(page: Page, lang: Lang, siteName: string) {
  // The page's island has drawn (no spinner): a page half-built cannot be judged.
  await expect(page.locator('.spinner')).toHaveCount(0, { timeout: 15_000 });
  const seen = await page.evaluate((controls) => {
    const visible = (el: Element) => {
      const box = el.getBoundingClientRect();
      return box.width > 1 && box.height > 1 && getComputedStyle(el).visibility !== 'hidden' && !el.closest('.visually-hidden');
    };
    return {
      title: document.title,
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      small: Array.from(document.querySelectorAll(controls))
        .filter(visible)
        .map((el) => ({ el, box: el.getBoundingClientRect() }))
        .filter(({ el, box }) => box.height < 44 || (el.closest('.site-header') !== null && box.width < 44))
        .map(({ el, box }) => `${el.className || el.tagName} "${(el.textContent ?? '').trim().slice(0, 24)}" ${Math.round(box.width)}×${Math.round(box.height)}`),
    };
  }, CONTROLS);
  const where = new URL(page.url()).pathname;
  const found: string[] = [];
  const parts = seen.title.split(' · ');
  if (!seen.title.trim()) found.push(`${where}: no title`);
  if (lang === 'zh' ? !CJK.test(seen.title) : CJK.test(seen.title)) found.push(`${where}: title "${seen.title}" is not in ${lang}`);
  if (new Set(parts).size !== parts.length) found.push(`${where}: title "${seen.title}" repeats itself`);
  if (!parts.includes(siteName)) found.push(`${where}: title "${seen.title}" does not name the site`);
  if (seen.overflow > 0) found.push(`${where}: scrolls sideways by ${seen.overflow} px`);
  for (const small of seen.small) found.push(`${where}: ${small} is under 44 px`);
  return found;
}

/** Opens each url in turn and collects what a phone's visitor would notice. */
async function tour(page: Page, lang: Lang, urls: string[], siteName: string) {
  await page.context().addCookies([{ name: 'LANG', value: lang, url: 'http://127.0.0.1' }, { name: 'LANG', value: lang, url: NAVIGATOR }]);
  const found: string[] = [];
  for (const url of urls) {
    await page.goto(url);
    found.push(...(await defects(page, lang, siteName)));
  }
  return found;
}

test.use({ viewport: { width: 390, height: 844 } });

for (const lang of langs) {
  const t = messages[lang];
  const site = t.meta.siteName;
  const opsSite = consoleMessages[lang].ops.siteName;

  test.describe(`every page at 390 px (${lang}): a title in ${lang}, no sideways scroll, 44 px controls`, () => {
    test('signed out: the platform pages, the legal pages, the 404, the partners\' host and the operator sign-in', async ({ page }) => {
      // Every platform page but the session pages (they lead to sign-in; visited signed in below).
      const platform = [...pageShells.filter((s) => !SESSION_PAGES.includes(`/${s}`)).map((s) => `/${s}`), ...Object.values(legalPaths), '/no-such-page', `${NAVIGATOR}/`];
      const found = [...(await tour(page, lang, platform, site)), ...(await tour(page, lang, ['/ops/login', '/ops/enrol'], opsSite))];
      expect(found).toEqual([]);
    });

    test("the code's label heads its row, left, on one line, over the button and the box side by side", async ({ page }) => {
      await page.context().addCookies([{ name: 'LANG', value: lang, url: 'http://127.0.0.1' }]);
      for (const path of ['/login', '/forget']) {
        await page.goto(path);
        const label = (await page.getByText(t.signIn.code, { exact: true }).boundingBox())!;
        const button = (await page.getByRole('button', { name: t.signIn.getCode }).boundingBox())!;
        const box = (await page.getByLabel(t.signIn.code, { exact: true }).boundingBox())!;
        expect.soft(Math.abs(label.x - button.x), `${path}: the code's label starts where its row does`).toBeLessThanOrEqual(1);
        expect.soft(label.height, `${path}: the code's label is one line`).toBeLessThan(30);
        expect.soft(Math.abs(button.y + button.height / 2 - (box.y + box.height / 2)), `${path}: the button and the box share a line`).toBeLessThanOrEqual(2);
      }
    });

    test('signed in: an administrator of a verified company on every session page', async ({ page }) => {
      const email = uniqueEmail(`tour-${lang}`);
      await seedUser(page.request, { email, password: PASSWORD, userType: 2, agreed: true, realName: 'Tour Person', companies: [{ nameEn: `Tour Shipping ${lang} ${Date.now()} ${Math.random()}`, status: 'verified' }] });
      await signInByRequest(page.request, email, PASSWORD);
      expect(await tour(page, lang, SESSION_PAGES, site)).toEqual([]);
    });

    test('an operator (administrator) on every console page', async ({ page, operatorPage }) => {
      await operatorPage('admin', { name: 'Tour Operator' });
      const consolePages = opsShells.filter((s) => s !== 'ops/login' && s !== 'ops/enrol').map((s) => `/${s}`);
      expect(await tour(page, lang, consolePages, opsSite)).toEqual([]);
    });
  });
}
