import { createServer, type Server } from 'node:http';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { format } from '../../src/i18n/format';
import { startCompanyIdp, type CompanyIdp } from '../functions/company-idp-stand-in';
import { E2E_PORT } from './world';
import { acceptAgreement, expectAccessible, openInLanguage, readCode, seedUser, shoot, signInByRequest } from './helpers';

/**
 * Issue 43 as people meet it, zh at 390 px and en at 1280 px, by keyboard, with axe: a company's administrator
 * proves an e-mail domain (the TXT record from the page, published at a stand-in DNS-over-HTTPS resolver) and
 * connects the company's OpenID provider (a stand-in: tests/functions/company-idp-stand-in.ts); a member signs in
 * through "Continue with <company>" on /login (their existing account proves itself once with an e-mail code); a
 * new person lands in the company's approval queue. Every rule and attack: tests/functions/company-sso.test.ts.
 */
const PASSWORD = 'harbour2024';
const runs = [
  { lang: 'zh', width: 390 },
  { lang: 'en', width: 1280 },
] as const;

const records = new Map<string, string>();
let resolver: Server;
let idp: CompanyIdp;
let secondIdp: CompanyIdp;

test.beforeAll(async () => {
  // The server's DOH_URL (scripts/serve-e2e.mjs): this worker's port + 2000.
  resolver = createServer((request, response) => {
    const name = new URL(request.url ?? '/', 'http://resolver').searchParams.get('name') ?? '';
    const value = records.get(name);
    response.writeHead(200, { 'content-type': 'application/dns-json' });
    response.end(JSON.stringify(value ? { Status: 0, Answer: [{ type: 16, data: `"${value}"` }] } : { Status: 3 }));
  });
  await new Promise<void>((resolve) => resolver.listen(E2E_PORT + 2000, '127.0.0.1', resolve));
  idp = await startCompanyIdp();
  secondIdp = await startCompanyIdp({ clientId: 'subsidiary-portal' });
});
test.afterAll(async () => {
  await new Promise<void>((resolve) => resolver.close(() => resolve()));
  await idp.close();
  await secondIdp.close();
});

/** Tabs forward until `target` has focus (a person's keyboard, not a click). */
async function tabTo(page: Page, target: ReturnType<Page['getByRole']>) {
  for (let i = 0; i < 40 && !(await target.evaluate((el) => el === document.activeElement).catch(() => false)); i++) await page.keyboard.press('Tab');
  await expect(target).toBeFocused();
}

/** /login → type the e-mail → "Continue with <company>" by keyboard → the provider → /company_sso_callback. */
async function continueWithCompany(page: Page, lang: 'zh' | 'en', email: string, company: string) {
  const m = messages[lang];
  await openInLanguage(page, lang, '/login');
  await page.getByRole('tab', { name: m.signIn.tabs.email }).click();
  await page.getByLabel(m.signIn.email).fill(email);
  const go = page.getByRole('button', { name: format(m.companySso.continueWith, { company }) });
  await expect(go).toBeVisible();
  await tabTo(page, go);
  await shoot(page, `company-sso-login-${lang}`, { widths: [page.viewportSize()!.width], fullPage: false });
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/company_sso_callback\?/);
}

