import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { langs, type Lang } from '../../src/lib/lang';
import { legalPaths } from '../../src/lib/legal';
import { leaveAndClearCookies, expectAccessible, openInLanguage, seedUser, settle, shoot as photograph, signInByEmail, signInByRequest, uniqueEmail, uniqueMobile } from './helpers';
import { consoleMessages } from '../../src/i18n/ops';

/**
 * @screenshots: every page at 360, 390 and 1280 px in both languages, written to
 * test-results/screenshots/<lang>-<width>-<page>.png for a person to look at. Not part of the normal run
 * (playwright.config.ts leaves @screenshots out); run it with
 *   npm run build && SCREENSHOTS=1 E2E_PORT=8823 npx playwright test tests/e2e/screenshots.spec.ts
 * Besides the pictures it checks what a script can: nothing scrolls sideways and no word is cut by its box.
 */

const WIDTHS = [360, 390, 1280];
const SIGNED_OUT = [
  '/login',
  '/register',
  '/forget',
  '/navigator_login',
  '/navigator_forget',
  '/pass_email_login',
  '/share_login',
  // The partners' landing page (issue 33), and sign-in sent from a session page ("Sign in to continue").
  '/partner',
  '/login?next=%2Fuser_center',
  ...Object.values(legalPaths),
  '/no-such-page',
  '/ops/login',
];
const SIGNED_IN = ['/enterprise_adm_and_staff', '/create_account', '/join', '/completion_of_application?userType=2&loginType=2', '/account', '/user_center', '/change_password', '/fill_account'];
const PASSWORD = 'harbourShot1';
/** Chrome 63, one version below what the portal asks for: the browser notice shows. */
const OLD_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/63.0.3239.132 Safari/537.36';

/**
 * Text cut off by its own box: an element whose content is wider than it and hidden or clipped. Text hidden for
 * the eye on purpose (a 1 px box, as .visually-hidden and the phone layout's step names) is not cut off.
 */
