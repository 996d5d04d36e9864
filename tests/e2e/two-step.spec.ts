import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { Secret, TOTP } from 'otpauth';
import { messages } from '../../src/i18n';
import { langs, type Lang } from '../../src/lib/lang';
import { expectAccessible, openInLanguage, seedUser, signInByEmail, uniqueEmail } from './helpers';
import { consoleMessages } from '../../src/i18n/ops';

const PASSWORD = 'harbour2024';
/** The code of the next 30-second step: accepted (±1 step) and never the one enrolment just used. */
const nextCode = (secret: string) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + 30_000 });

const viewports = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

async function signOut(page: Page, lang: Lang) {
  await openInLanguage(page, lang, '/user_center');
  await page.getByRole('button', { name: messages[lang].userCenter.signOut, exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
}

for (const lang of langs) {
  const t = messages[lang].twoStep;
  for (const viewport of viewports) {
    test.describe(`two-step verification (${lang}, ${viewport.name})`, () => {
      test.use({ viewport: { width: viewport.width, height: viewport.height } });
      // Three sign-ins, an enrolment and four axe runs: longer than one sign-in test.
      test.setTimeout(120_000);

      test('enrol an authenticator app, sign in with a code, then with a recovery code; the history and support say which', async ({ page, browser }) => {
        const email = uniqueEmail(`two-step-${lang}-${viewport.name}`);
        await seedUser(page.request, { email, password: PASSWORD, userType: 1, agreed: true });
        await signInByEmail(page, lang, email, PASSWORD);
        await expect(page).not.toHaveURL(/\/login/);

        // Enrolment in the user center's Security section.
        await openInLanguage(page, lang, '/user_center#security');
        await expect(page.getByRole('heading', { name: messages[lang].security.title, level: 2 })).toBeVisible();
        await expect(page.getByText(t.statusOff)).toBeVisible();
        // Two-step off: the section says a passkey sign-in is already two steps (no "confirm with a passkey" yet).
        await expect(page.locator('[data-two-step-passkeys]')).toHaveText(t.passkeyIsTwoStep);
        await page.getByRole('button', { name: t.turnOn }).click();
        await expect(page.getByRole('img', { name: t.qrLabel })).toBeVisible();
        const secret = (await page.locator('[data-two-step-secret]').innerText()).replace(/\s/g, '');
        expect(secret).toMatch(/^[A-Z2-7]{32}$/);
        await expectAccessible(page);
        await page.screenshot({ path: `test-results/two-step-enrol-${lang}-${viewport.name}.png`, fullPage: true });

        // A wrong code is refused with a clear message; the right one turns it on.
        const code = page.getByLabel(t.codeLabel);
        await code.fill('000000');
        await page.getByRole('button', { name: t.finish }).click();
        await expect(page.getByRole('alert').filter({ hasText: lang === 'zh' ? '验证码错误' : 'Wrong code' })).toBeVisible();
        await code.fill(TOTP.generate({ secret: Secret.fromBase32(secret) }));
        await page.getByRole('button', { name: t.finish }).click();
        const list = page.locator('[data-recovery-codes] code');
        await expect(list).toHaveCount(10);
        const recoveryCodes = await list.allInnerTexts();
        await expect(page.getByRole('heading', { name: t.codesTitle })).toBeFocused();
        await expectAccessible(page);
        await page.screenshot({ path: `test-results/two-step-codes-${lang}-${viewport.name}.png`, fullPage: true });
        await page.getByRole('button', { name: t.done }).click();
        await expect(page.getByText(t.statusOn)).toBeVisible();

        // Signing in now stops at the second step: no session until the code.
        await signOut(page, lang);
        await signInByEmail(page, lang, email, PASSWORD);
        await expect(page.getByRole('heading', { name: t.title })).toBeFocused();
        const cookies = await page.context().cookies();
        expect(cookies.find((c) => c.name === 'portal_token')).toBeUndefined();
        const challenge = cookies.find((c) => c.name === 'portal_second_step');
        expect(challenge?.httpOnly).toBe(true);
        await expect(page.getByLabel(t.codeLabel)).toHaveAttribute('autocomplete', 'one-time-code');
        await expectAccessible(page);
        await page.screenshot({ path: `test-results/two-step-login-${lang}-${viewport.name}.png`, fullPage: true });
        await page.getByLabel(t.codeLabel).fill('12');
        await page.keyboard.press('Enter');
        await expect(page.getByRole('alert').filter({ hasText: t.codeInvalid })).toBeVisible();
        await page.getByLabel(t.codeLabel).fill(nextCode(secret));
        await page.keyboard.press('Enter');
        await expect(page).not.toHaveURL(/\/login/);
        expect((await page.context().cookies()).find((c) => c.name === 'portal_token')).toBeDefined();

        // And with a recovery code, by keyboard.
        await signOut(page, lang);
        await signInByEmail(page, lang, email, PASSWORD);
        await expect(page.getByRole('heading', { name: t.title })).toBeFocused();
        await page.getByRole('button', { name: t.useRecovery }).focus();
        await page.keyboard.press('Enter');
        await expect(page.getByLabel(t.recoveryLabel)).toBeVisible();
        await expectAccessible(page);
        await page.getByLabel(t.recoveryLabel).fill(recoveryCodes[0]!);
        await page.getByRole('button', { name: t.verify, exact: true }).click();
        await expect(page).not.toHaveURL(/\/login/);

        await openInLanguage(page, lang, '/user_center#security');
        await expect(page.getByText(t.recoveryLeft.replace('{count}', '9'))).toBeVisible();

        // The sign-in history says how each sign-in was made, the second step included, newest first.
        const s = messages[lang].security;
        const withStep = (step: 'totp' | 'recovery') => s.withSecondStep.replace('{method}', s.methods.password).replace('{step}', s.secondSteps[step]);
        const rows = page.locator('.sign-in-history tbody tr');
        await expect(rows.first()).toContainText(withStep('recovery'));
        await expect(rows.nth(1)).toContainText(withStep('totp'));
        await expect(rows.last()).not.toContainText(s.secondSteps.totp);

        // Support sees the same on the person's page.
        const ops = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
        const opsPage = await ops.newPage();
        const o = consoleMessages[lang].opsPeople;
        const minted = await opsPage.request.post('/api/dev/operator-session', { data: { login: `support.${Date.now()}.${lang}.${viewport.name}@ops.example.com`, role: 'support' } });
        expect(minted.ok()).toBe(true);
        await openInLanguage(opsPage, lang, '/ops/people');
        await opsPage.getByLabel(o.searchLabel).fill(email);
        await opsPage.getByRole('button', { name: o.search, exact: true }).click();
        await opsPage.getByRole('region', { name: o.resultsTable }).getByRole('button').first().click();
        await expect(opsPage.getByRole('region', { name: o.signInsTable })).toContainText(withStep('recovery'));
        await ops.close();
      });
    });
  }
}

// Issue 33 item 8: a company that requires two-step keeps out a member without it. Its card on /account says
// so, and its action sets two-step up in the user center's Security section, instead of an Enter that refuses.
for (const lang of langs) {
  const a = messages[lang].account;
  const t = messages[lang].twoStep;
  for (const viewport of viewports) {
    test.describe(`a company that requires two-step, on its card (${lang}, ${viewport.name})`, () => {
      test.use({ viewport: { width: viewport.width, height: viewport.height } });

      test('states the requirement and offers to set two-step up', async ({ page }) => {
        const email = uniqueEmail(`two-step-card-${lang}-${viewport.name}`);
        const company = `Two Step Lines ${lang} ${viewport.name} ${Date.now()}`;
        await seedUser(page.request, { email, password: PASSWORD, userType: 2, agreed: true, companies: [{ nameEn: company, role: 'staff', requireTwoStep: true }] });
        await signInByEmail(page, lang, email, PASSWORD);
        await expect(page).not.toHaveURL(/\/login/);
        await openInLanguage(page, lang, '/account');

        const card = page.locator('.company-card').filter({ has: page.getByRole('heading', { name: company }) });
        await expect(card.getByText(a.enterOnceTwoStep)).toBeVisible();
        await expect(card.getByText(a.enterNow)).toHaveCount(0);
        await expect(card.getByRole('button', { name: `${a.enter}: ${company}` })).toHaveCount(0);
        const setUp = card.getByRole('link', { name: `${t.setUpLink}: ${company}` });
        await expect(setUp).toBeVisible();
        await expectAccessible(page);
        await card.screenshot({ path: `test-results/two-step-card-${lang}-${viewport.name}.png` });

        await setUp.click();
        await expect(page).toHaveURL(/\/user_center#security$/);
        await expect(page.getByRole('heading', { name: messages[lang].security.title, level: 2 })).toBeVisible();
        await expect(page.getByText(t.statusOff)).toBeVisible();
      });
    });
  }
}
