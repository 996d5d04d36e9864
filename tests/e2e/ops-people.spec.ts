import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import type { Lang } from '../../src/lib/lang';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { openInLanguage, seedUser, shoot, signInByEmail, signInByRequest, uniqueEmail } from './helpers';
import { consoleMessages } from '../../src/i18n/ops';

/**
 * People support in real Chromium, zh and en, at phone and desktop width, each step from seeded state: a support
 * operator finds a person whose password sign-in is held back by failed attempts and unlocks them, and the person
 * signs in with the form; the operator blocks a signed-in person, whose session ends and whose next sign-in is
 * refused with the clear message; the audit page lists the support actions. The operator's session comes from the
 * dev route (the `operatorPage` fixture; the operator sign-in is ops-auth.spec.ts's).
 *
 * Below the browser (tests/functions/ops-people.test.ts): who may act, a reason required, parallel actions
 * changing once, the sessions a block ends, the dev route's cookie. axe on these pages: a11y.spec.ts, "the
 * operator console".
 */
const PASSWORD = 'harbour2024';
const REASON = 'Called the help desk; name, phone and last sign-in confirmed';

const runs = [
  { lang: 'zh', name: 'phone', viewport: { width: 390, height: 844 } },
  { lang: 'en', name: 'desktop', viewport: { width: 1280, height: 900 } },
] as const;

/** Three wrong passwords from the test's network: the account's next password sign-in waits for the human check. */
async function holdBack(request: APIRequestContext, email: string) {
  const { createHash } = await import('node:crypto');
  for (let i = 0; i < 3; i++) {
    const wrong = await request.post('/api/agg-web/user/v3/userLogin', {
      data: { loginEmail: email, loginPassword: createHash('sha256').update(`wrong${i}x`).digest('hex'), passwordVersion: 2, captchaType: 3, grant_type: 'password', scope: 'server', client_id: 'portal', client_secret: 'portal' },
    });
    expect(((await wrong.json()) as { code: string }).code).toBe('US0010');
  }
}

/** Finds the person by `term` on /ops/people and opens their detail. */
async function openPerson(page: Page, lang: Lang, term: string, realName: string) {
  const m = consoleMessages[lang].opsPeople;
  await openInLanguage(page, lang, '/ops/people');
  await page.getByLabel(m.searchLabel).fill(term);
  await page.getByRole('button', { name: m.search, exact: true }).click();
  await page.getByRole('region', { name: m.resultsTable }).getByRole('button', { name: realName }).click();
  await expect(page.getByRole('heading', { level: 2, name: realName })).toBeVisible();
}

/** Confirms the support action `name` with the reason, through its dialog (a reason is required first). */
async function act(page: Page, lang: Lang, name: string) {
  const m = consoleMessages[lang].opsPeople;
  await page.getByRole('button', { name, exact: true }).click();
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  // A reason is required before anything is sent.
  await dialog.getByRole('button', { name: m.confirm }).click();
  await expect(dialog.getByText(m.reasonRequired)).toBeVisible();
  await dialog.getByLabel(m.reasonLabel).fill(REASON);
  await dialog.getByRole('button', { name: m.confirm }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: m.done.replace('{action}', name) })).toBeVisible();
}

