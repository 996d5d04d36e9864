import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { langs, type Lang } from '../../src/lib/lang';
import { expectAccessible, fillDate, openInLanguage, searchAndPick, seedUser, signInByEmail, signInByRequest, uniqueEmail, uniqueMobile } from './helpers';

/**
 * What a person meets around the main journeys: work kept across an ended session, confirmations that stay,
 * the remembered identifier, the warning before the security check, the keyboard order of the code form,
 * an approved staff member's card and dates in the page's own language.
 */

const PASSWORD = 'harbourGate7';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
/** A sign-in loads the gateway calls on first use, signs in, then waits 500 ms before going on: room on a busy machine. */
const SIGNED_IN_WITHIN = 15_000;

/** The password form of the sign-in page the visitor is on now (its query kept). */
async function signInHere(page: Page, lang: Lang, email: string, password: string) {
  const m = messages[lang].signIn;
  await page.getByRole('tab', { name: m.tabs.password }).click();
  await page.getByRole('tab', { name: m.tabs.email }).click();
  await page.getByLabel(m.email).fill(email);
  await page.getByLabel(m.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: m.submit }).click();
}

/** The session ends elsewhere (another tab signs out): the page's next call is refused with TK00001. */
const endSessionElsewhere = (page: Page) => page.request.post('/api/c/user/v2/loginout', { data: {} }).then((answer) => answer.dispose());

/** What this tab keeps for an ended session, as text (to look for what must never be there). */
const keptText = (page: Page) => page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith('keptForm:')).map((key) => sessionStorage.getItem(key)).join('\n'));

