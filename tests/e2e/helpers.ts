import { execFileSync } from 'node:child_process';
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { messages } from '../../src/i18n';
import type { Lang } from '../../src/lib/lang';
import { PERSIST_DIR, PORTAL_ORIGIN } from './world';
import { DEV_HANDOFF_KEY, createHandoffBlob, handoffClaims, importHandoffKey } from '../../functions/gateway/handoff/blob';

/** A fresh mainland mobile number per call, so tests never share a user. */
export function uniqueMobile(): string {
  return `139${String(Date.now() % 1e5).padStart(5, '0')}${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}`;
}
export const uniqueEmail = (tag: string) => `${tag}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;

/**
 * A fresh browser for the next step: leaves the open page first, because a signed-in page whose cookies vanish
 * sends itself to sign-in on its next call, and that navigation would abort the test's own `goto`.
 */
export async function leaveAndClearCookies(page: Page) {
  await page.goto('about:blank');
  await page.context().clearCookies();
}

export async function openInLanguage(page: Page, lang: Lang, path: string) {
  await page.context().addCookies([{ name: 'LANG', value: lang, url: 'http://127.0.0.1' }]);
  await page.goto(path);
}

/** The latest code sent to a recipient, read from the local outbox (DEV_OUTBOX). */
export async function readCode(request: APIRequestContext, recipient: string): Promise<string> {
  let text = '';
  await expect
    .poll(async () => {
      const answer = (await (await request.get(`/api/dev/outbox?to=${encodeURIComponent(recipient)}`)).json()) as { data: { text: string }[] };
      text = answer.data[0]?.text ?? '';
      return /\b\d{6}\b/.test(text);
    })
    .toBe(true);
  return /\b(\d{6})\b/.exec(text)![1]!;
}

/** Signs a seeded e-mail account in through the password form of /login. */
export async function signInByEmail(page: Page, lang: Lang, email: string, password: string) {
  const m = messages[lang].signIn;
  await openInLanguage(page, lang, '/login');
  await page.getByRole('tab', { name: m.tabs.password }).click();
  await page.getByRole('tab', { name: m.tabs.email }).click();
  await page.getByLabel(m.email).fill(email);
  await page.getByLabel(m.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: m.submit }).click();
}

/** Seeds an existing account through the dev-only endpoint. */
export async function seedUser(request: APIRequestContext, body: Record<string, unknown>): Promise<string> {
  const answer = (await (await request.post('/api/dev/users', { data: body })).json()) as { code: string; data: { userId: string } };
  expect(answer.code).toBe('0');
  return answer.data.userId;
}

/** Drags the slider like a person: the dev endpoint reveals where the gap is for this challenge. */
export async function passSlider(page: Page, challenge: Promise<{ sessionId: string }>) {
  const { sessionId } = await challenge;
  // The handle takes a drag only once the puzzle is drawn.
  await expect(page.locator('.slider-piece')).toBeVisible();
  const reveal = (await (await page.request.get(`/api/dev/captcha/${sessionId}`)).json()) as { data: { x: number } };
  const handle = page.getByRole('slider');
  const stage = page.locator('.slider-stage');
  const scale = (await stage.boundingBox())!.width / 380;
  const box = (await handle.boundingBox())!;
  const startX = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(startX, y);
  await page.mouse.down();
  const target = reveal.data.x * scale;
  const steps = 12;
  for (let i = 1; i <= steps; i++) {
    // Ease out, with small pauses: neither instant nor perfectly even.
    const progress = 1 - (1 - i / steps) ** 2;
    await page.mouse.move(startX + target * progress, y + (i % 3) - 1);
    await page.waitForTimeout(25 + (i % 4) * 10);
  }
  await page.mouse.up();
}

export function sliderChallenge(page: Page): Promise<{ sessionId: string }> {
  return page
    .waitForResponse((r) => r.url().includes('/api/agg-web/captcha/slider/init'))
    .then(async (r) => ((await r.json()) as { data: { sessionId: string } }).data);
}

/** Waits out the agreement's countdown, scrolls the framed agreement to its end and agrees. */
export async function acceptAgreement(page: Page, lang: Lang) {
  const dialog = page.getByRole('dialog', { name: messages[lang].signIn.agreement.title });
  await expect(dialog).toBeVisible();
  const confirm = dialog.getByRole('button', { name: messages[lang].signIn.agreement.confirm });
  await expect(confirm).toBeDisabled();
  const frame = page.frameLocator('.agreement-frame');
  // The framed agreement comes without the portal's own header and footer (issue 6): the modal is its frame.
  await expect(frame.locator('h1')).toBeVisible();
  await expect(frame.locator('.site-header')).toBeHidden();
  await expect(frame.locator('.site-footer')).toBeHidden();
  await frame.locator('body').evaluate((body) => body.ownerDocument.defaultView!.scrollTo(0, body.scrollHeight));
  await expect(confirm).toBeEnabled({ timeout: 8_000 });
  await confirm.click();
}

/** Signs a seeded e-mail account in through the gateway (no form): the session cookie lands in the request's context. */
export async function signInByRequest(request: APIRequestContext, email: string, password: string) {
  const { createHash } = await import('node:crypto');
  const login = await request.post('/api/agg-web/user/v3/userLogin', {
    data: { loginEmail: email, loginPassword: createHash('sha256').update(password).digest('hex'), passwordVersion: 2, captchaType: 3, grant_type: 'password', scope: 'server', client_id: 'portal', client_secret: 'portal' },
  });
  expect(((await login.json()) as { code: string }).code).toBe('0');
}

/** The axe rules every page is held to: WCAG 2.2 AA, plus axe's best practices and experimental rules. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice', 'experimental'];

/** Axe (AXE_TAGS) on the page or one part of it: no violations. */
export async function expectAccessible(page: Page, include?: string) {
  let builder = new AxeBuilder({ page }).withTags(AXE_TAGS);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)).toEqual([]);
}

/**
 * The worker's server as localhost: browsers refuse an IP address as a passkey relying party, and
 * scripts/serve-e2e.mjs makes this origin the passkey origin (PASSKEY_ORIGINS). Passkey specs
 * `test.use({ baseURL: PASSKEY_ORIGIN })`.
 */
export { PASSKEY_ORIGIN } from './world';

/** Opens `path` of PASSKEY_ORIGIN in `lang`. */
export async function openAsPasskeyOrigin(page: Page, lang: Lang, path: string) {
  await page.context().addCookies([{ name: 'LANG', value: lang, url: PASSKEY_ORIGIN }]);
  await page.goto(path);
}

/** Chromium's virtual authenticator (CDP WebAuthn): a platform authenticator with resident keys that verifies the person. */
export async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
    /** Whether the device checks the person (PIN or biometrics); without it every passkey request fails. */
    verifies: (isUserVerified: boolean) => cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified }),
  };
}

/** Fills the portal's date field (src/ui/DateField.tsx) named `label` with a YYYY-MM-DD day, part by part. */
export async function fillDate(page: Page, lang: Lang, label: RegExp | string, iso: string) {
  const parts = messages[lang].onboarding.dateParts;
  const group = page.getByRole('group', { name: label });
  const [year, month, day] = iso.split('-') as [string, string, string];
  await group.getByRole('textbox', { name: parts.year }).fill(year);
  await group.getByRole('combobox', { name: parts.month }).selectOption(month);
  await group.getByRole('combobox', { name: parts.day }).selectOption(day);
}

/** Picks an option of a SearchSelect: types, waits out the 500 ms debounce, chooses by keyboard or click. */
export async function searchAndPick(page: Page, label: string | RegExp, term: string, option: string | RegExp) {
  const box = page.getByRole('combobox', { name: label, exact: true });
  await box.fill(term);
  await page.getByRole('listbox', { name: label, exact: true }).getByRole('option', { name: option }).first().click();
}

/** `npm run operator -- …` (scripts/operator.mjs), exactly as documented, on this server's local D1; returns what it prints. */
export function operatorCli(...args: string[]): string {
  return execFileSync('node', ['scripts/operator.mjs', ...args, '--persist-to', PERSIST_DIR, '--origin', PORTAL_ORIGIN], {
    encoding: 'utf8',
  });
}

/** Arrives signed in from another site (a session hand-off) on `path`: a session with no proof of the person. */
export async function handedOver(page: Page, lang: Lang, userId: string, path: string) {
  const blob = await createHandoffBlob(await importHandoffKey(DEV_HANDOFF_KEY), handoffClaims({ sub: userId, aud: 'portal', purpose: 'session' }));
  await openInLanguage(page, lang, '/login');
  await page.goto(`${path}?token=${blob}`);
  await expect(page).toHaveURL(new RegExp(`${path}$`));
}
