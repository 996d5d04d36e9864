import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { Secret, TOTP } from 'otpauth';
import { messages } from '../../src/i18n';
import { langs, type Lang } from '../../src/lib/lang';
import { openInLanguage, seedUser, shoot, signInByEmail, signInByRequest, uniqueEmail } from './helpers';
import { consoleMessages } from '../../src/i18n/ops';

const PASSWORD = 'harbour2024';
/** The code of the next 30-second step: accepted (±1 step) and never the one enrolment just used. */
const nextCode = (secret: string) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + 30_000 });

const viewports = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

/**
 * Two-step verification in Chromium, each step from seeded state: enrolment in the user center; a sign-in that
 * stops at the second step and passes with the app's code; a sign-in with a recovery code, by keyboard, which the
 * security section, the sign-in history and support then name. A person with two-step already on is enrolled
 * through the calls the user center makes. Below the browser: tests/functions/two-step.test.ts. axe on these
 * states: a11y.spec.ts, "two-step verification".
 */
async function enrolByRequest(request: APIRequestContext): Promise<{ secret: string; recoveryCodes: string[] }> {
  const start = (await (await request.post('/api/agg-web/user/twoStep/enrol/start', { data: {} })).json()) as { code: string; data: { secret: string } };
  expect(start.code).toBe('0');
  const finish = (await (await request.post('/api/agg-web/user/twoStep/enrol/finish', { data: { code: TOTP.generate({ secret: Secret.fromBase32(start.data.secret) }) } })).json()) as { code: string; data: { recoveryCodes: string[] } };
  expect(finish.code).toBe('0');
  return { secret: start.data.secret, recoveryCodes: finish.data.recoveryCodes };
}

/** A person with two-step on, signed out again: their e-mail, secret and recovery codes. */
async function personWithTwoStep(page: Page, tag: string) {
  const email = uniqueEmail(tag);
  await seedUser(page.request, { email, password: PASSWORD, userType: 1, agreed: true });
  await signInByRequest(page.request, email, PASSWORD);
  const enrolled = await enrolByRequest(page.request);
  await page.context().clearCookies();
  return { email, ...enrolled };
}

