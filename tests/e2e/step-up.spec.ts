import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { Secret, TOTP } from 'otpauth';
import { messages } from '../../src/i18n';
import { langs, type Lang } from '../../src/lib/lang';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { leaveAndClearCookies, addVirtualAuthenticator, expectAccessible, handedOver, openAsPasskeyOrigin, PASSKEY_ORIGIN, readCode, seedUser, signInByRequest, uniqueEmail, shoot } from './helpers';

/**
 * "Confirm it's you" (step-up) in the user center: a session without a fresh proof of its person is asked to prove
 * it before a sensitive change, then the change runs. The session here is one handed over from another site, which
 * proves nobody: the same state as a session older than STEP_UP_MAX_AGE (tests/functions/step-up.test.ts ages one
 * with the clock). The worker's clock is not moved here: a spec that moves it puts it back after each test.
 */
test.use({ baseURL: PASSKEY_ORIGIN });

const PASSWORD = 'harbour2024';

/** Leaves the fresh session and arrives on /user_center with an unproved one (a session hand-off). */
async function unprovedSession(page: Page, lang: Lang, userId: string) {
  await leaveAndClearCookies(page);
  await handedOver(page, lang, userId, '/user_center');
}

async function openSecurity(page: Page, lang: Lang) {
  await openAsPasskeyOrigin(page, lang, '/user_center');
  await page.getByRole('heading', { name: messages[lang].security.title, level: 2 }).scrollIntoViewIfNeeded();
}

