import { type APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { langs } from '../../src/lib/lang';
import { expectAccessible, handedOver, openInLanguage, readCode, seedUser, signInByRequest, uniqueEmail, shoot } from './helpers';

/**
 * The user center's password change: a session alone is not enough. A session without a fresh proof of its
 * person (here: one handed over from another site, which proves nobody) is asked to confirm it's them: a person
 * with a password gives the current one; a person who signed up by code gets a code sent to the account. A
 * person with a password also gives the current one on the form itself, whatever the proof's age. Every other
 * session ends.
 */

/** Whether the session in this request context still works. */
async function stillSignedIn(request: APIRequestContext) {
  const answer = (await (await request.post('/api/agg-web/quick/user/findUserLoginCase', { data: {} })).json()) as { code: string };
  return answer.code === '0';
}

for (const lang of langs) {
  const t = messages[lang];
  const c = t.changePassword;

  test.describe(`password change from the user center (${lang})`, () => {
    test('asks for the current password, refuses a wrong one, and signs out the other sessions', async ({ page, browser, baseURL }) => {
      const email = uniqueEmail(`change-${lang}`);
      const userId = await seedUser(page.request, { email, password: 'oldHarbour1', userType: 1, agreed: true });
      const su = t.stepUp;
      // Another device, signed in before the change.
      const elsewhere = await browser.newContext({ baseURL });
      const other = await elsewhere.newPage();
      await signInByRequest(other.request, email, 'oldHarbour1');

      await handedOver(page, lang, userId, '/user_center');
      await page.getByRole('link', { name: t.userCenter.changePassword }).click();
      await expect(page).toHaveURL(/\/change_password$/);
      await expectAccessible(page);

      // The change itself asks the current password, however fresh the proof (ASVS 5.0 V6.2.3).
      await page.getByLabel(c.newPassword, { exact: true }).fill('newHarbour2');
      await page.getByLabel(c.confirmPassword, { exact: true }).fill('newHarbour2');
      await page.getByRole('button', { name: c.submit }).click();
      const onForm = page.getByLabel(c.currentPassword, { exact: true });
      await expect(page.getByText(c.currentRequired)).toBeVisible();
      await expect(onForm).toHaveAttribute('autocomplete', 'current-password');
      await onForm.fill('oldHarbour1');
      await page.getByRole('button', { name: c.submit }).click();
      // No fresh proof: "Confirm it's you" asks for the current password.
      const dialog = page.getByRole('dialog', { name: su.title });
      const current = dialog.getByLabel(su.passwordLabel, { exact: true });
      await expect(current).toBeFocused();
      await expect(current).toHaveAttribute('autocomplete', 'current-password');
      await dialog.getByRole('button', { name: su.continue }).click();
      await expect(dialog.getByText(su.passwordRequired)).toBeVisible();

      await current.fill('notMine123');
      await dialog.getByRole('button', { name: su.continue }).click();
      await expect(dialog.getByText(lang === 'zh' ? '当前密码错误。' : 'The current password is wrong.')).toBeVisible();

      await current.fill('oldHarbour1');
      await dialog.getByRole('button', { name: su.continue }).click();
      // Back where the change began, which says it is done.
      await expect(page).toHaveURL(/\/user_center$/);
      await expect(page.getByRole('status').filter({ hasText: t.userCenter.passwordChanged })).toBeVisible();
      // Said once: a later visit of the user center does not repeat it.
      await page.reload();
      await expect(page.getByRole('button', { name: t.userCenter.editProfile })).toBeVisible();
      await expect(page.getByText(t.userCenter.passwordChanged)).toHaveCount(0);
      expect(await stillSignedIn(page.request)).toBe(true);
      expect(await stillSignedIn(other.request)).toBe(false);
      await elsewhere.close();

      // The new password signs in (through the gateway; signing in is not what this test is about). Off the portal
      // first: the page it went on to would answer the cleared session by going to sign-in itself.
      await page.goto('about:blank');
      await page.context().clearCookies();
      await signInByRequest(page.request, email, 'newHarbour2');
    });

    test('sends a code to a person who signed up by code and has no password', async ({ page }) => {
      const email = uniqueEmail(`codeonly-${lang}`);
      const userId = await seedUser(page.request, { email, userType: 1, agreed: true });
      const su = t.stepUp;
      // Arrives signed in from another site (a session hand-off), so no code is in the outbox yet.
      await handedOver(page, lang, userId, '/change_password');
      // An account with no password sets its first one (issue 33): the page and its button say so.
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(c.setTitle);
      await page.getByLabel(c.newPassword, { exact: true }).fill('firstHarbour3');
      await page.getByLabel(c.confirmPassword, { exact: true }).fill('firstHarbour3');
      await page.getByRole('button', { name: c.setSubmit }).click();
      const dialog = page.getByRole('dialog', { name: su.title });
      await expect(dialog.getByText(su.codeIntro.split('{to}')[0]!.trim())).toBeVisible();
      await expect(dialog.getByLabel(su.passwordLabel, { exact: true })).toHaveCount(0);
      await dialog.getByRole('button', { name: su.getCode }).click();
      await expect(dialog.getByRole('status').filter({ hasText: su.codeSent })).toBeVisible();
      await dialog.getByLabel(su.codeLabel, { exact: true }).fill(await readCode(page.request, email));
      await dialog.getByRole('button', { name: su.continue }).click();
      await expect(page).toHaveURL(/\/user_center$/);
      // A first password is set, not "changed" (issue 47).
      await expect(page.getByRole('status').filter({ hasText: t.userCenter.passwordSet })).toBeVisible();
      await expect(page.getByText(t.userCenter.passwordChanged)).toHaveCount(0);

      // The new password signs in (through the gateway; signing in is not what this test is about). Off the portal
      // first: the page it went on to would answer the cleared session by going to sign-in itself.
      await page.goto('about:blank');
      await page.context().clearCookies();
      await signInByRequest(page.request, email, 'firstHarbour3');
    });

    test('an account signed up by code sets a password: its own title, where the last code went, a way back', async ({ page }) => {
      const email = uniqueEmail(`setpw-${lang}`);
      const userId = await seedUser(page.request, { email, userType: 2, agreed: true });
      // The code of the sign-up, moments ago: its resend wait is the one the dialog meets.
      const sent = await page.request.post('/api/agg-web/user/getRegVerificationCode', { data: { emailAddress: email, type: 1 } });
      expect(((await sent.json()) as { code: string }).code).toBe('0');
      await handedOver(page, lang, userId, '/change_password');
      await expect(page.getByRole('heading', { level: 1, name: c.setTitle })).toBeVisible();
      await expect(page).toHaveTitle(new RegExp(`^${c.setTitle}`));
      await expect(page.getByRole('link', { name: c.backToUserCenter })).toHaveAttribute('href', '/user_center');
      await page.getByLabel(c.newPassword, { exact: true }).fill('harbourGate8');
      await page.getByLabel(c.confirmPassword, { exact: true }).fill('harbourGate8');
      await page.getByRole('button', { name: c.setSubmit }).click();
      const dialog = page.getByRole('dialog', { name: t.stepUp.title });
      await dialog.getByRole('button', { name: t.stepUp.getCode }).click();
      const [before] = t.stepUp.codeWait.split('{to}');
      await expect(dialog.getByText(before!.trim())).toBeVisible();
      await expect(dialog).not.toContainText(t.errors.network);
      await expect(dialog).not.toContainText(lang === 'zh' ? '请稍后再获取验证码' : 'Please wait a moment');
      await expectAccessible(page);
      await shoot(page, `set-password-${lang}-1280`);
    });
  });
}
