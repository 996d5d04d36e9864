import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { messages, type Messages } from '../../src/i18n';
import { langs } from '../../src/lib/lang';
import { openInLanguage, seedUser, signInByEmail, signInByRequest, uniqueEmail } from './helpers';

/**
 * Every login case (README "Login cases") lands on its page after a sign-in through the form, and the person sees
 * that page's own words there; a signed-in person who opens /login again goes to the same place without the form
 * ever showing. Each case is walked once, the languages taking turns from case to case, so both languages are
 * walked; the routing rule of every case is tests/functions/login-cases.test.ts ("where a signed-in person is sent,
 * by case"), and every page's words in both languages are the page tour's. The specification defines no case 8 (its
 * list goes 1-7, 9), so there is none to reach. The people are e-mail accounts without a registered mobile, hence
 * loginType=2.
 */
const PASSWORD = 'Harbour2026';
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

interface LoginCaseExample {
  name: string;
  /** What the dev route seeds; `company` is a fresh company name for the cases that have one. */
  seed: (company: string) => Record<string, unknown>;
  lands: RegExp;
  /** What the person sees on the page they land on, in the page's language. */
  sees: (page: Page, t: Messages, company: string) => Locator[];
  stored?: { companyName: string | null; ports: string | null };
}

const companyChoice = (page: Page, t: Messages) => [page.getByRole('heading', { name: t.onboarding.choose.question })];

const cases: LoginCaseExample[] = [
  { name: '1: never chose', seed: () => ({}), lands: /\/enterprise_adm_and_staff\?loginType=2$/, sees: companyChoice, stored: { companyName: null, ports: null } },
  {
    name: '2: must change the password',
    seed: () => ({ originalFlag: true }),
    lands: /\/change_password$/,
    sees: (page, t) => [page.getByLabel(t.changePassword.newPassword, { exact: true })],
  },
  {
    name: '2: enterprise user without a company',
    seed: () => ({ userType: 2 }),
    lands: /\/create_account$/,
    sees: (page, t) => [page.getByLabel(t.onboarding.companyNameEn)],
  },
  {
    name: '2: member of a verified company',
    seed: (company) => ({ userType: 2, companies: [{ nameEn: company }] }),
    lands: /\/account$/,
    sees: (page, _t, company) => [page.getByRole('heading', { name: company })],
  },
  // Case 3 signs in as the individual account, then goes to the web home (WEB_HOME_URL is /user_center locally).
  {
    name: '3: individual',
    seed: () => ({ userType: 1 }),
    lands: /\/user_center$/,
    sees: (page, t) => [page.getByRole('heading', { name: t.userCenter.companies }), page.getByText(t.userCenter.noCompanies)],
  },
  {
    name: '4: administrator awaiting verification',
    seed: (company) => ({ userType: 2, companies: [{ nameEn: company, status: 'approving' }] }),
    lands: /\/completion_of_application\?userType=2&loginType=2&ifJumpToSaas=false$/,
    sees: (page, t) => [page.getByRole('heading', { name: t.completion.adminTitle }), page.getByText(t.completion.adminText)],
  },
  {
    name: '5: staff whose join is pending',
    seed: (company) => ({ userType: 2, companies: [{ nameEn: company, role: 'staff', memberStatus: 'pending' }] }),
    lands: /\/completion_of_application\?userType=2&loginType=2$/,
    sees: (page, t) => [page.getByRole('heading', { name: t.completion.staffTitle }), page.getByText(t.completion.staffText)],
  },
  {
    name: '6: registered with a company name',
    seed: () => ({ pendingCompanyName: 'Six Seas Shipping' }),
    lands: /\/enterprise_adm_and_staff\?loginType=2$/,
    sees: companyChoice,
    stored: { companyName: 'Six Seas Shipping', ports: null },
  },
  {
    name: '7: registered with a company name and a port',
    seed: () => ({ pendingCompanyName: 'Seven Seas Shipping', pendingPortId: 'CNSHA' }),
    lands: /\/enterprise_adm_and_staff\?loginType=2$/,
    sees: companyChoice,
    stored: { companyName: 'Seven Seas Shipping', ports: JSON.stringify([{ id: 'CNSHA', name: 'Shanghai', code: 'CNSHA' }]) },
  },
  {
    name: '9: the join was declined',
    seed: (company) => ({ userType: 2, pendingCompanyName: 'Old Name Co', companies: [{ nameEn: company, role: 'staff', memberStatus: 'rejected' }] }),
    lands: /\/enterprise_adm_and_staff\?loginType=2$/,
    sees: companyChoice,
    stored: { companyName: null, ports: null },
  },
];


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

