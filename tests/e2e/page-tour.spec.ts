import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { NAVIGATOR_ORIGIN } from './world';
import { messages } from '../../src/i18n';
import { consoleMessages } from '../../src/i18n/ops';
import { langs, type Lang } from '../../src/lib/lang';
import { legalPaths } from '../../src/lib/legal';
import { opsShells, pageShells } from '../../src/lib/routes';
import { openInLanguage, seedUser, signInByRequest, uniqueEmail } from './helpers';

/**
 * Every page on a 390 px phone in each language, signed out, signed in and as an operator (one browser each):
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

for (const lang of langs) {
  const t = messages[lang];
  const site = t.meta.siteName;

  test(`every page at 390 px (${lang}): a title in ${lang}, no sideways scroll, 44 px controls`, async ({ browser }) => {
    test.slow();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addCookies([{ name: 'LANG', value: lang, url: 'http://127.0.0.1' }, { name: 'LANG', value: lang, url: NAVIGATOR }]);
    const page = await context.newPage();
    const found: string[] = [];
    const visit = async (url: string, siteName = site) => {
      await page.goto(url);
      found.push(...(await defects(page, lang, siteName)));
    };

    // Signed out: every platform page but the session pages (they lead to sign-in; visited signed in below), the legal pages, the 404, the partners' host.
    for (const shell of pageShells.filter((s) => !SESSION_PAGES.includes(`/${s}`))) await visit(`/${shell}`);
    for (const path of Object.values(legalPaths)) await visit(path);
    await visit('/no-such-page');
    await visit(`${NAVIGATOR}/`);
    await visit('/ops/login', consoleMessages[lang].ops.siteName);
    await visit('/ops/enrol', consoleMessages[lang].ops.siteName);

    // The code's label heads its row, left, on one line, over the button and the box side by side.
    for (const path of ['/login', '/forget']) {
      await page.goto(path);
      const label = (await page.getByText(t.signIn.code, { exact: true }).boundingBox())!;
      const button = (await page.getByRole('button', { name: t.signIn.getCode }).boundingBox())!;
      const box = (await page.getByLabel(t.signIn.code, { exact: true }).boundingBox())!;
      expect.soft(Math.abs(label.x - button.x), `${path}: the code's label starts where its row does`).toBeLessThanOrEqual(1);
      expect.soft(label.height, `${path}: the code's label is one line`).toBeLessThan(30);
      expect.soft(Math.abs(button.y + button.height / 2 - (box.y + box.height / 2)), `${path}: the button and the box share a line`).toBeLessThanOrEqual(2);
    }

    // Signed in: an administrator of a verified company on every session page.
    const email = uniqueEmail(`tour-${lang}`);
    await seedUser(page.request, { email, password: PASSWORD, userType: 2, agreed: true, realName: 'Tour Person', companies: [{ nameEn: `Tour Shipping ${lang} ${Date.now()}`, status: 'verified' }] });
    await signInByRequest(page.request, email, PASSWORD);
    await openInLanguage(page, lang, '/account');
    for (const path of SESSION_PAGES) await visit(path);

    // An operator (administrator) on every console page.
    const minted = await page.request.post('/api/dev/operator-session', { data: { role: 'admin', name: 'Tour Operator' } });
    expect(((await minted.json()) as { code: string }).code).toBe('0');
    for (const shell of opsShells.filter((s) => s !== 'ops/login' && s !== 'ops/enrol')) await visit(`/${shell}`, consoleMessages[lang].ops.siteName);

    expect(found).toEqual([]);
    await context.close();
  });
}