const clipped = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((el) => el.children.length === 0 && !el.closest('.visually-hidden') && el.clientWidth > 1 && el.textContent?.trim() && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent!.trim().slice(0, 40)}`),
  );

/** `/completion_of_application?userType=2` → `completion_of_application`, the page's part of a file name. */
const shotName = (path: string) => {
  const [route, query] = path.slice(1).split('?');
  // /login?next=… is its own state ("Sign in to continue"), beside /login.
  return (route!.replaceAll('/', '-') || 'root') + (query?.startsWith('next=') ? '-next' : '');
};

/** Each width in turn, from a fresh start (no cookies but the language), as a phone or a desktop opens the page. */
async function atEachWidth(page: Page, run: (width: number) => Promise<void>) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 860 });
    await leaveAndClearCookies(page);
    await run(width);
  }
}

for (const lang of langs) {
  const m = messages[lang].signIn;

  test(`@screenshots signed-out pages (${lang})`, async ({ page }) => {
    test.setTimeout(300_000);
    await atEachWidth(page, async () => {
      for (const path of SIGNED_OUT) {
        await openInLanguage(page, lang, path);
        await settle(page);
        await shoot(page, lang, shotName(path));
      }
    });
  });

  test(`@screenshots /login: password tab, agreement, the security check (${lang})`, async ({ page }) => {
    test.setTimeout(300_000);
    // Three wrong passwords make this account's next password sign-in open the security check.
    const email = uniqueEmail(`shot-check-${lang}`);
    await seedUser(page.request, { email, password: PASSWORD, userType: 2, agreed: true });
    await signInByEmail(page, lang, email, 'wrongShot1');
    for (let tries = 1; tries < 3; tries++) {
      await expect(page.getByRole('alert')).toBeVisible();
      await page.getByRole('button', { name: m.submit }).click();
    }
    await expect(page.getByRole('alert')).toContainText(m.checkComesNext);

    await atEachWidth(page, async () => {
      await openInLanguage(page, lang, '/login');
      await settle(page);
      await page.getByRole('tab', { name: m.tabs.password }).click();
      await shoot(page, lang, 'login-password');

      await page.getByRole('tab', { name: m.tabs.email }).click();
      await page.getByLabel(m.email).fill(email);
      await page.getByLabel(m.password, { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: m.submit }).click();
      const slider = page.getByRole('dialog', { name: m.slider.title });
      await expect(slider.locator('.slider-piece')).toBeVisible();
      await shoot(page, lang, 'login-slider');

      // A new phone number on the code tab: the agreement comes first.
      await openInLanguage(page, lang, '/login');
      await settle(page);
      await page.getByLabel(m.phone, { exact: true }).fill(uniqueMobile());
      await page.getByRole('button', { name: m.getCode }).click();
      await expect(page.getByRole('dialog', { name: m.agreement.title }).locator('[aria-live="polite"]')).toHaveText(/./);
      await expect(page.frameLocator('.agreement-frame').locator('h1')).toBeVisible();
      await shoot(page, lang, 'login-agreement');
    });
  });

  test.describe(() => {
    test.use({ userAgent: OLD_CHROME });
    test(`@screenshots the browser notice covers nothing (${lang})`, async ({ page }) => {
      test.setTimeout(300_000);
      await atEachWidth(page, async (width) => {
        for (const path of ['/login', '/register', '/forget']) {
          await openInLanguage(page, lang, path);
          await settle(page);
          const notice = (await page.locator('[data-browser-notice]').boundingBox())!;
          for (const control of await page.locator('main a:visible, main button:visible, main input:visible').all()) {
            const other = (await control.boundingBox())!;
            const overlaps = other.x < notice.x + notice.width && notice.x < other.x + other.width && other.y < notice.y + notice.height && notice.y < other.y + other.height;
            expect.soft(overlaps, `${path} at ${width} px: the notice covers ${await control.evaluate((node) => node.outerHTML.slice(0, 80))}`).toBe(false);
          }
          await shoot(page, lang, `${shotName(path)}-browser-notice`);
        }
      });
    });
  });
  // /ops/enrol from the operator command's link: ops-auth.spec.ts photographs it (SCREENSHOTS=1) in the command's
  // own test, at 360, 390 and 1280 px; the operator command runs in that one test only.
}

/** Shoots the page as it stands as <lang>-<width>-<name>.png and checks what a script can: no sideways scroll, no cut word. */
async function shoot(page: Page, lang: Lang, name: string, { dialog = false } = {}) {
  const width = page.viewportSize()!.width;
  // A modal dialog sits over the viewport: the whole page would show it beside a stretched backdrop.
  await photograph(page, `${lang}-${width}-${name}`, { fullPage: !dialog });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect.soft(overflow, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
  expect.soft(await clipped(page), `${name} at ${width} px`).toEqual([]);
  // Axe once per page, at the phone width where the tables turn into cards (issue 20: axe clean on the new screens).
  if (width === 390) await expectAccessible(page);
}

/** A signed-in browser of its own for a seeded person (their cookies stay apart from the others'). */
async function personContext(newPage: () => Promise<Page>, lang: Lang, body: Record<string, unknown>) {
  const page = await newPage();
  await page.context().addCookies([{ name: 'LANG', value: lang, url: 'http://127.0.0.1' }]);
  const email = uniqueEmail(`shot-${lang}`);
  const { userId, companyIds } = await seedCompanies(page.request, { email, password: PASSWORD, userType: 2, agreed: true, ...body });
  await signInByRequest(page.request, email, PASSWORD);
  return { page, userId, companyIds };
}

async function seedCompanies(request: APIRequestContext, body: Record<string, unknown>) {
  const answer = (await (await request.post('/api/dev/users', { data: body })).json()) as { code: string; data: { userId: string; companyIds: string[] } };
  expect(answer.code).toBe('0');
  return answer.data;
}

for (const lang of langs) {
  test(`@screenshots signed-in states at 360, 390 and 1280 px (${lang})`, async ({ newPage }) => {
    // Four people, 48 shots and 16 axe runs on a shared machine.
    test.setTimeout(900_000);
    const t = messages[lang];
    // An administrator of a verified company with an approved staff member (two modules granted) and one waiting.
    const admin = await personContext(newPage, lang, {
      realName: 'Zhang San',
      companies: [{ nameEn: `Harbour Screens ${Date.now()} Shipping Agency Company Limited`, type: 'shipOwner', status: 'verified', role: 'administrator' }],
    });
    const companyId = admin.companyIds[0]!;
    const approved = await personContext(newPage, lang, { realName: 'Lin Approved Staffmember', companies: [{ companyId, role: 'staff', hireTime: '2024-03-01' }] });
    const waiting = await personContext(newPage, lang, { realName: 'Wu Waiting', companies: [{ companyId, role: 'staff', memberStatus: 'pending' }] });
    const askedForMore = await personContext(newPage, lang, {
      realName: 'Tan Mei',
      companies: [{ nameEn: `Tidewater Lines ${Date.now()}`, type: 'charterer', status: 'additionalInformationRequired', role: 'administrator' }],
    });
    for (const module of ['port-calls', 'bunkering']) {
      const grant = await admin.page.request.post('/api/agg-web/company/member/module', { data: { companyId, userId: approved.userId, module, granted: true } });
      expect(((await grant.json()) as { code: string }).code).toBe('0');
    }

    for (const width of WIDTHS) {
      for (const person of [admin, approved, waiting, askedForMore]) await person.page.setViewportSize({ width, height: 860 });
      const page = admin.page;
      for (const path of SIGNED_IN) {
        await openInLanguage(page, lang, path);
        await settle(page);
        await shoot(page, lang, `admin-${shotName(path)}`);
      }
      // The company form with every required field's error shown.
      await openInLanguage(page, lang, '/create_account');
      await settle(page);
      await page.getByRole('button', { name: t.onboarding.submit }).click();
      await expect(page.getByText(t.onboarding.errors.companyNameEnRequired)).toBeVisible();
      await shoot(page, lang, 'create_account-errors');
      // The members' dialogs: a staff member's modules, a removal's confirmation.
      await openInLanguage(page, lang, '/user_center');
      await settle(page);
      await page.getByRole('button', { name: t.members.modulesLabel.replace('{name}', 'Lin Approved Staffmember') }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await shoot(page, lang, 'user_center-modules-dialog', { dialog: true });
      await page.getByRole('button', { name: t.members.done }).click();
      await page.getByRole('button', { name: t.members.removeLabel.replace('{name}', 'Lin Approved Staffmember') }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await shoot(page, lang, 'user_center-remove-dialog', { dialog: true });
      await page.getByRole('button', { name: t.members.cancel }).click();
      // Making someone administrator asks first (issue 33).
      await page.getByRole('button', { name: t.members.makeAdministratorLabel.replace('{name}', 'Lin Approved Staffmember') }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await shoot(page, lang, 'user_center-promote-dialog', { dialog: true });
      await page.getByRole('button', { name: t.members.cancel }).click();

      for (const [name, person] of [['approved', approved], ['waiting', waiting], ['asked-for-more', askedForMore]] as const) {
        for (const path of ['/account', '/user_center']) {
          await openInLanguage(person.page, lang, path);
          await settle(person.page);
          await shoot(person.page, lang, `${name}-${path.slice(1)}`);
        }
      }
    }
  });

  test(`@screenshots operator pages at 360, 390 and 1280 px (${lang})`, async ({ page, operatorPage }) => {
    // Eighteen pages, six of them under axe, on a shared machine.
    test.setTimeout(480_000);
    const o = consoleMessages[lang].opsPeople;
    await page.context().addCookies([{ name: 'LANG', value: lang, url: 'http://127.0.0.1' }]);
    await operatorPage('admin', { name: 'Olivia Operator' });
    const email = uniqueEmail(`shot-ops-${lang}`);
    const realName = `Chen Findable ${Date.now().toString(36)}`;
    const { companyIds } = await seedCompanies(page.request, {
      email,
      password: PASSWORD,
      userType: 2,
      agreed: true,
      realName,
      companies: [{ nameEn: `Review Me ${Date.now()} International Ship Management Company Limited`, type: 'voyageManager', status: 'approving', role: 'administrator' }],
    });
    await signInByRequest(page.request, email, PASSWORD);

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 860 });
      for (const path of ['/ops', '/ops/companies', `/ops/company?companyId=${companyIds[0]}`, '/ops/audit', '/ops/operators', '/ops/people']) {
        await openInLanguage(page, lang, path);
        await settle(page);
        await shoot(page, lang, shotName(path));
      }
      // On /ops/people: a person found and their detail open.
      await page.getByLabel(o.searchLabel).fill(email);
      await page.getByRole('button', { name: o.search, exact: true }).click();
      await page.getByRole('region', { name: o.resultsTable }).getByRole('button', { name: realName }).click();
      await expect(page.getByRole('heading', { level: 2, name: realName })).toBeVisible();
      await shoot(page, lang, 'ops-people-detail');
    }
  });
}
