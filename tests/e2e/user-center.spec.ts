import { type Browser, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { langs, type Lang } from '../../src/lib/lang';
import { expectAccessible, fillDate, openInLanguage, seedUser, signInByRequest, uniqueEmail } from './helpers';

const PASSWORD = 'harbour2024';

/** A new person in a browser context of their own, signed in (through the gateway: these tests are not about signing in). */
async function newPerson(browser: Browser, lang: Lang, tag: string, seed: Record<string, unknown> = {}) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = uniqueEmail(`${tag}-${lang}`);
  await seedUser(page.request, { email, password: PASSWORD, agreed: true, ...seed });
  await signInByRequest(page.request, email, PASSWORD);
  return { context, page, email };
}

/** The page signed in as the administrator of a verified ship owner of its own. */
async function administrator(page: Page, lang: Lang, tag: string) {
  const company = `Approval Shipping ${tag} ${lang} ${Date.now()}`;
  const adminEmail = uniqueEmail(`approver-${lang}`);
  const answer = (await (
    await page.request.post('/api/dev/users', {
      data: { email: adminEmail, password: PASSWORD, userType: 2, agreed: true, companies: [{ nameEn: company, type: 'ship_owner', status: 'verified', role: 'administrator' }] },
    })
  ).json()) as { code: string; data: { companyIds: string[] } };
  expect(answer.code).toBe('0');
  await signInByRequest(page.request, adminEmail, PASSWORD);
  return { company, companyId: answer.data.companyIds[0]! };
}

