import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { format } from '../../src/i18n/format';
import { langs, type Lang } from '../../src/lib/lang';
import { expectAccessible, openInLanguage, signInByRequest, uniqueEmail, shoot } from './helpers';

/**
 * Company members in the user center, as an administrator meets them: the table (its rows, and every row action in
 * view at 1280 and 390 px), the module dialog, the role changes and the removal that ask first, the last
 * administrator offered no way out, and what a staff member then sees of their modules. Each step starts from
 * seeded state. The rules behind them (races, refusals, the last administrator, the record's fields) are function
 * tests: tests/functions/members.test.ts.
 */

const PASSWORD = 'harbour2024';

/** Seeds a person through the dev endpoint: their id and the ids of the companies they belong to. */
async function seed(request: APIRequestContext, body: Record<string, unknown>) {
  const answer = (await (await request.post('/api/dev/users', { data: { password: PASSWORD, agreed: true, ...body } })).json()) as {
    code: string;
    data: { userId: string; companyIds: string[] };
  };
  expect(answer.code).toBe('0');
  return answer.data;
}

/** A verified ship owner administered by Chen Admin, with Lin Staff (hired 2024-03-01) and Wu Leaver as staff; the page signed in as the administrator. */
async function seededCompany(page: Page, lang: Lang, tag: string) {
  const adminEmail = uniqueEmail(`members-${tag}-${lang}`);
  const companyName = `Members Shipping ${tag} ${lang} ${Date.now()}`;
  const { companyIds } = await seed(page.request, {
    email: adminEmail,
    userType: 2,
    realName: 'Chen Admin',
    companies: [{ nameEn: companyName, type: 'shipOwner', status: 'verified', role: 'administrator' }],
  });
  const companyId = companyIds[0]!;
  const staffEmail = uniqueEmail(`members-staff-${lang}`);
  const staff = await seed(page.request, { email: staffEmail, userType: 2, realName: 'Lin Staff', companies: [{ companyId, role: 'staff', hireTime: '2024-03-01' }] });
  await seed(page.request, { email: uniqueEmail(`members-leaver-${lang}`), userType: 2, realName: 'Wu Leaver', companies: [{ companyId, role: 'staff' }] });
  await signInByRequest(page.request, adminEmail, PASSWORD);
  return { companyId, companyName, staffEmail, staffId: staff.userId };
}