for (const lang of langs) {
  const t = messages[lang];
  const su = t.stepUp;

  test(`an aged session removes a passkey after confirming it's them with the password (${lang})`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await addVirtualAuthenticator(page);
    const email = uniqueEmail(`stepup-pk-${lang}`);
    const userId = await seedUser(page.request, { email, password: PASSWORD, agreed: true, realName: 'Step Up' });
    await signInByRequest(page.request, email, PASSWORD);
    await openSecurity(page, lang);

    // Fresh from the sign-in: adding a passkey asks for nothing more.
    const section = page.locator('section.passkeys');
    await section.getByRole('button', { name: t.passkeys.add }).click();
    await page.getByRole('dialog', { name: t.passkeys.addTitle }).getByRole('button', { name: t.passkeys.continue }).click();
    await expect(section.getByRole('listitem')).toHaveCount(1);
    const name = (await section.locator('.passkey-name').innerText()).trim();

    await unprovedSession(page, lang, userId);
    await openSecurity(page, lang);
    {
      const remove = section.getByRole('button', { name: t.passkeys.removeLabel.replace('{name}', name) });
      await remove.click();
      await page.getByRole('dialog', { name: t.passkeys.removeTitle }).getByRole('button', { name: t.passkeys.remove }).click();
      const dialog = page.getByRole('dialog', { name: su.title });
      await expect(dialog).toBeVisible();
      const password = dialog.getByLabel(su.passwordLabel, { exact: true });
      await expect(password).toBeFocused();
      await expect(dialog.getByRole('button', { name: su.usePasskey })).toBeVisible();
      await expectAccessible(page);
      await shoot(page, `step-up-${lang}-390`);
      await page.setViewportSize({ width: 1280, height: 900 });
      await shoot(page, `step-up-${lang}-1280`);

      // Escape cancels: nothing is removed, nothing is said.
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      await expect(section.getByRole('listitem')).toHaveCount(1);
      await expect(page.getByRole('alert')).toHaveCount(0);

      // Again: a wrong password is refused in the visitor's language, the right one removes the passkey.
      await remove.click();
      await page.getByRole('dialog', { name: t.passkeys.removeTitle }).getByRole('button', { name: t.passkeys.remove }).click();
      await dialog.getByLabel(su.passwordLabel, { exact: true }).fill('notMine123');
      await dialog.getByRole('button', { name: su.continue }).click();
      await expect(dialog.getByText(errorCatalogue.PW0003[lang])).toBeVisible();
      await shoot(page, `step-up-${lang}-1280-error`);
      await dialog.getByLabel(su.passwordLabel, { exact: true }).fill(PASSWORD);
      await page.keyboard.press('Enter');
      await expect(dialog).toHaveCount(0);
      await expect(page.getByRole('status').filter({ hasText: t.passkeys.removed.replace('{name}', name) })).toBeVisible();
      await expect(section.getByRole('listitem')).toHaveCount(0);
    }
  });

  test(`an aged session with two-step on turns it off: the password, then the app code (${lang})`, async ({ page }) => {
    const email = uniqueEmail(`stepup-2s-${lang}`);
    const userId = await seedUser(page.request, { email, password: PASSWORD, agreed: true });
    await signInByRequest(page.request, email, PASSWORD);
    // Two-step on, while the sign-in is fresh.
    const start = (await (await page.request.post('/api/agg-web/user/twoStep/enrol/start', { data: {} })).json()) as { data: { secret: string } };
    const secret = Secret.fromBase32(start.data.secret);
    const finish = (await (await page.request.post('/api/agg-web/user/twoStep/enrol/finish', { data: { code: TOTP.generate({ secret }) } })).json()) as { code: string };
    expect(finish.code).toBe('0');
    await openSecurity(page, lang);
    await expect(page.locator('[data-two-step-status="on"]')).toBeVisible();

    await unprovedSession(page, lang, userId);
    await openSecurity(page, lang);
    await expect(page.locator('[data-two-step-status="on"]')).toBeVisible();
    {
      await page.getByRole('button', { name: t.twoStep.turnOff, exact: true }).click();
      await page.getByRole('dialog', { name: su.turnOffTitle }).getByRole('button', { name: t.twoStep.turnOff }).click();
      const dialog = page.getByRole('dialog', { name: su.title });
      await expect(dialog.getByText(su.introTwoStep)).toBeVisible();
      await dialog.getByLabel(su.passwordLabel, { exact: true }).fill(PASSWORD);
      await dialog.getByRole('button', { name: su.continue }).click();
      // The password alone is no proof with two-step on: the app's code comes next.
      const second = dialog.getByLabel(su.secondLabel);
      await expect(second).toBeFocused();
      await expectAccessible(page);
      await shoot(page, `step-up-${lang}-second`);
      // The next step's code: the one of enrolment may not be used twice.
      await second.fill(TOTP.generate({ secret, timestamp: Date.now() + 30_000 }));
      await dialog.getByRole('button', { name: su.confirm }).click();
      await expect(dialog).toHaveCount(0);
      await expect(page.getByRole('status').filter({ hasText: t.twoStep.turnedOff })).toBeVisible();
      await expect(page.locator('[data-two-step-status="off"]')).toBeVisible();
    }
  });

  test(`after a password reset by code the passkeys are listed for review, each with its remove button (${lang})`, async ({ page }) => {
    await addVirtualAuthenticator(page);
    const email = uniqueEmail(`stepup-reset-${lang}`);
    await seedUser(page.request, { email, password: PASSWORD, agreed: true });
    await signInByRequest(page.request, email, PASSWORD);
    await openSecurity(page, lang);
    const section = page.locator('section.passkeys');
    await section.getByRole('button', { name: t.passkeys.add }).click();
    await page.getByRole('dialog', { name: t.passkeys.addTitle }).getByRole('button', { name: t.passkeys.continue }).click();
    await expect(section.getByRole('listitem')).toHaveCount(1);
    await expect(section.locator('[data-passkey-review]')).toHaveCount(0);

    // Forgotten password: reset by a code to the e-mail (every session ends), then sign in with the new one.
    const { createHash } = await import('node:crypto');
    const hash = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(((await (await page.request.post('/api/agg-web/user/password/reset/sendCode', { data: { loginType: 2, loginEmail: email } })).json()) as { code: string }).code).toBe('0');
    const code = await readCode(page.request, email);
    const reset = { loginType: 2, loginEmail: email, code, newPassword: hash('harbour2025'), newPasswordSubmit: hash('harbour2025') };
    expect(((await (await page.request.post('/api/agg-web/user/password/reset', { data: reset })).json()) as { code: string }).code).toBe('0');
    await signInByRequest(page.request, email, 'harbour2025');
    await openSecurity(page, lang);
    const review = section.locator('[data-passkey-review]');
    await expect(review).toContainText(su.reviewTitle);
    await expect(section.getByRole('button', { name: new RegExp(t.passkeys.remove) })).toBeVisible();
    await expectAccessible(page);
    await shoot(page, `passkey-review-${lang}`);
    await review.getByRole('button', { name: su.reviewDone }).click();
    await expect(review).toHaveCount(0);
    await page.reload();
    await page.getByRole('heading', { name: t.security.title, level: 2 }).scrollIntoViewIfNeeded();
    await expect(section.getByRole('listitem')).toHaveCount(1);
    await expect(section.locator('[data-passkey-review]')).toHaveCount(0);
  });
}