for (const lang of langs) {
  const t = messages[lang];
  const u = t.userCenter;

  test.describe(`user center (${lang})`, () => {
    test('a person edits their profile, and it is still there after a reload', async ({ page }) => {
      const email = uniqueEmail(`profile-${lang}`);
      await seedUser(page.request, { email, password: PASSWORD, userType: 1, realName: 'Zhang San', agreed: true });
      await signInByRequest(page.request, email, PASSWORD);
      await openInLanguage(page, lang, '/user_center');

      const facts = page.locator('.facts');
      await expect(facts.getByRole('definition').nth(4)).toHaveText(u.empty);
      await page.getByRole('button', { name: u.editProfile }).click();
      const name = page.getByLabel(u.realName);
      await expect(name).toBeFocused();
      await expect(name).toHaveValue('Zhang San');

      // The rules are checked before sending, and said next to their fields.
      await name.fill('   ');
      await fillDate(page, lang, new RegExp(u.birthday), '1899-12-31');
      await page.getByRole('button', { name: u.save, exact: true }).click();
      await expect(page.getByRole('alert').filter({ hasText: u.profileErrors.realNameRequired })).toBeVisible();
      await expect(page.getByRole('alert').filter({ hasText: u.profileErrors.birthdayInvalid })).toBeVisible();
      await expect(name).toBeFocused();
      await expect(name).toHaveAttribute('aria-invalid', 'true');
      await expectAccessible(page);

      const newName = lang === 'zh' ? '李小龙' : 'Lee Siu Lung';
      await name.fill(newName);
      const country = page.getByRole('combobox', { name: new RegExp(u.country) });
      await country.fill(lang === 'zh' ? '新加坡' : 'Singap');
      await page.getByRole('listbox', { name: new RegExp(u.country) }).getByRole('option', { name: lang === 'zh' ? /新加坡/ : /Singapore/ }).first().click();
      await fillDate(page, lang, new RegExp(u.birthday), '1990-05-17');
      await page.getByLabel(new RegExp(u.sex)).selectOption('female');
      await page.getByRole('button', { name: u.save, exact: true }).click();
      await expect(page.getByRole('status').filter({ hasText: u.saved })).toBeVisible();
      await expect(page.getByRole('button', { name: u.editProfile })).toBeFocused();

      // The day in the page's own format, whatever the browser's locale.
      const birthday = lang === 'zh' ? '1990年5月17日' : '17 May 1990';
      const expected = [newName, lang === 'zh' ? '新加坡' : 'Singapore', birthday, u.sexes.female];
      for (const value of expected) await expect(facts).toContainText(value);
      await page.reload();
      await expect(page.getByRole('heading', { name: newName })).toBeVisible();
      for (const value of expected) await expect(page.locator('.facts')).toContainText(value);

      // Clearing optional fields is allowed; the editor starts from what is stored.
      await page.getByRole('button', { name: u.editProfile }).click();
      await expect(page.getByRole('combobox', { name: new RegExp(u.country) })).toHaveValue(lang === 'zh' ? '新加坡' : 'Singapore');
      await page.getByLabel(new RegExp(u.sex)).selectOption('');
      await page.getByRole('button', { name: u.save, exact: true }).click();
      await expect(page.getByRole('status').filter({ hasText: u.saved })).toBeVisible();
      await page.reload();
      await expect(page.locator('.facts')).toContainText(birthday);
      await expect(page.locator('.facts')).not.toContainText(u.sexes.female);
    });

    test('an administrator makes an invitation code; a staff member joins with it and waits for approval', async ({ page, browser }) => {
      const { company } = await administrator(page, lang, 'code');
      // A seeded company has no code yet: the administrator makes one.
      await openInLanguage(page, lang, '/user_center');
      await page.getByRole('button', { name: u.regenerate }).click();
      await expect(page.getByTestId('invitation-code')).toHaveText(/^[A-Z2-9]{8}$/);
      const code = (await page.getByTestId('invitation-code').textContent())!.trim();

      // A staff member joins with the code; their request waits for the administrator.
      const staff = await newPerson(browser, lang, 'joiner', { userType: 0 });
      await openInLanguage(staff.page, lang, `/join?code=${code}`);
      const o = t.onboarding;
      await expect(staff.page.getByLabel(o.companyName)).toHaveValue(company);
      await staff.page.getByLabel(o.realName).fill('Zhao Liu');
      await staff.page.getByLabel(o.email).fill('zhao.liu@approval.example');
      await staff.page.getByLabel(o.phone, { exact: true }).fill('13900139001');
      await staff.page.getByRole('button', { name: o.join }).click();
      await expect(staff.page.getByRole('heading', { name: t.completion.staffTitle })).toBeVisible();
      await staff.page.goto('/account');
      const card = staff.page.getByRole('listitem').filter({ hasText: company });
      await expect(card).toContainText(t.account.awaitingApproval);
      await expect(card).toContainText(t.account.awaitingApprovalHint);
      // Membership and the company's own verification are two facts: the company's standing shows beside it.
      await expect(card.getByRole('term').filter({ hasText: t.account.membership })).toBeVisible();
      await expect(staff.page.getByRole('button', { name: `${t.account.enter}: ${company}` })).toHaveCount(0);
      await expectAccessible(staff.page);
      await staff.context.close();
    });

    test('an administrator approves a waiting staff member, who can then enter the company', async ({ page, browser }) => {
      const { company, companyId } = await administrator(page, lang, 'approve');
      const staff = await newPerson(browser, lang, 'joiner', { userType: 0, realName: 'Zhao Liu', companies: [{ companyId, role: 'staff', memberStatus: 'pending' }] });

      // The administrator sees the request and approves it.
      await openInLanguage(page, lang, '/user_center');
      await expect(page.getByText(u.pendingCount.replace('{n}', '1'))).toBeVisible();
      // The members part loads as it comes near (issue 31): scroll to it, as a person does.
      await page.getByRole('heading', { name: u.members.replace('{company}', company) }).scrollIntoViewIfNeeded();
      const row = page.getByRole('row').filter({ hasText: 'Zhao Liu' });
      await expect(row).toContainText(u.memberStatuses.pending);
      await expectAccessible(page);
      await page.getByRole('button', { name: u.approveLabel.replace('{name}', 'Zhao Liu') }).click();
      await expect(page.getByRole('status').filter({ hasText: u.approved.replace('{name}', 'Zhao Liu') })).toBeVisible();
      await expect(row).toContainText(u.memberStatuses.active);
      // Answered: no approve or decline any more; an active member has the administrator's member actions instead.
      await expect(row.getByRole('button', { name: u.approveLabel.replace('{name}', 'Zhao Liu') })).toHaveCount(0);
      await expect(row.getByRole('button', { name: u.declineLabel.replace('{name}', 'Zhao Liu') })).toHaveCount(0);
      await expect(row.getByRole('button', { name: t.members.removeLabel.replace('{name}', 'Zhao Liu') })).toBeVisible();

      // The staff member can now choose the company.
      await openInLanguage(staff.page, lang, '/account');
      const card = staff.page.getByRole('listitem').filter({ hasText: company });
      await expect(card).toContainText(t.statuses.verified);
      await staff.page.getByRole('button', { name: `${t.account.enter}: ${company}` }).click();
      await expect(staff.page).toHaveURL(/\/user_center$/);
      await staff.context.close();
    });

    test('an administrator declines a waiting request after a confirmation that can be cancelled', async ({ page, browser }) => {
      const { company, companyId } = await administrator(page, lang, 'decline');
      const other = await newPerson(browser, lang, 'declined', { userType: 0, realName: 'Qian Qi', companies: [{ companyId, role: 'staff', memberStatus: 'pending' }] });
      await openInLanguage(page, lang, '/user_center');
      await page.getByRole('heading', { name: u.members.replace('{company}', company) }).scrollIntoViewIfNeeded();
      const declined = page.getByRole('row').filter({ hasText: 'Qian Qi' });
      const decline = page.getByRole('button', { name: u.declineLabel.replace('{name}', 'Qian Qi') });
      await decline.click();
      const dialog = page.getByRole('dialog', { name: u.declineTitle });
      await expect(dialog).toContainText('Qian Qi');
      await expect(dialog.getByRole('button', { name: u.cancel })).toBeFocused();
      await expectAccessible(page, 'dialog[open]');
      await dialog.getByRole('button', { name: u.cancel }).click();
      await expect(dialog).toHaveCount(0);
      await expect(declined).toContainText(u.memberStatuses.pending);
      await decline.click();
      await page.getByRole('dialog', { name: u.declineTitle }).getByRole('button', { name: u.declineConfirm }).click();
      await expect(page.getByRole('status').filter({ hasText: u.declined.replace('{name}', 'Qian Qi') })).toBeVisible();
      await expect(declined).toContainText(u.memberStatuses.rejected);
      await page.reload();
      await page.getByRole('heading', { name: u.members.replace('{company}', company) }).scrollIntoViewIfNeeded();
      await expect(page.getByRole('row').filter({ hasText: 'Qian Qi' })).toContainText(u.memberStatuses.rejected);
      await openInLanguage(other.page, lang, '/account');
      await expect(other.page.getByRole('listitem').filter({ hasText: company })).toHaveCount(0);
      await other.context.close();
    });

    test('the invitation hint links /join; the birthday picker names Chinese months without a second 月', async ({ page }) => {
      const email = uniqueEmail(`invite-hint-${lang}`);
      await seedUser(page.request, { email, password: PASSWORD, userType: 2, agreed: true, companies: [{ nameEn: `Small Things ${lang} ${Date.now()}`, status: 'verified', role: 'administrator' }] });
      await signInByRequest(page.request, email, PASSWORD);
      const list = (await (await page.request.post('/api/c/user/v2/getCompanyListByToken', { data: {} })).json()) as { data: { companyId: string }[] };
      await page.request.post('/api/agg-web/company/invitation/regenerate', { data: { companyId: list.data[0]!.companyId } });

      await openInLanguage(page, lang, '/user_center');
      const link = page.locator('.invitation .hint a');
      await expect(link).toHaveAttribute('href', /^\/join\?code=[A-Z0-9]{8}$/);
      await expect(link).toHaveText(/\/join\?code=[A-Z0-9]{8}$/);
      await page.getByRole('button', { name: u.editProfile }).click();
      const month = page.getByRole('group', { name: new RegExp(u.birthday) }).getByRole('combobox', { name: t.onboarding.dateParts.month });
      await expect(month.locator('option')).toHaveCount(13);
      const names = await month.locator('option').allTextContents();
      if (lang === 'zh') expect(names.filter(Boolean)).toEqual(Array.from({ length: 12 }, (_, i) => String(i + 1)));
      else expect(names).toContain('March');
    });

    for (const width of [1280, 390]) {
      test(`nothing moves as the page paints from its HTML and as the island fills it, at ${width} px`, async ({ browser, baseURL }) => {
        const context = await browser.newContext({ baseURL });
        // A short address, as before: a login name of 40 characters wraps at 390 px as the island fills it (a shift of 0.018).
        const email = `li.${Date.now() % 1e6}.${lang}@example.com`;
        await seedUser(context.request, { email, password: PASSWORD, userType: 2, realName: 'Li Lei', agreed: true, companies: [{ nameEn: `Steady Lines ${width} ${lang} ${Date.now()}`, isMain: true }] });
        await signInByRequest(context.request, email, PASSWORD);
        for (const shellOnly of [true, false]) {
          const page = await context.newPage();
          await page.setViewportSize({ width, height: 900 });
          await page.addInitScript(recordLayoutShifts);
          // The shell alone: the HTML and its styles, no module script (what paints before any JavaScript).
          if (shellOnly) await page.route('**/_astro/*.js', (route) => route.abort());
          await openInLanguage(page, lang, '/user_center');
          await page.waitForLoadState('load');
          if (!shellOnly) await expect(page.locator('#profile-title')).toHaveText('Li Lei');
          // A row's two facts line up: a label beside another sits at its height.
          const top = async (label: string) => (await page.getByText(label, { exact: true }).boundingBox())!.y;
          if (width === 1280) expect(await top(u.realName)).toBe(await top(u.loginName));
          const shifts = await page.evaluate(() => (window as unknown as { layoutShifts: () => number }).layoutShifts());
          expect(shifts, `${width} px, ${shellOnly ? 'the shell alone' : 'filled by the island'}`).toBeLessThan(0.01);
          await page.close();
        }
        await context.close();
      });
    }
  });
}

/** Sums the page's layout shifts (CLS without its windows: every shift counts), read with `layoutShifts()`. */
function recordLayoutShifts() {
  let total = 0;
  const add = (entries: PerformanceEntryList) => {
    for (const entry of entries as unknown as { value: number; hadRecentInput: boolean }[]) if (!entry.hadRecentInput) total += entry.value;
  };
  const observer = new PerformanceObserver((list) => add(list.getEntries()));
  observer.observe({ type: 'layout-shift', buffered: true });
  (window as unknown as { layoutShifts: () => number }).layoutShifts = () => {
    add(observer.takeRecords());
    return total;
  };
}
