import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { langs, type Lang } from '../../src/lib/lang';
import { DATA_CATEGORIES } from '../../src/schemas/data-map';
import { format } from '../../src/i18n/format';
import { expectAccessible, openInLanguage, readCode, seedUser, signInByRequest, uniqueEmail } from './helpers';

/**
 * "Your data" in the user center, in real Chromium, zh and en, phone and desktop width, by keyboard: see what the
 * portal holds, take a copy (made by the data-rights job, run here through its dev route) and download it,
 * withdraw usage statistics, close the account, keep it during the cooling-off, and close it again. Axe on the
 * section, the dialog and the closing banner. Screenshots to /tmp/datarights-shots/.
 */
const PASSWORD = 'harbour2024';
const widths = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
] as const;

/** Presses `name` with the keyboard: focus, then Enter. */
async function press(page: Page, name: string) {
  const button = page.getByRole('button', { name, exact: true });
  // A button waits for the section's state (disabled until it has loaded).
  await expect(button).toBeEnabled();
  await button.focus();
  await expect(button).toBeFocused();
  await page.keyboard.press('Enter');
}

for (const lang of langs) {
  const m = messages[lang].dataRights;
  for (const width of widths) {
    test(`${lang} ${width.name}: see the data, correct the e-mail, take a copy, withdraw tracking, close, keep, close again`, async ({ browser }) => {
      test.setTimeout(120_000);
      const context = await browser.newContext({ viewport: width.viewport, acceptDownloads: true });
      const page = await context.newPage();
      let email = uniqueEmail(`rights-${lang}-${width.name}`);
      await seedUser(page.request, { email, password: PASSWORD, agreed: true, realName: 'Rights Tester' });
      // A password sign-in is a fresh proof: taking a copy and closing need no "Confirm it's you" here.
      await signInByRequest(page.request, email, PASSWORD);
      await openInLanguage(page, lang as Lang, '/user_center#your-data');

      // See the data: every category of the one data map, with the agreements.
      const section = page.locator('.your-data');
      await expect(page.getByRole('heading', { level: 2, name: m.title, exact: true })).toBeVisible({ timeout: 15_000 });
      const rows = section.locator('table.data-map tbody tr');
      await expect(rows).toHaveCount(DATA_CATEGORIES.length);
      for (const category of DATA_CATEGORIES) await expect(section.locator(`tr[data-category="${category}"]`)).toContainText(m.categories[category].name);
      await expect(section).toContainText(m.documents.terms);
      await expect(section).toContainText(m.termsNote);

      // Correct the e-mail: a code to the new address, then the change; the profile shows it.
      const moved = uniqueEmail(`moved-${lang}-${width.name}`);
      await press(page, m.changeEmail);
      await page.getByLabel(m.newEmail).fill(moved);
      await press(page, m.sendCode);
      await expect(section.locator('.contact-change .live-region')).toContainText(m.codeSent);
      await page.getByLabel(m.code).fill(await readCode(page.request, moved));
      await section.locator('.contact-change').screenshot({ path: `/tmp/datarights-shots/contact-${lang}-${width.name}.png` });
      await press(page, m.saveContact);
      await expect(section.locator('.live-region').first()).toContainText(m.contactChanged);
      await expect(page.locator('.facts')).toContainText(moved.split('@')[0]!);
      email = moved;

      // Take a copy: asked, made by the job, downloaded.
      await press(page, m.askCopy);
      await expect(section.locator('.live-region')).toContainText(m.copyAsked);
      await expect(section.locator('.copy-status')).toHaveAttribute('data-status', 'queued');
      expect(((await (await page.request.post('/api/dev/data-rights/run')).json()) as { code: string }).code).toBe('0');
      const download = section.getByRole('link', { name: m.download.split(/[(（]/)[0]!.trim() });
      await expect(download).toBeVisible({ timeout: 15_000 });
      await expect(page.getByRole('button', { name: m.askCopy, exact: true })).toBeDisabled();
      const [file] = await Promise.all([page.waitForEvent('download'), download.press('Enter')]);
      expect(file.suggestedFilename()).toMatch(/^personal-data-\d{4}-\d{2}-\d{2}\.zip$/);

      // Withdraw usage statistics: this browser stops at once.
      await press(page, m.trackingWithdraw);
      await expect(section.locator('.live-region')).toContainText(m.trackingWithdrawn);
      await expect(page.getByRole('button', { name: m.trackingGive, exact: true })).toBeVisible();
      await expect.poll(async () => (await context.cookies()).find((c) => c.name === 'portal_no_tracking')?.value).toBe('1');
      await expectAccessible(page, '.your-data');
      await section.screenshot({ path: `/tmp/datarights-shots/your-data-${lang}-${width.name}.png` });

      // Close the account: a dialog first, Cancel focused.
      await press(page, m.closeButton);
      const dialog = page.getByRole('dialog', { name: m.closeConfirmTitle });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button', { name: m.cancel })).toBeFocused();
      await expectAccessible(page, 'dialog[open]');
      await page.keyboard.press('Tab');
      await expect(dialog.getByRole('button', { name: m.closeButton })).toBeFocused();
      await page.keyboard.press('Enter');
      const banner = page.locator('.closing-banner');
      await expect(banner).toBeVisible();
      const closesOn = (await banner.getByRole('heading').textContent())!;
      expect(closesOn).toMatch(lang === 'zh' ? /将于 .+ 注销/ : /closes on .+\./);

      // Signing in during the cooling-off: the user center says when, and offers to keep the account.
      await signInByRequest(page.request, email, PASSWORD);
      await page.reload();
      await expect(banner.getByRole('heading')).toHaveText(closesOn);
      await expectAccessible(page, '.closing-banner');
      await page.screenshot({ path: `/tmp/datarights-shots/closing-${lang}-${width.name}.png` });
      await press(page, m.keep);
      await expect(banner).toHaveCount(0);
      await expect(section.locator('.live-region')).toContainText(m.keptOpen);

      // And close it again.
      await press(page, m.closeButton);
      await page.getByRole('dialog').getByRole('button', { name: m.closeButton }).press('Enter');
      await expect(banner).toBeVisible();
      await expect(banner.getByRole('heading')).toContainText(format(m.closing, { date: '' }).replace(/[.。]$/, '').trim().split(' ')[0]!);
      // The account choice, where many sign-ins land, says it too (the new closing date).
      const closesAgainOn = (await banner.getByRole('heading').textContent())!;
      await openInLanguage(page, lang as Lang, '/account');
      await expect(page.locator('.closing-banner').getByRole('heading')).toHaveText(closesAgainOn, { timeout: 15_000 });
      await expectAccessible(page, '.closing-banner');
      await context.close();
    });
  }
}
