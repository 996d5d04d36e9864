import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { langs } from '../../src/lib/lang';
import { openInLanguage, uniqueEmail } from './helpers';

/**
 * A failed call says what happened and what to do, and the form keeps what was typed: no answer at all
 * ("check your connection"), or a failure on our side ("try again", with the trace id to quote). Never
 * "refresh the page", which would clear the form. The failures are made by the browser's network layer. That a real
 * answer carries the trace id is tests/functions/page-shells.test.ts ("/api").
 */
for (const lang of langs) {
  const t = messages[lang];
  const m = t.signIn;

  test.describe(`failed calls (${lang})`, () => {
    test('offline and a 502 each show their message, and the password form keeps its values', async ({ page }) => {
      const email = uniqueEmail(`failed-${lang}`);
      await openInLanguage(page, lang, '/login');
      await page.getByRole('tab', { name: m.tabs.password }).click();
      await page.getByRole('tab', { name: m.tabs.email }).click();
      await page.getByLabel(m.email).fill(email);
      await page.getByLabel(m.password, { exact: true }).fill('harbourGate7');

      // Offline (the browser knows it: navigator.onLine), as a person on a train meets it; the form's code has loaded.
      await page.waitForLoadState('networkidle');
      await page.context().setOffline(true);
      await page.getByRole('button', { name: m.submit }).click();
      await expect(page.getByRole('alert').filter({ hasText: t.errors.network })).toBeVisible();
      await expect(page.getByLabel(m.email)).toHaveValue(email);
      await expect(page.getByLabel(m.password, { exact: true })).toHaveValue('harbourGate7');
      await page.context().setOffline(false);

      await page.unroute('**/api/agg-web/user/v3/userLogin');
      await page.route('**/api/agg-web/user/v3/userLogin', (route) =>
        route.fulfill({ status: 502, contentType: 'text/html', headers: { 'x-trace-id': 'trace-4f2a' }, body: '<html><body>Bad gateway</body></html>' }),
      );
      await page.getByRole('button', { name: m.submit }).click();
      const reference = t.errors.reference.replace('{id}', 'trace-4f2a');
      await expect(page.getByRole('alert').filter({ hasText: `${t.errors.server} ${reference}` })).toBeVisible();
      await expect(page.getByLabel(m.email)).toHaveValue(email);
      await expect(page.getByLabel(m.password, { exact: true })).toHaveValue('harbourGate7');
    });
  });
}
