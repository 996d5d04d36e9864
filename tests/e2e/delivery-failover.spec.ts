import { mkdirSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { consoleMessages } from '../../src/i18n/ops';
import { langs, type Lang } from '../../src/lib/lang';
import { acceptAgreement, expectAccessible, openInLanguage, passSlider, readCode, seedUser, sliderChallenge, uniqueEmail, uniqueMobile } from './helpers';

/**
 * Delivery failover in real Chromium (issue 32), zh and en. The e2e server lists two SMS providers per number
 * group and two for e-mail (scripts/serve-e2e.mjs); without keys the outbox stands in for each, and the dev
 * route /api/dev/delivery/faults makes one fail for one number. A person signs in by phone while the first SMS
 * provider is down (nothing to notice), then while every SMS provider is down (plain words and the code by
 * e-mail instead); an operator reads the delivery view.
 */
const SHOTS = '/tmp/delivery-shots';
mkdirSync(SHOTS, { recursive: true });
const widths = [390, 1280] as const;

async function fail(page: Page, provider: 'aliyun' | 'tencent', recipient: string) {
  const answer = await page.request.post('/api/dev/delivery/faults', { data: { provider, recipient, mode: 'down' } });
  expect(((await answer.json()) as { code: string }).code).toBe('0');
}

/** Asks for a code on /login's phone form and passes the slider. */
async function getCode(page: Page, lang: Lang, mobile: string) {
  const m = messages[lang].signIn;
  await openInLanguage(page, lang, '/login');
  await page.getByLabel(m.phone, { exact: true }).fill(mobile);
  const challenge = sliderChallenge(page);
  await page.getByRole('button', { name: m.getCode }).click();
  await passSlider(page, challenge);
}

async function signInWithCode(page: Page, lang: Lang, code: string) {
  const m = messages[lang].signIn;
  await page.getByLabel(m.code).fill(code);
  await page.getByRole('checkbox', { name: new RegExp(m.agree) }).check();
  await page.getByRole('button', { name: m.submit, exact: true }).click();
  await expect(page).toHaveURL(/\/create_account$/);
}

for (const lang of langs) {
  const m = messages[lang].signIn;

  test(`${lang}: signs in by phone while the first SMS provider is down (the second sends the one code)`, async ({ page }) => {
    const mobile = uniqueMobile();
    await seedUser(page.request, { phone: { callingCode: '+86', mobile }, password: 'harbour2024', userType: 2, agreed: true });
    await fail(page, 'aliyun', `+86${mobile}`);
    await getCode(page, lang, mobile);
    await expect(page.getByText(m.codeSent)).toBeVisible();
    await expect(page.getByRole('heading', { name: m.smsDown.title })).toHaveCount(0);
    const outbox = (await (await page.request.get(`/api/dev/outbox?to=${encodeURIComponent(`+86${mobile}`)}`)).json()) as { data: unknown[] };
    expect(outbox.data).toHaveLength(1);
    await signInWithCode(page, lang, await readCode(page.request, `+86${mobile}`));
  });

  for (const width of widths) {
    test(`${lang} ${width}px: every SMS provider down: plain words, the code by e-mail, and the same offer for an unknown number`, async ({ browser }) => {
      test.setTimeout(120_000);
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const mobile = uniqueMobile();
      const email = uniqueEmail(`sms-down-${lang}`);
      await seedUser(page.request, { phone: { callingCode: '+86', mobile }, email, password: 'harbour2024', userType: 2, agreed: true });
      for (const provider of ['aliyun', 'tencent'] as const) await fail(page, provider, `+86${mobile}`);
      await getCode(page, lang, mobile);

      const offer = page.getByRole('region', { name: m.smsDown.title });
      await expect(offer).toBeVisible();
      await expect(offer.getByText(m.smsDown.text)).toBeVisible();
      // The choices are where focus is; nothing asks the person to refresh the page.
      await expect(offer.getByRole('heading', { name: m.smsDown.title })).toBeFocused();
      await expect(page.getByText(m.codeSent)).toHaveCount(0);
      await expectAccessible(page);
      await page.screenshot({ path: `${SHOTS}/sms-down-${lang}-${width}.png`, fullPage: true });

      await offer.getByRole('button', { name: m.smsDown.emailInstead }).click();
      await expect(offer.getByRole('status')).toHaveText(m.smsDown.emailSent);
      await expect(page.getByLabel(m.code)).toBeFocused();
      await page.screenshot({ path: `${SHOTS}/sms-down-sent-${lang}-${width}.png`, fullPage: true });
      await signInWithCode(page, lang, await readCode(page.request, email));

      // A number without an account meets the very same words and answer (in a browser of its own: this one is signed in).
      const strangerContext = await browser.newContext({ viewport: { width, height: 900 } });
      const stranger = await strangerContext.newPage();
      const unknown = uniqueMobile();
      for (const provider of ['aliyun', 'tencent'] as const) await fail(stranger, provider, `+86${unknown}`);
      // A new number is asked to agree and to name its company first (the code also registers it).
      await openInLanguage(stranger, lang, '/login');
      await stranger.getByLabel(m.phone, { exact: true }).fill(unknown);
      await stranger.getByRole('button', { name: m.getCode }).click();
      await acceptAgreement(stranger, lang);
      const newUser = stranger.getByRole('dialog', { name: m.newUser.title });
      await newUser.getByRole('radio', { name: m.newUser.serviceProvider }).check();
      await newUser.getByLabel(m.newUser.companyName).fill('Harbour Test Agency');
      const challenge = sliderChallenge(stranger);
      await newUser.getByRole('button', { name: m.newUser.continue }).click();
      await passSlider(stranger, challenge);
      const strangerOffer = stranger.getByRole('region', { name: m.smsDown.title });
      await expect(strangerOffer.getByText(m.smsDown.text)).toBeVisible();
      await strangerOffer.getByRole('button', { name: m.smsDown.emailInstead }).click();
      await expect(strangerOffer.getByRole('status')).toHaveText(m.smsDown.emailSent);
      await Promise.all([context.close(), strangerContext.close()]);
    });
  }
}

const opsRuns = [
  { lang: 'zh', width: 390 },
  { lang: 'en', width: 1280 },
  { lang: 'en', width: 390 },
  { lang: 'zh', width: 1280 },
] as const;
for (const run of opsRuns) {
  const lang = run.lang as Lang;
  const m = consoleMessages[lang].opsDelivery;
  test(`${lang} ${run.width}px: an operator reads the delivery view: providers, breakers, failure reasons and the plot`, async ({ browser }) => {
    test.setTimeout(90_000);
    const context = await browser.newContext({ viewport: { width: run.width, height: 900 } });
    const page = await context.newPage();
    // A failed try for the view to show: Aliyun down for one number, Tencent sends.
    const mobile = uniqueMobile();
    await seedUser(page.request, { phone: { callingCode: '+86', mobile }, password: 'harbour2024', userType: 2, agreed: true });
    await fail(page, 'aliyun', `+86${mobile}`);
    await getCode(page, lang, mobile);
    await expect(page.getByText(messages[lang].signIn.codeSent)).toBeVisible();
    const minted = await page.request.post('/api/dev/operator-session', { data: { login: `support.${Date.now()}.${Math.floor(Math.random() * 1e6)}@ops.example.com`, role: 'support' } });
    expect(((await minted.json()) as { code: string }).code).toBe('0');
    await openInLanguage(page, lang, '/ops/delivery');
    await expect(page.getByRole('heading', { name: consoleMessages[lang].ops.pages.delivery.title, level: 1 })).toBeVisible();
    const table = page.getByRole('region', { name: m.tableLabel });
    await expect(table).toBeVisible();
    // Each provider is named on both its rows (last hour, last 24 hours): on a phone each row is a card of its own.
    await expect(table.getByText(m.providers.aliyun)).toHaveCount(2);
    await expect(table.getByText(m.providers.aliyun).first()).toBeVisible();
    const aliyun = page.getByRole('region', { name: m.providers.aliyun, exact: true });
    await expect(aliyun.getByText(m.breakerStates.closed)).toBeVisible();
    await expect(aliyun.getByRole('img', { name: new RegExp(m.plotTitle) })).toBeVisible();
    await expect(aliyun.getByText(/stand-in down/).first()).toBeVisible();
    // The plot's figures as a table, for anyone who cannot see the plot.
    await aliyun.getByText(m.figuresTitle).click();
    await expect(aliyun.getByRole('region', { name: `${m.providers.aliyun}: ${m.figuresTitle}` })).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/ops-delivery-${lang}-${run.width}.png`, fullPage: true });
    await aliyun.screenshot({ path: `${SHOTS}/ops-delivery-aliyun-${lang}-${run.width}.png` });
    await context.close();
  });
}
