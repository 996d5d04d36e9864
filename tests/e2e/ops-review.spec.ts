import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { langs, type Lang } from '../../src/lib/lang';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { REVIEW_REASON_TEXT } from '../../src/schemas/ops-review';
import { createCompany, openInLanguage, PDF, seedUser, shoot, signInByEmail, signInByRequest, uniqueEmail } from './helpers';
import { consoleMessages } from '../../src/i18n/ops';

/**
 * Company review in Chromium, each step from seeded state: a company its administrator created through the
 * portal's calls is in a reviewer's queue with everything entered; a reviewer verifies one by keyboard; a verified
 * company's administrator and approved staff enter it; a request for more information is answered by the
 * administrator and the company is back in the queue; a blocked company's member is refused at sign-in with the
 * reason. The reviewer's session comes from the dev route (the `operatorPage` fixture).
 *
 * Below the browser (tests/functions/ops-review.test.ts): who may call (a platform session refused), the files
 * served inline to reviewers only, parallel decisions, a reason required, the administrator told in the form's
 * language. axe on these pages: a11y.spec.ts, "the operator console" and "a company asked for more information".
 * The company form itself (/create_account) is onboarding.spec.ts's.
 */
const PASSWORD = 'harbour2024';

/** Opens the company from the queue, searched by name. */
async function openFromQueue(ops: Page, lang: Lang, name: string, status = 'approving') {
  const r = consoleMessages[lang].opsReview;
  await openInLanguage(ops, lang, `/ops/companies${status === 'approving' ? '' : `?status=${status}`}`);
  await ops.getByLabel(r.search).fill(name);
  await ops.getByRole('button', { name: r.apply }).click();
  await expect(ops.getByRole('status').filter({ hasText: r.found.replace('{n}', '1') })).toBeVisible();
  await ops.getByRole('link', { name }).click();
  await expect(ops).toHaveURL(/\/ops\/company\?companyId=/);
  await expect(ops.getByRole('heading', { name, level: 2 })).toBeVisible();
}

