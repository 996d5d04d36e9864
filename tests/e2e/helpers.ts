import { execFileSync } from 'node:child_process';
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { messages } from '../../src/i18n';
import type { Lang } from '../../src/lib/lang';
import { PASSKEY_ORIGIN, PERSIST_DIR, PORTAL_ORIGIN } from './world';
import { DEV_HANDOFF_KEY, createHandoffBlob, handoffClaims, importHandoffKey } from '../../functions/gateway/handoff/blob';
import { solvePow, type PowChallenge } from '../functions/pow-solver';

/** Screenshots are opt-in: taken only when SCREENSHOTS=1 (the @screenshots run), never in the default run. */
export const SCREENSHOTS = Boolean(process.env.SCREENSHOTS);

/**
 * Waits until the page's island has replaced its loading fallback (no spinner) and the page is quiet:
 * a page half-built is neither judged nor photographed.
 */
export async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  // A shared test machine can take a while over a page's first calls.
  await expect(page.locator('.spinner')).toHaveCount(0, { timeout: 20_000 });
}

/**
 * Photographs the page as it stands as test-results/screenshots/<name>.png (full page unless `fullPage: false`,
 * as for a modal dialog over the viewport), at each of `widths` if given, when SCREENSHOTS=1; otherwise nothing.
 */
export async function shoot(page: Page, name: string, { widths, fullPage = true }: { widths?: readonly number[]; fullPage?: boolean } = {}) {
  if (!SCREENSHOTS) return;
  if (!widths) {
    await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage });
    return;
  }
  const before = page.viewportSize();
  for (const width of widths) {
    await page.setViewportSize({ width, height: before?.height ?? 900 });
    await page.screenshot({ path: `test-results/screenshots/${name}-${width}.png`, fullPage });
  }
  if (before) await page.setViewportSize(before);
}

/**
 * Sends a sign-in code to a mainland number by the gateway calls the /login form makes (the slider passed as the
 * dev reveal solves it, no page): for a test that needs a send to have happened, not the form. Answers the
 * envelope's code ('0' when a provider took it).
 */
export async function sendSmsCode(request: APIRequestContext, mobile: string): Promise<string> {
  const init = (await (await request.post('/api/agg-web/captcha/slider/init', { data: { scene: 'sms', subject: `+86${mobile}` } })).json()) as { code: string; data: { sessionId: string; pow: PowChallenge } };
  expect(init.code).toBe('0');
  const { sessionId } = init.data;
  const { x } = ((await (await request.get(`/api/dev/captcha/${sessionId}`)).json()) as { data: { x: number } }).data;
  const trail: [number, number][] = [0, 0.2, 0.45, 0.7, 0.85, 0.95, 1].map((p, i) => [i * 60 + (i % 2) * 15, Math.round(x * p)]);
  const verified = (await (await request.post('/api/agg-web/captcha/slider/verify', { data: { sessionId, x, trail, pow: await solvePow(init.data.pow) } })).json()) as { code: string; data: unknown };
  expect(verified.code).toBe('0');
  const sent = await request.post('/api/agg-web/sms/send', { data: { phoneCode: 'CN', phoneCodeValue: '+86', mobile, type: 3, sliderCheck: verified.data } });
  return ((await sent.json()) as { code: string }).code;
}

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

/** Makes a delivery provider's stand-in fail for one recipient (dev route /api/dev/delivery/faults). */
export async function failDelivery(request: APIRequestContext, provider: 'aliyun' | 'tencent' | 'ses' | 'webhook' | 'twilio', recipient: string) {
  const answer = await request.post('/api/dev/delivery/faults', { data: { provider, recipient, mode: 'down' } });
  expect(((await answer.json()) as { code: string }).code).toBe('0');
}

/**
 * Leaves both mainland SMS providers' breakers shut with no failure counted (the e2e server runs the deployed
 * breakers: 5 failures in a row open one): one code through Tencent (Aliyun down for that number, one more
 * Aliyun failure), then one through Aliyun. For a test that made them fail, after it, so that the worker's next
 * test meets healthy providers. Holds while neither is open, i.e. while a test fails each fewer than 4 times.
 */
export async function shutDeliveryBreakers(request: APIRequestContext) {
  const throughTencent = uniqueMobile();
  await failDelivery(request, 'aliyun', `+86${throughTencent}`);
  expect(await sendSmsCode(request, throughTencent), 'a code through Tencent').toBe('0');
  expect(await sendSmsCode(request, uniqueMobile()), 'a code through Aliyun').toBe('0');
}

/** A one-page PDF and a 1 px PNG: a company's licence and logo. */
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/**
 * A ship owner created by a new administrator through the calls /create_account makes (a licence and a logo
 * uploaded, the form sent in `lang`), password harbour2024: the administrator's e-mail, the company's name and id;
 * `admin` is left signed in.
 */
export async function createCompany(admin: Page, lang: Lang): Promise<{ email: string; name: string; companyId: string }> {
  const email = uniqueEmail(`rv-admin-${lang}`);
  await seedUser(admin.request, { email, password: 'harbour2024', userType: 2, agreed: true });
  await signInByRequest(admin.request, email, 'harbour2024');
  await openInLanguage(admin, lang, '/create_account');
  const upload = async (kind: 'licence' | 'logo', name: string, mimeType: string, buffer: Buffer) => {
    const answer = (await (await admin.request.post('/api/agg-web/file/uploadFile', { multipart: { kind, files: { name, mimeType, buffer } } })).json()) as { code: string; data: { id: string }[] };
    expect(answer.code, `upload ${name}`).toBe('0');
    return answer.data[0]!.id;
  };
  const name = `Tidewater Lines ${lang.toUpperCase()} ${Date.now()} ${Math.floor(Math.random() * 1e6)}`;
  const created = await admin.request.post('/api/agg-web/company/create', {
    data: {
      companyNameEn: name,
      companyType: 'shipOwner',
      countryId: 'SG',
      countryName: 'Singapore',
      contactName: 'Tan Mei',
      contactTel: '13800138000',
      phoneCode: '+86',
      socialCredit: `SG${Date.now()}${Math.floor(Math.random() * 1e6)}`,
      contactEmail: email,
      corporateCharter: [await upload('licence', 'licence.pdf', 'application/pdf', PDF)],
      companyLogo: await upload('logo', 'logo.png', 'image/png', PNG),
    },
  });
  const answer = (await created.json()) as { code: string; data: { companyId: string } };
  expect(answer.code).toBe('0');
  return { email, name, companyId: answer.data.companyId };
}

