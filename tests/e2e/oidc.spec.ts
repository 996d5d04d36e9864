import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Page } from '@playwright/test';
import { expect, PORTAL_ORIGIN, test } from './fixtures';
import * as oidc from 'openid-client';
import { messages } from '../../src/i18n';
import type { Lang } from '../../src/lib/lang';
import { expectAccessible, openInLanguage, seedUser, shoot, signInByRequest, uniqueEmail } from './helpers';

/**
 * Signing in to another app through the portal (OpenID Connect), with `openid-client` as the app: the browser
 * goes to the authorization endpoint, signs in on the portal's own page, allows the app on the consent page and
 * lands at the app with a code, which the app redeems for tokens it validates. Then userinfo, "Connected apps",
 * and the app's logout. zh at phone width and en at desktop width.
 *
 * The protocol itself (refresh rotation and reuse, prompt=none, remembered consent, the locale claim, access_denied,
 * client credentials, codes, PKCE, logout tokens) is tests/functions/oidc.test.ts; the app here is registered
 * through the operators' console API, as an admin would (the operator command has its own test in ops-auth.spec.ts).
 */

const ISSUER = PORTAL_ORIGIN;
let APP = '';
let app: { clientId: string; clientSecret: string };
/** The app's own pages: a small server per worker that records every URL the browser is sent to. */
let appServer: Server;
let visited: string[] = [];

