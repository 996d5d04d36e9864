import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { Secret, TOTP } from 'otpauth';
import { langs } from '../../src/lib/lang';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { expectAccessible, openInLanguage, operatorCli, PASSKEY_ORIGIN, seedUser, signInByRequest, uniqueEmail } from './helpers';
import { consoleMessages } from '../../src/i18n/ops';

/**
 * Operators in real Chromium: `npm run operator -- add` prints a link, the operator opens it, sets a password
 * and connects an authenticator app, signs in with password and code, finds the navigation of their role, and
 * signs out. A platform session opens no operator page, an operator session no platform page.
 */
const PASSWORD = 'Quay7Harbour9';
const codeAt = (secret: string, at: number) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });

const viewports = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

async function shoot(page: Page, name: string) {
  for (const viewport of viewports) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `test-results/ops-${name}-${viewport.name}.png`, fullPage: true });
  }
}

for (const lang of langs) {
  const m = consoleMessages[lang].ops;
  test.describe(`operators (${lang})`, () => {
    // Several enrolments, sign-ins (PBKDF2) and axe runs per test, on a shared 2-core machine.
    test.setTimeout(300_000);

    test('enrol from the CLI link, sign in with the app code, navigation by role, sign out', async ({ page }) => {
      const login = `op.${lang}.${Date.now()}@ops.example.com`;
      const out = operatorCli('add', login, '--role', 'admin', '--name', `Admin ${lang}`, '--lang', lang);
      const link = /(http:\S+\/ops\/enrol#\S+)/.exec(out)?.[1];
      expect(link, out).toBeTruthy();

      // The enrolment page: the token leaves the address bar at once.
      await openInLanguage(page, lang, new URL(link!).pathname + new URL(link!).hash);
      await expect(page.getByRole('heading', { name: m.pages.enrol.title, level: 1 })).toBeVisible();
      // The link is checked by a call once the island has loaded: slow on a busy machine.
      await expect(page.locator('[data-enrol-account]')).toContainText(login, { timeout: 30_000 });
      expect(page.url()).not.toContain('#');
      const secret = ((await page.locator('[data-enrol-secret]').textContent()) ?? '').replace(/\s/g, '');
      await page.getByLabel(m.enrol.passwordLabel, { exact: true }).fill(PASSWORD);
      await page.getByLabel(m.enrol.passwordConfirm, { exact: true }).fill(PASSWORD);
      await page.getByLabel(m.enrol.codeLabel).fill(codeAt(secret, Date.now()));
      await expectAccessible(page);
      await shoot(page, `enrol-${lang}`);
      await page.getByRole('button', { name: m.enrol.finish }).click();
      await expect(page.getByText(m.enrol.done)).toBeVisible();

      // The link works once (opened afresh: from /ops/enrol itself a fragment change would not reload the page).
      await page.goto('about:blank');
      await page.goto(new URL(link!).pathname + new URL(link!).hash);
      await expect(page.getByRole('alert')).toHaveText(errorCatalogue.OP0010[lang]);
      await expect(page.getByRole('button', { name: m.enrol.finish })).toHaveCount(0);

      // An operator page without the operator cookie: the sign-in, returning to the page.
      await page.goto('/ops/operators');
      await expect(page).toHaveURL(/\/ops\/login\?next=%2Fops%2Foperators$/);
      await page.getByLabel(m.login.loginLabel).fill(login);
      await page.getByLabel(m.login.passwordLabel, { exact: true }).fill(PASSWORD);
      await expectAccessible(page);
      await shoot(page, `login-${lang}`);
      await page.getByRole('button', { name: m.login.next }).click();
      await expect(page.getByRole('heading', { name: m.login.codeTitle })).toBeFocused();
      // Password passed, no session yet: the cookie appears only after the code.
      expect((await page.context().cookies()).some((c) => c.name.endsWith('portal_operator'))).toBe(false);
      await page.getByLabel(m.login.codeLabel).fill(codeAt(secret, Date.now() + 30_000));
      await expectAccessible(page);
      await shoot(page, `code-${lang}`);
      await page.getByRole('button', { name: m.login.verify }).click();
      await expect(page).toHaveURL(/\/ops\/operators$/);
      const cookie = (await page.context().cookies()).find((c) => c.name.endsWith('portal_operator'));
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });

      // An admin sees every area; the list shows the new operator with their app.
      const nav = page.getByRole('navigation', { name: m.nav.label });
      for (const key of ['home', 'companies', 'people', 'audit', 'operators'] as const) await expect(nav.getByRole('link', { name: m.nav[key], exact: true })).toBeVisible();
      await expect(nav.getByRole('link', { name: m.nav.operators })).toHaveAttribute('aria-current', 'page');
      const row = page.locator(`tr[data-operator="${login}"]`);
      await expect(row).toContainText(m.roles.admin);
      await expect(row).toContainText(m.operators.totp);
      await expectAccessible(page);
      await shoot(page, `operators-${lang}`);

      // The operator session opens no platform page.
      await page.goto('/user_center');
      await expect(page).toHaveURL(/\/login\?next=%2Fuser_center$/);

      await page.goto('/ops');
      await expect(page.getByText(m.home.welcome.replace('{name}', `Admin ${lang}`))).toBeVisible();
      await expectAccessible(page);
      await shoot(page, `home-${lang}`);
      await page.getByRole('button', { name: m.nav.signOut }).click();
      await expect(page).toHaveURL(/\/ops\/login\?signedOut=1$/);
      await expect(page.getByText(m.login.signedOut)).toBeVisible();
      await page.goto('/ops');
      await expect(page).toHaveURL(/\/ops\/login\?next=%2Fops$/);
    });

    test('a reviewer sees only their areas; a wrong code says so', async ({ page }) => {
      const login = `rev.${lang}.${Date.now()}@ops.example.com`;
      const link = /(http:\S+\/ops\/enrol#\S+)/.exec(operatorCli('add', login, '--role', 'reviewer', '--name', 'Reviewer'))![1]!;
      await openInLanguage(page, lang, new URL(link).pathname + new URL(link).hash);
      const secret = ((await page.locator('[data-enrol-secret]').textContent()) ?? '').replace(/\s/g, '');
      await page.getByLabel(m.enrol.passwordLabel, { exact: true }).fill(PASSWORD);
      await page.getByLabel(m.enrol.passwordConfirm, { exact: true }).fill(PASSWORD);
      await page.getByLabel(m.enrol.codeLabel).fill(codeAt(secret, Date.now()));
      await page.getByRole('button', { name: m.enrol.finish }).click();
      await page.getByRole('link', { name: m.enrol.signIn }).click();
      await expect(page).toHaveURL(/\/ops\/login$/);
      await page.getByLabel(m.login.loginLabel).fill(login);
      await page.getByLabel(m.login.passwordLabel, { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: m.login.next }).click();
      const right = codeAt(secret, Date.now() + 30_000);
      await page.getByLabel(m.login.codeLabel).fill(right === '123456' ? '654321' : '123456');
      await page.getByRole('button', { name: m.login.verify }).click();
      await expect(page.getByText(m.login.triesLeft.replace('{count}', '4'))).toBeVisible();
      await page.getByLabel(m.login.codeLabel).fill(right);
      await page.getByRole('button', { name: m.login.verify }).click();
      await expect(page).toHaveURL(/\/ops$/);
      const nav = page.getByRole('navigation', { name: m.nav.label });
      await expect(nav.getByRole('link', { name: m.nav.companies, exact: true })).toBeVisible();
      await expect(nav.getByRole('link', { name: m.nav.audit, exact: true })).toBeVisible();
      await expect(nav.getByRole('link', { name: m.nav.people, exact: true })).toHaveCount(0);
      await expect(nav.getByRole('link', { name: m.nav.operators, exact: true })).toHaveCount(0);
      // The admin's list answers a reviewer with the role refusal.
      await page.goto('/ops/operators');
      await expect(page.getByRole('alert')).toHaveText(errorCatalogue.OP0003[lang]);
      await expect(page.locator('tr[data-operator]')).toHaveCount(0);
    });

    test('sign in with a passkey on the virtual authenticator', async ({ page }) => {
      // Passkeys need a host name: this test opens the server as localhost, its passkey origin.
      const origin = PASSKEY_ORIGIN;
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
      });
      const login = `pk.${lang}.${Date.now()}@ops.example.com`;
      const link = new URL(/(http:\S+\/ops\/enrol#\S+)/.exec(operatorCli('add', login, '--role', 'support', '--name', 'Support'))![1]!);
      await page.context().addCookies([{ name: 'LANG', value: lang, url: origin }]);
      await page.goto(`${origin}${link.pathname}${link.hash}`);
      const secret = ((await page.locator('[data-enrol-secret]').textContent()) ?? '').replace(/\s/g, '');
      await page.getByLabel(m.enrol.passwordLabel, { exact: true }).fill(PASSWORD);
      await page.getByLabel(m.enrol.passwordConfirm, { exact: true }).fill(PASSWORD);
      await page.getByLabel(m.enrol.codeLabel).fill(codeAt(secret, Date.now()));
      await page.getByRole('button', { name: m.enrol.finish }).click();
      await page.getByRole('link', { name: m.enrol.signIn }).click();
      const signInWith = async () => {
        await page.getByLabel(m.login.loginLabel).fill(login);
        await page.getByLabel(m.login.passwordLabel, { exact: true }).fill(PASSWORD);
        await page.getByRole('button', { name: m.login.next }).click();
      };
      await signInWith();
      // No passkey yet: only the app code is offered.
      await expect(page.getByRole('button', { name: m.login.usePasskey })).toHaveCount(0);
      await page.getByLabel(m.login.codeLabel).fill(codeAt(secret, Date.now() + 30_000));
      await page.getByRole('button', { name: m.login.verify }).click();
      await expect(page).toHaveURL(`${origin}/ops`);
      await page.getByRole('button', { name: m.home.addPasskey }).click();
      await expect(page.getByText(m.home.passkeyAdded)).toBeVisible();
      expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(1);
      await expectAccessible(page);
      await shoot(page, `home-passkey-${lang}`);

      await page.getByRole('button', { name: m.nav.signOut }).click();
      await expect(page).toHaveURL(/\/ops\/login\?signedOut=1$/);
      await signInWith();
      await page.getByRole('button', { name: m.login.usePasskey }).click();
      await expect(page).toHaveURL(`${origin}/ops`);
      await expect(page.getByRole('navigation', { name: m.nav.label }).getByRole('link', { name: m.nav.people, exact: true })).toBeVisible();
    });

    test('a platform session opens no operator page and no operator call', async ({ page }) => {
      const email = uniqueEmail(`ops-platform-${lang}`);
      await seedUser(page.request, { email, password: 'harbour2024', userType: 1, agreed: true });
      await signInByRequest(page.request, email, 'harbour2024');
      expect((await page.context().cookies()).some((c) => c.name.endsWith('portal_token'))).toBe(true);
      await openInLanguage(page, lang, '/ops');
      await expect(page).toHaveURL(/\/ops\/login\?next=%2Fops$/);
      await expect(page.getByRole('heading', { name: m.pages.login.title, level: 1 })).toBeVisible();
      const call = await page.request.get('/api/ops/v1/me');
      expect(((await call.json()) as { code: string }).code).toBe('OP0001');
      const page2 = await page.request.get('/ops/operators', { maxRedirects: 0 });
      expect(page2.status()).toBe(302);
      await page2.dispose();
      const robots = await page.request.get('/ops/login');
      expect(robots.headers()['x-robots-tag']).toBe('noindex, nofollow');
      await robots.dispose();
    });
  });
}
