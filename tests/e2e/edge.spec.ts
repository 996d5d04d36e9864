import { expect, test } from './fixtures';
import { DEV_HANDOFF_KEY, createHandoffBlob, handoffClaims, importHandoffKey, type HandoffPurpose } from '../../functions/gateway/handoff/blob';
import { hashPassword } from '../../src/lib/password-hash';
import { leaveAndClearCookies, seedUser, uniqueEmail } from './helpers';
import { workerMessages } from '../../src/i18n/worker';

/**
 * The hand-off from another site as a person meets it: signed in and on their way, or the 400 page in their
 * language. The edge's rules underneath (the source-origin cookies, every refused blob, replays, races, the
 * clean Location, no-store) are tests/functions/edge.test.ts.
 */
const blobFor = async (sub: string, purpose: HandoffPurpose = 'session') =>
  createHandoffBlob(
    await importHandoffKey(DEV_HANDOFF_KEY),
    handoffClaims({ sub, aud: 'portal', purpose, ...(purpose === 'credentials' ? { loginName: 'x@example.com', passwordHash: 'ab'.repeat(32) } : {}) }),
  );

test('a hand-off signs the visitor in, cleans the URL, and sign-in pages then lead to the portal', async ({ page, context, request }) => {
  const userId = await seedUser(request, { email: uniqueEmail('handoff') });
  const blob = await blobFor(userId);
  const res = await page.goto(`/register?token=${blob}&source=portal`);
  // 303 to /register?source=portal, which a signed-in visitor leaves for the portal.
  await expect(page).toHaveURL(/\/user_center$/);
  expect(page.url()).not.toContain(blob);
  expect(res?.status()).toBe(200);
  const token = (await context.cookies()).find((c) => c.name === 'portal_token');
  expect(token?.httpOnly).toBe(true);
  expect(await page.evaluate(() => document.cookie)).not.toContain('portal_token');

  await page.goto('/login');
  await expect(page).toHaveURL(/\/user_center$/);
  await page.goto('/join');
  await expect(page).toHaveURL(/\/join$/);

  // The same blob a second time: refused, in the visitor's language, and no new session.
  await leaveAndClearCookies(page);
  await context.addCookies([{ name: 'LANG', value: 'zh', url: 'http://127.0.0.1' }]);
  const replay = await page.goto(`/login?token=${blob}`);
  expect(replay?.status()).toBe(400);
  await expect(page.locator('h1')).toHaveText(workerMessages.zh.handoff.title);
  await expect(page.getByText(workerMessages.zh.handoff.replayed)).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === 'portal_token')).toBeUndefined();
});

test('a credentials hand-off signs the person in with their password, and a wrong one gets the 400 page', async ({ page, context, request }) => {
  const email = uniqueEmail('creds');
  const userId = await seedUser(request, { email, password: 'Harbour2026', agreed: true });
  const credentials = async (password: string) =>
    createHandoffBlob(
      await importHandoffKey(DEV_HANDOFF_KEY),
      handoffClaims({ sub: userId, aud: 'portal', purpose: 'credentials', loginName: email, passwordHash: await hashPassword(password) }),
    );

  await context.addCookies([{ name: 'LANG', value: 'zh', url: 'http://127.0.0.1' }]);
  const wrong = await page.goto(`/login?userNameAndPwd=${await credentials('Wrong2026')}`);
  expect(wrong?.status()).toBe(400);
  await expect(page.getByText(workerMessages.zh.handoff.credentials)).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === 'portal_token')).toBeUndefined();

  const blob = await credentials('Harbour2026');
  await page.goto(`/login?userNameAndPwd=${blob}&source=mail`);
  // Signed in: the sign-in page sends the person on to the portal, and the blob is gone from the URL.
  await expect(page).toHaveURL(/\/user_center$/);
  expect(page.url()).not.toContain(blob);
  expect((await context.cookies()).find((c) => c.name === 'portal_token')?.httpOnly).toBe(true);
});
