import { expect, test } from './fixtures';
import { Secret, TOTP } from 'otpauth';
import { messages } from '../../src/i18n';
import { addVirtualAuthenticator, expectAccessible, openAsPasskeyOrigin, PASSKEY_ORIGIN, seedUser, signInByRequest, uniqueEmail, shoot } from './helpers';

/**
 * A passkey as the second step, in Chromium with its virtual authenticator (CDP WebAuthn): a person with an
 * authenticator app and a passkey signs in with the password, and on the second-step screen (which still offers
 * the code) passes it with the passkey. Opened as localhost, the passkey origin of `npm run serve:e2e`.
 */
test.use({ baseURL: PASSKEY_ORIGIN });

const PASSWORD = 'harbour2024';
const CASES = [
  { lang: 'zh', name: 'phone', width: 390, height: 844 },
  { lang: 'en', name: 'desktop', width: 1280, height: 900 },
] as const;

for (const { lang, ...size } of CASES) {
  const t = messages[lang];
  test(`passkey second step (${lang}, ${size.name}): password first, then the passkey instead of a code`, async ({ page }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    const authenticator = await addVirtualAuthenticator(page);
    const email = uniqueEmail(`passkey2-${lang}-${size.name}`);
    await seedUser(page.request, { email, password: PASSWORD, agreed: true, realName: 'Second Step' });
    await signInByRequest(page.request, email, PASSWORD);

    // Two-step on with an authenticator app (the test computes the code from the secret).
    const start = (await (await page.request.post('/api/agg-web/user/twoStep/enrol/start', { data: {} })).json()) as { data: { secret: string } };
    const code = TOTP.generate({ secret: Secret.fromBase32(start.data.secret) });
    expect(((await (await page.request.post('/api/agg-web/user/twoStep/enrol/finish', { data: { code } })).json()) as { code: string }).code).toBe('0');

    // A passkey, added in the user center, whose two-step section says a passkey is two steps in one, and may
    // confirm a password sign-in.
    await openAsPasskeyOrigin(page, lang, '/user_center');
    await page.getByRole('heading', { name: t.security.title, level: 2 }).scrollIntoViewIfNeeded();
    const passkeys = page.locator('section.passkeys');
    await passkeys.getByRole('button', { name: t.passkeys.add }).click();
    await page.getByRole('dialog', { name: t.passkeys.addTitle }).getByLabel(t.passkeys.nameLabel).fill('Laptop');
    await page.keyboard.press('Enter');
    await expect(passkeys.getByRole('listitem')).toHaveCount(1);
    expect(await authenticator.credentials()).toHaveLength(1);
    await expect(page.getByText(t.twoStep.statusOn)).toBeVisible();
    await expect(page.locator('[data-two-step-passkeys]')).toHaveText(`${t.twoStep.passkeyIsTwoStep} ${t.twoStep.passkeyAsSecondStep}`);

    await page.getByRole('main').getByRole('button', { name: t.userCenter.signOut, exact: true }).click();
    await expect(page).toHaveURL(/\/login/);
    // The virtual authenticator answers the e-mail field's autofill offer (conditional UI) by itself, which would
    // sign in with the passkey as the first factor: it cannot verify the person until the second step.
    await authenticator.verifies(false);

    // The password alone stops at the second step: no session yet.
    await page.getByRole('tab', { name: t.signIn.tabs.password }).click();
    await page.getByRole('tab', { name: t.signIn.tabs.email }).click();
    await page.getByLabel(t.signIn.email).fill(email);
    await page.getByLabel(t.signIn.password, { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: t.signIn.submit, exact: true }).click();
    await expect(page.getByRole('heading', { name: t.twoStep.title })).toBeFocused();
    expect((await page.context().cookies()).find((c) => c.name === 'portal_token')).toBeUndefined();

    // The code stays available beside the passkey.
    await expect(page.getByLabel(t.twoStep.codeLabel)).toBeVisible();
    const usePasskey = page.getByRole('button', { name: t.twoStep.usePasskey });
    await expect(usePasskey).toBeVisible();
    await expect(page.getByText(t.twoStep.passkeyHint)).toBeVisible();
    await expectAccessible(page);
    await shoot(page, `second-step-${lang}-${size.width}`);

    await authenticator.verifies(true);
    // By keyboard: the passkey passes the second step and the sign-in goes on as every sign-in does.
    const verified = page.waitForResponse((r) => r.url().endsWith('/api/agg-web/passkeys/secondStep/verify'));
    await usePasskey.focus();
    await page.keyboard.press('Enter');
    expect(((await (await verified).json()) as { code: string }).code).toBe('0');
    await expect(page).toHaveURL(/\/enterprise_adm_and_staff/);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'portal_token')?.httpOnly).toBe(true);
    expect(cookies.find((c) => c.name === 'portal_second_step')).toBeUndefined();
  });
}
