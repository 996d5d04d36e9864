import { type Page } from '@playwright/test';
import { expect, test as base } from './fixtures';
import { messages } from '../../src/i18n';
import { consoleMessages } from '../../src/i18n/ops';
import { langs, type Lang } from '../../src/lib/lang';
import { acceptAgreement, failDelivery, openInLanguage, passSlider, readCode, seedUser, sendSmsCode, shoot, shutDeliveryBreakers, sliderChallenge, uniqueEmail, uniqueMobile } from './helpers';

/**
 * Delivery failover in real Chromium (issue 32), zh and en. The e2e server lists two SMS providers per number
 * group and two for e-mail (scripts/serve-e2e.mjs); without keys the outbox stands in for each, and the dev
 * route /api/dev/delivery/faults makes one fail for one number. A person signs in by phone while the first SMS
 * provider is down (nothing to notice), then while every SMS provider is down (plain words and the code by
 * e-mail instead); an unknown number meets the same; an operator reads the delivery view.
 *
 * The breakers are the deployed ones (5 failures in a row open one). A test here fails each provider at most
 * twice, and after every test (passed or not) `shutBreakers` sends one code through each provider, so each is
 * shut with no failure counted when the worker's next test starts, whichever file that test is in.
 * The protocol below the page (one code, one count, the breaker opening and closing, the e-mail offer's answers)
 * is tested in tests/functions/delivery-failover.test.ts.
 */
const test = base.extend<{ shutBreakers: void }>({
  shutBreakers: [
    async ({ request }, use) => {
      await use();
      await shutDeliveryBreakers(request);
    },
    { auto: true },
  ],
});

/** Each language at one width: zh on a phone, en on a desktop (the layout at each width is the same page's). */
const widthOf = { zh: 390, en: 1280 } as const;

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
    await failDelivery(page.request, 'aliyun', `+86${mobile}`);
    await getCode(page, lang, mobile);
    await expect(page.getByText(m.codeSent)).toBeVisible();
    await expect(page.getByRole('heading', { name: m.smsDown.title })).toHaveCount(0);
    const outbox = (await (await page.request.get(`/api/dev/outbox?to=${encodeURIComponent(`+86${mobile}`)}`)).json()) as { data: unknown[] };
    expect(outbox.data).toHaveLength(1);
    await signInWithCode(page, lang, await readCode(page.request, `+86${mobile}`));
  });

  {
    const width = widthOf[lang];
    test.describe(() => {
      test.use({ viewport: { width, height: 900 } });

      test(`${lang} ${width}px: every SMS provider down: plain words where focus is, and the code by e-mail signs in`, async ({ page }) => {
        const mobile = uniqueMobile();
        const email = uniqueEmail(`sms-down-${lang}`);
        await seedUser(page.request, { phone: { callingCode: '+86', mobile }, email, password: 'harbour2024', userType: 2, agreed: true });
        for (const provider of ['aliyun', 'tencent'] as const) await failDelivery(page.request, provider, `+86${mobile}`);
        await getCode(page, lang, mobile);

        const offer = page.getByRole('region', { name: m.smsDown.title });
        await expect(offer).toBeVisible();
        await expect(offer.getByText(m.smsDown.text)).toBeVisible();
        // The choices are where focus is; nothing asks the person to refresh the page.
        await expect(offer.getByRole('heading', { name: m.smsDown.title })).toBeFocused();
        await expect(page.getByText(m.codeSent)).toHaveCount(0);
        // axe on this state: a11y.spec.ts, "the offer when every SMS provider is down".
        await shoot(page, `sms-down-${lang}-${width}`);

        await offer.getByRole('button', { name: m.smsDown.emailInstead }).click();
        await expect(offer.getByRole('status')).toHaveText(m.smsDown.emailSent);
        await expect(page.getByLabel(m.code)).toBeFocused();
        await shoot(page, `sms-down-sent-${lang}-${width}`);
        await signInWithCode(page, lang, await readCode(page.request, email));
      });
    });
  }

  test(`${lang}: every SMS provider down for a number without an account: the very same words and answer`, async ({ page }) => {
    const unknown = uniqueMobile();
    for (const provider of ['aliyun', 'tencent'] as const) await failDelivery(page.request, provider, `+86${unknown}`);
    // A new number is asked to agree and to name its company first (the code also registers it).
    await openInLanguage(page, lang, '/login');
    await page.getByLabel(m.phone, { exact: true }).fill(unknown);
    await page.getByRole('button', { name: m.getCode }).click();
    await acceptAgreement(page, lang);
    const newUser = page.getByRole('dialog', { name: m.newUser.title });
    await newUser.getByRole('radio', { name: m.newUser.serviceProvider }).check();
    await newUser.getByLabel(m.newUser.companyName).fill('Harbour Test Agency');
    const challenge = sliderChallenge(page);
    await newUser.getByRole('button', { name: m.newUser.continue }).click();
    await passSlider(page, challenge);
    const offer = page.getByRole('region', { name: m.smsDown.title });
    await expect(offer.getByText(m.smsDown.text)).toBeVisible();
    await expect(offer.getByRole('heading', { name: m.smsDown.title })).toBeFocused();
    await offer.getByRole('button', { name: m.smsDown.emailInstead }).click();
    await expect(offer.getByRole('status')).toHaveText(m.smsDown.emailSent);
    // A line true for everyone (issue 47): a new person registers with an e-mail address instead.
    await expect(offer.getByText(m.smsDown.newHere)).toBeVisible();
    await offer.getByRole('button', { name: m.smsDown.registerByEmail }).click();
    await expect(page.getByRole('tab', { name: m.tabs.email })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByLabel(m.email)).toBeVisible();
  });
}

