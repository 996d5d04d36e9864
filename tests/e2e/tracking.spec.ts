import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { messages } from '../../src/i18n';
import { langs, type Lang } from '../../src/lib/lang';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { openInLanguage, seedUser, signInByEmail, uniqueEmail } from './helpers';

/**
 * Funnel tracking from the pages (src/lib/tracking.ts): a sign-in funnel in Chromium sends its events in beacons
 * when each page is left, and the operators' tracking list returns exactly those events, without personal data.
 * With Global Privacy Control on, the same funnel sends nothing. The e2e server's OPERATOR_TOKEN is in
 * scripts/serve-e2e.mjs.
 */
const OPERATOR_TOKEN = 'e2e-operator-token-0123456789';
const PASSWORD = 'Harbour2026';
const TRACKING_PATH = '/api/agg-web/buriedPoint/add';
test.describe.configure({ timeout: 180_000 });
/** A sign-in runs the server's KDF and then waits its 500 ms: on a loaded machine the landing takes seconds. */
const LANDING_MS = 20_000;

type Row = { eventId: string; bpSource: string; bpType: string; keyList: { key: string; value: string }[]; versionNumber: string; traceId: string };

/** Every beacon the pages of this context send: its body and the trace id the edge answered with. */
function collectBeacons(context: BrowserContext) {
  const beacons: { body: unknown; traceId: Promise<string | undefined> }[] = [];
  context.on('request', (request) => {
    if (!request.url().endsWith(TRACKING_PATH)) return;
    beacons.push({ body: request.postDataJSON(), traceId: request.response().then((response) => response?.headers()['x-trace-id']) });
  });
  return beacons;
}

/** Opens /login, signs in with a wrong password, then the right one, lands on /account and leaves it. */
async function signInFunnel(page: Page, lang: Lang, email: string) {
  await signInByEmail(page, lang, email, 'Wrong2026x');
  await expect(page.getByText(errorCatalogue.US0010[lang])).toBeVisible();
  await page.getByLabel(messages[lang].signIn.password, { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: messages[lang].signIn.submit }).click();
  await expect(page).toHaveURL(/\/account$/, { timeout: LANDING_MS });
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  // Leaving /account hides it: its queued events leave in a beacon.
  await page.goto('/privacy');
}

for (const lang of langs) {
  test(`${lang}: a sign-in funnel's events arrive in beacons and read back through the tracking list`, async ({ page, context, request }) => {
    const email = uniqueEmail('funnel');
    await seedUser(request, { email, password: PASSWORD, agreed: true, userType: 2, companies: [{ nameEn: `Funnel ${Date.now()} ${Math.random()}` }] });
    const beacons = collectBeacons(context);
    await signInFunnel(page, lang, email);
    // /login's beacon leaves with the navigation to /account, /account's with the one to /privacy.
    await expect.poll(() => beacons.length).toBeGreaterThanOrEqual(2);
    const traceIds = new Set(await Promise.all(beacons.map((b) => b.traceId)));
    expect(traceIds.has(undefined)).toBe(false);

    const list = await request.get('/api/agg-web/buriedPoint/list?limit=500', { headers: { 'x-operator-token': `Bearer ${OPERATOR_TOKEN}` } });
    const rows = ((await list.json()) as { data: Row[] }).data.filter((row) => traceIds.has(row.traceId)).reverse();
    const keys = (row: Row) => Object.fromEntries(row.keyList.map(({ key, value }) => [key, value]));
    expect(rows.map((row) => [row.eventId, keys(row)])).toEqual([
      ['page_shown', { page: 'login', lang }],
      ['sign_in_failed', { page: 'login', lang, method: 'password', code: 'US0010' }],
      ['sign_in_succeeded', { page: 'login', lang, method: 'password' }],
      ['page_shown', { page: 'account', lang }],
    ]);
    for (const row of rows) expect(row).toMatchObject({ bpSource: 'portal', bpType: 'funnel', versionNumber: '9.3.11' });
    // Nothing personal: not the address, not its user part, not the password.
    const sent = JSON.stringify([rows, beacons.map((b) => b.body)]);
    for (const secret of [email, email.split('@')[0]!, PASSWORD, 'Wrong2026x', '@']) expect(sent).not.toContain(secret);
  });
}

test('with Global Privacy Control on, the same funnel sends no event at all', async ({ page, context, request }) => {
  await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }));
  const email = uniqueEmail('gpc');
  await seedUser(request, { email, password: PASSWORD, agreed: true, userType: 2, companies: [{ nameEn: `GPC ${Date.now()} ${Math.random()}` }] });
  const beacons = collectBeacons(context);
  await signInFunnel(page, 'en', email);
  await openInLanguage(page, 'en', '/register');
  await page.goto('/privacy');
  await page.waitForLoadState('networkidle');
  expect(beacons).toEqual([]);
});