for (const lang of langs) {
  const t = messages[lang];
  const m = t.signIn;
  const o = t.onboarding;
  const u = t.userCenter;

  test.describe(`what a person meets (${lang})`, () => {
    test('the company form keeps what was typed when the session ends, and gives it back after sign-in', async ({ page }) => {
      const email = uniqueEmail(`kept-company-${lang}`);
      await seedUser(page.request, { email, password: PASSWORD, userType: 1, agreed: true });
      await signInByRequest(page.request, email, PASSWORD);
      await openInLanguage(page, lang, '/create_account');
      const name = `Kept Shipping ${lang} ${Date.now()}`;
      await page.getByLabel(o.companyNameEn).fill(name);
      await page.getByLabel(o.companyType).selectOption('shipOwner');
      await searchAndPick(page, o.country, lang === 'zh' ? '新加坡' : 'Singap', lang === 'zh' ? /新加坡/ : /Singapore/);
      await page.getByLabel(o.contactName).fill('Chen Hai');
      await page.getByLabel(o.phone, { exact: true }).fill('13800138000');
      await page.getByLabel(o.creditCode).fill('91330900MA2A0XXX1K');
      await page.getByLabel(o.email).fill('ops@kept.example');
      await page.locator('#upload-licence').setInputFiles({ name: 'licence.pdf', mimeType: 'application/pdf', buffer: PDF });
      await expect(page.getByRole('link', { name: 'licence.pdf' })).toBeVisible();

      // The page's own calls must be done first: one that answers TK00001 would take it to /login before the click.
      await page.waitForLoadState('networkidle');
      await endSessionElsewhere(page);
      await page.getByRole('button', { name: o.submit }).click();
      await expect(page).toHaveURL(/\/login\?next=%2Fcreate_account$/);
      await signInHere(page, lang, email, PASSWORD);
      await expect(page).toHaveURL(/\/create_account$/, { timeout: SIGNED_IN_WITHIN });

      await expect(page.getByLabel(o.companyNameEn)).toHaveValue(name);
      await expect(page.getByLabel(o.companyType)).toHaveValue('shipOwner');
      await expect(page.getByRole('combobox', { name: o.country, exact: true })).toHaveValue(lang === 'zh' ? /新加坡/ : /Singapore/);
      await expect(page.getByLabel(o.contactName)).toHaveValue('Chen Hai');
      await expect(page.getByLabel(o.phone, { exact: true })).toHaveValue('13800138000');
      await expect(page.getByLabel(o.creditCode)).toHaveValue('91330900MA2A0XXX1K');
      await expect(page.getByLabel(o.email)).toHaveValue('ops@kept.example');
      // Given back once: nothing stays behind in the tab.
      expect(await keptText(page)).toBe('');
      // The licence is picked again (an upload of the ended session is not attached); then the application goes in.
      await page.locator('#upload-licence').setInputFiles({ name: 'licence.pdf', mimeType: 'application/pdf', buffer: PDF });
      await expect(page.getByRole('link', { name: 'licence.pdf' })).toBeVisible();
      await page.getByRole('button', { name: o.submit }).click();
      await expect(page).toHaveURL(/\/completion_of_application/);
    });

    test('the profile editor opens again with what was typed after the session ended and the person signed in again', async ({ page }) => {
      const email = uniqueEmail(`kept-profile-${lang}`);
      await seedUser(page.request, { email, password: PASSWORD, userType: 1, realName: 'Zhang San', agreed: true });
      await signInByRequest(page.request, email, PASSWORD);
      await openInLanguage(page, lang, '/user_center');
      await page.getByRole('button', { name: u.editProfile }).click();
      await page.getByLabel(u.realName).fill('Kept Name');
      await fillDate(page, lang, new RegExp(u.birthday), '1988-02-29');
      // The page's own calls must be done first: one that answers TK00001 would take it to /login before the click.
      await page.waitForLoadState('networkidle');
      await endSessionElsewhere(page);
      await page.getByRole('button', { name: u.save, exact: true }).click();
      await expect(page).toHaveURL(/\/login\?next=%2Fuser_center$/);
      await signInHere(page, lang, email, PASSWORD);
      await expect(page).toHaveURL(/\/user_center$/, { timeout: SIGNED_IN_WITHIN });
      await expect(page.getByLabel(u.realName)).toHaveValue('Kept Name');
      const birthday = page.getByRole('group', { name: new RegExp(u.birthday) });
      await expect(birthday.getByRole('textbox', { name: o.dateParts.year })).toHaveValue('1988');
      await expect(birthday.getByRole('combobox', { name: o.dateParts.day })).toHaveValue('29');
    });

    // Language plays no part in what is kept: walked once, in en ("Remember" below in zh).
    if (lang === 'en') test('the password form keeps nothing typed when its session ends', async ({ signedIn: page, person }) => {
      await openInLanguage(page, lang, '/change_password');
      const c = t.changePassword;
      await page.getByLabel(c.currentPassword, { exact: true }).fill(person.password);
      await page.getByLabel(c.newPassword, { exact: true }).fill('harbourGate8');
      await page.getByLabel(c.confirmPassword, { exact: true }).fill('harbourGate8');
      // The page's own calls must be done first: one that answers TK00001 would take it to /login before the click.
      await page.waitForLoadState('networkidle');
      await endSessionElsewhere(page);
      await page.getByRole('button', { name: c.submit }).click();
      await expect(page).toHaveURL(/\/login\?next=%2Fchange_password$/);
      expect(await keptText(page)).not.toMatch(/harbourGate/);
      expect(await keptText(page)).not.toContain(person.password);
    });

    test('the third wrong password says a security check comes next; under the check the form is not "signing in"', async ({ page }) => {
      const email = uniqueEmail(`third-${lang}`);
      await seedUser(page.request, { email, password: PASSWORD, userType: 2, agreed: true });
      const answered = () => page.waitForResponse((r) => r.url().includes('/api/agg-web/user/v3/userLogin'));
      let answer = answered();
      await signInByEmail(page, lang, email, 'wrongOne1');
      await answer;
      const alert = page.getByRole('alert');
      await expect(alert).toHaveText(/./);
      await expect(alert).not.toContainText(m.checkComesNext);
      for (const last of [false, true]) {
        answer = answered();
        await page.getByRole('button', { name: m.submit }).click();
        await answer;
        if (last) await expect(alert).toContainText(m.checkComesNext);
        else await expect(alert).not.toContainText(m.checkComesNext);
      }

      // The next try opens the check; behind it the button does not claim to be signing in.
      await page.getByLabel(m.password, { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: m.submit }).click();
      await expect(page.getByRole('dialog', { name: m.slider.title })).toBeVisible();
      await expect(page.locator('form.sign-in button[type="submit"]')).toHaveText(m.submit);
      await expect(page.getByText(m.submitting)).toHaveCount(0);
    });

    if (lang === 'zh') test('"Remember" on the password tab brings the identifier back on the password tab', async ({ page }) => {
      const mobile = uniqueMobile();
      await seedUser(page.request, { phone: { callingCode: '+86', mobile }, password: PASSWORD, userType: 2, agreed: true });
      await openInLanguage(page, lang, '/login');
      await page.getByRole('tab', { name: m.tabs.password }).click();
      await page.getByLabel(m.phone, { exact: true }).fill(mobile);
      await page.getByLabel(m.password, { exact: true }).fill(PASSWORD);
      await page.getByRole('checkbox', { name: m.remember }).check();
      await page.getByRole('button', { name: m.submit }).click();
      // Under load the route after sign-in (login case, then the page) can take a while.
      await expect(page).not.toHaveURL(/\/login/, { timeout: 3 * SIGNED_IN_WITHIN });

      await page.goto('about:blank');
      await page.context().clearCookies();
      await openInLanguage(page, lang, '/login');
      await expect(page.getByRole('tab', { name: m.tabs.password })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByLabel(m.phone, { exact: true })).toHaveValue(mobile);
      await expect(page.getByRole('checkbox', { name: m.remember })).toBeChecked();
      await expect(page.getByLabel(m.password, { exact: true })).toHaveValue('');
    });

    test('Tab on the code form: identifier, Get code, the code, the agreement, then the sign-in button', async ({ page }) => {
      await openInLanguage(page, lang, '/login');
      await page.getByLabel(m.phone, { exact: true }).focus();
      const order = [
        page.getByRole('button', { name: m.getCode }),
        page.getByLabel(m.code, { exact: true }),
        page.getByRole('checkbox', { name: new RegExp(m.agree) }),
        page.getByRole('link', { name: m.terms }),
        page.getByRole('link', { name: m.privacy }),
        page.getByRole('button', { name: m.submit }),
      ];
      for (const next of order) {
        await page.keyboard.press('Tab');
        await expect(next).toBeFocused();
      }
      await page.getByRole('tab', { name: m.tabs.email }).click();
      await page.getByLabel(m.email).focus();
      await page.keyboard.press('Tab');
      await expect(page.getByRole('button', { name: m.getCode })).toBeFocused();
    });

    test('a staff member sees the approval, what the company verification means and the way in as soon as it opens', async ({ page, browser }) => {
      const a = t.account;
      // Membership and company verification never share a word (zh: two characters in a row).
      const words = (texts: string[]) =>
        new Set(texts.flatMap((text) => (lang === 'zh' ? [...text].slice(1).map((ch, i) => `${[...text][i]}${ch}`) : text.toLowerCase().split(/\W+/).filter(Boolean))));
      const membership = words([a.awaitingApproval, a.membershipApproved, a.membership]);
      const verification = words([...Object.values(t.statuses), a.status]);
      expect([...membership].filter((word) => verification.has(word))).toEqual([]);

      // An administrator with a verified company and its invitation code.
      const ready = `Ready Shipping ${lang} ${Date.now()}`;
      const admin = await browser.newContext();
      const adminEmail = uniqueEmail(`card-admin-${lang}`);
      await seedUser(admin.request, { email: adminEmail, password: PASSWORD, userType: 2, agreed: true, companies: [{ nameEn: ready, type: 'ship_owner', status: 'verified', role: 'administrator' }] });
      await signInByRequest(admin.request, adminEmail, PASSWORD);
      const list = (await (await admin.request.post('/api/c/user/v2/getCompanyListByToken', { data: {} })).json()) as { data: { companyId: string }[] };
      const companyId = list.data[0]!.companyId;
      const regenerated = (await (await admin.request.post('/api/agg-web/company/invitation/regenerate', { data: { companyId } })).json()) as { data: { invitationCode: string } };

      // A staff member of a company still under review joins the verified one.
      const reviewing = `Reviewing Shipping ${lang} ${Date.now()}`;
      const email = uniqueEmail(`card-staff-${lang}`);
      const staffId = await seedUser(page.request, {
        email,
        password: PASSWORD,
        userType: 2,
        agreed: true,
        companies: [{ nameEn: reviewing, type: 'ship_owner', status: 'approving', role: 'staff', memberStatus: 'active' }],
      });
      await signInByRequest(page.request, email, PASSWORD);
      const joined = await page.request.post('/api/agg-web/company/join', {
        data: { companyId: regenerated.data.invitationCode, nickName: 'Card Staff', personalEmail: 'card.staff@example.com', contactTel: '13900139003', phoneCode: '+86' },
      });
      expect(((await joined.json()) as { code: string }).code).toBe('0');
      await openInLanguage(page, lang, '/account');

      const readyCard = page.getByRole('listitem').filter({ hasText: ready });
      await expect(readyCard).toContainText(`${a.membership}${a.awaitingApproval}`);
      await expect(readyCard).toContainText(a.awaitingApprovalHint);
      await expect(readyCard.getByRole('button')).toHaveCount(0);

      const reviewingCard = page.getByRole('listitem').filter({ hasText: reviewing });
      await expect(reviewingCard).toContainText(`${a.membership}${a.membershipApproved}`);
      await expect(reviewingCard).toContainText(a.membershipApprovedHint);
      await expect(reviewingCard).toContainText(`${a.status}${t.statuses.approving}`);
      await expect(reviewingCard).toContainText(a.verificationMeaning.approving);
      await expect(reviewingCard).toContainText(a.enterOnceVerified);
      await expect(reviewingCard.getByRole('button')).toHaveCount(0);
      await expectAccessible(page);

      // The administrator approves; back on the tab, the card says so and offers the way in, without a reload.
      const approved = await admin.request.post('/api/agg-web/company/member/approve', { data: { companyId, userId: staffId } });
      expect(((await approved.json()) as { code: string }).code).toBe('0');
      await admin.close();
      await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      await expect(readyCard).toContainText(`${a.membership}${a.membershipApproved}`);
      await expect(readyCard).toContainText(a.membershipApprovedHint);
      await expect(readyCard).toContainText(`${a.status}${t.statuses.verified}`);
      await expect(readyCard).toContainText(a.verificationMeaning.verified);
      await expect(readyCard).toContainText(a.enterNow);
      await readyCard.getByRole('button', { name: `${a.enter}: ${ready}` }).click();
      await expect(page).not.toHaveURL(/\/account$/);
    });
  });

  test.describe(`dates in the page's language whatever the browser's (${lang})`, () => {
    test.use({ locale: lang === 'zh' ? 'en-US' : 'zh-CN' });
    test('the birthday is asked and shown in the page language', async ({ page }) => {
      const email = uniqueEmail(`dates-${lang}`);
      await seedUser(page.request, { email, password: PASSWORD, userType: 1, realName: 'Date Person', agreed: true });
      await signInByRequest(page.request, email, PASSWORD);
      await openInLanguage(page, lang, '/user_center');
      await page.getByRole('button', { name: u.editProfile }).click();
      const birthday = page.getByRole('group', { name: new RegExp(u.birthday) });
      // The parts in the page's order and words: 年 月 日 on a Chinese page, day month year on an English one.
      // (The profile editor loads when it is opened.)
      await expect(birthday.locator('input, select')).toHaveCount(3);
      const parts = await birthday.locator('input, select').evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
      expect(parts).toEqual(lang === 'zh' ? ['年', '月', '日'] : ['Day', 'Month', 'Year']);
      await expect(birthday.getByRole('combobox', { name: o.dateParts.month }).locator('option').nth(5)).toHaveText(lang === 'zh' ? '5' : 'May'); // the 月 follows the select (issue 33)
      await fillDate(page, lang, new RegExp(u.birthday), '1990-05-17');
      await page.getByRole('button', { name: u.save, exact: true }).click();
      await expect(page.locator('.facts')).toContainText(lang === 'zh' ? '1990年5月17日' : '17 May 1990');
      await expectAccessible(page);
    });
  });
}
