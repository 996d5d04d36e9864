import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { consoleMessages } from '../../src/i18n/ops';
import type { Lang } from '../../src/lib/lang';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { expectAccessible, handedOver, openInLanguage, seedUser, shoot } from './helpers';

/**
 * Issue 27 in real Chromium, zh at 390 px and en at 1280 px (screenshots, with SCREENSHOTS=1, at both widths of each):
 * - an admin operator registers a client in /ops/clients (a wildcard redirect URI is refused in the page's
 *   language), sees its secret once, gives it a new secret, disables and enables it, and reads its logout sends;
 * - a company administrator whose session has no fresh proof creates an API client: "Confirm it's you" first,
 *   then the secret once; the list shows it, and revoking it (after confirming) marks it revoked.
 */
const PASSWORD = 'harbour2024';

const runs = [
  { lang: 'zh', width: 390 },
  { lang: 'en', width: 1280 },
] as const;

/** Screenshots (only with SCREENSHOTS=1) at both widths of each state. */
const WIDTHS = [390, 1280] as const;

for (const { lang, width } of runs) {
  const t = consoleMessages[lang as Lang].opsClients;

  test(`${lang} ${width}px: an admin operator registers a client, sees its secret once, rotates, disables and enables it`, async ({ operatorPage }) => {
    const page = await operatorPage('admin');
    await page.setViewportSize({ width, height: 900 });
    await openInLanguage(page, lang, '/ops/clients');
    // The console's navigation names the page, as the current one.
    await expect(page.getByRole('navigation').getByRole('link', { name: consoleMessages[lang as Lang].ops.nav.clients })).toHaveAttribute('aria-current', 'page');

    const name = `Harbour app ${lang} ${Date.now().toString(36)}`;
    await page.getByRole('button', { name: t.register }).click();
    const form = page.getByRole('dialog', { name: t.formTitleNew });
    await expect(form).toBeVisible();
    await form.getByLabel(t.nameLabel).fill(name);
    await form.getByLabel(t.redirectLabel, { exact: true }).fill('https://*.harbour.example/cb');
    await form.getByLabel(t.backchannelLabel).fill('https://harbour.example/backchannel');
    await form.getByRole('checkbox', { name: t.trusted }).check();
    await form.getByRole('button', { name: t.save }).click();
    await expect(form.getByRole('alert')).toHaveText(errorCatalogue.OI0011[lang]);
    await expectAccessible(page, 'dialog');
    await shoot(page, `ops-clients-form-error-${lang}`, { widths: WIDTHS });

    // Keyboard only from here: the fixed URI, then Enter in the name field submits.
    await form.getByLabel(t.redirectLabel, { exact: true }).fill('https://harbour.example/cb\nhttp://127.0.0.1:8123/cb');
    await form.getByLabel(t.nameLabel).press('Enter');
    const shown = page.getByRole('dialog', { name: t.secretTitle.replace('{name}', name) });
    await expect(shown).toBeVisible();
    const secret = (await shown.locator('[data-client-secret]').innerText()).trim();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expectAccessible(page, 'dialog');
    await shoot(page, `ops-clients-secret-${lang}`, { widths: WIDTHS });
    await shown.getByRole('button', { name: t.done }).click();
    await expect(shown).toHaveCount(0);
    // Once: the list never shows it again.
    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText(t.trustedBadge);
    await expect(page.locator('body')).not.toContainText(secret);

    await row.getByRole('button', { name: t.rotateLabel.replace('{name}', name) }).click();
    await page.getByRole('dialog', { name: t.rotateTitle.replace('{name}', name) }).getByRole('button', { name: t.rotate }).click();
    const again = page.getByRole('dialog', { name: t.secretTitle.replace('{name}', name) });
    await expect(again.locator('[data-client-secret]')).not.toHaveText(secret);
    await again.getByRole('button', { name: t.done }).click();

    await row.getByRole('button', { name: t.disableLabel.replace('{name}', name) }).click();
    await page.getByRole('dialog', { name: t.disableTitle.replace('{name}', name) }).getByRole('button', { name: t.disable }).click();
    await expect(row).toContainText(t.disabled);
    await expect(page.getByRole('status').filter({ hasText: t.disabledNotice.replace('{name}', name) })).toBeVisible();
    await row.getByRole('button', { name: t.enableLabel.replace('{name}', name) }).click();
    await expect(row).toContainText(t.enabled);

    // Issue 43: PKCE off for this confidential client, with a reason, and RS256 ID tokens; the row says so.
    await expect(row).toContainText(t.pkceRequiredBadge);
    await row.getByRole('button', { name: t.editLabel.replace('{name}', name) }).click();
    const edit = page.getByRole('dialog', { name: t.formTitleEdit.replace('{name}', name) });
    await edit.getByLabel(t.idTokenAlgLabel).selectOption('RS256');
    await edit.getByRole('checkbox', { name: t.pkceRequired }).uncheck();
    const reason = edit.getByLabel(t.pkceReasonLabel);
    await reason.fill('x');
    await edit.getByRole('button', { name: t.save }).click();
    await expect(edit.getByRole('alert')).toHaveText(errorCatalogue.OI0430[lang]);
    await reason.fill('OpenID certification Basic OP plan');
    await expectAccessible(page, 'dialog');
    await shoot(page, `ops-clients-pkce-${lang}`, { widths: WIDTHS });
    await edit.getByRole('button', { name: t.save }).click();
    await expect(edit).toHaveCount(0);
    await expect(row).toContainText(t.pkceOffBadge.replace('{reason}', 'OpenID certification Basic OP plan'));
    await expect(row).toContainText('RS256');

    await row.getByRole('button', { name: t.sendsLabel.replace('{name}', name) }).click();
    const sends = page.getByRole('dialog', { name: t.sendsLabel.replace('{name}', name) });
    await expect(sends).toContainText(t.noSends);
    await page.keyboard.press('Escape');
    await expect(sends).toHaveCount(0);
    // /ops/clients with a client in it: a11y.spec.ts's console tour leaves this page to this spec.
    await expectAccessible(page);
    await shoot(page, `ops-clients-list-${lang}`, { widths: WIDTHS });
  });

  test(`${lang} ${width}px: a company administrator creates an API client after confirming it's them, sees the secret once and revokes it`, async ({ page }) => {
    const m = messages[lang as Lang];
    const a = m.apiClients;
    await page.setViewportSize({ width, height: 900 });
    const companyName = `API Shipping ${lang} ${Date.now()}`;
    const userId = await seedUser(page.request, {
      email: `api-admin-${lang}.${Date.now()}@example.com`,
      password: PASSWORD,
      agreed: true,
      userType: 2,
      realName: 'Chen Admin',
      companies: [{ nameEn: companyName, type: 'shipOwner', status: 'verified', role: 'administrator' }],
    });
    // Arrived from another site: signed in, but with no fresh proof of the person.
    await handedOver(page, lang, userId, '/user_center');
    const members = page.getByRole('region', { name: m.userCenter.members.replace('{company}', companyName), exact: true });
    await members.scrollIntoViewIfNeeded();
    const section = page.getByRole('region', { name: a.title.replace('{company}', companyName) });
    await section.scrollIntoViewIfNeeded();
    await expect(section.getByText(a.none)).toBeVisible();

    await section.getByRole('button', { name: a.create }).click();
    const form = page.getByRole('dialog', { name: a.formTitle });
    await form.getByLabel(a.nameLabel).fill('Berth planner');
    const portCalls = lang === 'zh' ? '港口挂靠' : 'Port calls';
    await form.getByRole('checkbox', { name: a.moduleScope.replace('{module}', portCalls) }).check();
    await expectAccessible(page, 'dialog');
    await shoot(page, `api-clients-form-${lang}`, { widths: WIDTHS });
    await form.getByRole('button', { name: a.submit }).click();

    const stepUp = page.getByRole('dialog', { name: m.stepUp.title });
    await expect(stepUp).toBeVisible();
    await stepUp.getByLabel(m.stepUp.passwordLabel, { exact: true }).fill(PASSWORD);
    await page.keyboard.press('Enter');

    const shown = page.getByRole('dialog', { name: a.secretTitle.replace('{name}', 'Berth planner') });
    await expect(shown).toBeVisible();
    const secret = (await shown.locator('[data-client-secret]').innerText()).trim();
    expect(secret.length).toBeGreaterThanOrEqual(43);
    await expectAccessible(page, 'dialog');
    await shoot(page, `api-clients-secret-${lang}`, { widths: WIDTHS });
    await shown.getByRole('button', { name: a.done }).click();
    // The form that made the secret is gone: focus goes back to the button that opened it, not to the page's start.
    await expect(section.getByRole('button', { name: a.create })).toBeFocused();

    const card = section.getByRole('listitem').filter({ hasText: 'Berth planner' });
    await expect(card).toContainText(a.active);
    await expect(card).toContainText(a.neverUsed);
    await expect(card).toContainText(a.moduleScope.replace('{module}', portCalls));
    await expect(page.locator('body')).not.toContainText(secret);
    // The user center with an API client listed (a11y.spec.ts's signed-in tour meets the section empty).
    await expectAccessible(page);
    await section.scrollIntoViewIfNeeded();
    await shoot(page, `api-clients-list-${lang}`, { widths: WIDTHS });

    await card.getByRole('button', { name: a.revokeLabel.replace('{name}', 'Berth planner') }).click();
    await page.getByRole('dialog', { name: a.revokeTitle.replace('{name}', 'Berth planner') }).getByRole('button', { name: a.revoke }).click();
    await expect(card).toContainText(a.revoked);
    await expect(page.getByRole('status').filter({ hasText: a.revokedNotice.replace('{name}', 'Berth planner') })).toBeVisible();
  });
}
