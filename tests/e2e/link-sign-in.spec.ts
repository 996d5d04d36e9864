import { type APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { leaveAndClearCookies, openInLanguage, seedUser, signInByRequest, uniqueEmail } from './helpers';

const PASSWORD = 'harbourGate7';

/** The newest link mailed to `email` (the local outbox stands in for the mail server). */
async function mailedLink(request: APIRequestContext, email: string): Promise<URL> {
  let text = '';
  await expect
    .poll(async () => {
      const answer = (await (await request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as { data: { text: string }[] };
      text = answer.data[0]?.text ?? '';
      return /https?:\/\/\S+/.test(text);
    })
    .toBe(true);
  return new URL(/https?:\/\/\S+/.exec(text)![0]);
}

/** Company names are unique per type on the platform: each test gets its own. */
const uniqueName = (tag: string) => `${tag} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/**
 * Each link journey once, the languages taking turns: the link's language, its caps, its single use and the share
 * link's rules are tests/functions/login-links.test.ts; the pages' words in both languages, the page tour's.
 */
{
  const lang = 'en' as const;
  const m = messages[lang];

  test(`${lang}: a person signs in with an e-mail pass link from the sign-in page, once`, async ({ page, request }) => {
    const email = uniqueEmail(`pass-${lang}`);
    const agency = uniqueName('Link Test Agency');
    await seedUser(request, {
      email,
      agreed: true,
      userType: 2,
      companies: [{ nameEn: uniqueName('Link Test Shipping'), type: 'ship_owner' }, { nameEn: agency, type: 'ship_agent' }],
    });

    await openInLanguage(page, lang, '/login');
    await page.getByRole('tab', { name: m.signIn.tabs.email }).first().click();
    await page.getByRole('link', { name: m.signIn.emailLinkInstead }).click();
    await expect(page).toHaveURL(/\/pass_email_login$/);
    await expect(page.locator('h1')).toHaveText(m.pages.pass_email_login.title);

    // A wrong address is caught before anything is sent.
    await page.getByLabel(m.linkSignIn.emailLabel).fill('not-an-address');
    await page.getByRole('button', { name: m.linkSignIn.send }).click();
    await expect(page.getByText(m.validation.emailInvalid)).toBeVisible();

    await page.getByLabel(m.linkSignIn.emailLabel).fill(email);
    await page.getByRole('button', { name: m.linkSignIn.send }).click();
    await expect(page.getByText(m.linkSignIn.sent.replace('{email}', email))).toBeVisible();

    const link = await mailedLink(request, email);
    expect(link.searchParams.get('lang')).toBe(lang);
    // Opening the link does not use it (mail scanners open links too): the click does.
    await page.context().clearCookies();
    await page.goto(link.pathname + link.search);
    await expect(page.getByText(m.linkSignIn.confirmPass)).toBeVisible();
    await page.getByRole('button', { name: m.linkSignIn.signIn }).click();
    // Two companies: the account choice, with the spent link gone from history.
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByText(agency)).toBeVisible();

    // The same link again, in a fresh browser: refused in the link's language, no session.
    await leaveAndClearCookies(page);
    await page.goto(link.pathname + link.search);
    await page.getByRole('button', { name: m.linkSignIn.signIn }).click();
    await expect(page.getByText(errorCatalogue.LK0003[lang])).toBeVisible();
    await page.getByRole('button', { name: m.linkSignIn.askNewPass }).click();
    await expect(page.getByLabel(m.linkSignIn.emailLabel)).toBeVisible();
  });
}

{
  const lang = 'zh' as const;
  const m = messages[lang];

  test(`${lang}: a signed-in person shares a sign-in link with their other device`, async ({ page, newPage, request }) => {
    const email = uniqueEmail(`share-${lang}`);
    await seedUser(request, { email, password: PASSWORD, agreed: true, userType: 2, companies: [{ nameEn: uniqueName('Share Test'), type: 'shipyard', isMain: true }] });
    // Signed in on the first device (how is not what this test is about).
    await signInByRequest(page.request, email, PASSWORD);

    await openInLanguage(page, lang, '/user_center');
    await page.getByRole('button', { name: m.linkSignIn.shareCreate }).click();
    const shared = await page.locator('#share-link').inputValue();
    expect(new URL(shared).pathname).toBe('/share_login');

    // The other device: a phone-sized browser with no cookies of its own (on this test's client network).
    const other = await newPage({ viewport: { width: 390, height: 800 } });
    const url = new URL(shared);
    await other.goto(url.pathname + url.search);
    await expect(other.locator('h1')).toHaveText(m.pages.share_login.title);
    await other.getByRole('button', { name: m.linkSignIn.signIn }).click();
    // The main enterprise is entered straight away: on to the web app.
    await other.waitForURL((u) => !u.pathname.startsWith('/share_login'));
    expect((await other.context().cookies()).find((c) => c.name === 'portal_token')?.httpOnly).toBe(true);
  });
}

test('a phone gets the mobile variant of the pass page; a desktop browser does not', async ({ newPage }) => {
  const page = await newPage({
    userAgent: 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36',
    viewport: { width: 390, height: 800 },
  });
  await page.goto('/pass_email_login?lang=zh');
  await expect(page.locator('html')).toHaveAttribute('data-mobile', '');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.locator('.site-footer')).toBeHidden();

  const wide = await newPage();
  await wide.goto('/pass_email_login');
  await expect(wide.locator('html')).not.toHaveAttribute('data-mobile', '');
  await expect(wide.locator('.site-footer')).toBeVisible();
});

test('/share_login without a link explains where links come from', async ({ page }) => {
  await openInLanguage(page, 'en', '/share_login');
  await expect(page.getByText(messages.en.linkSignIn.noShareLink)).toBeVisible();
  await expect(page.getByRole('link', { name: messages.en.linkSignIn.toLogin })).toBeVisible();
});
