import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { expect, test } from './fixtures';
import { langs } from '../../src/lib/lang';
import { consoleMessages } from '../../src/i18n/ops';
import { messages } from '../../src/i18n';
import { REGISTRY_CONSENT_VERSION } from '../../src/schemas/registry';
import { USCC_ALPHABET, usccCheckCharacter } from '../../src/schemas/registry-numbers';
import { AXE_TAGS, expectAccessible, openInLanguage, PDF, searchAndPick, seedUser, signInByRequest, uniqueEmail } from './helpers';

/**
 * The registry verdict as an operator meets it on the review page (issue 42), one journey per language: a mainland
 * company checked with its application (the local stand-in's registry knows it by another name), the verdict
 * "differs: company name" with its time, "Check again" by keyboard, the new verdict, axe, and the page at 390 and
 * 1280 px. Every provider path, the consent and the monthly re-check: tests/functions/registry.test.ts.
 */
const SHOTS = '/tmp/shots-42';

/** A unique sound code (the stand-in's book is per code and shared by the workers). */
function soundCode(): string {
  const random = Array.from({ length: 8 }, () => USCC_ALPHABET[Math.floor(Math.random() * 31)]).join('');
  const head = `91330900${random}1`;
  return head + usccCheckCharacter(head);
}

for (const lang of langs) {
  const r = consoleMessages[lang].opsReview.registry;

  test(`the review page shows the registry verdict and checks again by keyboard (${lang})`, async ({ page, newPage, operatorPage }) => {
    const admin = await newPage();
    const email = uniqueEmail(`rg-${lang}`);
    await seedUser(admin.request, { email, password: 'harbour2024', userType: 2, agreed: true });
    await signInByRequest(admin.request, email, 'harbour2024');
    const licence = (await (await admin.request.post('/api/agg-web/file/uploadFile', { multipart: { kind: 'licence', files: { name: 'licence.pdf', mimeType: 'application/pdf', buffer: PDF } } })).json()) as { data: { id: string }[] };
    const code = soundCode();
    const name = `Tidewater Lines ${lang.toUpperCase()} ${Date.now()}`;
    const created = (await (
      await admin.request.post('/api/agg-web/company/create', {
        data: { companyNameEn: name, companyNameCn: '潮汐航运有限公司', companyType: 'shipOwner', countryId: 'CN', countryName: 'China', contactName: 'Tan Mei', contactTel: '13800138000', phoneCode: '+86', socialCredit: code, contactEmail: email, corporateCharter: [licence.data[0]!.id] },
      })
    ).json()) as { code: string; data: { companyId: string } };
    expect(created.code).toBe('0');
    // The registry knows this code under another name.
    expect(((await (await admin.request.post('/api/dev/registry', { data: { code, entry: { name: '潮汐物流有限公司' } } })).json()) as { code: string }).code).toBe('0');
    const checked = (await (await admin.request.post('/api/agg-web/registry/check', { data: { companyId: created.data.companyId, consentVersion: REGISTRY_CONSENT_VERSION, legalRepName: '王海', legalRepId: '11010519491231002X' } })).json()) as { code: string };
    expect(checked.code).toBe('0');

    // The applicant's "Your data" says when the company was checked (the verdict itself is the operators').
    await openInLanguage(admin, lang, '/user_center#your-data');
    const yours = admin.getByRole('list').filter({ hasText: messages[lang].dataRights.registryChecked.split('{company}')[1]!.split('{date}')[0]! });
    await expect(yours).toContainText('潮汐航运有限公司', { timeout: 15_000 });
    await admin.setViewportSize({ width: lang === 'zh' ? 390 : 1280, height: 900 });
    await yours.scrollIntoViewIfNeeded();
    mkdirSync(SHOTS, { recursive: true });
    await admin.screenshot({ path: `${SHOTS}/your-data-registry-${lang}.png` });

    await operatorPage('reviewer', { name: 'Ruth Reviewer' });
    await openInLanguage(page, lang, `/ops/company?companyId=${created.data.companyId}`);
    const section = page.getByRole('region', { name: r.title });
    await expect(section).toContainText(r.verdicts.differs.replace('{fields}', r.fields.name));
    await expect(section).toContainText(r.causes.application);

    const axe = await new AxeBuilder({ page }).withTags(AXE_TAGS).include('.ops-registry').analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

    mkdirSync(SHOTS, { recursive: true });
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/review-registry-${lang}-${width}.png`, fullPage: false });
    }

    // The registry corrected: Tab to "Check again", Enter, the new verdict.
    await admin.request.post('/api/dev/registry', { data: { code, entry: null } });
    const again = section.getByRole('button', { name: r.again });
    await page.getByRole('heading', { name: r.title }).click();
    for (let i = 0; i < 10 && !(await again.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect(again).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(section).toContainText(r.verdicts.match);
    await expect(section).toContainText(r.causes.operator);
    await page.screenshot({ path: `${SHOTS}/review-registry-${lang}-after.png`, fullPage: false });

    // The operator corrects the Chinese name to the registry's, with a reason; a wrong check character is said first.
    const e = consoleMessages[lang].opsReview.edit;
    const edit = page.getByRole('region', { name: e.title });
    await edit.getByRole('button', { name: e.open }).click();
    await edit.getByLabel(e.nameCn).fill('潮汐物流有限公司');
    await edit.getByLabel(e.creditCode).fill(code.slice(0, 17) + (code.endsWith('0') ? '1' : '0'));
    await edit.getByLabel(e.reason).fill(lang === 'zh' ? '与工商登记名称一致' : 'As in the registry');
    await edit.getByRole('button', { name: e.save }).click();
    await expect(edit.getByLabel(e.creditCode)).toHaveAttribute('aria-invalid', 'true');
    await expect(edit).toContainText(e.codeCheck.replace('{expected}', code.slice(17)));
    await edit.getByLabel(e.creditCode).fill(code);
    await expect(new AxeBuilder({ page }).withTags(AXE_TAGS).include('.ops-edit').analyze().then((r) => r.violations.map((v) => v.id))).resolves.toEqual([]);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await edit.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/review-edit-${lang}-${width}.png`, fullPage: false });
    }
    await edit.getByRole('button', { name: e.save }).focus();
    await page.keyboard.press('Enter');
    await expect(edit.getByRole('status')).toContainText(e.saved);
    await expect(page.getByRole('region', { name: consoleMessages[lang].opsReview.details })).toContainText('潮汐物流有限公司');
    await expect(page.locator('body')).toContainText(consoleMessages[lang].actionNames.company.edited);
  });
}

