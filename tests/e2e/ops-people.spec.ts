import { type Browser, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import type { Lang } from '../../src/lib/lang';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { expectAccessible, openInLanguage, seedUser, signInByEmail, uniqueEmail } from './helpers';
import { consoleMessages } from '../../src/i18n/ops';

/**
 * People support in real Chromium, zh and en, at phone and desktop width: a support operator finds a person
 * whose password sign-in is held back by failed attempts, unlocks them, and the person signs in with the form;
 * the operator blocks the account and the person's next sign-in is refused with the clear message; the audit
 * page lists both actions. The operator's session comes from the dev route (the operator sign-in is another
 * page's), as the real HttpOnly operator cookie.
 */
const PASSWORD = 'harbour2024';
const REASON = 'Called the help desk; name, phone and last sign-in confirmed';

const runs = [
  { lang: 'zh', name: 'phone', viewport: { width: 390, height: 844 } },
  { lang: 'en', name: 'desktop', viewport: { width: 1280, height: 900 } },
] as const;

async function operatorPage(browser: Browser, lang: Lang, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const minted = await page.request.post('/api/dev/operator-session', { data: { login: `support.${Date.now()}.${Math.floor(Math.random() * 1e6)}@ops.example.com`, role: 'support' } });
  const body = (await minted.json()) as { code: string; data: { operatorSession: Record<string, unknown> } };
  expect(body.code).toBe('0');
  // The token went into the HttpOnly cookie, never into what the page could read.
  expect(body.data.operatorSession).not.toHaveProperty('token');
  const cookies = await context.cookies();
  expect(cookies.find((c) => c.name === 'portal_operator')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  await openInLanguage(page, lang, '/ops/people');
  return { context, page };
}

/** Confirms the support action `name` with the reason, through its dialog. */
async function act(page: Page, lang: Lang, name: string, { checkAccessible = false } = {}) {
  const m = consoleMessages[lang].opsPeople;
  await page.getByRole('button', { name, exact: true }).click();
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  // A reason is required before anything is sent.
  await dialog.getByRole('button', { name: m.confirm }).click();
  await expect(dialog.getByText(m.reasonRequired)).toBeVisible();
  if (checkAccessible) await expectAccessible(page, 'dialog');
  await dialog.getByLabel(m.reasonLabel).fill(REASON);
  await dialog.getByRole('button', { name: m.confirm }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: m.done.replace('{action}', name) })).toBeVisible();
}

for (const run of runs) {
  const lang = run.lang as Lang;
  const m = consoleMessages[lang].opsPeople;
  test(`${lang} ${run.name}: support finds a held-back person, unlocks them, blocks them; the audit page lists it`, async ({ browser }) => {
    // Two browsers, PBKDF2 sign-ins and axe on a shared 2-core machine.
    test.setTimeout(420_000);
    const email = uniqueEmail(`ops-people-${lang}`);
    const realName = `Chen ${Date.now().toString(36)}`;
    const person = await browser.newContext({ viewport: run.viewport });
    const personPage = await person.newPage();
    await seedUser(personPage.request, { email, password: PASSWORD, agreed: true, realName });
    // Three wrong passwords from this network: its next password sign-in waits for the human check.
    const { createHash } = await import('node:crypto');
    for (let i = 0; i < 3; i++) {
      const wrong = await personPage.request.post('/api/agg-web/user/v3/userLogin', {
        data: { loginEmail: email, loginPassword: createHash('sha256').update(`wrong${i}x`).digest('hex'), passwordVersion: 2, captchaType: 3, grant_type: 'password', scope: 'server', client_id: 'portal', client_secret: 'portal' },
      });
      expect(((await wrong.json()) as { code: string }).code).toBe('US0010');
    }

    const ops = await operatorPage(browser, lang, run.viewport);
    const page = ops.page;
    await page.getByLabel(m.searchLabel).fill(email);
    await page.getByRole('button', { name: m.search, exact: true }).click();
    const results = page.getByRole('region', { name: m.resultsTable });
    await results.getByRole('button', { name: realName }).click();
    await expect(page.getByRole('heading', { level: 2, name: realName })).toBeVisible();
    await expect(page.getByText(m.failuresLine.replace('{failures}', '3').replace('{network}', '127.0.0.1'))).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: `/tmp/ss/shots/ops-people-${lang}-${run.name}.png`, fullPage: true });

    await act(page, lang, m.actions.unlock, { checkAccessible: true });
    await expect(page.getByRole('button', { name: m.actions.unlock, exact: true })).toBeHidden();

    // The person signs in with the password form, without a human check, and reaches the portal.
    await signInByEmail(personPage, lang, email, PASSWORD);
    await expect(personPage).not.toHaveURL(/\/login/, { timeout: 20_000 });

    // Blocked: the session just made ends, and the next sign-in is refused with the clear message.
    await page.reload();
    await page.getByLabel(m.searchLabel).fill(realName);
    await page.getByRole('button', { name: m.search, exact: true }).click();
    await page.getByRole('region', { name: m.resultsTable }).getByRole('button', { name: realName }).click();
    await act(page, lang, m.actions.block);
    await expect(page.getByRole('heading', { level: 2, name: realName })).toContainText(m.blocked);
    const ended = await personPage.request.get('/api/agg-web/user/fetchMeByUserToken');
    expect(((await ended.json()) as { code: string }).code).toBe('TK00001');
    await person.clearCookies();
    await signInByEmail(personPage, lang, email, PASSWORD);
    await expect(personPage.getByRole('alert')).toContainText(errorCatalogue.PS0100[lang]);
    await expect(personPage).toHaveURL(/\/login/);
    await personPage.screenshot({ path: `/tmp/ss/shots/ops-people-blocked-${lang}-${run.name}.png`, fullPage: true });

    // The audit page, filtered to this person: both actions, with the reason.
    const userId = (await page.getByText(/^[0-9a-f-]{36}$/).first().textContent())!;
    // The address presets the target filter (as a link from a person's page would).
    await openInLanguage(page, lang, `/ops/audit?target=${encodeURIComponent(userId)}`);
    await expect(page.getByLabel(m.audit.target)).toHaveValue(userId);
    const trail = page.getByRole('region', { name: m.audit.entries });
    // Only this person's rows.
    const rowOf = (action: string) => trail.getByRole('row').filter({ has: page.getByRole('cell', { name: action, exact: true }) });
    await expect(rowOf(messages[lang].actionNames.user.blocked)).toContainText(REASON);
    await expect(rowOf(messages[lang].actionNames.user.unlocked)).toContainText(REASON);
    await expect(rowOf(messages[lang].actionNames.user.signed_in)).toHaveCount(1);
    await expect(trail.getByRole('row')).toHaveCount(4);
    await expectAccessible(page);
    // The time filter is the portal's own date field, in the page's words: from tomorrow on, nothing is left.
    const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000);
    await page.locator('#audit-from-year').fill(String(tomorrow.getFullYear()));
    await page.locator('#audit-from-month').selectOption(String(tomorrow.getMonth() + 1).padStart(2, '0'));
    await page.locator('#audit-from-day').selectOption(String(tomorrow.getDate()).padStart(2, '0'));
    await page.getByRole('button', { name: m.audit.apply }).click();
    await expect(page.getByText(m.audit.none)).toBeVisible();
    await page.screenshot({ path: `/tmp/ss/shots/ops-audit-${lang}-${run.name}.png`, fullPage: true });
    await ops.context.close();
    await person.close();
  });
}
