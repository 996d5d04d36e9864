import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { format } from '../../src/i18n/format';
import type { Lang } from '../../src/lib/lang';
import { leaveAndClearCookies, expectAccessible, openInLanguage, passSlider, readCode, seedUser, signInByRequest, sliderChallenge, uniqueEmail, uniqueMobile, shoot } from './helpers';

/**
 * Sign in with WeChat and WeCom (issue 29) against the local stand-in (functions/gateway/wechat/stand-in.ts):
 * its "scan and confirm" page plays the phone. Each flow runs in Chinese at phone width and in English at
 * desktop width. Screenshots of the panel and the phone form (both languages at both widths) only with
 * SCREENSHOTS=1, in each test's output folder (helpers.ts shoot).
 */
const runs: { lang: Lang; width: number }[] = [
  { lang: 'zh', width: 390 },
  { lang: 'en', width: 1280 },
];
const person = () => `e2e${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const scanLabel = /Who scans|扫码的人/;
const confirmLabel = /^(Confirm|确认登录)$/;

/** On the stand-in's page: who scans, then Confirm. */
async function confirmScan(page: Page, who: string) {
  await expect(page).toHaveURL(/\/api\/dev\/wechat\//);
  await page.getByLabel(scanLabel).fill(who);
  await page.getByRole('button', { name: confirmLabel }).click();
}

/** /wechat_callback's phone form: a new phone, its code after the slider, the agreement, submit. */
async function tiePhone(page: Page, lang: Lang, shot?: string) {
  const w = messages[lang].wechat;
  const s = messages[lang].signIn;
  await expect(page.getByRole('heading', { name: new RegExp(`^(${w.phoneTitle}|${w.phoneTitleWecom})$`) })).toBeFocused();
  await expectAccessible(page);
  if (shot) await shoot(page, shot);
  const mobile = uniqueMobile();
  await page.getByLabel(s.phone, { exact: true }).fill(mobile);
  const challenge = sliderChallenge(page);
  await page.getByRole('button', { name: w.sendCode }).click();
  await passSlider(page, challenge);
  await expect(page.getByText(w.codeSent)).toBeVisible();
  // The button counts down the wait before another code, and the notice stays while the code is typed (issue 47).
  await expect(page.getByRole('button', { name: new RegExp(`^${s.resendIn.replace('{s}', '\\d+')}$`) })).toBeDisabled();
  await page.getByLabel(w.code).fill(await readCode(page.request, `+86${mobile}`));
  await expect(page.getByText(w.codeSent)).toBeVisible();
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: w.submit }).click();
  // A new person: the login case sends them to choose how they use the portal.
  await expect(page).toHaveURL(/\/enterprise_adm_and_staff/);
  return mobile;
}

async function openPanel(page: Page, lang: Lang, width: number) {
  await page.setViewportSize({ width, height: 900 });
  await openInLanguage(page, lang, '/login');
  const w = messages[lang].wechat;
  // By keyboard: the button, then the panel's heading has focus and Tab reaches its first button.
  await page.getByRole('button', { name: w.signInWith }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: w.panelTitle })).toBeFocused();
}

for (const { lang, width } of runs) {
  const w = messages[lang].wechat;
  test.describe(`WeChat sign-in (${lang}, ${width} px)`, () => {
    test('a first QR scan ties a new phone and registers; a second scan signs straight in', async ({ page }) => {
      await openPanel(page, lang, width);
      await expectAccessible(page);
      await shoot(page, `wechat-login-panel-${lang}-${width}`);
      await page.keyboard.press('Tab');
      await expect(page.getByRole('button', { name: w.showQr })).toBeFocused();
      await page.keyboard.press('Enter');
      const who = person();
      // Enter starts a navigation; a screenshot taken while it commits can hang, so shoot the page it reaches.
      await expect(page).toHaveURL(/\/api\/dev\/wechat\//);
      await expect(page.getByLabel(scanLabel)).toBeVisible();
      await shoot(page, `wechat-stand-in-${lang}-${width}`);
      await confirmScan(page, who);
      await expect(page).toHaveURL(/\/wechat_callback/);
      await tiePhone(page, lang, `wechat-phone-form-${lang}-${width}`);

      await leaveAndClearCookies(page);
      await openPanel(page, lang, width);
      await page.getByRole('button', { name: w.showQr }).click();
      await confirmScan(page, who);
      await expect(page).toHaveURL(/\/enterprise_adm_and_staff/);
    });

    test('WeCom: a member ties a phone on first sign-in', async ({ page }) => {
      await openPanel(page, lang, width);
      await page.getByRole('button', { name: w.wecom }).click();
      await confirmScan(page, person());
      await tiePhone(page, lang);
    });

    test('a cancelled scan says so, with the way back', async ({ page }) => {
      await openPanel(page, lang, width);
      await page.getByRole('button', { name: w.showQr }).click();
      await page.getByRole('button', { name: /^(Cancel|取消)$/ }).click();
      await expect(page.getByRole('alert')).toHaveText(w.cancelled);
      await expectAccessible(page);
      await page.getByRole('link', { name: w.backToLogin }).click();
      await expect(page).toHaveURL(/\/login$/);
    });

    test('the user center ties a WeChat and unties it', async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      const email = uniqueEmail('wechat');
      await seedUser(page.request, { email, password: 'Harbour2024', agreed: true });
      await signInByRequest(page.request, email, 'Harbour2024');
      await openInLanguage(page, lang, '/user_center#security');
      const section = page.locator('.linked-accounts');
      const tie = section.getByRole('button', { name: w.bind.replace('{provider}', w.providers.wechat) });
      // The Security section's parts load as they scroll into view (the window itself, as oidc.spec.ts does).
      await expect(async () => {
        await page.evaluate(() => window.scrollBy(0, 700));
        await expect(tie).toBeVisible({ timeout: 1000 });
      }).toPass();
      await tie.click();
      const who = person();
      await confirmScan(page, who);
      // The callback page names the WeChat it tied before it returns to the user center.
      await expect(page.getByText(format(w.bound, { provider: w.providers.wechat, name: who }))).toBeVisible();
      await shoot(page, `wechat-bound-${lang}-${width}`);
      await expect(page).toHaveURL(/\/user_center/);
      const untie = page.locator('.linked-accounts').getByRole('button', { name: w.unbind.replace('{provider}', w.providers.wechat) });
      await expect(async () => {
        await page.evaluate(() => window.scrollBy(0, 700));
        await expect(untie).toBeVisible({ timeout: 1000 });
      }).toPass();
      await expectAccessible(page, '.linked-accounts');
      await shoot(page, `wechat-user-center-${lang}-${width}`);
      await untie.click();
      await expect(page.locator('.linked-accounts').getByText(w.unbound.replace('{provider}', w.providers.wechat))).toBeVisible();
      await expect(page.locator('.linked-accounts').getByRole('button', { name: w.bind.replace('{provider}', w.providers.wechat) })).toBeVisible();
    });
  });

  test.describe(`inside WeChat (${lang}, ${width} px)`, () => {
    test.use({ userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.50(0x1800322e) NetType/WIFI Language/zh_CN' });
    test('asks for the profile once, ties a phone, and a later visit signs in silently', async ({ page }) => {
      await openPanel(page, lang, width);
      await expect(page.getByText(w.inWechatLead)).toBeVisible();
      await page.getByRole('button', { name: w.continueInWechat }).click();
      const who = person();
      // snsapi_base: unknown, so WeChat is asked again for the profile (snsapi_userinfo).
      await expect(page).toHaveURL(/scope=snsapi_base/);
      await confirmScan(page, who);
      await expect(page).toHaveURL(/scope=snsapi_userinfo/);
      await confirmScan(page, who);
      await tiePhone(page, lang);

      await leaveAndClearCookies(page);
      await openPanel(page, lang, width);
      await page.getByRole('button', { name: w.continueInWechat }).click();
      await expect(page).toHaveURL(/scope=snsapi_base/);
      await confirmScan(page, who);
      await expect(page).toHaveURL(/\/enterprise_adm_and_staff/);
    });
  });
}

// Pictures only: the panel and the phone form are tested above; this takes them in the other language at each width.
test('@screenshots the panel and the phone form in the other language at each width', async ({ page }) => {
  for (const { lang, width } of [
    { lang: 'en' as const, width: 390 },
    { lang: 'zh' as const, width: 1280 },
  ]) {
    await leaveAndClearCookies(page);
    await openPanel(page, lang, width);
    await shoot(page, `wechat-login-panel-${lang}-${width}`);
    await page.getByRole('button', { name: messages[lang].wechat.showQr }).click();
    await confirmScan(page, person());
    await expect(page.getByRole('heading', { name: messages[lang].wechat.phoneTitle })).toBeVisible();
    await shoot(page, `wechat-phone-form-${lang}-${width}`);
  }
});

test('a /login on another host (as SITE_CN) hands the person to PORTAL_ORIGIN in their language, and the scan comes back', async ({ page, baseURL }) => {
  // localhost is another host than PORTAL_ORIGIN (127.0.0.1): the WeChat cookie of one is not the other's.
  const other = baseURL!.replace('127.0.0.1', 'localhost');
  const w = messages.zh.wechat;
  // Chinese on the other host, English so far on PORTAL_ORIGIN: the hand-over carries the language.
  await page.context().addCookies([
    { name: 'LANG', value: 'zh', url: other },
    { name: 'LANG', value: 'en', url: baseURL! },
  ]);
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(`${other}/login`);
  await page.getByRole('button', { name: w.signInWith }).click();
  await page.getByRole('button', { name: w.showQr }).click();
  // PORTAL_ORIGIN's /login opens the panel and starts the QR sign-in by itself.
  await confirmScan(page, person());
  await expect(page).toHaveURL(new RegExp(`^${baseURL!.replace(/\./g, '\\.')}/wechat_callback`));
  await expect(page.getByRole('heading', { name: w.phoneTitle })).toBeFocused();
  await expectAccessible(page);
});