for (const lang of langs) {
  const o = consoleMessages[lang].opsReview;

  test(`the review page shows an overseas company's IMO company number, national registry number and evidence (${lang})`, async ({ page, newPage, operatorPage }) => {
    const admin = await newPage();
    const email = uniqueEmail(`imo-${lang}`);
    await seedUser(admin.request, { email, password: 'harbour2024', userType: 2, agreed: true });
    await signInByRequest(admin.request, email, 'harbour2024');
    const uploaded = async (kind: string, name: string) =>
      ((await (await admin.request.post('/api/agg-web/file/uploadFile', { multipart: { kind, files: { name, mimeType: 'application/pdf', buffer: PDF } } })).json()) as { data: { id: string }[] }).data[0]!.id;
    const created = (await (
      await admin.request.post('/api/agg-web/company/create', {
        data: {
          companyNameEn: `Straits Ship Management ${lang.toUpperCase()} ${Date.now()}`,
          companyType: 'shipOwner',
          countryId: 'SG',
          countryName: 'Singapore',
          contactName: 'Tan Mei',
          contactTel: '81234567',
          phoneCode: '+65',
          socialCredit: '201912345K',
          contactEmail: email,
          corporateCharter: [await uploaded('licence', 'licence.pdf')],
          imoCompanyNumber: '2041999',
          nationalRegistryNumber: 'UEN 201912345K',
          registryEvidence: [await uploaded('registryEvidence', 'register-extract.pdf')],
        },
      })
    ).json()) as { code: string; data: { companyId: string } };
    expect(created.code).toBe('0');

    await operatorPage('reviewer', { name: 'Ruth Reviewer' });
    await openInLanguage(page, lang, `/ops/company?companyId=${created.data.companyId}`);
    const details = page.getByRole('region', { name: o.details });
    await expect(details).toContainText(o.fields.imoCompanyNumber);
    await expect(details).toContainText('2041999');
    await expect(details).toContainText('UEN 201912345K');
    const documents = page.getByRole('region', { name: o.files });
    await expect(documents).toContainText(o.purposes.registryEvidence);
    await expect(documents.getByRole('link', { name: o.openFile.replace('{name}', `${o.purposes.registryEvidence} register-extract.pdf`) })).toHaveAttribute('href', /\/api\/ops\/v1\/companies\/.+\/files\//);
  });
}

for (const lang of langs) {
  const o = messages[lang].onboarding;

  test(`the company form asks an overseas company for its registry numbers and checks the IMO number on leaving it (${lang})`, async ({ page }) => {
    const email = uniqueEmail(`imo-form-${lang}`);
    await seedUser(page.request, { email, password: 'harbour2024', userType: 0, agreed: true });
    await signInByRequest(page.request, email, 'harbour2024');
    await openInLanguage(page, lang, '/create_account');
    const imo = page.getByLabel(o.registryNumbers.imoCompanyNumber);
    // Not for a mainland company: the part loads only once another country is chosen.
    await searchAndPick(page, o.country, lang === 'zh' ? '中国' : 'China', lang === 'zh' ? /^中国/ : /^People's Republic of China/);
    await expect(page.getByRole('checkbox', { name: o.registry.agree })).toBeVisible();
    await expect(imo).toHaveCount(0);
    await searchAndPick(page, o.country, lang === 'zh' ? '新加坡' : 'Singap', lang === 'zh' ? /新加坡/ : /Singapore/);
    await expect(imo).toBeVisible();
    await expect(page.getByLabel(o.registryNumbers.nationalRegistryNumber)).toBeVisible();
    await expect(page.locator('#upload-registryEvidence')).toBeAttached();
    await imo.fill('2041998');
    await imo.press('Tab');
    await expect(imo).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(o.errors.imoCompanyNumberCheck.replace('{expected}', '9'))).toBeVisible();
    await imo.fill('2041999');
    await imo.press('Tab');
    await expect(imo).not.toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page, '.registry-numbers');
  });
}
