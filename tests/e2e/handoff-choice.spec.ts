import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEV_HANDOFF_KEY, createHandoffBlob, handoffClaims, importHandoffKey } from '../../functions/gateway/handoff/blob';
import { seedUser, uniqueEmail } from './helpers';
import { workerMessages } from '../../src/i18n/worker';

const blobFor = async (sub: string) => createHandoffBlob(await importHandoffKey(DEV_HANDOFF_KEY), handoffClaims({ sub, aud: 'portal', purpose: 'session' }));

/** Every Content-Security-Policy violation the page reports, in the console or as an event. */
function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.push(message.text());
  });
  return seen;
}

for (const lang of ['en', 'zh'] as const) {
  test(`${lang}: a hand-off for another person asks first, and switches only on the click`, async ({ page, context, request }) => {
    const m = workerMessages[lang].handoff;
    const violations = cspViolations(page);
    await context.addCookies([{ name: 'LANG', value: lang, url: 'http://127.0.0.1' }]);
    const first = await seedUser(request, { email: uniqueEmail(`choice-a-${lang}`), agreed: true });
    const second = await seedUser(request, { email: uniqueEmail(`choice-b-${lang}`), agreed: true });

    await page.goto(`/user_center?token=${await blobFor(first)}`);
    await expect(page).toHaveURL(/\/user_center$/);
    const firstToken = (await context.cookies()).find((c) => c.name === 'portal_token')!.value;

    // A link from someone else: the page asks, and the session is still the first person's.
    const blob = await blobFor(second);
    await page.goto(`/user_center?token=${blob}&tab=1`);
    await expect(page.locator('h1')).toHaveText(m.switchTitle);
    expect((await context.cookies()).find((c) => c.name === 'portal_token')!.value).toBe(firstToken);

    // Keeping the current account drops the link.
    await page.getByRole('link', { name: m.keepCurrent }).click();
    await expect(page).toHaveURL(/\/user_center\?tab=1$/);
    expect((await context.cookies()).find((c) => c.name === 'portal_token')!.value).toBe(firstToken);

    // The same link again, and this time the other account: a new session, and the URL is clean.
    await page.goto(`/user_center?token=${blob}&tab=1`);
    await page.getByRole('button', { name: m.continueOther }).click();
    await expect(page).toHaveURL(/\/user_center\?tab=1$/);
    const secondToken = (await context.cookies()).find((c) => c.name === 'portal_token')!;
    expect(secondToken.value).not.toBe(firstToken);
    expect(secondToken.httpOnly).toBe(true);
    expect(page.url()).not.toContain(blob);
    expect(violations).toEqual([]);
  });
}

test('pages hydrate under the script policy: /login and /register run their islands without a CSP violation', async ({ page }) => {
  const violations = cspViolations(page);
  for (const path of ['/login', '/register', '/forget']) {
    // The policy itself (scripts, workers, no blob:, object-src) is read below the browser: script-policy.test.ts and
    // page-shells.test.ts. Here: the islands run under it.
    await page.goto(path);
    // Hydrated: the islands' buttons answer (Astro removes `ssr` from an island once it has hydrated).
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  }
  expect(violations).toEqual([]);
});