for (const lang of langs) {
  const t = messages[lang].twoStep;
  for (const viewport of viewports) {
    test.describe(`two-step verification (${lang}, ${viewport.name})`, () => {
      test.use({ viewport: { width: viewport.width, height: viewport.height } });

      test('enrol an authenticator app in the user center: a wrong code is refused, the right one turns it on with ten recovery codes', async ({ signedIn: page }) => {
        await openInLanguage(page, lang, '/user_center#security');
        await expect(page.getByRole('heading', { name: messages[lang].security.title, level: 2 })).toBeVisible();
        await expect(page.getByText(t.statusOff)).toBeVisible();
        // Two-step off: the section says a passkey sign-in is already two steps (no "confirm with a passkey" yet).
        await expect(page.locator('[data-two-step-passkeys]')).toHaveText(t.passkeyIsTwoStep);
        await page.getByRole('button', { name: t.turnOn }).click();
        await expect(page.getByRole('img', { name: t.qrLabel })).toBeVisible();
        const secret = (await page.locator('[data-two-step-secret]').innerText()).replace(/\s/g, '');
        expect(secret).toMatch(/^[A-Z2-7]{32}$/);
        await shoot(page, `two-step-enrol-${lang}-${viewport.name}`);

        // A wrong code is refused with a clear message; the right one turns it on.
        const code = page.getByLabel(t.codeLabel);
        await code.fill('000000');
        await page.getByRole('button', { name: t.finish }).click();
        await expect(page.getByRole('alert').filter({ hasText: lang === 'zh' ? '验证码错误' : 'Wrong code' })).toBeVisible();
        await code.fill(TOTP.generate({ secret: Secret.fromBase32(secret) }));
        await page.getByRole('button', { name: t.finish }).click();
        await expect(page.locator('[data-recovery-codes] code')).toHaveCount(10);
        await expect(page.getByRole('heading', { name: t.codesTitle })).toBeFocused();
        await shoot(page, `two-step-codes-${lang}-${viewport.name}`);
        await page.getByRole('button', { name: t.done }).click();
        await expect(page.getByText(t.statusOn)).toBeVisible();
      });

      // The sign-in steps at one width a language (zh on a phone, en on a desktop): the enrolment above and the
      // card below are at both.
      if ((lang === 'zh') !== (viewport.name === 'phone')) return;

      test("with two-step on, signing in stops at the second step: no session until the code; a wrong code says so; the app's code signs in", async ({ page }) => {
        const { email, secret } = await personWithTwoStep(page, `two-step-code-${lang}-${viewport.name}`);
        await signInByEmail(page, lang, email, PASSWORD);
        await expect(page.getByRole('heading', { name: t.title })).toBeFocused();
        const cookies = await page.context().cookies();
        expect(cookies.find((c) => c.name === 'portal_token')).toBeUndefined();
        const challenge = cookies.find((c) => c.name === 'portal_second_step');
        expect(challenge?.httpOnly).toBe(true);
        await expect(page.getByLabel(t.codeLabel)).toHaveAttribute('autocomplete', 'one-time-code');
        await shoot(page, `two-step-login-${lang}-${viewport.name}`);
        await page.getByLabel(t.codeLabel).fill('12');
        await page.keyboard.press('Enter');
        await expect(page.getByRole('alert').filter({ hasText: t.codeInvalid })).toBeVisible();
        await page.getByLabel(t.codeLabel).fill(nextCode(secret));
        await page.keyboard.press('Enter');
        await expect(page).not.toHaveURL(/\/login/);
        expect((await page.context().cookies()).find((c) => c.name === 'portal_token')).toBeDefined();
      });

      test('a recovery code signs in, by keyboard; the security section, the sign-in history and support say which', async ({ page, newPage, operatorPage }) => {
        const { email, secret, recoveryCodes } = await personWithTwoStep(page, `two-step-recovery-${lang}-${viewport.name}`);
        // An earlier sign-in with the app's code, through the calls the second step's form makes.
        const { createHash } = await import('node:crypto');
        const first = await page.request.post('/api/agg-web/user/v3/userLogin', {
          data: { loginEmail: email, loginPassword: createHash('sha256').update(PASSWORD).digest('hex'), passwordVersion: 2, captchaType: 3, grant_type: 'password', scope: 'server', client_id: 'portal', client_secret: 'portal' },
        });
        await first.dispose();
        const verified = await page.request.post('/api/agg-web/user/twoStep/verify', { data: { kind: 'totp', code: nextCode(secret) } });
        expect(((await verified.json()) as { code: string }).code).toBe('0');
        await page.context().clearCookies();

        await signInByEmail(page, lang, email, PASSWORD);
        await expect(page.getByRole('heading', { name: t.title })).toBeFocused();
        await page.getByRole('button', { name: t.useRecovery }).focus();
        await page.keyboard.press('Enter');
        await expect(page.getByLabel(t.recoveryLabel)).toBeVisible();
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
        const ops = await operatorPage('support', { page: await newPage({ viewport: { width: viewport.width, height: viewport.height } }) });
        const o = consoleMessages[lang].opsPeople;
        await openInLanguage(ops, lang, '/ops/people');
        await ops.getByLabel(o.searchLabel).fill(email);
        await ops.getByRole('button', { name: o.search, exact: true }).click();
        await ops.getByRole('region', { name: o.resultsTable }).getByRole('button').first().click();
        await expect(ops.getByRole('region', { name: o.signInsTable })).toContainText(withStep('recovery'));
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
        await signInByRequest(page.request, email, PASSWORD);
        await openInLanguage(page, lang, '/account');

        const card = page.locator('.company-card').filter({ has: page.getByRole('heading', { name: company }) });
        await expect(card.getByText(a.enterOnceTwoStep)).toBeVisible();
        await expect(card.getByText(a.enterNow)).toHaveCount(0);
        await expect(card.getByRole('button', { name: `${a.enter}: ${company}` })).toHaveCount(0);
        const setUp = card.getByRole('link', { name: `${t.setUpLink}: ${company}` });
        await expect(setUp).toBeVisible();
        // axe on this card: a11y.spec.ts, "the company cards of /account".
        await shoot(page, `two-step-card-${lang}-${viewport.name}`);

        await setUp.click();
        await expect(page).toHaveURL(/\/user_center#security$/);
        await expect(page.getByRole('heading', { name: messages[lang].security.title, level: 2 })).toBeVisible();
        await expect(page.getByText(t.statusOff)).toBeVisible();
        // The header's sign-out is on the user center too (issue 47).
        await expect(page.getByRole('banner').getByRole('button', { name: messages[lang].header.logout })).toBeVisible();
        // The profile's modules wait for two-step, not for the administrator, with the way to set it up (issue 47).
        const profile = page.locator('section[aria-labelledby="profile-title"]');
        await expect(profile.getByText(messages[lang].members.noModulesUntilTwoStep.replace('{company}', company))).toBeVisible();
        await expect(profile.getByText(messages[lang].members.noModules)).toHaveCount(0);
        await expect(profile.getByRole('link', { name: messages[lang].members.setUpTwoStep })).toHaveAttribute('href', '#security');
        await profile.getByText(messages[lang].members.noModulesUntilTwoStep.replace('{company}', company)).scrollIntoViewIfNeeded();
        await shoot(page, `modules-wait-two-step-${lang}-${viewport.name}`, { fullPage: false });
      });
    });
  }
}