for (const run of runs) {
  const lang = run.lang as Lang;
  const m = consoleMessages[lang].opsPeople;
  test.describe(`people support (${lang} ${run.name})`, () => {
    test.use({ viewport: run.viewport });

    test('support finds a held-back person and unlocks them; the person then signs in with the form', async ({ page, newPage, operatorPage, network }) => {
      const email = uniqueEmail(`ops-people-${lang}`);
      const realName = `Chen ${Date.now().toString(36)}`;
      const personPage = await newPage({ viewport: run.viewport });
      await seedUser(personPage.request, { email, password: PASSWORD, agreed: true, realName });
      await holdBack(personPage.request, email);

      await operatorPage('support');
      await openPerson(page, lang, email, realName);
      await expect(page.getByText(m.failuresLine.replace('{failures}', '3').replace('{network}', network))).toBeVisible();
      await shoot(page, `ops-people-${lang}-${run.name}`);
      await act(page, lang, m.actions.unlock);
      await expect(page.getByRole('button', { name: m.actions.unlock, exact: true })).toBeHidden();

      // The person signs in with the password form, without a human check, and reaches the portal.
      await signInByEmail(personPage, lang, email, PASSWORD);
      await expect(personPage).not.toHaveURL(/\/login/);
    });

    test('support blocks a signed-in person: the session ends and the next sign-in is refused with the clear message', async ({ page, newPage, operatorPage }) => {
      const email = uniqueEmail(`ops-block-${lang}`);
      const realName = `Chen ${Date.now().toString(36)}`;
      const personPage = await newPage({ viewport: run.viewport });
      await seedUser(personPage.request, { email, password: PASSWORD, agreed: true, realName });
      await signInByRequest(personPage.request, email, PASSWORD);

      await operatorPage('support');
      await openPerson(page, lang, realName, realName);
      await act(page, lang, m.actions.block);
      await expect(page.getByRole('heading', { level: 2, name: realName })).toContainText(m.blocked);

      // The person's page learns on its next call that the session is over, and sign-in refuses them clearly.
      await openInLanguage(personPage, lang, '/user_center');
      await expect(personPage).toHaveURL(/\/login/);
      await signInByEmail(personPage, lang, email, PASSWORD);
      await expect(personPage.getByRole('alert')).toContainText(errorCatalogue.PS0100[lang]);
      await expect(personPage).toHaveURL(/\/login/);
      await shoot(personPage, `ops-people-blocked-${lang}-${run.name}`);
    });

    test('the audit page, filtered to a person, lists the support actions with the reason; from tomorrow on, nothing', async ({ page, request, operatorPage }) => {
      // Seeded through the calls the console makes: held back, unlocked, signed in, blocked.
      const email = uniqueEmail(`ops-audit-${lang}`);
      const userId = await seedUser(request, { email, password: PASSWORD, agreed: true, realName: 'Audit Person' });
      await holdBack(request, email);
      await operatorPage('support');
      const action = async (name: 'unlock' | 'block') => {
        const done = await page.request.post(`/api/ops/v1/people/${userId}/${name}`, { data: { reason: REASON } });
        expect(((await done.json()) as { code: string }).code, name).toBe('0');
      };
      await action('unlock');
      await signInByRequest(request, email, PASSWORD);
      await action('block');

      // The address presets the target filter (as a link from a person's page would).
      await openInLanguage(page, lang, `/ops/audit?target=${encodeURIComponent(userId)}`);
      await expect(page.getByLabel(m.audit.target)).toHaveValue(userId);
      const trail = page.getByRole('region', { name: m.audit.entries });
      // Only this person's rows.
      const rowOf = (name: string) => trail.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
      await expect(rowOf(messages[lang].actionNames.user.blocked)).toContainText(REASON);
      await expect(rowOf(messages[lang].actionNames.user.unlocked)).toContainText(REASON);
      await expect(rowOf(messages[lang].actionNames.user.signed_in)).toHaveCount(1);
      // Three entries under the header row.
      await expect(trail.getByRole('row')).toHaveCount(4);
      // The time filter is the portal's own date field, in the page's words: from tomorrow on, nothing is left.
      const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000);
      await page.locator('#audit-from-year').fill(String(tomorrow.getFullYear()));
      await page.locator('#audit-from-month').selectOption(String(tomorrow.getMonth() + 1).padStart(2, '0'));
      await page.locator('#audit-from-day').selectOption(String(tomorrow.getDate()).padStart(2, '0'));
      await page.getByRole('button', { name: m.audit.apply }).click();
      await expect(page.getByText(m.audit.none)).toBeVisible();
      await shoot(page, `ops-audit-${lang}-${run.name}`);
    });
  });
}
