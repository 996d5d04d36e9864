import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import type { Lang } from '../../src/lib/lang';
import { openInLanguage, seedUser, uniqueEmail } from './helpers';

/**
 * Pages that need a session never show their form to a signed-out visitor: the edge sends them to sign-in
 * with the page as the return path, and sign-in brings them back there. A session that ends while a page is
 * open does the same on the next call. The edge's redirect of every session page to /login?next= (query kept) is
 * tests/functions/page-shells.test.ts; which return paths are accepted, tests/unit/session-redirect.test.ts.
 */

/** The password form of the sign-in page the visitor is on now (its query kept). */
async function signInHere(page: Page, lang: Lang, email: string, password: string) {
  const m = messages[lang].signIn;
  await page.getByRole('tab', { name: m.tabs.password }).click();
  await page.getByRole('tab', { name: m.tabs.email }).click();
  await page.getByLabel(m.email).fill(email);
  await page.getByLabel(m.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: m.submit }).click();
}

/**
 * Each return path once, the languages taking turns (what a person reads on these pages is the page tour's, in both
 * languages); a sign-in waits for the navigation it causes (waitForURL), not for a raised time limit.
 */
const zh: Lang = 'zh';
const en: Lang = 'en';

test.describe('return path after sign-in', () => {
  test('zh: a signed-out visit to the company form signs in and comes back to it', async ({ page }) => {
    const lang = zh;
    const email = uniqueEmail(`return-${lang}`);
    await seedUser(page.request, { email, password: 'harbourGate7', userType: 1, agreed: true });

    await openInLanguage(page, lang, '/create_account');
    await expect(page).toHaveURL(/\/login\?next=%2Fcreate_account$/);
    await signInHere(page, lang, email, 'harbourGate7');
    await page.waitForURL(/\/create_account$/);
    await expect(page.getByLabel(messages[lang].onboarding.companyNameEn, { exact: true })).toBeVisible();
  });

  test('en: the invitation code of /join survives the detour', async ({ page }) => {
    const lang = en;
    const email = uniqueEmail(`return-join-${lang}`);
    await seedUser(page.request, { email, password: 'harbourGate7', userType: 1, agreed: true });

    await openInLanguage(page, lang, '/join?code=AB12CD');
    await expect(page).toHaveURL(/\/login\?next=%2Fjoin%3Fcode%3DAB12CD$/);
    await signInHere(page, lang, email, 'harbourGate7');
    await page.waitForURL(/\/join\?code=AB12CD$/);
  });

  test('zh: a session that ends while the page is open sends the person to sign in, with the page to return to', async ({ page }) => {
    const lang = zh;
    const email = uniqueEmail(`return-ended-${lang}`);
    await seedUser(page.request, { email, password: 'harbourGate7', userType: 1, agreed: true });
    await openInLanguage(page, lang, '/change_password');
    await signInHere(page, lang, email, 'harbourGate7');
    await page.waitForURL(/\/change_password$/);

    // The form is up (its first call went through); then the session ends elsewhere (sign-out on another tab),
    // and the page's next call is refused.
    const c = messages[lang].changePassword;
    await expect(page.getByLabel(c.newPassword, { exact: true })).toBeVisible();
    await page.request.post('/api/c/user/v2/loginout', { data: {} }).then((answer) => answer.dispose());
    await page.getByLabel(c.currentPassword, { exact: true }).fill('harbourGate7');
    await page.getByLabel(c.newPassword, { exact: true }).fill('harbourGate8');
    await page.getByLabel(c.confirmPassword, { exact: true }).fill('harbourGate8');
    await page.getByRole('button', { name: c.submit }).click();
    await expect(page).toHaveURL(/\/login\?next=%2Fchange_password$/);
  });

  test('en: a hostile return path is ignored', async ({ page, baseURL }) => {
    const lang = en;
    const email = uniqueEmail(`return-hostile-${lang}`);
    await seedUser(page.request, { email, password: 'harbourGate7', userType: 1, agreed: true });
    await openInLanguage(page, lang, `/login?next=${encodeURIComponent('//evil.example/create_account')}`);
    await signInHere(page, lang, email, 'harbourGate7');
    // By login case: a person with no company goes to the company choice, never off the site.
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    expect(new URL(page.url()).host).toBe(new URL(baseURL!).host);
  });
});