/** The administrator form opened from the company choice, as the person would. */
const administratorForm = async (page: Page, t: Messages) => {
  await page.getByRole('link', { name: t.onboarding.choose.admin }).click();
  await page.waitForURL(/\/create_account/);
  return page.getByLabel(t.onboarding.companyNameEn);
};

// A sign-in runs the server's KDF and waits its 500 ms before going on: each landing waits for its navigation.
for (const [i, c] of cases.entries()) {
  const lang = langs[i % langs.length]!;
  const t = messages[lang];
  test(`${lang} login case ${c.name}: sign-in lands on its page, and /login again goes there without the form`, async ({ page, request }) => {
    const email = uniqueEmail('case');
    const company = `Case ${unique()}`;
    await seedUser(request, { email, password: PASSWORD, agreed: true, ...c.seed(company) });
    await signInByEmail(page, lang, email, PASSWORD);
    await page.waitForURL(c.lands);
    for (const seen of c.sees(page, t, company)) await expect(seen).toBeVisible();
    if (c.stored) expect(await stored(page)).toEqual(c.stored);
    await expect(page.locator('html')).toHaveAttribute('lang', lang === 'zh' ? 'zh-CN' : 'en');

    // Signed in, the person opens /login: routed by the same case, the form never shown (not even for a frame).
    await page.evaluate(() => sessionStorage.clear());
    await watchForForm(page);
    await page.goto('/login');
    await page.waitForURL(c.lands);
    for (const seen of c.sees(page, t, company)) await expect(seen).toBeVisible();
    if (c.stored) expect(await stored(page)).toEqual(c.stored);
    expect(await page.evaluate(() => sessionStorage.getItem('signInFormSeen'))).toBeNull();
  });
}

/**
 * What the company form starts from, one language each (the matrix above walks case 7 in zh and case 9 in en; the
 * rule itself is login-cases.test.ts): signed in through the gateway, since these are not about the sign-in form.
 * A signed-in visit of /login routes by the case, as the form's sign-in does (the matrix above checks both).
 */
test('en case 7 starts the administrator form with the registered name and port', async ({ page, request }) => {
  const t = messages.en;
  const email = uniqueEmail('case7');
  await seedUser(request, { email, password: PASSWORD, agreed: true, pendingCompanyName: 'Seven Seas Shipping', pendingPortId: 'CNSHA' });
  await signInByRequest(page.request, email, PASSWORD);
  await openInLanguage(page, 'en', '/login');
  await page.waitForURL(/\/enterprise_adm_and_staff\?loginType=2$/);
  await expect(await administratorForm(page, t)).toHaveValue('Seven Seas Shipping');
});

test('zh case 9 starts the administrator form empty: the registered name belonged to the company that ended', async ({ page, request }) => {
  const t = messages.zh;
  const email = uniqueEmail('case9');
  const ended = { nameEn: `Case Nine ${unique()}`, status: 'verification_failed' };
  await seedUser(request, { email, password: PASSWORD, agreed: true, userType: 2, pendingCompanyName: 'Old Name Co', companies: [ended] });
  await signInByRequest(page.request, email, PASSWORD);
  await openInLanguage(page, 'zh', '/login');
  await page.waitForURL(/\/enterprise_adm_and_staff\?loginType=2$/);
  await expect(await administratorForm(page, t)).toHaveValue('');
});

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
