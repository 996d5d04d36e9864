import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { langs } from '../../src/lib/lang';
import { COMPANY_TYPES } from '../../src/schemas/onboarding';
import { openInLanguage, readCode, seedUser, settle, signInByRequest, sliderChallenge, uniqueEmail, uniqueMobile } from './helpers';

// Issue 9: code sign-in, company creation and joining with the keyboard alone (the password sign-in is in
// a11y.spec.ts). Only page.keyboard acts; at every stop the focus must show a ring and sit below the sticky
// header (WCAG 2.4.7, 2.4.11).

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

/** How the focused element shows its focus: a ring on it (or, for a visually hidden input, on its label), and not under the header. */
function focusReport(page: Page) {
  return page.evaluate(() => {
    let el = document.activeElement as HTMLElement;
    // Focus inside a same-site frame (the agreement) is the frame's element, or the frame itself while its page has it.
    while (el instanceof HTMLIFrameElement) {
      const inner = el.contentDocument?.activeElement as HTMLElement | null | undefined;
      if (!inner || inner === inner.ownerDocument.body) break;
      el = inner;
    }
    const box = el.getBoundingClientRect();
    // A visually hidden control (the file input) shows its focus on the label that stands in for it.
    const shown: HTMLElement[] = box.width <= 1 || box.height <= 1 ? Array.from((el as HTMLInputElement).labels ?? []) : [el];
    const ring = shown.some((node) => {
      const style = getComputedStyle(node);
      return style.boxShadow !== 'none' || (style.outlineStyle !== 'none' && style.outlineWidth !== '0px');
    });
    // A modal dialog sits in the top layer, above the header.
    const header = el.ownerDocument !== document || el.closest('dialog[open], .site-header') ? null : document.querySelector('.site-header')!.getBoundingClientRect();
    const top = Math.min(...shown.map((node) => node.getBoundingClientRect().top));
    return { ring, belowHeader: header === null || top >= header.bottom };
  });
}

/** Presses Tab (or Shift+Tab) until the target has focus, then checks that the focus is visible. */
async function tabTo(page: Page, target: Locator, { back = false, max = 40 } = {}) {
  await target.waitFor({ state: 'attached' });
  for (let n = 0; n < max; n++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await target.evaluate((el) => el === document.activeElement)) {
      expect(await focusReport(page), `focus on ${target}: a ring, below the header`).toEqual({ ring: true, belowHeader: true });
      return;
    }
  }
  throw new Error(`${target} was not reached by ${back ? 'Shift+Tab' : 'Tab'}`);
}

/** Focus is visible where it already is (a dialog's first control, the field focus returned to). */
async function expectVisibleFocus(page: Page, target: Locator) {
  await expect(target).toBeFocused();
  expect(await focusReport(page), `focus on ${target}: a ring, below the header`).toEqual({ ring: true, belowHeader: true });
}

/**
 * Moves the slider piece to the gap with arrow keys, as a person would (big steps, then small). The pauses are
 * the rhythm the server's looksHuman() asks of a trail (at least 250 ms, a speed that varies), not waits for state.
 */
async function slideByKeyboard(page: Page, handle: Locator, sessionId: string) {
  const reveal = (await (await page.request.get(`/api/dev/captcha/${sessionId}`)).json()) as { data: { x: number } };
  await tabTo(page, handle);
  let x = 0;
  let i = 0;
  while (reveal.data.x - x >= 20) {
    await page.keyboard.press('Shift+ArrowRight');
    x += 20;
    await page.waitForTimeout(40 + (i++ % 3) * 30);
  }
  while (reveal.data.x - x >= 2) {
    await page.keyboard.press('ArrowRight');
    x += 4;
    await page.waitForTimeout(80 + (i++ % 2) * 50);
  }
  await expect(handle).toHaveAttribute('aria-valuenow', String(x));
  await page.keyboard.press('Enter');
}