const opsRuns = [
  { lang: 'zh', width: 390 },
  { lang: 'en', width: 1280 },
] as const;
for (const run of opsRuns) {
  const lang = run.lang as Lang;
  const m = consoleMessages[lang].opsDelivery;
  test.describe(() => {
    test.use({ viewport: { width: run.width, height: 900 } });

    test(`${lang} ${run.width}px: an operator reads the delivery view: providers, breakers, failure reasons and the plot`, async ({ page, request, operatorPage }) => {
      // A failed try for the view to show: Aliyun down for one number, Tencent sends (the form is another test's).
      const mobile = uniqueMobile();
      await failDelivery(request, 'aliyun', `+86${mobile}`);
      expect(await sendSmsCode(request, mobile)).toBe('0');
      await operatorPage('support');
      await openInLanguage(page, lang, '/ops/delivery');
      await expect(page.getByRole('heading', { name: consoleMessages[lang].ops.pages.delivery.title, level: 1 })).toBeVisible();
      const table = page.getByRole('region', { name: m.tableLabel });
      await expect(table).toBeVisible();
      // Each provider is named on both its rows (last hour, last 24 hours): on a phone each row is a card of its own.
      await expect(table.getByText(m.providers.aliyun)).toHaveCount(2);
      await expect(table.getByText(m.providers.aliyun).first()).toBeVisible();
      const aliyun = page.getByRole('region', { name: m.providers.aliyun, exact: true });
      // The state in plain words, coloured by outcome: a provider whose last send failed is not green (issue 47).
      const state = aliyun.locator('.outcome-state');
      await expect(state).not.toHaveClass(/outcome-good/);
      await expect(state).toHaveText(new RegExp(m.states.allFailed.replace(/[()]/g, '\\$&').replace('{count}', '\\d+') + '|' + m.states.failedInRow.replace('{count}', '\\d+')));
      // One line per channel: the +86 texts went out, by Tencent.
      const channels = page.getByRole('region', { name: m.channelsTitle });
      await expect(channels.getByRole('listitem').filter({ hasText: m.channels.sms })).toContainText(m.providers.tencent);
      await expect(aliyun.getByRole('img', { name: new RegExp(m.plotTitle) })).toBeVisible();
      await expect(aliyun.getByText(/stand-in down/).first()).toBeVisible();
      // The plot's figures as a table, for anyone who cannot see the plot.
      await aliyun.getByText(m.figuresTitle).click();
      await expect(aliyun.getByRole('region', { name: `${m.providers.aliyun}: ${m.figuresTitle}` })).toBeVisible();
      // axe on this page: a11y.spec.ts, "the operator console".
      await shoot(page, `ops-delivery-${lang}-${run.width}`);
    });
  });
}