for (const lang of langs) {
  const t = messages[lang];
  const u = t.userCenter;
  const mb = t.members;

  /** Opens the user center and scrolls to the members part, which loads as it comes near (issue 31), as a person does. */
  async function openMembers(page: Page, companyName: string) {
    await openInLanguage(page, lang, '/user_center');
    await page.getByRole('heading', { name: format(u.members, { company: companyName }) }).scrollIntoViewIfNeeded();
    const row = page.getByRole('row').filter({ hasText: 'Lin Staff' });
    // The first paint of the user center waits for four calls; the shared test machine can be slow.
    await expect(row).toContainText(t.account.roles.staff, { timeout: 20_000 });
    return row;
  }

  test.describe(`company members (${lang})`, () => {
    test('the table shows each member with role, modules and hire date', async ({ page }) => {
      const { companyName } = await seededCompany(page, lang, 'table');
      const row = await openMembers(page, companyName);
      await expect(row).toContainText(mb.noModulesGranted);
      await expect(row).toContainText(mb.joinedOn.split('{date}').join('').trim());
      await expectAccessible(page);
      await shoot(page, `members-${lang}-1280`);
    });

    // One width a language (zh on a phone, en on a desktop): the page tour reads both languages at 390 px.
    for (const width of lang === 'zh' ? [390] : [1280]) {
      test(`every row action of the members table is in view at ${width} px`, async ({ page }) => {
        const { companyId, companyName } = await seededCompany(page, lang, `layout${width}`);
        await seed(page.request, { email: uniqueEmail(`members-wait-${lang}`), userType: 2, realName: 'Wu Waiting', companies: [{ companyId, role: 'staff', memberStatus: 'pending' }] });
        await page.setViewportSize({ width, height: 900 });
        await openMembers(page, companyName);
        const region = page.getByRole('region', { name: t.userCenter.membersTable.replace('{company}', companyName), exact: true });
        // Nothing scrolls sideways inside the panel, and every action and note lies inside it.
        const wrap = (await region.boundingBox())!;
        expect(await region.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
        const parts = region.locator('.member-actions button, .member-actions .member-contact');
        expect(await parts.count()).toBeGreaterThanOrEqual(4);
        for (const part of await parts.all()) {
          const box = (await part.boundingBox())!;
          expect(box.x).toBeGreaterThanOrEqual(wrap.x - 1);
          expect(box.x + box.width).toBeLessThanOrEqual(wrap.x + wrap.width + 1);
        }
        // At 390 px the whole page with the table (the table at 1280 px is checked in the test above).
        if (width === 390) await expectAccessible(page);
        await shoot(page, `members-actions-${lang}-${width}`);
      });
    }

    test('an administrator grants a staff member a module in the dialog; each switch is saved at once', async ({ page }) => {
      const { companyName } = await seededCompany(page, lang, 'grant');
      const row = await openMembers(page, companyName);
      await page.getByRole('button', { name: mb.modulesLabel.replace('{name}', 'Lin Staff') }).click();
      const dialog = page.getByRole('dialog', { name: mb.modulesTitle.replace('{name}', 'Lin Staff') });
      const portCalls = lang === 'zh' ? '港口挂靠' : 'Port calls';
      await dialog.getByRole('checkbox', { name: portCalls }).check();
      await expect(page.getByRole('status').filter({ hasText: mb.granted.replace('{module}', portCalls).replace('{name}', 'Lin Staff') })).toBeVisible();
      await expect(dialog.getByRole('checkbox', { name: portCalls })).toBeChecked();
      await expectAccessible(page, 'dialog[open]');
      await shoot(page, `members-modules-${lang}`);
      await dialog.getByRole('button', { name: mb.done }).click();
      await expect(row).toContainText(portCalls);
    });

    test('making a member administrator asks first, and back; removal asks, Cancel keeps; the last administrator is offered neither', async ({ page }) => {
      const { companyName } = await seededCompany(page, lang, 'roles');
      await openMembers(page, companyName);
      // A member is made administrator and back. It asks first (issue 33).
      await page.getByRole('button', { name: mb.makeAdministratorLabel.replace('{name}', 'Wu Leaver') }).click();
      const promote = page.getByRole('dialog', { name: mb.promoteTitle });
      await expect(promote).toContainText(mb.promoteText.replace('{name}', 'Wu Leaver').replace('{company}', companyName));
      await promote.getByRole('button', { name: mb.promoteConfirm }).click();
      const leaver = page.getByRole('row').filter({ hasText: 'Wu Leaver' });
      await expect(leaver).toContainText(t.account.roles.administrator);
      await page.getByRole('button', { name: mb.makeStaffLabel.replace('{name}', 'Wu Leaver') }).click();
      await expect(leaver.getByRole('button', { name: mb.modulesLabel.replace('{name}', 'Wu Leaver') })).toBeVisible();

      // Removal asks first; cancelling keeps the member.
      await page.getByRole('button', { name: mb.removeLabel.replace('{name}', 'Wu Leaver') }).click();
      const confirm = page.getByRole('dialog', { name: mb.removeTitle });
      await expect(confirm).toContainText('Wu Leaver');
      await confirm.getByRole('button', { name: mb.cancel }).click();
      await expect(leaver).toBeVisible();
      await page.getByRole('button', { name: mb.removeLabel.replace('{name}', 'Wu Leaver') }).click();
      await confirm.getByRole('button', { name: mb.removeConfirm }).click();
      await expect(page.getByRole('status').filter({ hasText: mb.removed.replace('{name}', 'Wu Leaver') })).toBeVisible();
      await expect(leaver).toHaveCount(0);

      // The last administrator is offered no way to step down or leave (the gateway refuses both: members.test.ts),
      // and is told why.
      const admin = page.getByRole('row').filter({ hasText: 'Chen Admin' });
      await expect(admin).toContainText(mb.onlyAdministrator);
      await expect(admin.getByRole('button', { name: mb.makeStaffLabel.replace('{name}', 'Chen Admin') })).toHaveCount(0);
      await expect(admin.getByRole('button', { name: mb.removeLabel.replace('{name}', 'Chen Admin') })).toHaveCount(0);
    });

    test('a staff member sees the module granted to them, and their hire date, in their record; and no member management', async ({ page, browser, baseURL }) => {
      const { companyId, staffEmail, staffId } = await seededCompany(page, lang, 'staff');
      // The administrator grants the module through the gateway (the dialog is the test above).
      const granted = await page.request.post('/api/agg-web/company/member/module', { data: { companyId, userId: staffId, module: 'port-calls', granted: true } });
      expect(((await granted.json()) as { code: string }).code).toBe('0');
      const portCalls = lang === 'zh' ? '港口挂靠' : 'Port calls';

      const context = await browser.newContext({ baseURL });
      const staff = await context.newPage();
      await signInByRequest(staff.request, staffEmail, PASSWORD);
      await openInLanguage(staff, lang, '/user_center');
      const facts = staff.locator('.facts');
      await expect(facts.getByRole('term').filter({ hasText: mb.yourModules })).toBeVisible({ timeout: 20_000 });
      await expect(facts).toContainText(portCalls);
      await expect(facts).not.toContainText(lang === 'zh' ? '航次报告' : 'Voyage reports');
      // The hire date, written as the page's language writes dates.
      await expect(facts).toContainText(lang === 'zh' ? '2024年3月1日' : '1 March 2024');
      // Staff get no member management.
      await expect(staff.getByRole('button', { name: mb.removeLabel.replace('{name}', 'Chen Admin') })).toHaveCount(0);
      await expectAccessible(staff);
      await context.close();
    });
  });
}