for (const { lang, width } of runs) {
  test(`an administrator proves a domain and connects a provider; a member and a new person sign in through it (${lang}, ${width} px)`, async ({ page, newPage }) => {
    // Three browsers (the administrator, a member, a new person) and two provider round trips: a long journey.
    test.slow();
    const t = messages[lang].companySso;
    await page.setViewportSize({ width, height: 900 });
    const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
    const domain = `fleet-${lang}-${stamp}.example`;
    const company = `Harbour Lines ${lang.toUpperCase()} ${stamp}`;
    const adminEmail = `admin.${stamp}@${domain}`;
    await seedUser(page.request, { email: adminEmail, password: PASSWORD, agreed: true, userType: 2, realName: 'Ada Admin', companies: [{ nameEn: company, type: 'shipOwner', role: 'administrator' }] });
    await signInByRequest(page.request, adminEmail, PASSWORD);
    const listed = (await (await page.request.post('/api/c/user/v2/getCompanyListByToken', { data: {} })).json()) as { data: { companyId: string }[] };
    const companyId = listed.data[0]!.companyId;

    // The administrator: add the domain, publish its record, check it, connect the provider.
    await openInLanguage(page, lang, '/user_center');
    // The company's parts load when they come near (the user center's lower parts): the members' section first.
    await page.getByRole('region', { name: format(messages[lang].userCenter.members, { company }), exact: true }).scrollIntoViewIfNeeded();
    const section = page.getByRole('region', { name: `${t.title} · ${company}` });
    await section.scrollIntoViewIfNeeded();
    await expect(section).toBeVisible();
    const domainField = section.getByLabel(t.domain);
    await domainField.fill(domain);
    await domainField.press('Enter');
    const card = section.locator(`[data-domain="${domain}"]`);
    await expect(card).toContainText(t.states.pending);
    records.set(`_shipping-portal-challenge.${domain}`, (await card.locator('.record-value').textContent())!.trim());
    const check = card.getByRole('button', { name: `${t.check} ${domain}` });
    await check.focus();
    await page.keyboard.press('Enter');
    await expect(card).toContainText(t.states.proved);
    await section.getByLabel(t.issuer).fill(idp.issuer);
    await section.getByLabel(t.clientId).fill(idp.clientId);
    const secret = section.getByLabel(t.clientSecret);
    await secret.fill(idp.clientSecret);
    await secret.press('Enter');
    await expect(section.getByRole('status')).toContainText(t.saved);
    await expect(section.getByRole('checkbox', { name: t.enabled })).toBeChecked();
    await expectAccessible(page, '.company-sso');
    await section.getByRole('heading', { name: t.connectionTitle, exact: true }).scrollIntoViewIfNeeded();
    await shoot(page, `company-sso-admin-${lang}`, { widths: [width], fullPage: false });

    // A member with an account: "Continue with", then the account's own proof once (a code to its e-mail).
    const memberEmail = `member.${stamp}@${domain}`;
    const member = await newPage({ viewport: { width, height: 900 } });
    await seedUser(member.request, { email: memberEmail, password: PASSWORD, agreed: true, userType: 2, realName: 'Mo Member', companies: [{ companyId, role: 'staff', hireTime: '2024-03-01' }] });
    await continueWithCompany(member, lang, memberEmail, company);
    await expect(member.getByRole('heading', { name: t.linkTitle })).toBeFocused();
    await expectAccessible(member);
    await shoot(member, `company-sso-link-${lang}`, { widths: [width], fullPage: false });
    await member.keyboard.press('Tab');
    await expect(member.getByRole('button', { name: t.sendCode })).toBeFocused();
    await member.keyboard.press('Enter');
    await expect(member.getByLabel(t.code)).toBeFocused();
    await member.keyboard.type(await readCode(member.request, memberEmail));
    await member.keyboard.press('Enter');
    await member.waitForURL((url) => !url.pathname.startsWith('/company_sso_callback') && !url.pathname.startsWith('/login'));

    // A new person from the domain: signed in, agrees to the terms, and applies to join (not a member yet).
    const newcomerEmail = `new.${stamp}@${domain}`;
    const newcomer = await newPage({ viewport: { width, height: 900 } });
    await continueWithCompany(newcomer, lang, newcomerEmail, company);
    await acceptAgreement(newcomer, lang);
    await newcomer.waitForURL((url) => !url.pathname.startsWith('/company_sso_callback'));

    // The administrator's page lists both sign-ins through the provider.
    await page.reload();
    await page.getByRole('region', { name: format(messages[lang].userCenter.members, { company }), exact: true }).scrollIntoViewIfNeeded();
    await section.scrollIntoViewIfNeeded();
    const signIns = section.getByRole('list', { name: t.lastSignIns });
    await expect(signIns).toContainText(t.outcomes.applied);
    await expect(signIns).toContainText(t.outcomes.linked);
    await expect(signIns).toContainText(newcomerEmail);
    await signIns.scrollIntoViewIfNeeded();
    await shoot(page, `company-sso-sign-ins-${lang}`, { widths: [width], fullPage: false });

    // A second provider (a subsidiary's): connected beside the first, listed with its domains; the domain may move to it.
    const another = section.getByRole('button', { name: t.addConnection });
    await another.focus();
    await page.keyboard.press('Enter');
    await expect(section.getByRole('heading', { name: t.newConnection })).toBeVisible();
    await section.getByLabel(t.issuer).fill(secondIdp.issuer);
    await section.getByLabel(t.clientId).fill(secondIdp.clientId);
    await section.getByLabel(t.clientSecret).fill(secondIdp.clientSecret);
    await section.getByLabel(t.clientSecret).press('Enter');
    await expect(section.getByRole('status')).toContainText(t.saved);
    const providers = section.getByRole('list', { name: t.connectionsTitle }).locator(':scope > li');
    await expect(providers).toHaveCount(2);
    await expect(providers.first()).toContainText(format(t.connectionDomains, { domains: domain }));
    await expect(providers.nth(1)).toContainText(t.connectionNoDomains);
    await expect(card.getByLabel(t.routeLabel)).toHaveValue(await providers.first().getAttribute('data-connection') as string);
    await expectAccessible(page, '.company-sso');
    await providers.nth(1).scrollIntoViewIfNeeded();
    await shoot(page, `company-sso-providers-${lang}`, { widths: [width], fullPage: false });

    // The administrator removes the domain, by keyboard, after a confirm step that says what stops.
    const remove = card.getByRole('button', { name: `${t.remove} ${domain}` });
    await remove.focus();
    await page.keyboard.press('Enter');
    const confirm = card.getByRole('group', { name: `${t.remove} ${domain}` });
    await expect(confirm).toContainText(format(t.removeConfirm, { domain }));
    await expect(confirm.getByRole('button', { name: t.removeYes })).toBeFocused();
    await expectAccessible(page, '.company-sso');
    await shoot(page, `company-sso-remove-${lang}`, { widths: [width], fullPage: false });
    await page.keyboard.press('Enter');
    await expect(section.getByRole('status')).toContainText(format(t.removed, { domain }));
    await expect(card).toHaveCount(0);
  });
}
