import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import type { Page } from '@playwright/test';
import { expect, PORTAL_ORIGIN, test } from './fixtures';
import { messages } from '../../src/i18n';
import { format } from '../../src/i18n/format';
import { imoCheckDigit } from '../../src/lib/imo';
import { expectAccessible, openInLanguage, seedUser, shoot, signInByRequest, uniqueEmail } from './helpers';

/**
 * Issue 41 as people meet it, zh at 390 px and en at 1280 px: an owner's administrator declares a vessel (a wrong
 * check digit is said at the field) and grants a ship agent; the agent's administrator accepts; the agent's staff
 * member chooses to act for the owner and sees so; an app's token says on_behalf_of; the owner ends the grant and
 * the next call acts for no one. The rules (scopes, races, refusals, claims) are tests/functions/grants.test.ts.
 */
const PASSWORD = 'harbour2024';
const WIDTHS = [390, 1280] as const;
const runs = [
  { lang: 'zh', width: 390 },
  { lang: 'en', width: 1280 },
] as const;

let APP = '';
let appServer: Server;
let visited: string[] = [];
let app: { clientId: string; clientSecret: string };

test.beforeAll(async ({ playwright }) => {
  appServer = createServer((request, response) => {
    if (!request.url?.startsWith('/favicon')) visited.push(`${APP}${request.url}`);
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Port agent app</title><p>app</p>');
  });
  await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve));
  APP = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`;
  const ops = await playwright.request.newContext({ baseURL: PORTAL_ORIGIN });
  try {
    await ops.post('/api/dev/operator-session', { data: { role: 'admin', login: `grants.${Date.now()}.${process.pid}@ops.example.com` } });
    const created = await ops.post('/api/ops/v1/oidc/clients', {
      data: { name: 'Port agent app', redirectUris: [`${APP}/callback`], postLogoutUris: [], backchannelLogoutUri: null, public: false, trusted: true },
    });
    const answer = (await created.json()) as { code: string; data: { client: { id: string }; secret: string } };
    expect(answer.code).toBe('0');
    app = { clientId: answer.data.client.id, clientSecret: answer.data.secret };
  } finally {
    await ops.dispose();
  }
});
test.afterAll(() => new Promise<void>((resolve) => appServer.close(() => resolve())));

/** A valid IMO number of this run (one owner per IMO number on the platform). */
function freshImo(): string {
  const firstSix = String(100_000 + Math.floor(Math.random() * 900_000));
  return `${firstSix}${imoCheckDigit(firstSix)}`;
}

async function seed(page: Page, label: string, companies: Record<string, unknown>[], realName: string) {
  const email = uniqueEmail(label);
  const userId = await seedUser(page.request, { email, password: PASSWORD, agreed: true, userType: 2, realName, companies });
  return { email, userId };
}

for (const { lang, width } of runs) {
  test(`${lang} ${width}px: an owner grants an agent a vessel, the agent accepts, its staff member acts for the owner, and the owner ends it`, async ({ page, newPage }) => {
    test.setTimeout(180_000);
    const m = messages[lang];
    const g = m.grants;
    await page.setViewportSize({ width, height: 900 });
    const stamp = `${lang} ${Date.now()}`;
    const ownerName = `Owner Lines ${stamp}`;
    const agentName = `Agent Services ${stamp}`;
    const imo = freshImo();

    const owner = await seed(page, `grant-owner-${lang}`, [{ nameEn: ownerName, type: 'shipOwner', status: 'verified', role: 'administrator' }], 'Chen Owner');
    const agentPage = await newPage({ viewport: { width, height: 900 } });
    const agent = await seed(agentPage, `grant-agent-${lang}`, [{ nameEn: agentName, type: 'shipAgent', status: 'verified', role: 'administrator' }], 'Li Agent');
    await signInByRequest(agentPage.request, agent.email, PASSWORD);
    const agentCompanyId = ((await (await agentPage.request.get('/api/agg-web/user/fetchMeByUserToken')).json()) as { data: { accountId: string } }).data.accountId;
    const staffPage = await newPage({ viewport: { width, height: 900 } });
    const staff = await seed(staffPage, `grant-staff-${lang}`, [{ companyId: agentCompanyId, role: 'staff' }], 'Wang Staff');
    const granted = await agentPage.request.post('/api/agg-web/company/member/module', { data: { companyId: agentCompanyId, userId: staff.userId, module: 'port-calls', granted: true } });
    expect(((await granted.json()) as { code: string }).code).toBe('0');

    // The owner declares the vessel: a wrong last digit is said at the field as it is left, in the page's language.
    await signInByRequest(page.request, owner.email, PASSWORD);
    await openInLanguage(page, lang, '/user_center');
    // The company's parts load as they come near (issue 31), as a person scrolls to them.
    await page.getByRole('region', { name: format(m.userCenter.members, { company: ownerName }), exact: true }).scrollIntoViewIfNeeded();
    const vessels = page.getByRole('region', { name: format(g.vesselsTitle, { company: ownerName }) });
    await vessels.scrollIntoViewIfNeeded();
    await vessels.getByRole('button', { name: g.declare }).click();
    const declare = page.getByRole('dialog', { name: g.declare });
    const wrong = `${imo.slice(0, 6)}${(Number(imo[6]) + 1) % 10}`;
    await declare.getByLabel(g.imoLabel).fill(wrong);
    await declare.getByLabel(g.imoLabel).press('Tab');
    await expect(declare.getByText(format(g.imoCheckDigit, { digit: imo[6]! }))).toBeVisible();
    await declare.getByLabel(g.imoLabel).fill(imo);
    await declare.getByLabel(g.vesselNameLabel).fill('MV Harbour Star');
    await expectAccessible(page, 'dialog');
    await shoot(page, `grants-declare-${lang}`, { widths: WIDTHS, fullPage: false });
    await declare.getByLabel(g.vesselNameLabel).press('Enter');
    await expect(vessels.getByRole('status')).toContainText(format(g.declared, { name: 'MV Harbour Star', imo }));

    // The grant: the agent by its registered name, the vessel, a port, a module, read and act.
    const grants = page.getByRole('region', { name: format(g.grantsTitle, { company: ownerName }) });
    await grants.getByRole('button', { name: g.newGrant }).click();
    const form = page.getByRole('dialog', { name: g.formTitle });
    await form.getByLabel(g.otherLabel).fill(agentName);
    await form.getByRole('button', { name: g.find }).click();
    await expect(form.getByRole('radio', { name: agentName })).toBeChecked();
    await form.getByRole('checkbox', { name: `MV Harbour Star (IMO ${imo})` }).check();
    await form.getByLabel(g.portsField, { exact: true }).fill('CNSHA');
    await form.getByRole('checkbox', { name: lang === 'zh' ? '港口挂靠' : 'Port calls' }).check();
    await form.getByRole('radio', { name: g.levels.act }).check();
    await expectAccessible(page, 'dialog');
    await shoot(page, `grants-new-${lang}`, { widths: WIDTHS, fullPage: false });
    await form.getByRole('button', { name: g.submit }).click();
    await expect(page.getByText(format(g.created, { company: agentName }))).toBeVisible();
    const ownerCard = grants.getByRole('listitem').filter({ hasText: format(g.weGrant, { company: agentName }) });
    await expect(ownerCard).toContainText(g.statuses.pending);

    // The agent's administrator accepts.
    await openInLanguage(agentPage, lang, '/user_center');
    await agentPage.getByRole('region', { name: format(m.userCenter.members, { company: agentName }), exact: true }).scrollIntoViewIfNeeded();
    const agentGrants = agentPage.getByRole('region', { name: format(g.grantsTitle, { company: agentName }) });
    await agentGrants.scrollIntoViewIfNeeded();
    const request = agentGrants.getByRole('listitem').filter({ hasText: format(g.theyGrant, { company: ownerName }) });
    await expect(request).toContainText(imo);
    await request.getByRole('button', { name: g.accept }).click();
    await expect(agentPage.getByText(format(g.accepted, { company: ownerName }))).toBeVisible();
    await expect(request).toContainText(g.statuses.active);
    await expectAccessible(agentPage, `section.company-grants`);
    await shoot(agentPage, `grants-accepted-${lang}`, { widths: WIDTHS });

    // The agent's staff member chooses to act for the owner, and the user center says so.
    await signInByRequest(staffPage.request, staff.email, PASSWORD);
    await openInLanguage(staffPage, lang, '/account');
    const acting = staffPage.getByRole('region', { name: g.actingTitle });
    await expect(acting).toContainText(imo);
    await expectAccessible(staffPage);
    await shoot(staffPage, `grants-acting-choice-${lang}`, { widths: WIDTHS });
    await acting.getByRole('button', { name: format(g.actFor, { company: ownerName }) }).click();
    await staffPage.waitForURL(/\/user_center/);
    const banner = staffPage.getByRole('region', { name: format(m.userCenter.actingBanner, { company: ownerName }) });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText(imo);
    await shoot(staffPage, `grants-acting-${lang}`, { widths: WIDTHS });

    // An app the staff member signs in to gets on_behalf_of in its token.
    const config = await oidc.discovery(new URL(PORTAL_ORIGIN), app.clientId, undefined, oidc.ClientSecretBasic(app.clientSecret), { execute: [oidc.allowInsecureRequests] });
    const verifier = oidc.randomPKCECodeVerifier();
    visited = [];
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: `${APP}/callback`, scope: 'openid company', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 's' });
    await staffPage.goto(url.href);
    await expect.poll(() => visited.length).toBe(1);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(visited[0]!), { pkceCodeVerifier: verifier, expectedState: 's' });
    expect(tokens.claims()!.on_behalf_of).toMatchObject({ vessels: [imo], ports: ['CNSHA'], modules: ['port-calls'], level: 'act' });

    // The owner ends the grant: the staff member's next call acts for no one, and the app's token is refused.
    await ownerCard.getByRole('button', { name: format(g.endNamed, { company: agentName }) }).click();
    await expect(page.getByText(format(g.ended, { company: agentName }))).toBeVisible();
    await openInLanguage(staffPage, lang, '/user_center');
    // The record is on screen (the person's name), and with it no banner.
    await expect(staffPage.getByText('Wang Staff').first()).toBeVisible();
    await expect(staffPage.getByRole('region', { name: format(m.userCenter.actingBanner, { company: ownerName }) })).toHaveCount(0);
    await expect(oidc.fetchUserInfo(config, tokens.access_token, oidc.skipSubjectCheck)).rejects.toThrow();
  });
}
