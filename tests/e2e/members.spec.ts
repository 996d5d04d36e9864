import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { format } from '../../src/i18n/format';
import { langs } from '../../src/lib/lang';
import { expectAccessible, openInLanguage, signInByEmail, uniqueEmail } from './helpers';

const PASSWORD = 'harbour2024';

/** Seeds a person through the dev endpoint: their id and the ids of the companies they belong to. */
async function seed(page: Page, body: Record<string, unknown>) {
  const answer = (await (await page.request.post('/api/dev/users', { data: { password: PASSWORD, agreed: true, ...body } })).json()) as {
    code: string;
    data: { userId: string; companyIds: string[] };
  };
  expect(answer.code).toBe('0');
  return answer.data;
}

for (const lang of langs) {
  const t = messages[lang];
  const u = t.userCenter;
  const mb = t.members;

  test.describe(`company members (${lang})`, () => {
    test('an administrator grants a staff member a module, who then sees it in their record; roles change and a member is removed', async ({ page, browser }) => {
      // Three people seeded and two sign-ins on a shared machine.
      test.setTimeout(240_000);
      const adminEmail = uniqueEmail(`members-admin-${lang}`);
      const companyName = `Members Shipping ${lang} ${Date.now()}`;
      const { companyIds } = await seed(page, {
        email: adminEmail,
        userType: 2,
        realName: 'Chen Admin',
        companies: [{ nameEn: companyName, type: 'shipOwner', status: 'verified', role: 'administrator' }],
      });
      const companyId = companyIds[0]!;
      const staffEmail = uniqueEmail(`members-staff-${lang}`);
      await seed(page, { email: staffEmail, userType: 2, realName: 'Lin Staff', companies: [{ companyId, role: 'staff', hireTime: '2024-03-01' }] });
      await seed(page, { email: uniqueEmail(`members-leaver-${lang}`), userType: 2, realName: 'Wu Leaver', companies: [{ companyId, role: 'staff' }] });

      await signInByEmail(page, lang, adminEmail, PASSWORD);
      await expect(page).not.toHaveURL(/\/login/, { timeout: 30_000 });
      await openInLanguage(page, lang, '/user_center');
      // The members part loads as it comes near (issue 31): scroll to it, as a person does.
      await page.getByRole('heading', { name: format(u.members, { company: companyName }) }).scrollIntoViewIfNeeded();
      const row = page.getByRole('row').filter({ hasText: 'Lin Staff' });
      // The first paint of the user center waits for four calls; the shared test machine can be slow.
      await expect(row).toContainText(t.account.roles.staff, { timeout: 30_000 });
      await expect(row).toContainText(mb.noModulesGranted);
      await expect(row).toContainText(mb.joinedOn.split('{date}').join('').trim());
      await expectAccessible(page);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.getByRole('region', { name: u.members.replace('{company}', companyName), exact: true }).screenshot({ path: `test-results/members-${lang}-${width}.png` });
      }
      await page.setViewportSize({ width: 1280, height: 900 });

      // Grant a module in the dialog; each switch is saved at once.
      await page.getByRole('button', { name: mb.modulesLabel.replace('{name}', 'Lin Staff') }).click();
      const dialog = page.getByRole('dialog', { name: mb.modulesTitle.replace('{name}', 'Lin Staff') });
      const portCalls = lang === 'zh' ? '港口挂靠' : 'Port calls';
      await dialog.getByRole('checkbox', { name: portCalls }).check();
      await expect(page.getByRole('status').filter({ hasText: mb.granted.replace('{module}', portCalls).replace('{name}', 'Lin Staff') })).toBeVisible();
      await expect(dialog.getByRole('checkbox', { name: portCalls })).toBeChecked();
      await expectAccessible(page, 'dialog[open]');
      await dialog.screenshot({ path: `test-results/members-modules-${lang}.png` });
      await dialog.getByRole('button', { name: mb.done }).click();
      await expect(row).toContainText(portCalls);

      // A member is made administrator and back.
      await page.getByRole('button', { name: mb.makeAdministratorLabel.replace('{name}', 'Wu Leaver') }).click();
      // It asks first (issue 33).
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

      // The staff member sees the granted module in their record, and only that one.
      const context = await browser.newContext();
      const staff = await context.newPage();
      await signInByEmail(staff, lang, staffEmail, PASSWORD);
      await expect(staff).not.toHaveURL(/\/login/, { timeout: 30_000 });
      await openInLanguage(staff, lang, '/user_center');
      const facts = staff.locator('.facts');
      await expect(facts.getByRole('term').filter({ hasText: mb.yourModules })).toBeVisible({ timeout: 30_000 });
      await expect(facts).toContainText(portCalls);
      await expect(facts).not.toContainText(lang === 'zh' ? '航次报告' : 'Voyage reports');
      // The hire date, written as the page's language writes dates.
      await expect(facts).toContainText(lang === 'zh' ? '2024年3月1日' : '1 March 2024');
      const record = (await (await staff.request.get('/api/agg-web/user/fetchMeByUserToken')).json()) as { data: { authoriseList: { key: string }[]; roles: string[]; superAdminName: string } };
      expect(record.data).toMatchObject({ authoriseList: [{ key: 'port-calls' }], roles: ['staff'], superAdminName: 'Chen Admin' });
      // Staff get no member management.
      await expect(staff.getByRole('button', { name: mb.removeLabel.replace('{name}', 'Chen Admin') })).toHaveCount(0);
      await expectAccessible(staff);
      await context.close();
    });
  });
}
