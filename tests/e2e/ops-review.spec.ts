import { type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { langs, type Lang } from '../../src/lib/lang';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { REVIEW_REASON_TEXT } from '../../src/schemas/ops-review';
import { leaveAndClearCookies, expectAccessible, openInLanguage, seedUser, signInByEmail, signInByRequest, uniqueEmail } from './helpers';
import { consoleMessages } from '../../src/i18n/ops';

/**
 * Company review end to end in Chromium: a company created in the portal is verified by a reviewer, then its
 * administrator and an approved staff member enter it; a request for more information is answered by the
 * administrator; a blocked company's member is refused at sign-in with the reason. The operator's session comes
 * from the dev route (the operator sign-in page is built separately), through the real operator cookie.
 */
const PASSWORD = 'harbour2024';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A reviewer's browser page, signed in through the operator cookie, in `lang`. */
async function reviewerPage(browser: Browser, lang: Lang): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.context().addCookies([{ name: 'LANG', value: lang, url: 'http://127.0.0.1' }]);
  const minted = await page.request.post('/api/dev/operator-session', { data: { role: 'reviewer', name: 'Ruth Reviewer' } });
  const body = (await minted.json()) as { code: string; data: { operatorSession: Record<string, unknown> } };
  expect(body.code).toBe('0');
  // The edge kept the token in the HttpOnly cookie; the page's script never sees it.
  expect(body.data.operatorSession).not.toHaveProperty('token');
  return page;
}