for (const lang of langs) {
  const t = messages[lang];
  const m = t.signIn;
  const o = t.onboarding;

  test.describe(`keyboard alone (${lang})`, () => {
    test('a new user signs up with a phone code: agreement, identity, slider, code', async ({ page }) => {
      // The slider's proof of work runs in Web Workers: the page's CSP (worker-src 'self') must let them start.
      const cspViolations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
      });
      const mobile = uniqueMobile();
      await openInLanguage(page, lang, '/login');
      await settle(page);
      await tabTo(page, page.locator('#mobile'));
      await page.keyboard.type(mobile);
      await tabTo(page, page.getByRole('button', { name: m.getCode }));
      await page.keyboard.press('Enter');

      // The agreement: its frame scrolls by keyboard; confirm waits for the countdown and the end of the text.
      const agreement = page.getByRole('dialog', { name: m.agreement.title });
      await expect(agreement).toBeVisible();
      const frame = page.frameLocator('.agreement-frame');
      await expect(frame.locator('body')).toBeAttached();
      // The dialog opens with focus on its heading (issue 33); Tab reaches the framed text, End scrolls it to its end.
      await expect(agreement.getByRole('heading', { name: m.agreement.title })).toBeFocused();
      await tabTo(page, page.locator('.agreement-frame'));
      await page.keyboard.press('End');
      const confirm = agreement.getByRole('button', { name: m.agreement.confirm });
      await expect(confirm).toBeEnabled({ timeout: 8_000 });
      await tabTo(page, confirm);
      await page.keyboard.press('Enter');

      // New user: create or join first (issue 47), the radio groups by arrow keys, the company name typed, Continue by Enter.
      const newUser = page.getByRole('dialog', { name: m.newUser.title });
      await expect(newUser).toBeVisible();
      await expectVisibleFocus(page, newUser.getByRole('radio', { name: m.newUser.create }));
      await tabTo(page, newUser.getByRole('radio', { name: m.newUser.principal }));
      await page.keyboard.press('ArrowDown');
      await expect(newUser.getByRole('radio', { name: m.newUser.serviceProvider })).toBeChecked();
      await tabTo(page, newUser.getByLabel(m.newUser.companyName));
      await page.keyboard.type('Harbour Keys Agency');
      const challenge = sliderChallenge(page);
      await tabTo(page, newUser.getByRole('button', { name: m.newUser.continue }));
      await page.keyboard.press('Enter');

      const slider = page.getByRole('dialog', { name: m.slider.title });
      await expect(slider.locator('.slider-piece')).toBeVisible();
      await slideByKeyboard(page, slider.getByRole('slider', { name: m.slider.handle }), (await challenge).sessionId);
      // The check first solves its proof of work in Web Workers, seconds on a loaded machine, then sends the code.
      await expect(page.getByText(m.codeSent)).toBeVisible({ timeout: 30_000 });

      // Focus waits in the code field. Agreeing in the dialog ticked the form's checkbox; Enter signs in.
      await expectVisibleFocus(page, page.getByLabel(m.code));
      await expect(page.getByRole('checkbox', { name: new RegExp(m.agree) })).toBeChecked();
      const code = await readCode(page.request, `+86${mobile}`);
      await page.keyboard.type(code);
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/enterprise_adm_and_staff\?loginType=1$/);
      expect(cspViolations).toEqual([]);
    });

    test('an existing user signs in with an e-mail code, ticking the agreement with Space', async ({ page }) => {
      const email = uniqueEmail(`kb-code-${lang}`);
      await seedUser(page.request, { email, password: 'harbour2024', userType: 2, agreed: true });
      await openInLanguage(page, lang, '/login');
      await settle(page);
      await tabTo(page, page.getByRole('tab', { name: m.tabs.phone }));
      await page.keyboard.press('ArrowRight');
      await expect(page.getByRole('tab', { name: m.tabs.email })).toHaveAttribute('aria-selected', 'true');
      await tabTo(page, page.getByLabel(m.email));
      await page.keyboard.type(email);
      await tabTo(page, page.getByRole('button', { name: m.getCode }));
      await page.keyboard.press('Enter');
      await expect(page.getByText(m.codeSent)).toBeVisible();

      await expectVisibleFocus(page, page.getByLabel(m.code));
      const code = await readCode(page.request, email);
      await page.keyboard.type(code);
      const agree = page.getByRole('checkbox', { name: new RegExp(m.agree) });
      await tabTo(page, agree);
      await page.keyboard.press('Space');
      await expect(agree).toBeChecked();
      // The sign-in button comes after the agreement.
      await tabTo(page, page.getByRole('button', { name: m.submit }));
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/create_account$/);
    });

    test('an administrator creates a company: searchable selects and a licence upload', async ({ page }) => {
      const email = uniqueEmail(`kb-admin-${lang}`);
      await seedUser(page.request, { email, password: 'harbour2024', userType: 0, agreed: true });
      await signInByRequest(page.request, email, 'harbour2024');
      await openInLanguage(page, lang, '/create_account');
      await settle(page);

      const company = `Keyboard Agency ${lang.toUpperCase()} ${Date.now()}`;
      await tabTo(page, page.getByLabel(o.companyNameEn));
      await page.keyboard.type(company);
      // A closed select changes with the arrow keys; the first press leaves the disabled placeholder.
      const type = page.getByLabel(o.companyType);
      await tabTo(page, type);
      for (let i = 0; i <= COMPANY_TYPES.indexOf('shipAgent'); i++) await page.keyboard.press('ArrowDown');
      await expect(type).toHaveValue('shipAgent');

      // Searchable selects: type, wait for the debounced answer to mark the first match, Enter takes it.
      const country = page.getByRole('combobox', { name: o.country, exact: true });
      await tabTo(page, country);
      await page.keyboard.type(lang === 'zh' ? '新加坡' : 'Singap');
      await expect(page.getByRole('listbox', { name: o.country, exact: true }).getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('Enter');
      await expect(country).toHaveValue(lang === 'zh' ? /新加坡/ : /Singapore/);

      await tabTo(page, page.getByLabel(o.contactName));
      await page.keyboard.type('Chen Hai');
      await tabTo(page, page.getByLabel(o.phone, { exact: true }));
      await page.keyboard.type('13800138000');

      const port = page.getByRole('combobox', { name: o.port, exact: true });
      await tabTo(page, port);
      await page.keyboard.type('CNZOS');
      await expect(page.getByRole('listbox', { name: o.port, exact: true }).getByRole('option', { name: /CNZOS/ })).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('Enter');
      await expect(port).toHaveValue(/CNZOS/);

      await tabTo(page, page.getByLabel(o.creditCode));
      await page.keyboard.type('91330900MA2A0XXX1K');
      await tabTo(page, page.getByLabel(o.email));
      await page.keyboard.type('ops@keyboard-agency.example');

      // The upload control is reached by Tab and opens the file chooser with Enter.
      // (Listening first: Playwright turns on its interception of the native dialog asynchronously.)
      const chooser = page.waitForEvent('filechooser');
      await tabTo(page, page.locator('#upload-licence'));
      await page.keyboard.press('Enter');
      await (await chooser).setFiles({ name: 'licence.pdf', mimeType: 'application/pdf', buffer: PDF });
      await expect(page.getByRole('link', { name: 'licence.pdf' })).toBeVisible();
      // The upload kept the focus where it was.
      await expectVisibleFocus(page, page.locator('#upload-licence'));

      await tabTo(page, page.getByRole('button', { name: o.submit }));
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/completion_of_application\?/);
      await expect(page.getByRole('heading', { name: t.completion.adminTitle })).toBeVisible();
    });

    test('a member joins a company with an invitation code', async ({ page, playwright, baseURL }) => {
      // The administrator's side, outside the browser: a verified company and a fresh invitation code.
      const admin = await playwright.request.newContext({ baseURL });
      const adminEmail = uniqueEmail(`kb-owner-${lang}`);
      const company = `Keyboard Lines ${lang.toUpperCase()} ${Date.now()}`;
      await seedUser(admin, { email: adminEmail, password: 'harbour2024', userType: 2, agreed: true, companies: [{ nameEn: company }] });
      await signInByRequest(admin, adminEmail, 'harbour2024');
      const list = (await (await admin.post('/api/c/user/v2/getCompanyListByToken', { data: {} })).json()) as { data: { companyId: string }[] };
      const regenerated = await admin.post('/api/agg-web/company/invitation/regenerate', { data: { companyId: list.data[0]!.companyId } });
      const { invitationCode } = ((await regenerated.json()) as { data: { invitationCode: string } }).data;
      await admin.dispose();

      const email = uniqueEmail(`kb-staff-${lang}`);
      await seedUser(page.request, { email, password: 'harbour2024', userType: 0, agreed: true });
      await signInByRequest(page.request, email, 'harbour2024');
      await openInLanguage(page, lang, '/join');
      await settle(page);

      await tabTo(page, page.getByLabel(o.invitationCode));
      await page.keyboard.type(invitationCode);
      // Leaving the code looks the company up; its name fills the read-only field.
      await tabTo(page, page.getByLabel(o.realName));
      await expect(page.getByLabel(o.companyName)).toHaveValue(company);
      await page.keyboard.type('Li Wei');
      await tabTo(page, page.getByLabel(o.email));
      await page.keyboard.type('li.wei@keyboard-lines.example');
      await tabTo(page, page.getByLabel(o.phone, { exact: true }));
      await page.keyboard.type('13900139000');
      await tabTo(page, page.getByRole('button', { name: o.join }));
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/completion_of_application\?/);
      await expect(page.getByRole('heading', { name: t.completion.staffTitle })).toBeVisible();
    });
  });
}
