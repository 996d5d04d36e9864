import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { langs, type Lang } from '../../src/lib/lang';
import { type Page } from '@playwright/test';
import { addVirtualAuthenticator, expectAccessible, openAsPasskeyOrigin, PASSKEY_ORIGIN, seedUser, signInByRequest, uniqueEmail, shoot } from './helpers';

/**
 * Passkeys end to end in Chromium with its virtual authenticator (CDP WebAuthn: a platform authenticator with
 * resident keys that verifies the person): register one in the user center, name and rename it, sign out, sign
 * in with it from /login, remove it. Browsers refuse an IP address as a relying party, so these tests open
 * the server as localhost, which `npm run serve:e2e` configures as the passkey origin (PASSKEY_ORIGINS).
 * Two steps, each from a freshly seeded person signed in by password through the gateway.
 */
test.use({ baseURL: PASSKEY_ORIGIN });

const PASSWORD = 'harbour2024';
const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

/** A seeded person, signed in by password, on the user center's Security section with no passkey yet. */
async function onSecurity(page: Page, lang: Lang, tag: string) {
  const t = messages[lang];
  const email = uniqueEmail(`passkey-${tag}-${lang}`);
  await seedUser(page.request, { email, password: PASSWORD, agreed: true, realName: 'Passkey Person' });
  await signInByRequest(page.request, email, PASSWORD);
  await openAsPasskeyOrigin(page, lang, '/user_center');
  const section = page.locator('section.passkeys');
  // The passkeys load when the Security section scrolls into view.
  await page.getByRole('heading', { name: t.security.title, level: 2 }).scrollIntoViewIfNeeded();
  await expect(section.getByText(t.passkeys.empty)).toBeVisible();
  return section;
}

/** Adds a passkey named `name` by keyboard: the add button, the name dialog, Enter. */
async function addPasskey(page: Page, lang: Lang, name: string) {
  const pk = messages[lang].passkeys;
  const section = page.locator('section.passkeys');
  await section.getByRole('button', { name: pk.add }).focus();
  await page.keyboard.press('Enter');
  const nameDialog = page.getByRole('dialog', { name: pk.addTitle });
  await expect(nameDialog).toBeVisible();
  const field = nameDialog.getByLabel(pk.nameLabel);
  await expect(field).toBeFocused();
  return { nameDialog, field, submit: async () => {
    await field.fill(name);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: pk.added.replace('{name}', name) })).toBeVisible();
  } };
}

for (const lang of langs) {
  const t = messages[lang];
  const pk = t.passkeys;
  for (const size of WIDTHS) {
    test.describe(`passkeys (${lang}, ${size.name})`, () => {
      test.beforeEach(async ({ page }) => {
        await page.setViewportSize({ width: size.width, height: size.height });
      });

      test('registers one in the user center by keyboard, with the suggested name replaced, and renames it', async ({ page }) => {
        const authenticator = await addVirtualAuthenticator(page);
        const section = await onSecurity(page, lang, `add-${size.name}`);
        await expectAccessible(page);

        // Add, by keyboard: the name dialog suggests this browser and system; Enter continues.
        const firstName = lang === 'zh' ? '办公电脑' : 'Work laptop';
        const adding = await addPasskey(page, lang, firstName);
        await expect(adding.field).toHaveValue(/Chrome/);
        await expectAccessible(page);
        await adding.submit();
        await expect(section.getByRole('listitem')).toHaveCount(1);
        await expect(section.getByRole('listitem')).toContainText(firstName);
        // A Chinese page writes the full-width colon (issue 33).
        await expect(section.getByRole('listitem')).toContainText(`${pk.lastUsed}${lang === 'zh' ? '：' : ': '}${pk.never}`);
        expect(await authenticator.credentials()).toHaveLength(1);
        await shoot(page, `passkeys-user-center-${lang}-${size.width}`);

        // Rename it.
        const secondName = lang === 'zh' ? '我的手机' : 'My phone';
        await section.getByRole('button', { name: pk.renameLabel.replace('{name}', firstName) }).click();
        const renameDialog = page.getByRole('dialog', { name: pk.renameTitle });
        await renameDialog.getByLabel(pk.nameLabel).fill(secondName);
        await renameDialog.getByRole('button', { name: pk.save }).click();
        await expect(section.getByRole('listitem')).toContainText(secondName);
      });

      // Registering is checked at both widths in each language; the sign-in and removal at one width per language
      // (Chinese on a phone, English on a desktop).
      if ((lang === 'zh') === (size.name === 'phone'))
      test('signs in with it from /login, then removes it after a confirmation; the site then refuses it', async ({ page }) => {
        await addVirtualAuthenticator(page);
        const section = await onSecurity(page, lang, `use-${size.name}`);
        const name = lang === 'zh' ? '我的手机' : 'My phone';
        await (await addPasskey(page, lang, name)).submit();

        // Sign out, then sign in with the passkey from /login: it goes on as every sign-in does.
        await page.getByRole('main').getByRole('button', { name: t.userCenter.signOut, exact: true }).click();
        await expect(page).toHaveURL(/\/login/);
        const passkeyButton = page.getByRole('button', { name: pk.signIn });
        await expect(passkeyButton).toBeVisible();
        await expectAccessible(page);
        await shoot(page, `passkeys-login-${lang}-${size.width}`);
        await passkeyButton.click();
        // A person without a company goes on to choose one (the login case), as after a password.
        await expect(page).toHaveURL(/\/enterprise_adm_and_staff/);
        await openAsPasskeyOrigin(page, lang, '/user_center');
        await page.getByRole('heading', { name: t.security.title, level: 2 }).scrollIntoViewIfNeeded();
        await expect(section.getByRole('listitem')).toContainText(name);
        await expect(section.getByRole('listitem')).not.toContainText(pk.never);

        // Remove it, after the confirmation (Cancel first keeps it).
        await section.getByRole('button', { name: pk.removeLabel.replace('{name}', name) }).click();
        const confirm = page.getByRole('dialog', { name: pk.removeTitle });
        await expect(confirm).toBeVisible();
        await expectAccessible(page);
        await confirm.getByRole('button', { name: pk.cancel }).click();
        await expect(section.getByRole('listitem')).toHaveCount(1);
        await section.getByRole('button', { name: pk.removeLabel.replace('{name}', name) }).click();
        await confirm.getByRole('button', { name: pk.remove }).click();
        await expect(page.getByRole('status').filter({ hasText: pk.removed.replace('{name}', name) })).toBeVisible();
        await expect(section.getByText(pk.empty)).toBeVisible();
        await expect(section.getByRole('button', { name: pk.add })).toBeFocused();

        // The authenticator still holds the credential, but the site no longer accepts it.
        await page.getByRole('main').getByRole('button', { name: t.userCenter.signOut, exact: true }).click();
        await expect(page).toHaveURL(/\/login/);
        await page.getByRole('button', { name: pk.signIn }).click();
        await expect(page.getByRole('alert')).toHaveText(errorCatalogue.PK0004[lang]);
        await expect(page).toHaveURL(/\/login/);

        // The password tab's e-mail field offers passkeys in the browser's autofill too.
        await page.getByRole('tab', { name: t.signIn.tabs.password }).click();
        await page.getByRole('tab', { name: t.signIn.tabs.email }).click();
        await expect(page.getByLabel(t.signIn.email)).toHaveAttribute('autocomplete', 'username webauthn');
      });
    });
  }
}