/** A ship owner created through /create_account by a new administrator: its name. */
async function createCompany(page: Page, lang: Lang, email: string): Promise<string> {
  const o = messages[lang].onboarding;
  await seedUser(page.request, { email, password: PASSWORD, userType: 2, agreed: true });
  await signInByEmail(page, lang, email, PASSWORD);
  await expect(page).toHaveURL(/\/create_account/, { timeout: 20_000 });
  const name = `Tidewater Lines ${lang.toUpperCase()} ${Date.now()}`;
  await page.getByLabel(o.companyNameEn).fill(name);
  await page.getByLabel(o.companyType).selectOption('shipOwner');
  const country = page.getByRole('combobox', { name: o.country, exact: true });
  await country.fill(lang === 'zh' ? '新加坡' : 'Singap');
  await page.getByRole('listbox', { name: o.country, exact: true }).getByRole('option', { name: lang === 'zh' ? /新加坡/ : /Singapore/ }).first().click();
  await page.getByLabel(o.contactName).fill('Tan Mei');
  await page.getByLabel(o.phone, { exact: true }).fill('138 0013 8000');
  await page.getByLabel(o.creditCode).fill(`SG${Date.now()}`);
  await page.getByLabel(o.email).fill(email);
  await page.locator('#upload-licence').setInputFiles({ name: 'licence.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(page.getByRole('link', { name: 'licence.pdf' })).toBeVisible();
  await page.locator('#upload-logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByRole('link', { name: 'logo.png' })).toBeVisible();
  await page.getByRole('button', { name: o.submit }).click();
  await expect(page).toHaveURL(/\/completion_of_application/, { timeout: 20_000 });
  return name;
}

/** Opens the company from the queue, searched by name. */
async function openFromQueue(ops: Page, lang: Lang, name: string, status = 'approving') {
  const r = consoleMessages[lang].opsReview;
  await ops.goto(`/ops/companies${status === 'approving' ? '' : `?status=${status}`}`);
  await ops.getByLabel(r.search).fill(name);
  await ops.getByRole('button', { name: r.apply }).click();
  await expect(ops.getByRole('status').filter({ hasText: r.found.replace('{n}', '1') })).toBeVisible();
  await expectAccessible(ops);
  await ops.getByRole('link', { name }).click();
  await expect(ops).toHaveURL(/\/ops\/company\?companyId=/);
  await expect(ops.getByRole('heading', { name, level: 2 })).toBeVisible({ timeout: 20_000 });
}

/** The company id of the page the reviewer has open. */
const companyIdOf = (ops: Page) => new URL(ops.url()).searchParams.get('companyId')!;

async function staffJoins(request: APIRequestContext, adminRequest: APIRequestContext, companyId: string, email: string) {
  await seedUser(request, { email, password: PASSWORD, userType: 2, agreed: true });
  await signInByRequest(request, email, PASSWORD);
  const members = (await (await adminRequest.get(`/api/agg-web/company/members?companyId=${companyId}`)).json()) as { data: { invitationCode: string } };
  const joined = await request.post('/api/agg-web/company/join', {
    data: { companyId: members.data.invitationCode, nickName: 'Lim Kai', personalEmail: email, phoneCode: '+86', contactTel: '13900139000' },
  });
  const body = (await joined.json()) as { code: string; data: { companyId: string } };
  expect(body.code).toBe('0');
  const me = (await (await request.get('/api/agg-web/user/fetchMeByUserToken')).json()) as { data: { userId: string } };
  const approved = await adminRequest.post('/api/agg-web/company/member/approve', { data: { companyId, userId: me.data.userId } });
  expect(((await approved.json()) as { code: string }).code).toBe('0');
}

for (const lang of langs) {
  const t = consoleMessages[lang];
  const r = t.opsReview;

  test.describe(`company review (${lang})`, () => {
    test('created in the portal, verified by a reviewer, entered by its administrator and approved staff', async ({ page, browser }) => {
      test.setTimeout(300_000);
      const email = uniqueEmail(`rv-admin-${lang}`);
      const name = await createCompany(page, lang, email);

      const ops = await reviewerPage(browser, lang);
      await openFromQueue(ops, lang, name);
      // Everything the administrator entered, the documents inline, the members.
      await expect(ops.getByTestId('review-status')).toHaveText(t.statuses.approving);
      await expect(ops.getByRole('definition').filter({ hasText: 'Tan Mei' })).toBeVisible();
      await expect(ops.getByRole('row').filter({ hasText: 'Tan Mei' })).toContainText(r.roles.administrator);
      const logo = ops.getByRole('img', { name: new RegExp(`${r.purposes.logo}: logo.png`) });
      await expect(logo).toBeVisible();
      // Visible is not loaded: the picture's bytes may still be on their way.
      await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
      const licence = await ops.request.get(await ops.getByRole('link', { name: 'licence.pdf' }).getAttribute('href') as string);
      expect(licence.headers()['content-disposition']).toMatch(/^inline/);
      expect((await licence.body()).subarray(0, 5).toString()).toBe('%PDF-');
      // The administrator's own session cannot open that file through the operator path.
      const asAdmin = await page.request.get(await ops.getByRole('link', { name: 'licence.pdf' }).getAttribute('href') as string);
      expect(((await asAdmin.json()) as { code: string }).code).toBe('OP0001');
      await expectAccessible(ops);
      for (const width of [390, 1280]) {
        await ops.setViewportSize({ width, height: 900 });
        await ops.screenshot({ path: `test-results/ops-review-${lang}-${width}.png`, fullPage: true });
      }

      // Verify by keyboard: the decision's form takes focus, Tab reaches its confirm button.
      await ops.getByRole('button', { name: r.actions.verify, exact: true }).focus();
      await ops.keyboard.press('Enter');
      await expect(ops.getByRole('heading', { name: r.actions.verify, level: 3 })).toBeFocused();
      const confirm = ops.getByRole('button', { name: r.confirm.replace('{action}', r.actions.verify) });
      for (let i = 0; i < 4 && !(await confirm.evaluate((el) => el === document.activeElement)); i++) await ops.keyboard.press('Tab');
      await expect(confirm).toBeFocused();
      await ops.keyboard.press('Enter');
      await expect(ops.getByText(r.decided.replace('{status}', t.statuses.verified))).toBeVisible();
      await expect(ops.getByTestId('review-status')).toHaveText(t.statuses.verified);
      await expect(ops.getByRole('listitem').filter({ hasText: t.actionNames.company.verified })).toContainText('Ruth Reviewer');
      const companyId = companyIdOf(ops);

      // A staff member joins and is approved; both enter the company from a fresh sign-in.
      const staffContext = await browser.newContext();
      const staff = await staffContext.newPage();
      const staffEmail = uniqueEmail(`rv-staff-${lang}`);
      await staffJoins(staff.request, page.request, companyId, staffEmail);
      await staffContext.clearCookies();
      await signInByEmail(staff, lang, staffEmail, PASSWORD);
      await expect(staff).toHaveURL(/\/account$/, { timeout: 20_000 });
      await staff.getByRole('button', { name: `${t.account.enter}: ${name}` }).click();
      await expect(staff).toHaveURL(/\/user_center$/, { timeout: 20_000 });
      await staffContext.close();

      await leaveAndClearCookies(page);
      await signInByEmail(page, lang, email, PASSWORD);
      await expect(page).toHaveURL(/\/account$/, { timeout: 20_000 });
      await expect(page.getByRole('listitem').filter({ hasText: name })).toContainText(t.statuses.verified);
      await page.getByRole('button', { name: `${t.account.enter}: ${name}` }).click();
      await expect(page).toHaveURL(/\/user_center$/, { timeout: 20_000 });
      await ops.context().close();
    });

    test('a request for more information is answered by the administrator and the company is back in the queue', async ({ page, browser }) => {
      test.setTimeout(300_000);
      const email = uniqueEmail(`rv-info-${lang}`);
      const name = await createCompany(page, lang, email);
      const ops = await reviewerPage(browser, lang);
      await openFromQueue(ops, lang, name);
      await ops.getByRole('button', { name: r.actions.requestInformation }).click();
      // Without a reason the decision is refused in place, and nothing is sent.
      await ops.getByRole('button', { name: r.confirm.replace('{action}', r.actions.requestInformation) }).click();
      await expect(ops.getByRole('alert')).toHaveText(errorCatalogue.RV0003[lang]);
      await expect(ops.getByLabel(r.reason)).toHaveAttribute('aria-invalid', 'true');
      await ops.getByLabel(r.reason).selectOption('licenceMissing');
      await ops.getByLabel(r.noteOptional).fill('Page 2 of the licence, please.');
      await expectAccessible(ops);
      await ops.getByRole('button', { name: r.confirm.replace('{action}', r.actions.requestInformation) }).click();
      await expect(ops.getByTestId('review-status')).toHaveText(t.statuses.additionalInformationRequired);
      await expect(ops.getByText(r.notified)).toBeVisible();

      // The administrator is told by e-mail (the form was sent in this language) and sees the reason on /account.
      const outbox = (await (await page.request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as { data: { text: string }[] };
      expect(outbox.data[0]!.text).toContain(REVIEW_REASON_TEXT.licenceMissing[lang]);
      await page.goto('/account');
      const card = page.getByRole('listitem').filter({ hasText: name });
      await expect(card).toContainText(t.statuses.additionalInformationRequired);
      await expect(card).toContainText(`${REVIEW_REASON_TEXT.licenceMissing[lang]} Page 2 of the licence, please.`);
      // The card asks the administrator to act; it never says that nothing is needed of them.
      await expect(card).toContainText(t.account.enterOnceApplicationSent);
      await expect(card).not.toContainText(t.account.enterOnceVerified);
      await expectAccessible(page);
      await card.getByRole('link', { name: `${t.account.fixAndResubmit}: ${name}` }).click();
      await expect(page).toHaveURL(/\/fill_account\?companyId=/);
      await expect(page.getByRole('status').filter({ hasText: REVIEW_REASON_TEXT.licenceMissing[lang] })).toBeVisible();
      await page.locator('#upload-licence').setInputFiles({ name: 'licence-page-2.pdf', mimeType: 'application/pdf', buffer: PDF });
      await expect(page.getByRole('link', { name: 'licence-page-2.pdf' })).toBeVisible();
      // The fill form's button is "save".
      await page.getByRole('button', { name: t.onboarding.save }).click();
      await expect(page).not.toHaveURL(/\/fill_account/, { timeout: 20_000 });

      // Back in the reviewer's queue, with the new document.
      await openFromQueue(ops, lang, name);
      await expect(ops.getByTestId('review-status')).toHaveText(t.statuses.approving);
      await expect(ops.getByRole('link', { name: 'licence-page-2.pdf' })).toBeVisible();
      await ops.context().close();
    });

    test("a blocked company's member is refused at sign-in with a clear message", async ({ page, browser }) => {
      test.setTimeout(90_000);
      const email = uniqueEmail(`rv-blocked-${lang}`);
      const name = `Gale Shipping ${lang.toUpperCase()} ${Date.now()}`;
      await seedUser(page.request, { email, password: PASSWORD, userType: 2, agreed: true, companies: [{ nameEn: name, type: 'ship_owner', status: 'verified', role: 'staff' }] });
      const ops = await reviewerPage(browser, lang);
      await openFromQueue(ops, lang, name, 'verified');
      await ops.getByRole('button', { name: r.actions.block }).click();
      await ops.getByLabel(r.reason).selectOption('termsBreached');
      await ops.getByRole('button', { name: r.confirm.replace('{action}', r.actions.block) }).click();
      await expect(ops.getByTestId('review-status')).toHaveText(t.statuses.blocked);
      await ops.context().close();

      await signInByEmail(page, lang, email, PASSWORD);
      await expect(page.getByRole('alert').filter({ hasText: errorCatalogue.RV0010[lang] })).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);
      // The refusal ended the session: the portal's pages ask to sign in again.
      await page.goto('/account');
      await expect(page).toHaveURL(/\/login\?next=%2Faccount$/);
    });
  });
}

test('operator pages are not opened by a platform session', async ({ page }) => {
  const email = uniqueEmail('rv-platform');
  await seedUser(page.request, { email, password: PASSWORD, userType: 2, agreed: true });
  await signInByRequest(page.request, email, PASSWORD);
  await openInLanguage(page, 'en', '/ops/companies');
  const answer = await page.request.get('/api/ops/v1/companies');
  expect(((await answer.json()) as { code: string }).code).toBe('OP0001');
});