test.beforeAll(async ({ playwright }) => {
  appServer = createServer((request, response) => {
    if (!request.url?.startsWith('/favicon')) visited.push(`${APP}${request.url}`);
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Voyage planner</title><p>app</p>');
  });
  await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve));
  APP = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`;
  // An admin's console session (the dev route sets the operator cookie in this request context), then the console's call.
  const ops = await playwright.request.newContext({ baseURL: PORTAL_ORIGIN });
  try {
    const minted = await ops.post('/api/dev/operator-session', { data: { role: 'admin', login: `oidc.${Date.now()}.${process.pid}@ops.example.com` } });
    expect(((await minted.json()) as { code: string }).code).toBe('0');
    const created = await ops.post('/api/ops/v1/oidc/clients', {
      data: { name: 'Voyage planner', redirectUris: [`${APP}/callback`], postLogoutUris: [`${APP}/signed-out`], backchannelLogoutUri: null, public: false, trusted: false },
    });
    const answer = (await created.json()) as { code: string; data: { client: { id: string }; secret: string | null } };
    expect(answer.code).toBe('0');
    app = { clientId: answer.data.client.id, clientSecret: answer.data.secret! };
  } finally {
    await ops.dispose();
  }
});
test.afterAll(() => new Promise<void>((resolve) => appServer.close(() => resolve())));
test.beforeEach(() => {
  visited = [];
});

/** Waits until the browser has been sent to the app `count` times and has finished opening the last page there
 *  (the app's server sees the request before the browser commits it; a goto in between would be interrupted). */
async function arrivedAtApp(page: Page, count: number) {
  await expect.poll(() => visited.length).toBe(count);
  await page.waitForURL(visited[count - 1]!);
}

async function relyingParty() {
  return oidc.discovery(new URL(ISSUER), app.clientId, undefined, oidc.ClientSecretBasic(app.clientSecret), { execute: [oidc.allowInsecureRequests] });
}

async function startFlow(config: oidc.Configuration, extra: Record<string, string> = {}) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: `${APP}/callback`,
    scope: 'openid profile email offline_access',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  return { url, verifier, state, nonce };
}

/** zh at phone width and en at desktop width (as oidc-clients.spec.ts): each language and each width walked once. */
const runs = [
  { lang: 'zh', width: 390 },
  { lang: 'en', width: 1280 },
] as const;

for (const { lang, width } of runs) {
  test(`${lang} ${width}px: sign in through the portal, allow the app, use it, see it connected, and sign out from the app`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const m = messages[lang];
    const email = uniqueEmail('oidc');
    await seedUser(page.request, { email, password: 'Harbour2024', realName: 'Chen Jing', agreed: true });
    const config = await relyingParty();
    // `phone` asked for by an app, of an account without a phone: the page does not promise one (issue 47).
    const flow = await startFlow(config, { ui_locales: lang === 'zh' ? 'zh-CN' : 'en', scope: 'openid profile email phone offline_access' });

    // Signed out: the app's link leads to the portal's sign-in, which returns to the consent page.
    await openInLanguage(page, lang === 'zh' ? 'en' : 'zh', '/login');
    await page.goto(flow.url.href);
    await expect(page).toHaveURL(/\/login\?next=%2Fconnect/);
    await page.getByRole('tab', { name: m.signIn.tabs.password }).click();
    await page.getByRole('tab', { name: m.signIn.tabs.email }).click();
    await page.getByLabel(m.signIn.email).fill(email);
    await page.getByLabel(m.signIn.password, { exact: true }).fill('Harbour2024');
    await page.getByRole('button', { name: m.signIn.submit }).click();

    // The consent page names the app and what it will receive, in the language the app asked for.
    await expect(page).toHaveURL(/\/connect\?request=/);
    const heading = page.getByRole('heading', { name: m.connect.asks.replace('{app}', 'Voyage planner') });
    await expect(heading).toBeVisible();
    await expect(heading).toBeFocused();
    await expect(page.getByText(m.connect.scopes.email)).toBeVisible();
    await expect(page.getByText(m.connect.scopes.phone, { exact: true })).toHaveCount(0);
    // Which account, whose app and where it answers, and a way to switch accounts (issue 47).
    await expect(page.getByText(m.connect.signedInAs.replace('{account}', `Chen Jing (${email})`))).toBeVisible();
    await expect(page.getByText(m.connect.appOfPlatform.replace('{address}', new URL(APP).host))).toBeVisible();
    await expect(page.getByRole('button', { name: m.connect.notYou })).toBeVisible();
    // The consent page with an app's request: a state a11y.spec.ts's tour of /connect (no request) does not reach.
    await expectAccessible(page);
    await shoot(page, `connect-${lang}`, { widths: [390, 1280] });
    await page.getByRole('button', { name: m.connect.allow }).press('Enter');

    await arrivedAtApp(page, 1);
    const callback = new URL(visited[0]!);
    expect(callback.searchParams.get('iss')).toBe(ISSUER);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce });
    const claims = tokens.claims()!;
    expect(claims.email).toBe(email);
    expect(claims.name).toBe('Chen Jing');
    expect(claims.locale).toBe(lang === 'zh' ? 'zh-CN' : 'en');
    expect((await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)).email).toBe(email);

    // The user center lists the app under Connected apps.
    await page.goto('/user_center#security');
    const connected = page.getByRole('region', { name: m.connect.connectedApps });
    // The Security section's parts load as they scroll into view.
    await expect
      .poll(async () => {
        // The window itself (a wheel over a scrollable table would scroll the table instead).
        await page.evaluate(() => window.scrollBy(0, 700));
        return connected.getByText('Voyage planner').isVisible();
      })
      .toBe(true);
    await expect(connected.getByRole('button', { name: m.connect.disconnectOne.replace('{app}', 'Voyage planner') })).toBeVisible();
    // Connected apps with an app in it: a11y.spec.ts's signed-in tour meets the list empty.
    await expectAccessible(page, '#connected-apps-title');

    // The app signs the person out: back at the app's registered page, and the portal session has ended.
    await page.goto(oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: `${APP}/signed-out`, state: 'bye' }).href);
    await expect.poll(() => visited.at(-1)).toBe(`${APP}/signed-out?state=bye`);
    await page.waitForURL(`${APP}/signed-out?state=bye`);
    await page.goto('/user_center');
    await expect(page).toHaveURL(/\/login/);
  });
}

test('an unregistered redirect_uri gets the portal error page and no redirect', async ({ page }) => {
  const answer = await page.goto(`/oidc/authorize?client_id=${app.clientId}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}&response_type=code&scope=openid`);
  expect(answer?.status()).toBe(400);
  await expect(page).toHaveURL(/\/oidc\/authorize/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectAccessible(page);
});

test('an app that demands two-step (acr_values) sends a person without it to set it up, in both languages', async ({ page }) => {
  const config = await relyingParty();
  for (const lang of ['zh', 'en'] as Lang[]) {
    const m = messages[lang];
    const email = uniqueEmail(`oidc-acr-${lang}`);
    await seedUser(page.request, { email, password: 'Harbour2024', agreed: true });
    await page.context().clearCookies();
    await openInLanguage(page, lang, '/login');
    await signInByRequest(page.request, email, 'Harbour2024');
    const flow = await startFlow(config, { acr_values: 'urn:portal:acr:2fa' });
    await page.goto(flow.url.href);
    await expect(page.getByText(m.connect.twoStepNeeded.replace('{app}', 'Voyage planner'))).toBeVisible();
    await expect(page.getByRole('link', { name: m.connect.setUpTwoStep })).toHaveAttribute('href', '/user_center#security');
    await expectAccessible(page);
    // Cancel answers the app that the person declined, with this flow's state.
    const sentBefore = visited.length;
    await page.getByRole('button', { name: m.connect.deny }).click();
    await arrivedAtApp(page, sentBefore + 1);
    const answer = new URL(visited.at(-1)!).searchParams;
    expect(answer.get('error')).toBe('access_denied');
    expect(answer.get('state')).toBe(flow.state);
  }
});

for (const { lang, width } of runs) {
  test(`${lang} ${width}px: an app's sign-out link without the ID token asks first; "Sign out" by keyboard ends the session and returns to the app`, async ({ signedIn: page }) => {
    await page.setViewportSize({ width, height: 800 });
    const m = messages[lang];

    // What a link on any page would do: the portal asks, naming the app, instead of signing out.
    await openInLanguage(page, lang, `/oidc/logout?${new URLSearchParams({ client_id: app.clientId, post_logout_redirect_uri: `${APP}/signed-out`, state: 'bye' })}`);
    await expect(page).toHaveURL(/\/sign_out\?request=/);
    const heading = page.getByRole('heading', { name: m.connect.signOutAsks.replace('{app}', 'Voyage planner') });
    await expect(heading).toBeFocused();
    await expect(page.getByRole('button', { name: m.connect.staySignedIn })).toBeVisible();
    // What staying means: the portal session stays; the app has signed itself out either way (issue 47).
    await expect(page.getByText(m.connect.staySignedInHint.replace('{app}', 'Voyage planner'))).toBeVisible();
    expect(visited).toEqual([]);
    // The question with an app's request (a11y.spec.ts tours /sign_out without one).
    await expectAccessible(page);
    // For the engineer to look at (SCREENSHOTS=1); not asserted.
    await shoot(page, `sign-out-${lang}-${width}`);

    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: m.connect.signOut })).toBeFocused();
    await page.keyboard.press('Enter');
    await arrivedAtApp(page, 1);
    expect(visited[0]).toBe(`${APP}/signed-out?state=bye`);
    await page.goto('/user_center');
    await expect(page).toHaveURL(/\/login/);
  });
}

