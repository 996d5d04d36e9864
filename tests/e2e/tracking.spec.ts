import { type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { langs, type Lang } from '../../src/lib/lang';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { openInLanguage, seedUser, signInByEmail, uniqueEmail } from './helpers';

/** Moves the gateway's clock one tracking window (a minute) on: the events counted against any network are past. */
async function pastTheTrackingWindow(request: APIRequestContext) {
  const moved = await request.post('/api/dev/clock', { data: { advanceMs: 61_000 } });
  expect(((await moved.json()) as { code: string }).code).toBe('0');
}

// The worker's later tests run on real time again: an app's TOTP code made on real time fails on a clock a minute on.
test.afterEach(async ({ request }) => {
  const reset = await request.post('/api/dev/clock', { data: { reset: true } });
  expect(((await reset.json()) as { code: string }).code).toBe('0');
});

/**
 * Funnel tracking from the pages (src/lib/tracking.ts): a sign-in funnel in Chromium sends its events in beacons
 * when each page is left, and the operators' tracking list returns exactly those events, without personal data.
 * With Global Privacy Control on, the same funnel sends nothing. The list is read with an admin operator's
 * console cookie (the `operatorPage` fixture).
 *
 * The e2e server keeps the deployed cap of 60 events a minute per client network. A beacon sent as its page
 * unloads carries no x-test-client-ip header (Chromium sends it outside the page's extra headers), so it counts
 * against the loopback network, which every test of this worker shares. Each test here first moves the dev
 * clock past the cap's one-minute window (on the gateway's clock), so the loopback network starts empty.
 * The cap itself is tested in tests/functions/tracking.test.ts.
 */
const PASSWORD = 'Harbour2026';
const TRACKING_PATH = '/api/agg-web/buriedPoint/add';
/** A sign-in runs the server's KDF and then waits its 500 ms: on a loaded machine the landing takes seconds. */
const LANDING_MS = 20_000;

type Row = { eventId: string; bpSource: string; bpType: string; keyList: { key: string; value: string }[]; versionNumber: string; createdAt: number };
type Sent = { eventId: string; keyList: { key: string; value: string }[] };

/**
 * Records every beacon the pages of this context send to the tracking call, in localStorage (it outlives the
 * page that sent it: a beacon leaves while the page unloads, where Playwright's request events do not see it).
 */
async function recordBeacons(context: BrowserContext) {
  await context.addInitScript((path) => {
    const send = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url, data) => {
      if (String(url) === path && data instanceof Blob) {
        const log = JSON.parse(localStorage.getItem('beaconLog') ?? '[]') as unknown[];
        // The Blob's text is read synchronously from what was queued: the page keeps its copy.
        log.push((window as unknown as { __lastBeacon?: unknown }).__lastBeacon ?? null);
        localStorage.setItem('beaconLog', JSON.stringify(log));
      }
      return send(url, data);
    };
    const stringify = JSON.stringify;
    JSON.stringify = ((value: unknown, ...rest: never[]) => {
      const text = stringify(value, ...rest);
      if (Array.isArray(value) && value[0] && typeof value[0] === 'object' && 'bpSource' in value[0]) {
        (window as unknown as { __lastBeacon?: unknown }).__lastBeacon = JSON.parse(text);
      }
      return text;
    }) as typeof JSON.stringify;
  }, TRACKING_PATH);
}
const beaconLog = async (page: Page) => (await page.evaluate(() => JSON.parse(localStorage.getItem('beaconLog') ?? '[]'))) as (Sent[] | null)[];

/** Opens /login, signs in with a wrong password, then the right one, lands on /account and leaves it. */
async function signInFunnel(page: Page, lang: Lang, email: string) {
  await signInByEmail(page, lang, email, 'Wrong2026x');
  await expect(page.getByText(errorCatalogue.US0010[lang])).toBeVisible();
  await page.getByLabel(messages[lang].signIn.password, { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: messages[lang].signIn.submit }).click();
  await expect(page).toHaveURL(/\/account$/, { timeout: LANDING_MS });
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  // The layout loads the tracking module after the page's own work and only then queues "page shown": a visit
  // left before that counts no page (by design), so the test stays until the page's loads are done.
  await page.waitForLoadState('networkidle');
  // Leaving /account hides it: its queued events leave in a beacon.
  await page.goto('/privacy');
}

for (const lang of langs) {
  test(`${lang}: a sign-in funnel's events leave in beacons and read back through the tracking list`, async ({ page, context, request, operatorPage }) => {
    await pastTheTrackingWindow(request);
    const email = uniqueEmail('funnel');
    await seedUser(request, { email, password: PASSWORD, agreed: true, userType: 2, companies: [{ nameEn: `Funnel ${Date.now()} ${Math.random()}` }] });
    await recordBeacons(context);
    // The list's rows carry the gateway's (moved) clock.
    const since = ((await (await request.post('/api/dev/clock', { data: { advanceMs: 0 } })).json()) as { data: { now: number } }).data.now - 60_000;
    await signInFunnel(page, lang, email);
    // /login's beacon left with the navigation to /account, /account's with the one to /privacy.
    await expect.poll(async () => (await beaconLog(page)).length, { timeout: LANDING_MS }).toBeGreaterThanOrEqual(2);
    const keys = (event: Sent) => Object.fromEntries(event.keyList.map(({ key, value }) => [key, value]));
    const sent = (await beaconLog(page)).flatMap((batch) => batch ?? []);
    expect(sent.map((event) => [event.eventId, keys(event)])).toEqual([
      ['page_shown', { page: 'login', lang }],
      ['sign_in_failed', { page: 'login', lang, method: 'password', code: 'US0010' }],
      ['sign_in_succeeded', { page: 'login', lang, method: 'password' }],
      ['page_shown', { page: 'account', lang }],
    ]);
    // Nothing personal: not the address, not its user part, not the passwords.
    const text = JSON.stringify(sent);
    for (const secret of [email, email.split('@')[0]!, PASSWORD, 'Wrong2026x', '@']) expect(text).not.toContain(secret);

    // Every event sent is stored (other tests may add more of the same kind, never fewer). A beacon is sent
    // while its page unloads and may still be on its way when the page has gone: read until it has arrived.
    // An admin operator's console cookie (set by the edge from the dev route's answer) opens the list.
    await operatorPage('admin');
    await expect(async () => {
      const list = await page.request.get('/api/agg-web/buriedPoint/list?limit=500');
      const rows = ((await list.json()) as { data: Row[] }).data.filter((row) => row.createdAt >= since);
      for (const event of sent) {
        const same = (row: Row) => row.eventId === event.eventId && JSON.stringify(row.keyList) === JSON.stringify(event.keyList);
        expect(rows.filter(same).length, JSON.stringify(event)).toBeGreaterThanOrEqual(sent.filter((e) => JSON.stringify(e) === JSON.stringify(event)).length);
        expect(rows.find(same)).toMatchObject({ bpSource: 'portal', bpType: 'funnel', versionNumber: '9.3.11' });
      }
    }).toPass({ timeout: LANDING_MS });
  });
}

test('with Global Privacy Control on, the same funnel sends no event at all', async ({ page, context, request }) => {
  await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }));
  await recordBeacons(context);
  const email = uniqueEmail('gpc');
  await seedUser(request, { email, password: PASSWORD, agreed: true, userType: 2, companies: [{ nameEn: `GPC ${Date.now()} ${Math.random()}` }] });
  await signInFunnel(page, 'en', email);
  await openInLanguage(page, 'en', '/register');
  await page.goto('/privacy');
  expect(await beaconLog(page)).toEqual([]);
});
