import { expect, test, type Page } from '@playwright/test';
import { messages } from '../../src/i18n';
import { langs } from '../../src/lib/lang';
import { openInLanguage, seedUser, signInByEmail, uniqueEmail } from './helpers';

/**
 * Every login case (README "Login cases") lands on its page after a sign-in through the form, in both languages;
 * and a signed-in person who opens /login again goes to the same place without the form ever showing.
 * The people are e-mail accounts without a registered mobile, hence loginType=2.
 */
const PASSWORD = 'Harbour2026';
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

const cases: { name: string; seed: () => Record<string, unknown>; lands: RegExp; stored?: { companyName: string | null; ports: string | null } }[] = [
  { name: '1: never chose', seed: () => ({}), lands: /\/enterprise_adm_and_staff\?loginType=2$/, stored: { companyName: null, ports: null } },
  { name: '2: must change the password', seed: () => ({ originalFlag: true }), lands: /\/change_password$/ },
  { name: '2: enterprise user without a company', seed: () => ({ userType: 2 }), lands: /\/create_account$/ },
  { name: '2: member of a verified company', seed: () => ({ userType: 2, companies: [{ nameEn: `Case Two ${unique()}` }] }), lands: /\/account$/ },
  // Case 3 signs in as the individual account, then goes to the web home (WEB_HOME_URL is /user_center locally).
  { name: '3: individual', seed: () => ({ userType: 1 }), lands: /\/user_center$/ },
  {
    name: '4: administrator awaiting verification',
    seed: () => ({ userType: 2, companies: [{ nameEn: `Case Four ${unique()}`, status: 'approving' }] }),
    lands: /\/completion_of_application\?userType=2&loginType=2&ifJumpToSaas=false$/,
  },
  {
    name: '5: staff whose join is pending',
    seed: () => ({ userType: 2, companies: [{ nameEn: `Case Five ${unique()}`, role: 'staff', memberStatus: 'pending' }] }),
    lands: /\/completion_of_application\?userType=2&loginType=2$/,
  },
  {
    name: '6: registered with a company name',
    seed: () => ({ pendingCompanyName: 'Six Seas Shipping' }),
    lands: /\/enterprise_adm_and_staff\?loginType=2$/,
    stored: { companyName: 'Six Seas Shipping', ports: null },
  },
  {
    name: '7: registered with a company name and a port',
    seed: () => ({ pendingCompanyName: 'Seven Seas Shipping', pendingPortId: 'CNSHA' }),
    lands: /\/enterprise_adm_and_staff\?loginType=2$/,
    stored: { companyName: 'Seven Seas Shipping', ports: JSON.stringify([{ id: 'CNSHA', name: 'Shanghai', code: 'CNSHA' }]) },
  },
  {
    name: '9: the join was declined',
    seed: () => ({ userType: 2, pendingCompanyName: 'Old Name Co', companies: [{ nameEn: `Case Nine ${unique()}`, role: 'staff', memberStatus: 'rejected' }] }),
    lands: /\/enterprise_adm_and_staff\?loginType=2$/,
    stored: { companyName: null, ports: null },
  },
];

// Each test signs in through the form (a server-side KDF) and loads two or three pages: room on a busy machine.
test.describe.configure({ timeout: 180_000 });
/** A sign-in runs the server's KDF and then waits its 500 ms: on a loaded machine the landing takes seconds. */
const LANDING_MS = 20_000;

const stored = (page: Page) => page.evaluate(() => ({ companyName: sessionStorage.getItem('companyName'), ports: sessionStorage.getItem('ports') }));

/** Records, from the first byte of every page, whether a sign-in form was ever put into the document. */
async function watchForForm(page: Page) {
  await page.addInitScript(() => {
    const seen = () => {
      if (document.querySelector('form.sign-in')) sessionStorage.setItem('signInFormSeen', location.pathname);
    };
    new MutationObserver(seen).observe(document, { childList: true, subtree: true });
  });
}

for (const lang of langs) {
  for (const c of cases) {
    test(`${lang} login case ${c.name}: sign-in lands on its page, and /login again goes there without the form`, async ({ page, request }) => {
      const email = uniqueEmail('case');
      await seedUser(request, { email, password: PASSWORD, agreed: true, ...c.seed() });
      await signInByEmail(page, lang, email, PASSWORD);
      await expect(page).toHaveURL(c.lands, { timeout: LANDING_MS });
      if (c.stored) expect(await stored(page)).toEqual(c.stored);
      await expect(page.locator('html')).toHaveAttribute('lang', lang === 'zh' ? 'zh-CN' : 'en');

      // Signed in, the person opens /login: routed by the same case, the form never shown (not even for a frame).
      await page.evaluate(() => sessionStorage.clear());
      await watchForForm(page);
      await page.goto('/login');
      await expect(page).toHaveURL(c.lands, { timeout: LANDING_MS });
      if (c.stored) expect(await stored(page)).toEqual(c.stored);
      expect(await page.evaluate(() => sessionStorage.getItem('signInFormSeen'))).toBeNull();
    });
  }

  test(`${lang} case 7 starts the administrator form with the registered name and port`, async ({ page, request }) => {
    const email = uniqueEmail('case7');
    await seedUser(request, { email, password: PASSWORD, agreed: true, pendingCompanyName: 'Seven Seas Shipping', pendingPortId: 'CNSHA' });
    await signInByEmail(page, lang, email, PASSWORD);
    await expect(page).toHaveURL(/\/enterprise_adm_and_staff\?loginType=2$/, { timeout: LANDING_MS });
    await page.getByRole('link', { name: messages[lang].onboarding.choose.admin }).click();
    await expect(page).toHaveURL(/\/create_account/, { timeout: LANDING_MS });
    await expect(page.getByLabel(messages[lang].onboarding.companyNameEn)).toHaveValue('Seven Seas Shipping');
  });
}

test('a signed-in visit whose session is gone shows the form after all', async ({ page, context }) => {
  // A stale marker without a valid session: the gateway answers TK00001, the edge clears the cookies.
  await context.addCookies([
    { name: 'portal_signed_in', value: '1', url: 'http://127.0.0.1' },
    { name: 'portal_token', value: 'x'.repeat(43), url: 'http://127.0.0.1' },
  ]);
  await openInLanguage(page, 'en', '/login');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.locator('form.sign-in')).toBeVisible();
  expect((await context.cookies()).find((cookie) => cookie.name === 'portal_token')).toBeUndefined();
});
