import { type Browser } from '@playwright/test';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { langs, type Lang } from '../../src/lib/lang';
import { expectAccessible, openInLanguage, seedUser, signInByRequest, uniqueEmail, shoot } from './helpers';

/**
 * The Security section of the user center in real Chromium: one person signed in from two browsers (two
 * contexts with their own user agent and country), who lists the sessions in one, signs the other out
 * (confirm dialog, by keyboard) and sees that browser signed out at once; the sign-in history shows both
 * sign-ins, the second marked as a new device. zh and en, phone and desktop width; axe on section and dialog.
 * Two steps, each from a freshly seeded person signed in from both browsers. That the signed-out session's cookie
 * answers TK00001 at once is a rule of the gateway: sessions.test.ts, "signs one other session out: its cookie
 * answers TK00001 next, this one goes on; a second sign-out of it is SS0001".
 */
const PASSWORD = 'harbour2024';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';

const widths = [
  { name: 'phone', viewport: { width: 390, height: 844 }, userAgent: ANDROID_CHROME, device: { en: 'Chrome on Android · Phone', zh: 'Chrome，Android · 手机' } },
  { name: 'desktop', viewport: { width: 1280, height: 900 }, userAgent: WINDOWS_CHROME, device: { en: 'Chrome on Windows · Computer', zh: 'Chrome，Windows · 电脑' } },
] as const;
const OTHER_DEVICE = { en: 'Safari on iOS · Phone', zh: 'Safari，iOS · 手机' };

async function browserOf(browser: Browser, options: { viewport: { width: number; height: number }; userAgent: string; country: string }) {
  const context = await browser.newContext({ viewport: options.viewport, userAgent: options.userAgent, extraHTTPHeaders: { 'x-debug-country': options.country } });
  return { context, page: await context.newPage() };
}

/** A seeded person signed in first from an iPhone in Singapore, then from this browser (`width`) in China. */
async function signedInTwice(browser: Browser, lang: Lang, width: (typeof widths)[number]) {
  const email = uniqueEmail(`security-${lang}-${width.name}`);
  const phone = await browserOf(browser, { viewport: { width: 390, height: 844 }, userAgent: IPHONE, country: 'SG' });
  await seedUser(phone.page.request, { email, password: PASSWORD, agreed: true });
  // The first sign-in of the account (the phone), then this browser's: each request carries its browser's device and country.
  await signInByRequest(phone.page.request, email, PASSWORD);
  const here = await browserOf(browser, { viewport: width.viewport, userAgent: width.userAgent, country: 'CN' });
  await signInByRequest(here.page.request, email, PASSWORD);
  await openInLanguage(here.page, lang, '/user_center#security');
  const section = here.page.locator('.security-section');
  await expect(here.page.getByRole('heading', { level: 2, name: messages[lang].security.title, exact: true })).toBeVisible({ timeout: 15_000 });
  // The sessions' cards, not the devices' (issue 44's list below them has cards of the same look).
  const sessions = section.locator('section[aria-labelledby="sessions-title"] .session-card');
  await expect(sessions).toHaveCount(2, { timeout: 15_000 });
  return { phone, here, section, sessions };
}

for (const lang of langs) {
  const m = messages[lang].security;
  for (const width of widths) {
    test(`${lang} ${width.name}: the sessions of two browsers, this one marked, and the sign-in history`, async ({ browser }) => {
      const { phone, here, section, sessions } = await signedInTwice(browser, lang, width);
      await expect(sessions.filter({ hasText: m.thisDevice })).toContainText(width.device[lang]);
      const other = sessions.filter({ hasText: OTHER_DEVICE[lang] });
      await expect(other).not.toContainText(m.thisDevice);
      // The history: both sign-ins, this one from a device new to the account.
      const rows = section.locator('.sign-in-history tbody tr');
      await expect(rows).toHaveCount(2);
      await expect(rows.first()).toContainText(m.newDevice);
      await expect(rows.first()).toContainText(width.device[lang]);
      await expect(rows.nth(1)).toContainText(OTHER_DEVICE[lang]);
      await expect(rows.nth(1)).toContainText(m.methods.password);
      // Country and network each on a line of their own: no separator left dangling (issue 47).
      await expect(rows.first().locator('.history-detail').first()).not.toContainText('·');
      await expect(rows.first().locator('.history-network')).toBeVisible();
      await expectAccessible(here.page, '.security-section');
      await shoot(here.page, `security-${lang}-${width.name}`);
      await phone.context.close();
      await here.context.close();
    });

    // The list is checked at both widths in each language; signing out at one width per language (zh phone, en desktop).
    if ((lang === 'zh') === (width.name === 'phone'))
    test(`${lang} ${width.name}: signs the other browser out by keyboard, through a dialog that Escape leaves`, async ({ browser }) => {
      const { phone, here, section, sessions } = await signedInTwice(browser, lang, width);
      // By keyboard: the other device's "Sign out", a dialog that opens on Cancel, Escape changes nothing.
      const signOut = here.page.getByRole('button', { name: m.signOutLabel.replace('{device}', OTHER_DEVICE[lang]) });
      await signOut.focus();
      await here.page.keyboard.press('Enter');
      const dialog = here.page.getByRole('dialog', { name: m.confirmTitle });
      await expect(dialog).toBeVisible({ timeout: 10_000 });
      await expect(dialog.getByRole('button', { name: m.cancel })).toBeFocused();
      await expectAccessible(here.page, 'dialog');
      await here.page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(sessions).toHaveCount(2);
      await signOut.focus();
      await here.page.keyboard.press('Enter');
      await expect(dialog.getByRole('button', { name: m.cancel })).toBeFocused();
      await here.page.keyboard.press('Tab');
      await expect(dialog.getByRole('button', { name: m.confirm })).toBeFocused();
      await here.page.keyboard.press('Enter');
      await expect(section.getByRole('region', { name: m.sessionsTitle }).getByRole('status')).toContainText(m.signedOut);
      await expect(sessions).toHaveCount(1);
      await expect(section.getByRole('button', { name: m.signOutOthers })).toBeDisabled();

      // The other browser is signed out: its page goes to sign-in.
      await phone.page.goto('/user_center');
      await expect(phone.page).toHaveURL(/\/login/, { timeout: 20_000 });
      await here.page.reload();
      await expect(here.page.locator('section[aria-labelledby="sessions-title"] .session-card')).toHaveCount(1);
      await phone.context.close();
      await here.context.close();
    });
  }
}
