import { Secret, TOTP } from 'otpauth';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { consoleMessagesFor } from '../../src/i18n/ops';
import { format } from '../../src/i18n/format';
import { expectAccessible, openInLanguage, seedUser, settle, shoot, signInByRequest, uniqueEmail } from './helpers';

/**
 * Support "view as" (issue 44) as people meet it, zh at 390 px and en at 1280 px, by keyboard, with axe: the person
 * reads a support code in their user center, the support operator starts the view on /ops/support, opens the portal
 * as the person in a new tab and sees the banner there and on another page; the person sees the view in their own
 * Security section; an operator administrator allows changes with a reason; End ends it (zh: in the view; en: by the
 * person); the person is told. The rules (codes, races,
 * refusals, tokens, trail) are tests/functions/support-view.test.ts.
 */
const PASSWORD = 'harbour2024';
const runs = [
  { lang: 'zh', width: 390 },
  { lang: 'en', width: 1280 },
] as const;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

for (const { lang, width } of runs) {
  test(`${lang} ${width}px: a person reads a support code, support views as them with the banner, and End ends it`, async ({ page, newPage }) => {
    test.setTimeout(120_000);
    const m = messages[lang];
    const ops = consoleMessagesFor(lang).opsSupport;
    await page.setViewportSize({ width, height: 900 });
    const email = uniqueEmail(`support-view-${lang}`);
    const userId = await seedUser(page.request, { email, password: PASSWORD, agreed: true, realName: 'Sam Support' });

    // The person: Security → Support code, by keyboard.
    await signInByRequest(page.request, email, PASSWORD);
    await openInLanguage(page, lang, '/user_center');
    await settle(page);
    // The Security section's parts load as it comes near (issue 31), as a person scrolls to it.
    await page.getByRole('heading', { name: m.security.title, exact: true }).scrollIntoViewIfNeeded();
    const panel = page.getByRole('region', { name: m.security.supportCodeTitle });
    await panel.scrollIntoViewIfNeeded();
    const get = panel.getByRole('button', { name: m.security.supportCodeGet });
    await get.focus();
    await page.keyboard.press('Enter');
    const digits = panel.locator('.support-code-digits');
    await expect(digits).toHaveText(/^\d{6}$/);
    const code = (await digits.textContent())!;
    await expectAccessible(page, 'section[aria-labelledby="support-code-title"]');
    await panel.scrollIntoViewIfNeeded();
    await shoot(page, `support-code-${lang}`, { widths: [width], fullPage: false });

    // The support operator (their app's secret from the dev route) starts the view on /ops/support.
    const operatorName = lang === 'zh' ? '王客服' : 'Olga Support';
    const opsPage = await newPage({ viewport: { width, height: 900 } });
    const minted = (await (await opsPage.request.post('/api/dev/operator-session', { data: { role: 'support', name: operatorName } })).json()) as { data: { totpSecret: string } };
    await openInLanguage(opsPage, lang, '/ops/support');
    await settle(opsPage);
    await opsPage.getByLabel(ops.person).fill(userId);
    await opsPage.getByLabel(ops.code).fill(code);
    await opsPage.getByLabel(ops.reason).fill('Caller cannot find the vessel list (ticket 4711)');
    const proof = TOTP.generate({ secret: Secret.fromBase32(minted.data.totpSecret), digits: 6, period: 30 });
    await opsPage.getByLabel(ops.proof).fill(proof);
    await opsPage.getByLabel(ops.proof).press('Enter');
    const open = opsPage.getByRole('link', { name: ops.open });
    await expect(open).toBeVisible();
    await expect(opsPage.getByRole('region', { name: ops.viewsTitle })).toContainText('Sam Support');
    await expectAccessible(opsPage);
    await shoot(opsPage, `support-console-${lang}`, { widths: [width] });

    // The portal as the person, in a new tab: the banner names the operator and the end.
    const [view] = await Promise.all([opsPage.context().waitForEvent('page'), open.focus().then(() => opsPage.keyboard.press('Enter'))]);
    await view.setViewportSize({ width, height: 900 });
    await view.waitForURL(/\/user_center/);
    await settle(view);
    const banner = view.getByRole('region', { name: new RegExp(escape(format(m.userCenter.supportBanner, { operator: operatorName, time: 'TIME' })).replace('TIME', '\\d{2}:\\d{2}')) });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText(m.userCenter.supportReadOnly);
    // Security settings are not loaded in a view: the section says so when it comes near.
    await view.getByRole('heading', { name: m.security.title, exact: true }).scrollIntoViewIfNeeded();
    await expect(view.getByText(m.userCenter.supportClosed).first()).toBeVisible();
    await expectAccessible(view);
    await shoot(view, `support-banner-${lang}`, { widths: [width] });

    // Every page of the view says so (the layout's banner), here the account page, with End.
    await openInLanguage(view, lang, '/account');
    const pageBanner = view.getByRole('region', { name: new RegExp(escape(format(m.userCenter.supportBanner, { operator: operatorName, time: 'TIME' })).replace('TIME', '\\d{2}:\\d{2}')) });
    await expect(pageBanner).toBeVisible();
    await expectAccessible(view, '[data-support-banner]');
    await shoot(view, `support-banner-page-${lang}`, { widths: [width], fullPage: false });

    // The person's own Security section says support is viewing, with End.
    await page.reload();
    await settle(page);
    await page.getByRole('heading', { name: m.security.title, exact: true }).scrollIntoViewIfNeeded();
    await panel.scrollIntoViewIfNeeded();
    const viewing = format(m.security.supportViewing, { operator: operatorName, time: 'TIME' });
    await expect(panel).toContainText(new RegExp(escape(viewing).replace('TIME', '\\d{2}:\\d{2}')));
    await expectAccessible(page, 'section[aria-labelledby="support-code-title"]');
    await shoot(page, `support-viewing-${lang}`, { widths: [width], fullPage: false });

    // An operator administrator (another browser) allows changes in this view: the reason in a form under the view.
    const adminPage = await newPage({ viewport: { width, height: 900 } });
    await adminPage.request.post('/api/dev/operator-session', { data: { role: 'admin', name: lang === 'zh' ? '李主管' : 'Adam Admin' } });
    await openInLanguage(adminPage, lang, '/ops/support');
    await settle(adminPage);
    const allow = adminPage.getByRole('button', { name: format(ops.allowWritesLabel, { operator: operatorName, person: 'Sam Support' }) });
    await allow.focus();
    await adminPage.keyboard.press('Enter');
    const allowForm = adminPage.getByRole('form', { name: format(ops.allowWritesLabel, { operator: operatorName, person: 'Sam Support' }) });
    const allowReason = allowForm.getByLabel(ops.allowReason);
    await expect(allowReason).toBeFocused();
    await adminPage.keyboard.press('Enter');
    await expect(allowForm.getByText(ops.invalidReason)).toBeVisible();
    await expect(allowReason).toBeFocused();
    await adminPage.keyboard.type('The person asked on the phone to fix their name');
    await expectAccessible(adminPage);
    await shoot(adminPage, `support-allow-${lang}`, { widths: [width], fullPage: false });
    await adminPage.keyboard.press('Enter');
    await expect(allowForm).toHaveCount(0);
    await expect(adminPage.getByRole('region', { name: ops.viewsTitle })).toContainText(ops.writable);

    if (lang === 'zh') {
      // End in the view, by keyboard, from the account page: the view ends and the tab goes back to the console.
      await pageBanner.getByRole('button', { name: m.userCenter.endSupport }).focus();
      await view.keyboard.press('Enter');
      await view.waitForURL(/\/ops\/support/);
    } else {
      // End by the person, by keyboard, in their own session: at once, and they are told on the page.
      await panel.getByRole('button', { name: m.security.supportViewEnd }).focus();
      await page.keyboard.press('Enter');
      await expect(panel.getByRole('status')).toContainText(m.security.supportViewEnded);
      await expect(panel).not.toContainText(operatorName);
    }
    const me = await view.request.get('/api/agg-web/user/fetchMeByUserToken');
    expect(((await me.json()) as { code: string }).code).toBe('TK00001');
    const outbox = (await (await page.request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as { data: { text: string }[] };
    const told = lang === 'zh' ? '结束了平台客服的代为查看' : 'platform support stopped viewing your account';
    expect(outbox.data[0]!.text).toContain(told);
  });
}
