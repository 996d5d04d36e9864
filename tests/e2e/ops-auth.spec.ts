import { expect, test } from './fixtures';
import { Secret, TOTP } from 'otpauth';
import { langs } from '../../src/lib/lang';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { addVirtualAuthenticator, expectAccessible, openAsPasskeyOrigin, openInLanguage, operatorCli, PASSKEY_ORIGIN, shoot } from './helpers';
import { consoleMessages } from '../../src/i18n/ops';

/**
 * Operators in real Chromium. One test runs the operator command itself: `npm run operator -- add` prints a
 * link, the operator opens it, sets a password and connects an authenticator app, signs in with password and
 * code (a wrong code first), adds a passkey, signs out and signs in with the passkey. The other tests start
 * from an operator session the dev route mints (`operatorPage`): what each role finds, and signing out; and a
 * platform session opens no operator page.
 *
 * Below the browser (tests/functions/ops-auth.test.ts): the enrolment link used once under parallel uses, the
 * tries and caps of the sign-in, the HttpOnly operator cookie, a platform session refused by every operator
 * call; tests/functions/ops-pages.test.ts: the console's pages answer noindex and send a visitor without an
 * operator session to the sign-in.
 */
const PASSWORD = 'Quay7Harbour9';
const codeAt = (secret: string, at: number) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });

test.describe(() => {
  // Passkeys need a host name (browsers refuse an IP address as a passkey's site): this test opens the server as
  // localhost, its passkey origin.
  test.use({ baseURL: PASSKEY_ORIGIN });

  test('the operator command: enrol from its link, sign in with the app code (a wrong one first), add a passkey, sign in with it', async ({ page }) => {
    // The command's own test: it writes to this worker's D1 while the server runs, so it runs once, not per language.
    // The enrolment is in zh (the command's --lang); the passkey sign-in in en.
    const zh = consoleMessages.zh.ops;
    const en = consoleMessages.en.ops;
    const authenticator = await addVirtualAuthenticator(page);
    const login = `op.${Date.now()}.${Math.floor(Math.random() * 1e6)}@ops.example.com`;
    const out = operatorCli('add', login, '--role', 'admin', '--name', 'Admin Quay', '--lang', 'zh');
    const link = new URL(/(http:\S+\/ops\/enrol#\S+)/.exec(out)?.[1] ?? 'http://missing/');
    expect(link.pathname, out).toBe('/ops/enrol');

    // The enrolment page: the token leaves the address bar at once.
    await openAsPasskeyOrigin(page, 'zh', link.pathname + link.hash);
    await expect(page.getByRole('heading', { name: zh.pages.enrol.title, level: 1 })).toBeVisible();
    // The link is checked by a call once the island has loaded.
    await expect(page.locator('[data-enrol-account]')).toContainText(login);
    expect(page.url()).not.toContain('#');
    const secret = ((await page.locator('[data-enrol-secret]').textContent()) ?? '').replace(/\s/g, '');
    await page.getByLabel(zh.enrol.passwordLabel, { exact: true }).fill(PASSWORD);
    await page.getByLabel(zh.enrol.passwordConfirm, { exact: true }).fill(PASSWORD);
    await page.getByLabel(zh.enrol.codeLabel).fill(codeAt(secret, Date.now()));
    await expectAccessible(page);
    await shoot(page, 'ops-enrol-zh', { widths: [360, 390, 1280] });
    await page.getByRole('button', { name: zh.enrol.finish }).click();
    await expect(page.getByText(zh.enrol.done)).toBeVisible();

    // The link works once (opened afresh: from /ops/enrol itself a fragment change would not reload the page).
    await page.goto('about:blank');
    await page.goto(`${link.pathname}${link.hash}`);
    await expect(page.getByRole('alert')).toHaveText(errorCatalogue.OP0010.zh);
    await expect(page.getByRole('button', { name: zh.enrol.finish })).toHaveCount(0);

    // An operator page without the operator cookie: the sign-in, returning to the page.
    await page.goto('/ops/operators');
    await expect(page).toHaveURL(/\/ops\/login\?next=%2Fops%2Foperators$/);
    await page.getByLabel(zh.login.loginLabel).fill(login);
    await page.getByLabel(zh.login.passwordLabel, { exact: true }).fill(PASSWORD);
    await expectAccessible(page);
    await shoot(page, 'ops-login-zh', { widths: [390, 1280] });
    await page.getByRole('button', { name: zh.login.next }).click();
    await expect(page.getByRole('heading', { name: zh.login.codeTitle })).toBeFocused();
    // No passkey yet: only the app code is offered.
    await expect(page.getByRole('button', { name: zh.login.usePasskey })).toHaveCount(0);
    // Password passed, no session yet: the cookie appears only after the code.
    expect((await page.context().cookies()).some((c) => c.name.endsWith('portal_operator'))).toBe(false);
    const right = codeAt(secret, Date.now() + 30_000);
    await page.getByLabel(zh.login.codeLabel).fill(right === '123456' ? '654321' : '123456');
    await page.getByRole('button', { name: zh.login.verify }).click();
    await expect(page.getByText(zh.login.triesLeft.replace('{count}', '4'))).toBeVisible();
    await page.getByLabel(zh.login.codeLabel).fill(right);
    await expectAccessible(page);
    await shoot(page, 'ops-code-zh', { widths: [390, 1280] });
    await page.getByRole('button', { name: zh.login.verify }).click();
    await expect(page).toHaveURL(/\/ops\/operators$/);
    const cookie = (await page.context().cookies()).find((c) => c.name.endsWith('portal_operator'));
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    // The list shows the new operator with their app.
    const row = page.locator(`tr[data-operator="${login}"]`);
    await expect(row).toContainText(zh.roles.admin);
    await expect(row).toContainText(zh.operators.totp);

    // A passkey, added on the console's home page.
    await page.goto('/ops');
    await page.getByRole('button', { name: zh.home.addPasskey }).click();
    await expect(page.getByText(zh.home.passkeyAdded)).toBeVisible();
    expect(await authenticator.credentials()).toHaveLength(1);
    await expectAccessible(page);
    await shoot(page, 'ops-home-passkey-zh', { widths: [390, 1280] });

    // Signed out, then in again with the passkey, in English this time.
    await page.getByRole('button', { name: zh.nav.signOut }).click();
    await expect(page).toHaveURL(/\/ops\/login\?signedOut=1$/);
    await openAsPasskeyOrigin(page, 'en', '/ops/login');
    await page.getByLabel(en.login.loginLabel).fill(login);
    await page.getByLabel(en.login.passwordLabel, { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: en.login.next }).click();
    await page.getByRole('button', { name: en.login.usePasskey }).click();
    await expect(page).toHaveURL(`${PASSKEY_ORIGIN}/ops`);
    await expect(page.getByText(en.home.welcome.replace('{name}', 'Admin Quay'))).toBeVisible();
  });
});

for (const lang of langs) {
  const m = consoleMessages[lang].ops;
  test.describe(`operators (${lang})`, () => {
    test('an admin finds every area and the operators list, opens no platform page, and signs out', async ({ page, operatorPage }) => {
      const login = `admin.${lang}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@ops.example.com`;
      await operatorPage('admin', { login, name: `Admin ${lang}` });
      await openInLanguage(page, lang, '/ops/operators');
      const nav = page.getByRole('navigation', { name: m.nav.label });
      for (const key of ['home', 'companies', 'people', 'audit', 'operators'] as const) await expect(nav.getByRole('link', { name: m.nav[key], exact: true })).toBeVisible();
      await expect(nav.getByRole('link', { name: m.nav.operators })).toHaveAttribute('aria-current', 'page');
      await expect(page.locator(`tr[data-operator="${login}"]`)).toContainText(m.roles.admin);
      await shoot(page, `ops-operators-${lang}`, { widths: [390, 1280] });

      // The operator session opens no platform page.
      await page.goto('/user_center');
      await expect(page).toHaveURL(/\/login\?next=%2Fuser_center$/);

      await page.goto('/ops');
      await expect(page.getByText(m.home.welcome.replace('{name}', `Admin ${lang}`))).toBeVisible();
      await shoot(page, `ops-home-${lang}`, { widths: [390, 1280] });
      await page.getByRole('button', { name: m.nav.signOut }).click();
      await expect(page).toHaveURL(/\/ops\/login\?signedOut=1$/);
      await expect(page.getByText(m.login.signedOut)).toBeVisible();
      await page.goto('/ops');
      await expect(page).toHaveURL(/\/ops\/login\?next=%2Fops$/);
    });

    test('a reviewer sees only their areas; the admin list answers with the role refusal', async ({ page, operatorPage }) => {
      await operatorPage('reviewer', { name: 'Reviewer' });
      await openInLanguage(page, lang, '/ops');
      const nav = page.getByRole('navigation', { name: m.nav.label });
      await expect(nav.getByRole('link', { name: m.nav.companies, exact: true })).toBeVisible();
      await expect(nav.getByRole('link', { name: m.nav.audit, exact: true })).toBeVisible();
      await expect(nav.getByRole('link', { name: m.nav.people, exact: true })).toHaveCount(0);
      await expect(nav.getByRole('link', { name: m.nav.operators, exact: true })).toHaveCount(0);
      await page.goto('/ops/operators');
      await expect(page.getByRole('alert')).toHaveText(errorCatalogue.OP0003[lang]);
      await expect(page.locator('tr[data-operator]')).toHaveCount(0);
    });

    test('a platform session opens no operator page', async ({ signedIn: page }) => {
      expect((await page.context().cookies()).some((c) => c.name.endsWith('portal_token'))).toBe(true);
      await openInLanguage(page, lang, '/ops');
      await expect(page).toHaveURL(/\/ops\/login\?next=%2Fops$/);
      await expect(page.getByRole('heading', { name: m.pages.login.title, level: 1 })).toBeVisible();
    });
  });
}
