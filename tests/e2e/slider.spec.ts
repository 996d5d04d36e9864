import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { solvePow, type PowChallenge } from '../functions/pow-solver';
import { expectAccessible, openInLanguage, seedUser, sliderChallenge, uniqueMobile, shoot } from './helpers';

/**
 * The slider as a keyboard-only person and a refused person meet it (issue 33 items 1, 2 and 14): an even-paced
 * key run passes whenever the piece is in place, and a refused puzzle says what it is, how long to wait, and
 * which other ways in there are.
 */


/** An existing account with this phone (agreed to the terms), so Get code goes straight to the slider. */
async function seedPhone(request: APIRequestContext): Promise<string> {
  const mobile = uniqueMobile();
  await seedUser(request, { phone: { callingCode: '+86', mobile }, password: 'harbour2024', userType: 2, agreed: true });
  return mobile;
}

/** Five missed checks for the phone through the gateway, each with its proof of work solved: the next puzzle is refused (CP0008). */
async function missFiveTimes(request: APIRequestContext, mobile: string) {
  // From a network of their own (the local-only x-test-client-ip): the suite's pages share one loopback network,
  // whose 15 failures an hour (CP0007) these misses must not spend.
  const headers = { 'x-test-client-ip': `198.51.100.${Math.floor(Math.random() * 250) + 1}` };
  for (let i = 0; i < 5; i++) {
    const init = (await (await request.post('/api/agg-web/captcha/slider/init', { headers, data: { scene: 'sms', subject: `+86${mobile}` } })).json()) as {
      data: { sessionId: string; pow: PowChallenge };
    };
    const reveal = (await (await request.get(`/api/dev/captcha/${init.data.sessionId}`)).json()) as { data: { x: number } };
    const miss = reveal.data.x > 200 ? reveal.data.x - 40 : reveal.data.x + 40;
    const answer = (await (
      await request.post('/api/agg-web/captcha/slider/verify', {
        headers,
        data: { sessionId: init.data.sessionId, x: miss, trail: [[0, miss]], pow: await solvePow(init.data.pow), input: 'keyboard' },
      })
    ).json()) as { code: string };
    expect(answer.code).toBe('CP0001');
  }
}

/**
 * Arrow keys at one even pace, never varied: `shift` steps of 20 px first (a steady hand every 250 ms), or 4 px
 * steps only (a held key's repeat, every 30 ms). Ends on the key step nearest the gap and presses Enter.
 */
async function evenKeyRun(page: Page, sessionId: string, pace: { shift: boolean; everyMs: number }) {
  const reveal = (await (await page.request.get(`/api/dev/captcha/${sessionId}`)).json()) as { data: { x: number } };
  const handle = page.getByRole('slider');
  await handle.focus();
  let x = 0;
  const press = async (key: string, step: number) => {
    await page.keyboard.press(key);
    x += step;
    await page.waitForTimeout(pace.everyMs);
  };
  while (pace.shift && reveal.data.x - x >= 20) await press('Shift+ArrowRight', 20);
  while (reveal.data.x - x >= 2) await press('ArrowRight', 4);
  await expect(handle).toHaveAttribute('aria-valuenow', String(x));
  await page.keyboard.press('Enter');
}

for (const lang of ['zh', 'en'] as const) {
  const t = messages[lang];
  const m = t.signIn;

  test.describe(`the slider (${lang})`, () => {
    // The key run is the same in both languages: walked once, in zh. What the puzzle says is walked in both.
    if (lang === 'zh') test('an even-paced key run passes whenever the piece is in place, and the code is sent', async ({ page }) => {
      const mobile = await seedPhone(page.request);
      await openInLanguage(page, lang, '/login');
      await page.getByLabel(m.phone, { exact: true }).fill(mobile);
      const challenge = sliderChallenge(page);
      await page.getByRole('button', { name: m.getCode }).click();
      const dialog = page.getByRole('dialog', { name: m.slider.title });
      await expect(dialog.locator('.slider-piece')).toBeVisible();
      // Chinese: Shift+→ then → at a steady 250 ms; English: → repeating like a held key, every 30 ms.
      await evenKeyRun(page, (await challenge).sessionId, lang === 'zh' ? { shift: true, everyMs: 250 } : { shift: false, everyMs: 30 });
      await expect(page.getByText(m.codeSent)).toBeVisible({ timeout: 20_000 });
      await expect(dialog).toBeHidden();
    });

    // One width a language, as the other journeys: zh on a phone, en on a desktop.
    for (const width of lang === 'zh' ? [390] : [1280]) {
      test(`a refused puzzle says so, with the wait and other ways in (${width} px)`, async ({ page }) => {
        await page.setViewportSize({ width, height: 900 });
        const mobile = await seedPhone(page.request);
        await missFiveTimes(page.request, mobile);
        await openInLanguage(page, lang, '/login');
        await page.getByLabel(m.phone, { exact: true }).fill(mobile);
        await page.getByRole('button', { name: m.getCode }).click();
        const dialog = page.getByRole('dialog', { name: m.slider.title });
        // The gateway's own words for CP0008 and the hour's wait, not "you seem to be offline".
        const status = dialog.getByRole('status');
        await expect(status).toHaveText(`${errorCatalogue.CP0008[lang]}${lang === 'zh' ? '' : ' '}${m.slider.tryAgainIn.replace('{min}', '60')}`);
        await expect(status).not.toContainText(t.errors.network);
        await expect(dialog.getByRole('slider')).toHaveCount(0);
        await expect(dialog.getByRole('button', { name: m.slider.refresh })).toBeDisabled();
        await expectAccessible(page, 'dialog');
        await shoot(page, `slider-${lang}-${width}-slider-refused`);
        // Another way in: the e-mail code needs no slider.
        await dialog.getByRole('button', { name: m.slider.useEmailCode }).click();
        await expect(dialog).toBeHidden();
        await expect(page.getByRole('tab', { name: m.tabs.email })).toHaveAttribute('aria-selected', 'true');
        await expect(page.getByLabel(m.email)).toBeVisible();
      });
    }

    test('a puzzle that cannot load says the specification\'s "network error, please refresh the page"', async ({ page }) => {
      const mobile = await seedPhone(page.request);
      await openInLanguage(page, lang, '/login');
      await page.getByLabel(m.phone, { exact: true }).fill(mobile);
      // The puzzle's call never reaches the gateway (four tries, a second apart).
      await page.route('**/api/agg-web/captcha/slider/init', (route) => route.abort('connectionreset'));
      await page.getByRole('button', { name: m.getCode }).click();
      const dialog = page.getByRole('dialog', { name: m.slider.title });
      await expect(dialog.getByRole('status')).toHaveText(m.slider.unavailable, { timeout: 15_000 });
      // No empty puzzle to drag; "New puzzle" tries again.
      await expect(dialog.getByRole('slider')).toHaveCount(0);
      await expect(dialog.getByRole('button', { name: m.slider.refresh })).toBeEnabled();
      await shoot(page, `slider-${lang}-1280-slider-unavailable`);
    });
  });
}