for (const lang of langs) {
  const t = consoleMessages[lang];
  const r = t.opsReview;

  test.describe(`company review (${lang})`, () => {
    test("a company created in the portal is in the reviewer's queue with everything entered, its documents inline", async ({ page, newPage, operatorPage }) => {
      const { name } = await createCompany(await newPage(), lang);
      await operatorPage('reviewer', { name: 'Ruth Reviewer' });
      await openFromQueue(page, lang, name);
      await expect(page.getByTestId('review-status')).toHaveText(t.statuses.approving);
      await expect(page.getByRole('definition').filter({ hasText: 'Tan Mei' })).toBeVisible();
      await expect(page.getByRole('row').filter({ hasText: 'Tan Mei' })).toContainText(r.roles.administrator);
      const logo = page.getByRole('img', { name: new RegExp(`${r.purposes.logo}: logo.png`) });
      await expect(logo).toBeVisible();
      // Visible is not loaded: the picture's bytes may still be on their way.
      await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
      await expect(page.getByRole('link', { name: 'licence.pdf' })).toBeVisible();
      await shoot(page, `ops-review-${lang}`, { widths: [390, 1280] });
    });

    test('a reviewer verifies a company by keyboard; its history names the reviewer', async ({ page, request, operatorPage }) => {
      const name = `Keel Shipping ${lang.toUpperCase()} ${Date.now()} ${Math.floor(Math.random() * 1e6)}`;
      await seedUser(request, { email: uniqueEmail(`rv-verify-${lang}`), password: PASSWORD, userType: 2, agreed: true, companies: [{ nameEn: name, status: 'approving' }] });
      await operatorPage('reviewer', { name: 'Ruth Reviewer' });
      await openFromQueue(page, lang, name);
      // The decision's form takes focus, Tab reaches its confirm button.
      await page.getByRole('button', { name: r.actions.verify, exact: true }).focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: r.actions.verify, level: 3 })).toBeFocused();
      const confirm = page.getByRole('button', { name: r.confirm.replace('{action}', r.actions.verify) });
      for (let i = 0; i < 4 && !(await confirm.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
      await expect(confirm).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByText(r.decided.replace('{status}', t.statuses.verified))).toBeVisible();
      await expect(page.getByTestId('review-status')).toHaveText(t.statuses.verified);
      await expect(page.getByRole('listitem').filter({ hasText: t.actionNames.company.verified })).toContainText('Ruth Reviewer');
    });

    test('a verified company is entered by its administrator and by approved staff', async ({ page, newPage }) => {
      const name = `Verified Lines ${lang.toUpperCase()} ${Date.now()} ${Math.floor(Math.random() * 1e6)}`;
      const adminEmail = uniqueEmail(`rv-entry-admin-${lang}`);
      const staffEmail = uniqueEmail(`rv-entry-staff-${lang}`);
      const answer = (await (await page.request.post('/api/dev/users', { data: { email: adminEmail, password: PASSWORD, userType: 2, agreed: true, companies: [{ nameEn: name, status: 'verified' }] } })).json()) as { code: string; data: { companyIds: string[] } };
      expect(answer.code).toBe('0');
      await seedUser(page.request, { email: staffEmail, password: PASSWORD, userType: 2, agreed: true, companies: [{ companyId: answer.data.companyIds[0], role: 'staff' }] });
      const staff = await newPage();
      for (const [who, email] of [[page, adminEmail], [staff, staffEmail]] as const) {
        await signInByRequest(who.request, email, PASSWORD);
        await openInLanguage(who, lang, '/account');
        await expect(who.getByRole('listitem').filter({ hasText: name })).toContainText(t.statuses.verified);
        await who.getByRole('button', { name: `${t.account.enter}: ${name}` }).click();
        await expect(who).toHaveURL(/\/user_center$/);
      }
    });

    test('a request for more information is answered by the administrator and the company is back in the queue', async ({ page, newPage, operatorPage }) => {
      const admin = await newPage();
      const { name } = await createCompany(admin, lang);
      await operatorPage('reviewer', { name: 'Ruth Reviewer' });
      await openFromQueue(page, lang, name);
      await page.getByRole('button', { name: r.actions.requestInformation }).click();
      // Without a reason the decision is refused in place, and nothing is sent.
      await page.getByRole('button', { name: r.confirm.replace('{action}', r.actions.requestInformation) }).click();
      await expect(page.getByRole('alert')).toHaveText(errorCatalogue.RV0003[lang]);
      await expect(page.getByLabel(r.reason)).toHaveAttribute('aria-invalid', 'true');
      await page.getByLabel(r.reason).selectOption('licenceMissing');
      await page.getByLabel(r.noteOptional).fill('Page 2 of the licence, please.');
      await page.getByRole('button', { name: r.confirm.replace('{action}', r.actions.requestInformation) }).click();
      await expect(page.getByTestId('review-status')).toHaveText(t.statuses.additionalInformationRequired);
      await expect(page.getByText(r.notified)).toBeVisible();

      // The administrator sees the reason on /account (the e-mail in the form's language: ops-review.test.ts).
      await openInLanguage(admin, lang, '/account');
      const card = admin.getByRole('listitem').filter({ hasText: name });
      await expect(card).toContainText(t.statuses.additionalInformationRequired);
      await expect(card).toContainText(`${REVIEW_REASON_TEXT.licenceMissing[lang]} Page 2 of the licence, please.`);
      // The card asks the administrator to act; it never says that nothing is needed of them.
      await expect(card).toContainText(t.account.enterOnceApplicationSent);
      await expect(card).not.toContainText(t.account.enterOnceVerified);
      await card.getByRole('link', { name: `${t.account.fixAndResubmit}: ${name}` }).click();
      await expect(admin).toHaveURL(/\/fill_account\?companyId=/);
      await expect(admin.getByRole('status').filter({ hasText: REVIEW_REASON_TEXT.licenceMissing[lang] })).toBeVisible();
      await admin.locator('#upload-licence').setInputFiles({ name: 'licence-page-2.pdf', mimeType: 'application/pdf', buffer: PDF });
      await expect(admin.getByRole('link', { name: 'licence-page-2.pdf' })).toBeVisible();
      // The fill form's button is "save".
      await admin.getByRole('button', { name: t.onboarding.save }).click();
      await expect(admin).not.toHaveURL(/\/fill_account/);

      // Back in the reviewer's queue, with the new document.
      await openFromQueue(page, lang, name);
      await expect(page.getByTestId('review-status')).toHaveText(t.statuses.approving);
      await expect(page.getByRole('link', { name: 'licence-page-2.pdf' })).toBeVisible();
    });

    test("a blocked company's member is refused at sign-in with a clear message", async ({ page, newPage, operatorPage }) => {
      const email = uniqueEmail(`rv-blocked-${lang}`);
      const name = `Gale Shipping ${lang.toUpperCase()} ${Date.now()} ${Math.floor(Math.random() * 1e6)}`;
      await seedUser(page.request, { email, password: PASSWORD, userType: 2, agreed: true, companies: [{ nameEn: name, type: 'ship_owner', status: 'verified', role: 'staff' }] });
      const ops = await operatorPage('reviewer', { page: await newPage() });
      await openFromQueue(ops, lang, name, 'verified');
      await ops.getByRole('button', { name: r.actions.block }).click();
      await ops.getByLabel(r.reason).selectOption('termsBreached');
      await ops.getByRole('button', { name: r.confirm.replace('{action}', r.actions.block) }).click();
      await expect(ops.getByTestId('review-status')).toHaveText(t.statuses.blocked);

      await signInByEmail(page, lang, email, PASSWORD);
      await expect(page.getByRole('alert').filter({ hasText: errorCatalogue.RV0010[lang] })).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);
      // The refusal ended the session: the portal's pages ask to sign in again.
      await page.goto('/account');
      await expect(page).toHaveURL(/\/login\?next=%2Faccount$/);
    });
  });
}