test('"Stay signed in" on a bare sign-out link keeps the session; the spent link then says so', async ({ page }) => {
  for (const lang of ['zh', 'en'] as Lang[]) {
    const m = messages[lang];
    const email = uniqueEmail(`oidc-stay-${lang}`);
    await seedUser(page.request, { email, password: 'Harbour2024', agreed: true });
    await page.context().clearCookies();
    await openInLanguage(page, lang, '/login');
    await signInByRequest(page.request, email, 'Harbour2024');
    await page.goto('/oidc/logout');
    await expect(page.getByRole('heading', { name: m.connect.signOutAsksUnknown })).toBeVisible();
    const asked = page.url();
    await page.getByRole('button', { name: m.connect.staySignedIn }).click();
    await expect(page).toHaveURL(/\/user_center/);
    // Still signed in; the same link cannot be answered twice.
    await page.goto(asked);
    await expect(page.getByRole('alert')).toContainText(lang === 'zh' ? '退出请求' : 'sign-out request');
    await expectAccessible(page);
    await page.goto('/user_center');
    await expect(page).toHaveURL(/\/user_center/);
  }
});

// One language: the hint fills the same fields in both (the sign-in page's words in both languages are the page tour's;
// the hint's rules, tests/functions/oidc-login-hint.test.ts).
for (const lang of ['en'] as Lang[]) {
  test(`${lang}: an app's login_hint fills the sign-in form's e-mail or phone field (never in the address), and a hint with markup is ignored`, async ({ page }) => {
    const m = messages[lang];
    const config = await relyingParty();
    await openInLanguage(page, lang, '/login');

    const byEmail = await startFlow(config, { login_hint: 'Li.Wei@Example.com' });
    await page.goto(byEmail.url.href);
    await expect(page).toHaveURL(/\/login\?next=%2Fconnect/);
    expect(page.url()).not.toMatch(/wei|example/i);
    await expect(page.getByRole('tab', { name: m.signIn.tabs.email })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByLabel(m.signIn.email, { exact: true })).toHaveValue('li.wei@example.com');
    await page.setViewportSize({ width: 390, height: 800 });
    await shoot(page, `login-hint-${lang}-390`);

    const byPhone = await startFlow(config, { login_hint: '13800138000' });
    await page.goto(byPhone.url.href);
    await expect(page.getByRole('tab', { name: m.signIn.tabs.phone })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByLabel(m.signIn.phone, { exact: true })).toHaveValue('13800138000');
    await page.setViewportSize({ width: 1280, height: 800 });
    await shoot(page, `login-hint-${lang}-1280`);

    const markup = await startFlow(config, { login_hint: '"><img src=x onerror=alert(1)>@example.com' });
    await page.goto(markup.url.href);
    await expect(page.getByLabel(m.signIn.phone, { exact: true })).toBeVisible();
    await expect(page.getByLabel(m.signIn.phone, { exact: true })).toHaveValue('');
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
  });
}
