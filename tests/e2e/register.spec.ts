import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { langs } from '../../src/lib/lang';
import { expectAccessible, openInLanguage } from './helpers';

// /register offers only the code sign-in (which registers a new user), by phone or e-mail: no password tab.
for (const lang of langs) {
  const m = messages[lang].signIn;

  test(`/register offers only code registration by phone or e-mail (${lang})`, async ({ page }) => {
    await openInLanguage(page, lang, '/register');
    await expect(page.getByRole('button', { name: m.register })).toBeVisible();
    await expect(page.getByRole('tab', { name: m.tabs.password })).toHaveCount(0);
    await expect(page.getByRole('tablist', { name: m.tabs.modeLabel })).toHaveCount(0);
    await expect(page.getByLabel(m.password, { exact: true })).toHaveCount(0);
    const channels = page.getByRole('tablist', { name: m.tabs.channelLabel });
    await expect(channels.getByRole('tab')).toHaveText([m.tabs.phone, m.tabs.email]);
    await expect(page.getByLabel(m.code, { exact: true })).toBeVisible();
    await channels.getByRole('tab', { name: m.tabs.email }).click();
    await expect(page.getByLabel(m.email)).toBeVisible();
    await expect(page.getByLabel(m.code, { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: m.getCode })).toBeVisible();
    await expectAccessible(page);

    // /login keeps both.
    await page.goto('/login');
    await expect(page.getByRole('tab', { name: m.tabs.password })).toBeVisible();
    await expect(page.getByRole('tab', { name: m.tabs.code })).toBeVisible();
  });
}
