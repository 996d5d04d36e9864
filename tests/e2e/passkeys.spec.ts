import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { langs, type Lang } from '../../src/lib/lang';
import { addVirtualAuthenticator, expectAccessible, openAsPasskeyOrigin, PASSKEY_ORIGIN, seedUser, uniqueEmail } from './helpers';

/**
 * Passkeys end to end in Chromium with its virtual authenticator (CDP WebAuthn: a platform authenticator with
 * resident keys that verifies the person): register one in the user center, name and rename it, sign out, sign
 * in with it from /login, remove it. Browsers refuse an IP address as a relying party, so these tests open
 * the server as localhost, which `npm run serve:e2e` configures as the passkey origin (PASSKEY_ORIGINS).
 */
test.use({ baseURL: PASSKEY_ORIGIN });

const PASSWORD = 'harbour2024';
const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

for (const lang of langs) {
  const t = messages[lang];
  const pk = t.passkeys;
  for (const size of WIDTHS) {
    test(`passkeys (${lang}, ${size.name}): register and name one, sign in with it from /login, remove it`, async ({ page }) => {
      test.setTimeout(90_000);
      await page.setViewportSize({ width: size.width, height: size.height });
      const authenticator = await addVirtualAuthenticator(page);
      const email = uniqueEmail(`passkey-${lang}-${size.name}`);
      await seedUser(page.request, { email, password: PASSWORD, agreed: true, realName: 'Passkey Person' });

      // Sign in with the password first (the e-mail field offers passkeys in the browser's autofill too).
      await openAsPasskeyOrigin(page, lang, '/login');
      await page.getByRole('tab', { name: t.signIn.tabs.password }).click();
      await page.getByRole('tab', { name: t.signIn.tabs.email }).click();
      await expect(page.getByLabel(t.signIn.email)).toHaveAttribute('autocomplete', 'username webauthn');
      await page.getByLabel(t.signIn.email).fill(email);
      await page.getByLabel(t.signIn.password, { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: t.signIn.submit, exact: true }).click();
      // A person without a company goes on to choose one (the login case), then visits the user center.
      await expect(page).toHaveURL(/\/enterprise_adm_and_staff/);
      await openAsPasskeyOrigin(page, lang, '/user_center');

      // The Security section: no passkey yet.
      const section = page.locator('section.passkeys');
      // The passkeys load when the Security section scrolls into view.
      await page.getByRole('heading', { name: t.security.title, level: 2 }).scrollIntoViewIfNeeded();
      await expect(section.getByText(pk.empty)).toBeVisible();
      await expectAccessible(page);

      // Add, by keyboard: the name dialog suggests this browser and system; Enter continues.
      await section.getByRole('button', { name: pk.add }).focus();
      await page.keyboard.press('Enter');
      const nameDialog = page.getByRole('dialog', { name: pk.addTitle });
      await expect(nameDialog).toBeVisible();
      const name = nameDialog.getByLabel(pk.nameLabel);
      await expect(name).toBeFocused();
      await expect(name).toHaveValue(/Chrome/);
      await expectAccessible(page);
      const firstName = lang === 'zh' ? '办公电脑' : 'Work laptop';
      await name.fill(firstName);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('status').filter({ hasText: pk.added.replace('{name}', firstName) })).toBeVisible();
      await expect(section.getByRole('listitem')).toHaveCount(1);
      await expect(section.getByRole('listitem')).toContainText(firstName);
      // A Chinese page writes the full-width colon (issue 33).
      await expect(section.getByRole('listitem')).toContainText(`${pk.lastUsed}${lang === 'zh' ? '：' : ': '}${pk.never}`);
      expect(await authenticator.credentials()).toHaveLength(1);
      await page.screenshot({ path: test.info().outputPath(`user-center-${lang}-${size.width}.png`), fullPage: true });

      // Rename it.
      const secondName = lang === 'zh' ? '我的手机' : 'My phone';
      await section.getByRole('button', { name: pk.renameLabel.replace('{name}', firstName) }).click();
      const renameDialog = page.getByRole('dialog', { name: pk.renameTitle });
      await renameDialog.getByLabel(pk.nameLabel).fill(secondName);
      await renameDialog.getByRole('button', { name: pk.save }).click();
      await expect(section.getByRole('listitem')).toContainText(secondName);

      // Sign out, then sign in with the passkey from /login: it goes on as every sign-in does.
      await page.getByRole('button', { name: t.userCenter.signOut, exact: true }).click();
      await expect(page).toHaveURL(/\/login/);
      const passkeyButton = page.getByRole('button', { name: pk.signIn });
      await expect(passkeyButton).toBeVisible();
      await expectAccessible(page);
      await page.screenshot({ path: test.info().outputPath(`login-${lang}-${size.width}.png`), fullPage: true });
      await passkeyButton.click();
      // The same login case routing as the password sign-in above.
      await expect(page).toHaveURL(/\/enterprise_adm_and_staff/);
      await openAsPasskeyOrigin(page, lang, '/user_center');
      await page.getByRole('heading', { name: t.security.title, level: 2 }).scrollIntoViewIfNeeded();
      await expect(section.getByRole('listitem')).toContainText(secondName);
      await expect(section.getByRole('listitem')).not.toContainText(pk.never);

      // Remove it, after the confirmation (Cancel first keeps it).
      await section.getByRole('button', { name: pk.removeLabel.replace('{name}', secondName) }).click();
      const confirm = page.getByRole('dialog', { name: pk.removeTitle });
      await expect(confirm).toBeVisible();
      await expectAccessible(page);
      await confirm.getByRole('button', { name: pk.cancel }).click();
      await expect(section.getByRole('listitem')).toHaveCount(1);
      await section.getByRole('button', { name: pk.removeLabel.replace('{name}', secondName) }).click();
      await confirm.getByRole('button', { name: pk.remove }).click();
      await expect(page.getByRole('status').filter({ hasText: pk.removed.replace('{name}', secondName) })).toBeVisible();
      await expect(section.getByText(pk.empty)).toBeVisible();
      await expect(section.getByRole('button', { name: pk.add })).toBeFocused();

      // The authenticator still holds the credential, but the site no longer accepts it.
      await page.getByRole('button', { name: t.userCenter.signOut, exact: true }).click();
      await expect(page).toHaveURL(/\/login/);
      await page.getByRole('button', { name: pk.signIn }).click();
      await expect(page.getByRole('alert')).toHaveText(errorCatalogue.PK0004[lang]);
      await expect(page).toHaveURL(/\/login/);
    });
  }
}
