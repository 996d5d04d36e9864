import { type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { USCC_ALPHABET, usccCheckCharacter } from '../../src/schemas/registry-numbers';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { langs, type Lang } from '../../src/lib/lang';
import { DEFAULT_AREA_CODE_ID } from '../../src/schemas/auth-rules';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { expectAccessible, fillDate, openInLanguage, searchAndPick, seedUser, signInByEmail, signInByRequest, uniqueEmail, uniqueMobile, shoot } from './helpers';

const PASSWORD = 'harbour2024';

/** Small files that pass the server's content sniffing. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A unique sound unified social credit code (the registry stand-in's book is per code and shared by the workers). */
function soundCode(): string {
  const random = Array.from({ length: 8 }, () => USCC_ALPHABET[Math.floor(Math.random() * 31)]).join('');
  const head = `91330900${random}1`;
  return head + usccCheckCharacter(head);
}

/** A look at the page (or one part of it) at one width, for a person to open: /tmp/shots-42. */
async function shootAt(page: Page, name: string, width: number, part?: import('@playwright/test').Locator) {
  const before = page.viewportSize();
  await page.setViewportSize({ width, height: 900 });
  mkdirSync('/tmp/shots-42', { recursive: true });
  if (part) await part.screenshot({ path: `/tmp/shots-42/${name}-${width}.png` });
  else await page.screenshot({ path: `/tmp/shots-42/${name}-${width}.png` });
  if (before) await page.setViewportSize(before);
}

/** The announced error with exactly this text (a select's placeholder may read the same). */
const alertText = (page: Page, message: string) => page.getByRole('alert').and(page.getByText(message, { exact: true }));

interface CompanyInput {
  name: string;
  lang: Lang;
}

/** Fills the administrator form of a fuel supplier, with licence and GTC uploads. */
async function fillFuelSupplier(page: Page, { name, lang }: CompanyInput) {
  const o = messages[lang].onboarding;
  await page.getByLabel(o.companyNameEn).fill(name);
  await page.getByLabel(o.companyType).selectOption('fuelSupplier');
  await searchAndPick(page, o.country, lang === 'zh' ? '新加坡' : 'Singap', lang === 'zh' ? /新加坡/ : /Singapore/);
  await page.getByLabel(o.contactName).fill('Chen Hai');
  await page.getByLabel(o.phone, { exact: true }).fill('138 0013 8000');
  // The port by keyboard: the first match is active once the debounced search answers; Enter takes it.
  const port = page.getByRole('combobox', { name: o.port, exact: true });
  await port.fill('CNZOS');
  await expect(page.getByRole('listbox', { name: o.port, exact: true }).getByRole('option', { name: /CNZOS/ })).toHaveAttribute('aria-selected', 'true');
  await port.press('Enter');
  await expect(port).toHaveValue(/CNZOS/);
  await page.getByLabel(o.creditCode).fill('91330900MA2A0XXX1K');
  await page.getByLabel(o.email).fill('ops@harbour-fuel.example');
  await page.locator('#upload-licence').setInputFiles({ name: 'licence.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(page.getByRole('link', { name: 'licence.pdf' })).toBeVisible();
  await page.locator('#upload-gtc').setInputFiles({ name: 'gtc.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByRole('link', { name: 'gtc.png' })).toBeVisible();
}

for (const lang of langs) {
  const t = messages[lang];
  const o = t.onboarding;

  test.describe(`onboarding (${lang})`, () => {
    test('an administrator registers a fuel supplier: each rule said, files checked first, the application then listed', async ({ page }) => {
      const email = uniqueEmail(`admin-${lang}`);
      await seedUser(page.request, { email, password: PASSWORD, userType: 0, agreed: true });
      await signInByRequest(page.request, email, PASSWORD);
      // Where an e-mail sign-in of a person without a company lands (sign-in.spec.ts signs in through the form).
      await openInLanguage(page, lang, '/enterprise_adm_and_staff?loginType=2');

      // Spec 4 steps: the passport is done, the identity type is being chosen.
      const steps = page.getByRole('navigation', { name: o.steps.label });
      await expect(steps.getByRole('listitem')).toHaveCount(4);
      await expect(steps.locator('[aria-current="step"]')).toContainText(o.steps.identity);
      await page.getByRole('link', { name: new RegExp(o.choose.admin) }).click();
      await expect(page).toHaveURL(/\/create_account\?loginType=2$/);

      // Every required field says what it needs.
      await page.getByRole('button', { name: o.submit }).click();
      for (const message of [o.errors.companyNameEnRequired, o.errors.companyTypeRequired, o.errors.countryRequired, o.errors.contactNameRequired, o.errors.contactPhoneRequired, o.errors.creditCodeRequired, o.errors.emailRequired, o.errors.licenceRequired]) {
        await expect(alertText(page, message)).toBeVisible();
      }
      await expect(page.getByLabel(o.companyNameEn)).toHaveAttribute('aria-invalid', 'true');
      await page.getByLabel(o.email).fill('not-an-email');
      await page.getByLabel(o.companyType).selectOption('shipAgent');
      await page.getByRole('button', { name: o.submit }).click();
      await expect(alertText(page, o.errors.emailInvalid)).toBeVisible();
      await expect(alertText(page, o.errors.portRequired)).toBeVisible();

      // Files are checked in the browser first: type and size.
      await page.locator('#upload-licence').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
      await expect(page.getByText(t.upload.unsupportedType)).toBeVisible();
      await page.locator('#upload-licence').setInputFiles({ name: 'big.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(6 * 1024 * 1024 + 1, 0x25) });
      await expect(page.getByText(t.upload.sizeExceeded)).toBeVisible();

      const company = `Harbour Fuel ${lang.toUpperCase()} ${Date.now()}`;
      await fillFuelSupplier(page, { name: company, lang });
      await expect(page.getByText(`${company.length}/128`)).toBeVisible();

      // A mainland company (issue 42): the registry check is offered with its consent's words; agreed by keyboard,
      // it asks for the legal representative, whose ID number is checked in the browser first.
      await searchAndPick(page, o.country, lang === 'zh' ? '中国' : 'China', lang === 'zh' ? /^中国/ : /^People's Republic of China/);
      await page.getByLabel(o.creditCode).fill(soundCode());
      const registry = page.getByRole('group', { name: o.registry.title });
      await expect(registry).toContainText(o.registry.consent);
      await registry.getByRole('checkbox', { name: o.registry.agree }).focus();
      await page.keyboard.press('Space');
      await registry.getByLabel(o.registry.legalRepName).fill('王海');
      await registry.getByLabel(o.registry.legalRepId).fill('1101051949123100');
      await page.getByRole('button', { name: o.submit }).click();
      await expect(alertText(page, o.errors.legalRepIdMalformed)).toBeVisible();
      await registry.getByLabel(o.registry.legalRepId).fill('11010519491231002X');
      await expectAccessible(page, '.registry-consent');
      await shootAt(page, `registry-consent-${lang}`, lang === 'zh' ? 390 : 1280, registry);
      await page.getByRole('button', { name: o.submit }).click();
      await expect(page).toHaveURL(/\/completion_of_application\?userType=2&loginType=2&ifJumpToSaas=false$/);
      await expect(page.getByRole('heading', { name: t.completion.adminTitle })).toBeVisible();
      // The stand-in registry knows no such code: an operating company, so it matches; said once.
      await expect(page.getByText(t.completion.registry.match)).toBeVisible();
      await shootAt(page, `registry-completion-${lang}`, lang === 'zh' ? 390 : 1280);

      // The application shows with its verification status, on /account and /user_center.
      await page.goto('/account');
      const card = page.getByRole('listitem').filter({ hasText: company });
      await expect(card).toContainText(t.statuses.approving);
      await expect(card).toContainText(t.companyTypes.fuelSupplier);
      await expect(card).toContainText(t.account.roles.administrator);
      await page.goto('/user_center');
      await expect(page.getByRole('heading', { name: t.userCenter.members.replace('{company}', company) })).toBeVisible();
      await expect(page.getByTestId('invitation-code')).toHaveText(/^[A-Z2-9]{8}$/);
    });

    test('staff join with the invitation code: a wrong code is said, the right one (any case) shows the company', async ({ page, browser, baseURL }) => {
      // A fuel supplier whose administrator has made its invitation code (onboarding's first step does it on the page).
      const company = `Harbour Fuel ${lang.toUpperCase()} ${Date.now()}`;
      const adminContext = await browser.newContext({ baseURL });
      const adminEmail = uniqueEmail(`admin-${lang}`);
      const seeded = (await (
        await adminContext.request.post('/api/dev/users', {
          data: { email: adminEmail, password: PASSWORD, userType: 2, agreed: true, companies: [{ nameEn: company, type: 'fuelSupplier', status: 'approving', role: 'administrator' }] },
        })
      ).json()) as { data: { companyIds: string[] } };
      const companyId = seeded.data.companyIds[0]!;
      await signInByRequest(adminContext.request, adminEmail, PASSWORD);
      const made = (await (await adminContext.request.post('/api/agg-web/company/invitation/regenerate', { data: { companyId } })).json()) as { code: string; data: { invitationCode: string } };
      expect(made.code).toBe('0');
      const code = made.data.invitationCode;
      await adminContext.close();

      const staffEmail = uniqueEmail(`staff-${lang}`);
      await seedUser(page.request, { email: staffEmail, password: PASSWORD, userType: 0, agreed: true });
      await signInByRequest(page.request, staffEmail, PASSWORD);
      await openInLanguage(page, lang, '/enterprise_adm_and_staff?loginType=2');
      await page.getByRole('link', { name: new RegExp(o.choose.staff) }).click();
      await expect(page).toHaveURL(/\/join\?loginType=2$/);
      await page.getByRole('button', { name: o.join }).click();
      await expect(alertText(page, o.errors.invitationCodeRequired)).toBeVisible();
      await expect(alertText(page, o.errors.realNameRequired)).toBeVisible();
      await page.getByLabel(o.invitationCode).fill('ZZZZ2222');
      await expect(page.getByText(errorCatalogue.CO0010[lang])).toBeVisible();
      await page.getByLabel(o.invitationCode).fill(code.toLowerCase());
      await expect(page.getByLabel(o.companyName)).toHaveValue(company);
      await expect(page.getByLabel(o.companyName)).toHaveAttribute('readonly', '');
      await page.getByLabel(o.realName).fill('Li Wei');
      await page.getByLabel(o.email).fill('li.wei@harbour-fuel.example');
      await page.getByLabel(o.phone, { exact: true }).fill('13900139000');
      await fillDate(page, lang, new RegExp(o.hireDate), '2026-03-01');
      await page.getByRole('button', { name: o.join }).click();
      await expect(page).toHaveURL(/\/completion_of_application\?userType=2&loginType=2$/);
      await expect(page.getByRole('heading', { name: t.completion.staffTitle })).toBeVisible();
    });

    test('the administrator sees a join request, and makes a new code; the same company cannot be registered twice', async ({ page }) => {
      const company = `Harbour Fuel ${lang.toUpperCase()} ${Date.now()}`;
      const adminEmail = uniqueEmail(`admin-${lang}`);
      const [companyId] = (
        (await (
          await page.request.post('/api/dev/users', {
            data: { email: adminEmail, password: PASSWORD, userType: 2, agreed: true, companies: [{ nameEn: company, type: 'fuelSupplier', status: 'approving', role: 'administrator' }] },
          })
        ).json()) as { data: { companyIds: string[] } }
      ).data.companyIds;
      await seedUser(page.request, { email: uniqueEmail(`staff-${lang}`), password: PASSWORD, userType: 2, agreed: true, realName: 'Li Wei', companies: [{ companyId, role: 'staff', memberStatus: 'pending' }] });
      await signInByRequest(page.request, adminEmail, PASSWORD);
      // The code Li Wei joined with (a seeded company has none until its administrator makes one).
      const made = (await (await page.request.post('/api/agg-web/company/invitation/regenerate', { data: { companyId } })).json()) as { data: { invitationCode: string } };
      const before = made.data.invitationCode;
      await openInLanguage(page, lang, '/user_center');
      // The members part loads as it comes near (issue 31): scroll to it, as a person does.
      await page.getByRole('heading', { name: t.userCenter.members.replace('{company}', company) }).scrollIntoViewIfNeeded();
      await expect(page.getByRole('row').filter({ hasText: 'Li Wei' })).toContainText(t.userCenter.memberStatuses.pending);
      await expect(page.getByTestId('invitation-code')).toHaveText(before);
      await page.getByRole('button', { name: t.userCenter.regenerate }).click();
      await expect(page.getByText(t.userCenter.regenerated)).toBeVisible();
      await expect(page.getByTestId('invitation-code')).toHaveText(/^[A-Z2-9]{8}$/);
      await expect(page.getByTestId('invitation-code')).not.toHaveText(before);
      // That the old code then stops is the gateway's rule: companies.test.ts, "looks up the name, joins once as
      // pending staff, regenerates, and lists members for the administrator only".

      // The same company (name and type) cannot be registered twice. A zhoushan origin pre-fills the port.
      await page.goto('/create_account?source=zhoushan');
      await expect(page.getByRole('combobox', { name: new RegExp(o.port) })).toHaveValue(/CNZOS/);
      await fillFuelSupplier(page, { name: company.toLowerCase(), lang });
      await page.getByRole('button', { name: o.submit }).click();
      await expect(page.getByRole('alert').filter({ hasText: errorCatalogue.CO0001[lang] }).first()).toBeVisible();
      await expect(page).toHaveURL(/\/create_account\?source=zhoushan$/);
    });

    test('a person with two companies chooses one, then a main enterprise skips the choice', async ({ page }) => {
      const email = uniqueEmail(`two-${lang}`);
      const stamp = Date.now();
      const first = `Blue Anchor Shipping ${lang} ${stamp}`;
      const second = `Pacific Charter ${lang} ${stamp}`;
      await seedUser(page.request, {
        email,
        password: PASSWORD,
        userType: 2,
        agreed: true,
        companies: [
          { nameEn: first, type: 'ship_owner', status: 'verified', role: 'administrator' },
          { nameEn: second, type: 'charterer', status: 'verified', role: 'staff' },
        ],
      });
      // Where a sign-in of a person with two companies lands (the second sign-in below goes through the form).
      await signInByRequest(page.request, email, PASSWORD);
      await openInLanguage(page, lang, '/account');
      const firstCard = page.getByRole('listitem').filter({ hasText: first });
      const secondCard = page.getByRole('listitem').filter({ hasText: second });
      await expect(firstCard).toContainText(t.statuses.verified);
      await expect(firstCard).toContainText(t.companyTypes.shipOwner);
      await expect(secondCard).toContainText(t.account.roles.staff);

      await page.getByRole('button', { name: `${t.account.enter}: ${first}` }).click();
      // Locally the web app is this portal's user center.
      await expect(page).toHaveURL(/\/user_center$/);

      // A same-site redirect is honoured after the choice.
      await page.goto('/account?redirect=%2Fuser_center%3Ffrom%3Daccount');
      await page.getByRole('button', { name: `${t.account.enter}: ${second}` }).click();
      await expect(page).toHaveURL(/\/user_center\?from=account$/);

      await page.goto('/account');
      await page.getByRole('button', { name: `${t.account.setMain}: ${second}` }).click();
      await expect(page.getByText(t.account.mainSaved)).toBeVisible();
      await expect(secondCard).toContainText(t.account.main);
      await page.getByRole('button', { name: t.account.signOut }).click();
      await expect(page).toHaveURL(/\/login$/);

      const visited: string[] = [];
      page.on('framenavigated', (frame) => frame === page.mainFrame() && visited.push(frame.url()));
      await signInByEmail(page, lang, email, PASSWORD);
      await expect(page).toHaveURL(/\/user_center$/);
      expect(visited.some((url) => new URL(url).pathname === '/account')).toBe(false);
    });

    test("the company form's checks load on its first use: a failed load says so in the page's words, the next use loads them", async ({ page }) => {
      const o = t.onboarding;
      const email = uniqueEmail(`lazy-form-${lang}`);
      await seedUser(page.request, { email, password: PASSWORD, userType: 2, agreed: true });
      await signInByRequest(page.request, email, PASSWORD);
      // The checks and submit (company-actions) cannot be fetched: the connection breaks off.
      await page.route('**/_astro/company-actions.*.js', (route) => route.abort('connectionreset'));
      await openInLanguage(page, lang, '/create_account');
      await page.getByLabel(o.companyNameEn).fill('Lazy Load Shipping');
      await page.getByRole('button', { name: o.submit }).click();
      await expect(alertText(page, t.errors.connection)).toBeVisible();
      // Nothing was checked or sent: the form is as it was typed.
      await expect(page.getByLabel(o.companyNameEn)).toHaveValue('Lazy Load Shipping');
      await expect(page.getByText(o.errors.companyTypeRequired)).toHaveCount(0);

      // Back online: the next submit loads the checks, which mark the missing fields.
      await page.unroute('**/_astro/company-actions.*.js');
      await page.getByRole('button', { name: o.submit }).click();
      await expect(alertText(page, o.errors.companyTypeRequired)).toBeVisible();
      await expect(alertText(page, t.errors.connection)).toHaveCount(0);
    });

    test("/join's area-code picker opened as the first action says its list is loading until the list arrives", async ({ page }) => {
      const o = t.onboarding;
      const email = uniqueEmail(`join-codes-${lang}`);
      await seedUser(page.request, { email, password: PASSWORD, userType: 2, agreed: true });
      await signInByRequest(page.request, email, PASSWORD);
      // The list answers only when let through (a fresh browser has no copy of it in local storage).
      let letThrough = () => {};
      const held = new Promise<void>((resolve) => (letThrough = resolve));
      await page.route('**/api/agg-web/country/selectPhoneCode', async (route) => {
        await held;
        await route.continue();
      });
      await openInLanguage(page, lang, '/join');
      await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
      const picker = page.getByRole('combobox', { name: o.areaCode });
      await picker.click();
      // One row: the current code, with the words that the list is on its way (its value, read with the picker).
      const loading = new RegExp(`^\\+\\d+ ${o.areaCodesLoading}$`);
      await expect(picker.locator('option')).toHaveText([loading]);
      await expect(picker.locator('option:checked')).toHaveText(loading);
      await page.keyboard.press('Escape');
      letThrough();
      await expect.poll(() => picker.locator('option').count()).toBeGreaterThan(100);
      await expect(picker.locator('option', { hasText: o.areaCodesLoading })).toHaveCount(0);
      // The current code stays picked, now as a row of the list.
      await expect(picker).toHaveValue(DEFAULT_AREA_CODE_ID);
    });
  });
}

for (const lang of langs) {
  const t = messages[lang];
  const o = t.onboarding;

  test.describe(`what was said once is kept, and the pickers (${lang})`, () => {
    test('a Chinese company name from the new-user dialog fills the Chinese-name field; a service provider is offered provider types only', async ({ page }) => {
      const email = uniqueEmail(`kept-name-${lang}`);
      const mobile = uniqueMobile();
      await seedUser(page.request, { email, phone: { callingCode: '+86', mobile }, realName: 'Zhou Min', password: PASSWORD, userType: 2, agreed: true, identity: 2 });
      await signInByRequest(page.request, email, PASSWORD);
      // What the new-user dialog's sign-in leaves for the company form (login case 6).
      await page.addInitScript(() => sessionStorage.setItem('companyName', '舟山远洋船务代理有限公司'));
      await openInLanguage(page, lang, '/create_account');
      await expect(page.getByLabel(o.companyNameCn)).toHaveValue('舟山远洋船务代理有限公司');
      await expect(page.getByLabel(o.companyNameEn)).toHaveValue('');
      // The phone signed in with and the person's name are the contact's until changed (issue 47), as on /join.
      await expect(page.getByLabel(o.phone, { exact: true })).toHaveValue(mobile);
      await expect(page.getByLabel(o.contactName)).toHaveValue('Zhou Min');
      const types = page.getByLabel(o.companyType).locator('option:not([disabled])');
      await expect(types).toHaveText(['shipAgent', 'shipyard', 'fuelSupplier', 'voyageManager'].map((type) => t.companyTypes[type as keyof typeof t.companyTypes]));
      // Chinese text in the English-name field is refused with its reason.
      await page.getByLabel(o.companyNameEn).fill('舟山远洋');
      await page.getByRole('button', { name: o.submit }).click();
      await expect(page.getByText(o.errors.companyNameEnLatin)).toBeVisible();
      await expectAccessible(page);
      await shoot(page, `company-form-kept-${lang}-1280`);
    });

    test('the join form is prefilled with the phone and name of the account', async ({ page }) => {
      const mobile = uniqueMobile();
      const email = uniqueEmail(`join-prefill-${lang}`);
      await seedUser(page.request, { email, phone: { callingCode: '+86', mobile }, realName: 'Zhou Min', password: PASSWORD, userType: 2, agreed: true });
      await signInByRequest(page.request, email, PASSWORD);
      await openInLanguage(page, lang, '/join');
      await expect(page.getByLabel(o.phone, { exact: true })).toHaveValue(mobile);
      await expect(page.getByLabel(o.realName)).toHaveValue('Zhou Min');
    });

    test('an administrator revisiting the choice of role sees their company and its standing', async ({ page }) => {
      const adminEmail = uniqueEmail(`kept-revisit-${lang}`);
      const company = `Revisit Shipping ${lang} ${Date.now()}`;
      await seedUser(page.request, { email: adminEmail, password: PASSWORD, userType: 2, agreed: true, companies: [{ nameEn: company, status: 'verified', role: 'administrator' }] });
      await signInByRequest(page.request, adminEmail, PASSWORD);
      await openInLanguage(page, lang, '/enterprise_adm_and_staff');
      const standing = page.getByRole('status').filter({ hasText: company });
      await expect(standing).toContainText(o.choose.administering.replace('{company}', company).replace('{status}', t.statuses.verified));
      await expect(page.getByRole('link', { name: o.choose.goToCompanies })).toHaveAttribute('href', '/account');
      await expect(page.getByText(o.steps.identity).first()).toBeVisible();
      await expectAccessible(page);
      await shoot(page, `enterprise-choice-admin-${lang}`, { widths: [390, 1280] });
    });

    test('↓ then Enter after a search of the country takes the first match', async ({ signedIn: page }) => {
      await openInLanguage(page, lang, '/create_account');
      const country = page.getByRole('combobox', { name: o.country, exact: true });
      await country.fill(lang === 'zh' ? '中国' : 'China');
      await expect(page.getByRole('listbox', { name: o.country, exact: true }).getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
      const first = (await page.getByRole('listbox', { name: o.country, exact: true }).getByRole('option').first().textContent())!.trim();
      await country.press('ArrowDown');
      await country.press('Enter');
      // The first match's name in the page's language (the option shows both names), not the second match.
      const picked = await country.inputValue();
      expect(picked.length).toBeGreaterThan(0);
      expect(first.startsWith(picked)).toBe(true);
    });
  });
}
