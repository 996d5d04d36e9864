import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import type { Lang } from '../../src/lib/lang';
import { expectAccessible, handedOver, openInLanguage, seedUser, shoot } from './helpers';
import { consoleMessages } from '../../src/i18n/ops';
import { mkdirSync } from 'node:fs';

/**
 * Issue 45 in real Chromium, zh at 390 px and en at 1280 px (screenshots, with SCREENSHOTS=1, at both widths of
 * each): a company administrator, arrived with no fresh proof, adds an event webhook endpoint ("Confirm it's you"
 * first), sees its signing secret once, sends a test that the receiver refuses, sees the failed delivery, sends it
 * again once the receiver answers, and exports the company's activity. Keyboard for the form; axe on each state.
 */
const PASSWORD = 'harbour2024';
const WIDTHS = [390, 1280] as const;
const runs = [
  { lang: 'zh', width: 390 },
  { lang: 'en', width: 1280 },
] as const;

/** The company's receiver (a local run allows plain http to 127.0.0.1): 500 until told to accept. */
let receiver: Server;
let accepting = false;
let hookUrl = '';
test.beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(accepting ? 204 : 500).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
test.afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

for (const { lang, width } of runs) {
  test(`${lang} ${width}px: a company administrator adds an endpoint, sends a test, sees it fail, sends it again and exports the activity`, async ({ page }) => {
    test.setTimeout(120_000);
    accepting = false;
    const m = messages[lang as Lang];
    const w = m.webhooks;
    await page.setViewportSize({ width, height: 900 });
    const companyName = `Hook Shipping ${lang} ${Date.now()}`;
    const userId = await seedUser(page.request, {
      email: `hook-admin-${lang}.${Date.now()}@example.com`,
      password: PASSWORD,
      agreed: true,
      userType: 2,
      realName: 'Chen Admin',
      companies: [{ nameEn: companyName, type: 'shipOwner', status: 'verified', role: 'administrator' }],
    });
    await handedOver(page, lang, userId, '/user_center');
    const members = page.getByRole('region', { name: m.userCenter.members.replace('{company}', companyName), exact: true });
    await members.scrollIntoViewIfNeeded();
    const section = page.getByRole('region', { name: w.title.replace('{company}', companyName) });
    await section.scrollIntoViewIfNeeded();
    await expect(section.getByText(w.none)).toBeVisible();

    // The form by keyboard: the address, then Enter submits.
    await section.getByRole('button', { name: w.add }).click();
    const form = page.getByRole('dialog', { name: w.formTitle });
    await form.getByLabel(w.urlLabel).fill(hookUrl);
    await form.getByRole('checkbox', { name: 'user.signed_out' }).check();
    await expectAccessible(page, 'dialog');
    await shoot(page, `webhooks-form-${lang}`, { widths: WIDTHS, fullPage: false });
    await form.getByLabel(w.urlLabel).press('Enter');

    const stepUp = page.getByRole('dialog', { name: m.stepUp.title });
    await expect(stepUp).toBeVisible();
    await stepUp.getByLabel(m.stepUp.passwordLabel, { exact: true }).fill(PASSWORD);
    await page.keyboard.press('Enter');

    const shown = page.getByRole('dialog', { name: w.secretTitle });
    await expect(shown).toBeVisible();
    const secret = (await shown.locator('[data-client-secret]').innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    await shown.getByRole('button', { name: w.done }).click();
    await expect(page.locator('body')).not.toContainText(secret);
    // The form that made the secret is gone: focus goes back to the add button, not to the page's start.
    await expect(section.getByRole('button', { name: w.add })).toBeFocused();

    const card = section.getByRole('listitem').filter({ hasText: hookUrl });
    await expect(card).toContainText(w.receiving);
    await card.getByRole('button', { name: w.pingLabel.replace('{url}', hookUrl) }).click();
    await expect(section.getByRole('status')).toContainText(w.pingFailed.replace('{result}', 'HTTP 500'));
    const deliveries = section.getByRole('list', { name: w.deliveriesLabel.replace('{company}', companyName) });
    const failed = deliveries.getByRole('listitem').filter({ hasText: 'ping' });
    await expect(failed).toContainText(w.pending);
    await expect(failed).toContainText(w.lastAnswer.replace('{result}', 'HTTP 500'));
    await expectAccessible(page, `section[aria-labelledby="webhooks-${await companyIdOf(page, companyName)}"]`);
    await deliveries.scrollIntoViewIfNeeded();
    await shoot(page, `webhooks-failed-${lang}`, { widths: WIDTHS });

    accepting = true;
    await failed.getByRole('button', { name: w.resendLabel.replace('{type}', 'ping') }).click();
    await expect(section.getByRole('status').first()).toContainText(w.resentNotice.replace('{status}', w.delivered));
    await expect(deliveries.getByRole('listitem').filter({ hasText: 'ping' }).first()).toContainText(w.delivered);

    // The company's activity: the endpoint's addition is in it; export it as JSON lines.
    const trail = page.getByRole('region', { name: w.trailTitle.replace('{company}', companyName) });
    await trail.scrollIntoViewIfNeeded();
    await expect(trail.getByRole('list')).toContainText(m.actionNames.webhook.endpoint_added);
    await trail.getByLabel(w.formatLabel).selectOption('jsonl');
    await trail.getByRole('button', { name: w.export }).click();
    const link = trail.getByRole('link', { name: new RegExp(w.download.split('{date}')[0]!.replace(/[()（）]/g, '.')) });
    await expect(link).toBeVisible();
    const downloading = page.waitForEvent('download');
    await link.click();
    const file = await downloading;
    const lines = readFileSync((await file.path())!, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { action: string });
    expect(lines.map((line) => line.action)).toContain('webhook.endpoint_added');
    await expectAccessible(page);
    await shoot(page, `webhooks-trail-${lang}`, { widths: WIDTHS });
  });
}

test('the operators\' console: an admin adds a platform endpoint (zh, 390 px), tests it, sends the failed test again, and reads the page in en at 1280 px', async ({ page, operatorPage }) => {
  test.setTimeout(120_000);
  accepting = false;
  await operatorPage('admin', { name: 'Hook Admin' });
  const shots = '/tmp/shots-45';
  mkdirSync(shots, { recursive: true });
  for (const { lang, width } of runs) {
    const c = consoleMessages[lang];
    const w = c.webhooks;
    await page.setViewportSize({ width, height: 900 });
    await openInLanguage(page, lang, '/ops/webhooks');
    const section = page.getByRole('region', { name: c.ops.webhooks.title });
    await expect(section.getByRole('button', { name: w.add })).toBeEnabled();
    if (lang === 'zh') {
      // By keyboard: the add button, then the address; Enter submits. No fresh proof: the operator's sign-in is one.
      await section.getByRole('button', { name: w.add }).focus();
      await page.keyboard.press('Enter');
      const form = page.getByRole('dialog', { name: w.formTitle });
      await form.getByLabel(w.urlLabel).fill(hookUrl);
      await form.getByLabel(w.clientIdLabel).fill('voyage-app');
      await form.getByRole('checkbox', { name: 'user.signed_out', exact: true }).check();
      await expectAccessible(page, 'dialog');
      await form.getByLabel(w.urlLabel).press('Enter');
      const shown = page.getByRole('dialog', { name: w.secretTitle });
      await expect(shown).toBeVisible();
      expect((await shown.locator('[data-client-secret]').innerText()).trim()).toMatch(/^whsec_/);
      await shown.getByRole('button', { name: w.done }).click();

      const card = section.getByRole('listitem').filter({ hasText: hookUrl });
      await card.getByRole('button', { name: w.pingLabel.replace('{url}', hookUrl) }).click();
      await expect(section.getByRole('status')).toContainText(w.pingFailed.replace('{result}', 'HTTP 500'));
      const deliveries = section.getByRole('list', { name: c.ops.webhooks.deliveriesLabel });
      const failed = deliveries.getByRole('listitem').filter({ hasText: 'ping' }).first();
      await expect(failed).toContainText(w.lastAnswer.replace('{result}', 'HTTP 500'));
      accepting = true;
      await failed.getByRole('button', { name: w.resendLabel.replace('{type}', 'ping') }).click();
      await expect(section.getByRole('status').first()).toContainText(w.resentNotice.replace('{status}', w.delivered));
    } else {
      await expect(section.getByRole('listitem').filter({ hasText: hookUrl }).first()).toContainText(w.receiving);
      await expect(section.getByRole('list', { name: c.ops.webhooks.deliveriesLabel })).toContainText(w.delivered);
    }
    await expectAccessible(page);
    await page.screenshot({ path: `${shots}/ops-webhooks-${lang}-${width}.png`, fullPage: true });
  }
  // A platform endpoint hears every company: the world of the other tests gets none once this one is done.
  const listed = (await (await page.request.get('/api/ops/v1/webhooks')).json()) as { data: { endpoints: { id: string; url: string }[] } };
  for (const ep of listed.data.endpoints.filter((one) => one.url === hookUrl)) await page.request.post(`/api/ops/v1/webhooks/${ep.id}/remove`);
});

async function companyIdOf(page: import('@playwright/test').Page, companyName: string): Promise<string> {
  const heading = page.getByRole('heading', { name: messages.en.webhooks.title.replace('{company}', companyName) }).or(page.getByRole('heading', { name: messages.zh.webhooks.title.replace('{company}', companyName) }));
  return ((await heading.getAttribute('id')) ?? '').replace(/^webhooks-/, '');
}
