import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyDomain, CompanySsoConnection, CompanySsoLookupAnswer, CompanySsoNeedsLink } from '../../src/schemas/company-sso';
import { startCompanyIdp, type CompanyIdp } from './company-idp-stand-in';
import { useWorkerEnv } from './gateway-client';

/**
 * Issue 43, second half: a company signs its people in through its own OpenID provider. The provider is a stand-in
 * (company-idp-stand-in.ts: discovery, JWKS, /authorize, /token, RS256 ID tokens with jose) and the DNS resolver a
 * stand-in as in company-domains.test.ts. Each test walks the real protocol: /start, the provider's /authorize
 * (its redirect read, not followed), then /callback with the browser's flow cookie, as /company_sso_callback sends it.
 */
const records = new Map<string, string[]>();
let resolver: Server;
let dohUrl = '';
let idp: CompanyIdp;
let otherIdp: CompanyIdp;

beforeAll(async () => {
  resolver = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://resolver');
    const values = records.get(url.searchParams.get('name') ?? '');
    response.writeHead(200, { 'content-type': 'application/dns-json' });
    response.end(JSON.stringify(values ? { Status: 0, Answer: values.map((data) => ({ type: 16, data: `"${data}"` })) } : { Status: 3 }));
  });
  await new Promise<void>((resolve) => resolver.listen(0, '127.0.0.1', resolve));
  dohUrl = `http://127.0.0.1:${(resolver.address() as AddressInfo).port}/dns-query`;
  idp = await startCompanyIdp();
  otherIdp = await startCompanyIdp({ clientId: 'another-portal' });
});
afterAll(async () => {
  await new Promise<void>((resolve) => resolver.close(() => resolve()));
  await idp.close();
  await otherIdp.close();
});

const { worker, api } = useWorkerEnv('company-sso');
const env = () => ({ DOH_URL: dohUrl });
const db = () => worker.env.DB;

const flowCookieOf = (res: Response) => /(?:^|\n)portal_wechat=([^;]*)/.exec(res.headers.getSetCookie().join('\n'))?.[1];

async function company(name = 'Fleet') {
  const admin = await api.person({ realName: 'Admin', companies: [{ nameEn: `${name} ${api.unique()}`, type: 'shipOwner', role: 'administrator' }] });
  const { id: companyId, nameEn } = (await db().prepare('SELECT c.id, c.name_en AS nameEn FROM company_members m JOIN companies c ON c.id = m.company_id WHERE m.user_id = ?').bind(admin.userId).first<{ id: string; nameEn: string }>())!;
  return { companyId, nameEn, admin };
}

async function prove(cookie: string, companyId: string, domain: string) {
  const claim = await api.json<CompanyDomain>(await api.post('/agg-web/company-domains/add', { companyId, domain }, { cookie, env: env() }));
  expect(claim.code).toBe('0');
  records.set(claim.data.recordName, [claim.data.recordValue]);
  expect((await api.json(await api.post('/agg-web/company-domains/check', { companyId, domain }, { cookie, env: env() }))).code).toBe('0');
}

const connect = (cookie: string, body: Record<string, unknown>) => api.post('/agg-web/company-sso/connection', body, { cookie, env: env() });
const settings = async (cookie: string, body: Record<string, unknown>) => api.json<CompanySsoConnection>(await api.post('/agg-web/company-sso/settings', body, { cookie }));

/** A company with a proved domain and its provider connected. */
async function connected(provider: CompanyIdp = idp) {
  const c = await company();
  const domain = `fleet-${api.unique()}.example`;
  await prove(c.admin.cookie, c.companyId, domain);
  const saved = await api.json<CompanySsoConnection>(await connect(c.admin.cookie, { companyId: c.companyId, issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret }));
  expect(saved.code).toBe('0');
  return { ...c, domain, email: (local = `p.${api.unique()}`) => `${local}@${domain}` };
}

async function start(email: string) {
  const res = await api.post('/agg-web/company-sso/start', { email });
  const body = await api.json<{ authorizeUrl: string }>(res);
  return { body, flow: flowCookieOf(res) };
}

const callback = (body: Record<string, unknown>, flow?: string) => api.post('/agg-web/company-sso/callback', body, flow ? { cookie: `portal_wechat=${flow}` } : {});

/** /start, the provider, /callback: the answer of the callback. */
async function throughProvider(email: string, provider: CompanyIdp = idp) {
  const started = await start(email);
  expect(started.body.code, `start for ${email}`).toBe('0');
  const back = await provider.authorize(started.body.data.authorizeUrl);
  return { res: await callback({ code: back.code, state: back.state, iss: back.iss }, started.flow), back, flow: started.flow! };
}

const userByEmail = (email: string) => db().prepare('SELECT id FROM users WHERE email = ?').bind(email).first<{ id: string }>();
const membership = (companyId: string, userId: string) => db().prepare('SELECT role, status FROM company_members WHERE company_id = ? AND user_id = ?').bind(companyId, userId).first<{ role: string; status: string }>();

describe('a company administrator connects the company’s OpenID provider', { timeout: 120_000 }, () => {
  it('reads the discovery, seals the secret and never shows it, and writes the change to the company’s trail', async () => {
    const c = await company();
    const res = await api.json<CompanySsoConnection>(await connect(c.admin.cookie, { companyId: c.companyId, issuer: `${idp.issuer}/`, clientId: idp.clientId, clientSecret: idp.clientSecret, emailClaim: 'email' }));
    expect(res.code).toBe('0');
    expect(res.data).toMatchObject({ issuer: idp.issuer, clientId: idp.clientId, emailClaim: 'email', ssoOnly: false, admitDomain: false, disabled: false, lastSignIns: [] });
    expect(JSON.stringify(res)).not.toContain(idp.clientSecret);
    const row = await db().prepare('SELECT client_secret_sealed FROM company_sso_connections WHERE company_id = ?').bind(c.companyId).first<{ client_secret_sealed: string }>();
    expect(row!.client_secret_sealed).toMatch(/^v1\./);
    expect(row!.client_secret_sealed).not.toContain(idp.clientSecret);
    const read = await api.json<CompanySsoConnection[]>(await api.get(`/agg-web/company-sso/connections?companyId=${c.companyId}`, { cookie: c.admin.cookie }));
    expect(read.data).toHaveLength(1);
    expect(JSON.stringify(read)).not.toContain(idp.clientSecret);
    // Changed without a new secret: the sealed one stays.
    expect((await api.json(await connect(c.admin.cookie, { companyId: c.companyId, connectionId: res.data.id, issuer: idp.issuer, clientId: idp.clientId, emailClaim: 'upn' }))).code).toBe('0');
    const after = await db().prepare('SELECT client_secret_sealed, email_claim FROM company_sso_connections WHERE company_id = ?').bind(c.companyId).first<{ client_secret_sealed: string; email_claim: string }>();
    expect(after).toEqual({ client_secret_sealed: row!.client_secret_sealed, email_claim: 'upn' });
    const trail = await db().prepare("SELECT action, actor_id, detail FROM audit_log WHERE target_kind = 'company' AND target_id = ? AND action = 'company.sso_connected'").bind(c.companyId).all<{ detail: string; actor_id: string }>();
    expect(trail.results).toHaveLength(2);
    expect(trail.results.every((r) => r.actor_id === c.admin.userId && !r.detail.includes(idp.clientSecret))).toBe(true);
  });

  it('refuses an issuer that is not public https, one whose discovery cannot be read, a first connection without a secret, and anyone but an administrator', async () => {
    const c = await company();
    const body = { companyId: c.companyId, clientId: 'x', clientSecret: 'y' };
    expect((await api.json(await connect(c.admin.cookie, { ...body, issuer: 'http://idp.example.com' }))).code).toBe('ID0611');
    expect((await api.json(await connect(c.admin.cookie, { ...body, issuer: 'https://10.0.0.8' }))).code).toBe('ID0611');
    expect((await api.json(await connect(c.admin.cookie, { ...body, issuer: 'https://user:pw@idp.example.com' }))).code).toBe('ID0611');
    expect((await api.json(await connect(c.admin.cookie, { ...body, issuer: `${idp.issuer}/nowhere` }))).code).toBe('ID0612');
    // Discovery answers for another issuer than the one typed.
    expect((await api.json(await connect(c.admin.cookie, { ...body, issuer: idp.issuer.replace('127.0.0.1', 'localhost') }))).code).toBe('ID0612');
    expect((await api.json(await connect(c.admin.cookie, { companyId: c.companyId, issuer: idp.issuer, clientId: 'x' }))).code).toBe('ID0610');
    const staff = await api.person({ companies: [{ companyId: c.companyId, role: 'staff', hireTime: '2024-03-01' }] });
    const refused = await api.json(await connect(staff.cookie, { ...body, issuer: idp.issuer }));
    expect(refused.code).not.toBe('0');
    expect(await db().prepare('SELECT COUNT(*) AS n FROM company_sso_connections WHERE company_id = ?').bind(c.companyId).first<{ n: number }>()).toEqual({ n: 0 });
  });
});

describe('/login asks whether an e-mail signs in through a company', { timeout: 120_000 }, () => {
  it('answers by the domain alone, in the same shape for a known, an unknown, an unproved and an unconnected domain', async () => {
    const c = await connected();
    const member = await api.person({}, c.email());
    const ask = async (email: string) => (await api.json<CompanySsoLookupAnswer>(await api.post('/agg-web/company-sso/lookup', { email }))).data;
    expect(await ask(member.email)).toEqual({ company: { nameEn: c.nameEn, nameCn: null }, ssoOnly: false });
    // Nobody has this address: the same answer.
    expect(await ask(c.email('nobody'))).toEqual(await ask(member.email));
    expect(await ask(`someone@unknown-${api.unique()}.example`)).toEqual({ company: null, ssoOnly: false });
    // A domain claimed but not proved, and a proved domain without a connection, are not offered.
    const pending = await company();
    const pendingDomain = `pending-${api.unique()}.example`;
    expect((await api.json(await api.post('/agg-web/company-domains/add', { companyId: pending.companyId, domain: pendingDomain }, { cookie: pending.admin.cookie, env: env() }))).code).toBe('0');
    expect(await ask(`a@${pendingDomain}`)).toEqual({ company: null, ssoOnly: false });
    const bare = await company();
    const bareDomain = `bare-${api.unique()}.example`;
    await prove(bare.admin.cookie, bare.companyId, bareDomain);
    expect(await ask(`a@${bareDomain}`)).toEqual({ company: null, ssoOnly: false });
    expect((await api.json(await api.post('/agg-web/company-sso/start', { email: `a@${bareDomain}` }))).code).toBe('ID0613');
  });
});

describe('who gets in through a company’s provider', { timeout: 180_000 }, () => {
  it('makes a new person a staff application in the approval queue, not a member; the next sign-in goes straight in', async () => {
    const c = await connected();
    const email = c.email('new.person');
    idp.people.set(email, { sub: `sub-${api.unique()}`, email, email_verified: true, name: 'New Person' });
    const { res } = await throughProvider(email);
    const body = await api.json<{ userId: string; newUser: boolean }>(res);
    expect(body.code).toBe('0');
    expect(body.data.newUser).toBe(true);
    expect(api.sessionCookie(res)).toMatch(/portal_token=.+/);
    const user = await userByEmail(email);
    expect(await membership(c.companyId, user!.id)).toEqual({ role: 'staff', status: 'pending' });
    const history = await db().prepare('SELECT method, success FROM sign_ins WHERE user_id = ?').bind(user!.id).all();
    expect(history.results).toEqual([{ method: 'company-sso', success: 1 }]);
    // The administrator's queue shows the application.
    const queue = await api.json<{ members?: { userId: string; status: string }[] }>(await api.get(`/agg-web/company/members?companyId=${c.companyId}`, { cookie: c.admin.cookie }));
    expect(JSON.stringify(queue.data)).toContain(user!.id);
    // Again: the tie signs in to the same account.
    const again = await api.json<{ userId: string; newUser: boolean }>((await throughProvider(email)).res);
    expect(again.data).toMatchObject({ userId: user!.id, newUser: false });
    const lastSignIns = (await api.json<CompanySsoConnection[]>(await api.get(`/agg-web/company-sso/connections?companyId=${c.companyId}`, { cookie: c.admin.cookie }))).data[0]!.lastSignIns;
    expect(lastSignIns.map((s) => [s.outcome, s.email])).toEqual([
      ['signed-in', email],
      ['applied', email],
    ]);
  });

  it('admits a new person as an active staff member when the administrator turned "admit people from this domain" on', async () => {
    const c = await connected();
    expect((await settings(c.admin.cookie, { companyId: c.companyId, admitDomain: true })).data.admitDomain).toBe(true);
    const email = c.email();
    expect((await api.json((await throughProvider(email)).res)).code).toBe('0');
    expect(await membership(c.companyId, (await userByEmail(email))!.id)).toEqual({ role: 'staff', status: 'active' });
  });

  it('gives one account and one application from 20 parallel first sign-ins of one person', async () => {
    const c = await connected();
    const email = c.email('twenty');
    const flows = await Promise.all(Array.from({ length: 20 }, async () => {
      const started = await start(email);
      return { flow: started.flow!, back: await idp.authorize(started.body.data.authorizeUrl) };
    }));
    const answers = await Promise.all(flows.map(({ flow, back }) => callback({ code: back.code, state: back.state, iss: back.iss }, flow).then(api.json)));
    expect(answers.map((a) => a.code)).toEqual(Array(20).fill('0'));
    const users = await db().prepare('SELECT id FROM users WHERE email = ?').bind(email).all<{ id: string }>();
    expect(users.results).toHaveLength(1);
    expect(new Set(answers.map((a) => (a.data as { userId: string }).userId))).toEqual(new Set([users.results[0]!.id]));
    expect(await db().prepare('SELECT COUNT(*) AS n FROM company_members WHERE company_id = ? AND user_id = ?').bind(c.companyId, users.results[0]!.id).first()).toEqual({ n: 1 });
    expect(await db().prepare('SELECT COUNT(*) AS n FROM company_sso_links WHERE company_id = ?').bind(c.companyId).first()).toEqual({ n: 1 });
  });

  it('ties an existing account only after its own proof (a code to its e-mail); later sign-ins go straight in', async () => {
    const c = await connected();
    const member = await api.person({ companies: [{ companyId: c.companyId, role: 'staff', hireTime: '2024-03-01' }] }, c.email('member'));
    const first = await throughProvider(member.email);
    const asked = await api.json<CompanySsoNeedsLink>(first.res);
    expect(asked.code).toBe('0');
    expect(asked.data).toMatchObject({ needsLink: true, email: member.email, companyNameEn: c.nameEn });
    expect(api.sessionCookie(first.res)).toBe('portal_token=undefined');
    const ticket = flowCookieOf(first.res)!;
    expect(ticket).toBeTruthy();
    // Another browser (no ticket, or another's) cannot finish it.
    expect((await api.json(await api.post('/agg-web/company-sso/link/code', {}))).code).toBe('ID0618');
    expect((await api.json(await api.post('/agg-web/company-sso/link/code', {}, { cookie: `portal_wechat=${first.flow}` }))).code).toBe('ID0618');
    expect((await api.json(await api.post('/agg-web/company-sso/link/code', {}, { cookie: `portal_wechat=${ticket}` }))).code).toBe('0');
    const code = await api.latestCode(member.email);
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await api.json(await api.post('/agg-web/company-sso/link', { code: wrong }, { cookie: `portal_wechat=${ticket}` }))).code).toMatch(/^CD/);
    const linked = await api.post('/agg-web/company-sso/link', { code }, { cookie: `portal_wechat=${ticket}` });
    expect((await api.json<{ userId: string }>(linked)).data.userId).toBe(member.userId);
    // The ticket is spent.
    expect((await api.json(await api.post('/agg-web/company-sso/link', { code }, { cookie: `portal_wechat=${ticket}` }))).code).toBe('ID0618');
    const later = await api.json<{ userId: string }>((await throughProvider(member.email)).res);
    expect(later.data.userId).toBe(member.userId);
    expect(await db().prepare('SELECT COUNT(*) AS n FROM users WHERE email = ?').bind(member.email).first()).toEqual({ n: 1 });
  });

  it('asks the portal’s own second step when it ties an account with two-step on, whatever the provider’s amr says', async () => {
    const c = await connected();
    const member = await api.person({}, c.email('guarded'));
    await db().prepare('INSERT INTO two_step (user_id, secret_enc, enabled_at, created_at) VALUES (?, ?, ?, ?)').bind(member.userId, 'sealed', Date.now(), Date.now()).run();
    idp.people.set(member.email, { sub: `s-${api.unique()}`, email: member.email, email_verified: true, amr: ['pwd', 'mfa'] });
    try {
      const first = await throughProvider(member.email);
      expect((await api.json<CompanySsoNeedsLink>(first.res)).data.needsLink).toBe(true);
      const ticket = flowCookieOf(first.res)!;
      expect((await api.json(await api.post('/agg-web/company-sso/link/code', {}, { cookie: `portal_wechat=${ticket}` }))).code).toBe('0');
      const linked = await api.post('/agg-web/company-sso/link', { code: await api.latestCode(member.email) }, { cookie: `portal_wechat=${ticket}` });
      const body = await api.json<{ userId: string; secondStep?: unknown }>(linked);
      expect(body.code).toBe('0');
      expect(body.data.userId).toBe('');
      expect(api.sessionCookie(linked)).toBe('portal_token=undefined');
    } finally {
      idp.people.delete(member.email);
    }
  });

  it('counts the provider’s amr with mfa as the second step of a person with two-step on; without it the portal asks its own', async () => {
    const c = await connected();
    const email = c.email('two.step');
    expect((await api.json((await throughProvider(email)).res)).code).toBe('0');
    const user = (await userByEmail(email))!;
    await db().prepare('INSERT INTO two_step (user_id, secret_enc, enabled_at, created_at) VALUES (?, ?, ?, ?)').bind(user.id, 'sealed', Date.now(), Date.now()).run();
    const owed = await throughProvider(email);
    const owedBody = await api.json<{ tracelessCheckResult: number; userId: string }>(owed.res);
    expect(owedBody.data.userId).toBe('');
    expect(api.sessionCookie(owed.res)).toBe('portal_token=undefined');
    idp.people.set(email, { sub: `sub-${(await import('node:crypto')).createHash('sha256').update(email).digest('hex').slice(0, 16)}`, email, email_verified: true, amr: ['pwd', 'mfa'] });
    try {
      const passed = await throughProvider(email);
      expect((await api.json<{ userId: string }>(passed.res)).data.userId).toBe(user.id);
      expect(api.sessionCookie(passed.res)).toMatch(/portal_token=.{16,}/);
    } finally {
      idp.people.delete(email);
    }
  });
});

describe('the company’s two-step rule counts its provider’s second factor, for that session only', { timeout: 180_000 }, () => {
  it('lets a member without enrolled factors act for a two-step company after amr ["pwd","mfa"]; ["pwd"] and their password session are refused MF0021', async () => {
    const c = await connected();
    const member = await api.person({ companies: [{ companyId: c.companyId, role: 'staff', hireTime: '2024-03-01' }] }, c.email('mfa'));
    await db().prepare('UPDATE companies SET require_two_step = 1 WHERE id = ?').bind(c.companyId).run();
    const sub = `s-${api.unique()}`;
    idp.people.set(member.email, { sub, email: member.email, email_verified: true, amr: ['pwd'] });
    try {
      // The tie, on the account's own proof.
      const ticket = flowCookieOf((await throughProvider(member.email)).res)!;
      expect((await api.json(await api.post('/agg-web/company-sso/link/code', {}, { cookie: `portal_wechat=${ticket}` }))).code).toBe('0');
      expect((await api.json(await api.post('/agg-web/company-sso/link', { code: await api.latestCode(member.email) }, { cookie: `portal_wechat=${ticket}` }))).code).toBe('0');
      const chooses = async (cookie: string) => (await api.json(await api.post('/agg-web/user/chooseAccount', { companyId: c.companyId }, { cookie }))).code;
      const listed = async (cookie: string) =>
        (await api.json<{ companyId: string; canEnter: boolean; twoStepRequired: boolean }[]>(await api.post('/c/user/v2/getCompanyListByToken', {}, { cookie }))).data.find((m) => m.companyId === c.companyId);

      const withMfa = async () => {
        idp.people.set(member.email, { sub, email: member.email, email_verified: true, amr: ['pwd', 'mfa'] });
        return api.sessionCookie((await throughProvider(member.email)).res);
      };
      const mfaCookie = await withMfa();
      expect(await listed(mfaCookie)).toMatchObject({ canEnter: true, twoStepRequired: false });
      expect(await chooses(mfaCookie)).toBe('0');
      const me = await api.json<{ companyId?: string | null }>(await api.get('/agg-web/user/fetchMeByUserToken', { cookie: mfaCookie }));
      expect(me.code).toBe('0');
      expect(JSON.stringify(me.data)).toContain(c.companyId);
      const detail = await api.json(await api.get(`/agg-web/company/detail?companyId=${c.companyId}`, { cookie: mfaCookie }));
      expect(detail.code).toBe('0');

      // The provider's password alone: the company's rule keeps them out, with its own code.
      idp.people.set(member.email, { sub, email: member.email, email_verified: true, amr: ['pwd'] });
      const pwdCookie = api.sessionCookie((await throughProvider(member.email)).res);
      expect(await listed(pwdCookie)).toMatchObject({ canEnter: false, twoStepRequired: true });
      expect(await chooses(pwdCookie)).toBe('MF0021');
      expect((await api.json(await api.get(`/agg-web/company/detail?companyId=${c.companyId}`, { cookie: pwdCookie }))).code).toBe('MF0021');

      // The same person's password session elsewhere: refused too, while the mfa session still acts.
      const password = await api.emailLogin(member.email, 'Harbour2024');
      expect((await api.json(password)).code).toBe('0');
      expect(await chooses(api.sessionCookie(password))).toBe('MF0021');
      expect(await chooses(mfaCookie)).toBe('0');

      // The company's provider turned off: what its second factor counted for ends at once, for live sessions too.
      await db().prepare('UPDATE company_sso_connections SET disabled_at = ? WHERE company_id = ?').bind(Date.now(), c.companyId).run();
      expect(await chooses(mfaCookie)).toBe('MF0021');
    } finally {
      idp.people.delete(member.email);
    }
  });

  it('lets an administrator signed in with the provider’s hwk manage the company (the check inside the write agrees), and not another company', async () => {
    const c = await connected();
    const other = await company('Elsewhere');
    const admin = await api.person({ companies: [{ companyId: c.companyId, role: 'administrator', hireTime: '2024-03-01' }, { companyId: other.companyId, role: 'administrator', hireTime: '2024-03-01' }] }, c.email('boss'));
    // A second domain claimed before the rule, proved after it (domain check: proveStatement decides with mayManageSql).
    const second = `second-${api.unique()}.example`;
    const claim = await api.json<CompanyDomain>(await api.post('/agg-web/company-domains/add', { companyId: c.companyId, domain: second }, { cookie: admin.cookie, env: env() }));
    expect(claim.code).toBe('0');
    records.set(claim.data.recordName, [claim.data.recordValue]);
    await db().prepare('UPDATE companies SET require_two_step = 1 WHERE id IN (?, ?)').bind(c.companyId, other.companyId).run();
    const check = async (cookie: string) => (await api.json<CompanyDomain>(await api.post('/agg-web/company-domains/check', { companyId: c.companyId, domain: second }, { cookie, env: env() })));
    expect((await check(admin.cookie)).code).toBe('MF0021');
    const sub = `s-${api.unique()}`;
    idp.people.set(admin.email, { sub, email: admin.email, email_verified: true, amr: ['pwd', 'hwk'] });
    try {
      await db().prepare('INSERT INTO company_sso_links (company_id, subject, user_id, created_at) VALUES (?, ?, ?, ?)').bind(c.companyId, `${idp.issuer} ${sub}`, admin.userId, Date.now()).run();
      const cookie = api.sessionCookie((await throughProvider(admin.email)).res);
      const proved = await check(cookie);
      expect(proved.code).toBe('0');
      expect(proved.data.state).toBe('proved');
      // The provider of this company vouches for this company only.
      expect((await api.json(await api.get(`/agg-web/company-domains?companyId=${other.companyId}`, { cookie }))).code).toBe('MF0021');
    } finally {
      idp.people.delete(admin.email);
    }
  });
});

describe('an administrator removes a domain', { timeout: 180_000 }, () => {
  const remove = async (cookie: string, companyId: string, domain: string) => api.json<CompanyDomain[]>(await api.post('/agg-web/company-domains/remove', { companyId, domain }, { cookie }));

  it('ends at once its SSO-only routing, its "Continue with", and the provider’s admissions; the removal is in the company’s trail', async () => {
    const c = await connected();
    const member = await api.person({ companies: [{ companyId: c.companyId, role: 'staff', hireTime: '2024-03-01' }] }, c.email('member'));
    await settings(c.admin.cookie, { companyId: c.companyId, ssoOnly: true, admitDomain: true });
    expect((await api.json(await api.emailLogin(member.email, 'Harbour2024'))).code).toBe('ID0617');
    // A flow started before the removal, answered by the provider after it.
    const newcomer = c.email('late');
    const started = await start(newcomer);
    const back = await idp.authorize(started.body.data.authorizeUrl);

    const removed = await remove(c.admin.cookie, c.companyId, c.domain);
    expect(removed.code).toBe('0');
    expect(removed.data).toEqual([]);
    expect((await api.json<CompanySsoLookupAnswer>(await api.post('/agg-web/company-sso/lookup', { email: member.email }))).data).toEqual({ company: null, ssoOnly: false });
    expect((await api.json(await api.emailLogin(member.email, 'Harbour2024'))).code).toBe('0');
    expect((await api.json(await api.post('/agg-web/company-sso/start', { email: newcomer }))).code).toBe('ID0613');
    expect((await api.json(await callback({ code: back.code, state: back.state, iss: back.iss }, started.flow))).code).toBe('ID0616');
    expect(await userByEmail(newcomer)).toBeNull();
    // Removing it again: nothing to remove.
    expect((await remove(c.admin.cookie, c.companyId, c.domain)).code).toBe('ID0434');
    const trail = await db().prepare("SELECT action, actor_id, detail FROM audit_log WHERE target_kind = 'company' AND target_id = ? AND action = 'company.domain_removed'").bind(c.companyId).all<{ actor_id: string; detail: string }>();
    expect(trail.results.map((r) => [r.actor_id, JSON.parse(r.detail)])).toEqual([[c.admin.userId, { domain: c.domain, wasProved: true }]]);
    // The domain is free again: another company may claim and prove it.
    const next = await company('Successor');
    await prove(next.admin.cookie, next.companyId, c.domain);
  });

  it('removes an unproved claim too; only the company’s administrators with a fresh proof may', async () => {
    const c = await company();
    const domain = `unproved-${api.unique()}.example`;
    expect((await api.json(await api.post('/agg-web/company-domains/add', { companyId: c.companyId, domain }, { cookie: c.admin.cookie, env: env() }))).code).toBe('0');
    const staff = await api.person({ companies: [{ companyId: c.companyId, role: 'staff', hireTime: '2024-03-01' }] });
    const outsider = await company('Outsider');
    expect((await remove(staff.cookie, c.companyId, domain)).code).toBe('CO0008');
    expect((await remove(outsider.admin.cookie, c.companyId, domain)).code).toBe('CO0009');
    await db().prepare('UPDATE sessions SET proved_at = ?, created_at = ? WHERE user_id = ?').bind(Date.now() - 3_600_000, Date.now() - 3_600_000, c.admin.userId).run();
    expect((await remove(c.admin.cookie, c.companyId, domain)).code).toBe('SU0001');
    await db().prepare('UPDATE sessions SET proved_at = ? WHERE user_id = ?').bind(Date.now(), c.admin.userId).run();
    const removed = await remove(c.admin.cookie, c.companyId, domain);
    expect(removed.code).toBe('0');
    expect(removed.data).toEqual([]);
    const row = await db().prepare("SELECT detail FROM audit_log WHERE target_id = ? AND action = 'company.domain_removed'").bind(c.companyId).first<{ detail: string }>();
    expect(JSON.parse(row!.detail)).toEqual({ domain, wasProved: false });
  });
});

describe('the provider’s discovery and keys are kept a few minutes', { timeout: 180_000 }, () => {
  it('reads them once for many sign-ins; a rotated key is fetched once; made-up kids cannot make the portal fetch again and again', async () => {
    const rotating = await startCompanyIdp();
    try {
      const c = await connected(rotating);
      const afterConnect = { ...rotating.requests };
      expect(afterConnect.discovery).toBe(1);
      for (let i = 0; i < 3; i++) expect((await api.json((await throughProvider(c.email(), rotating)).res)).code).toBe('0');
      // One JWKS read for three sign-ins, and the discovery document kept since the connection was saved.
      expect(rotating.requests).toEqual({ discovery: 1, jwks: 1 });

      await rotating.rotateKey();
      expect((await api.json((await throughProvider(c.email(), rotating)).res)).code).toBe('0');
      expect(rotating.requests.jwks).toBe(2);

      // Tokens signed by a key the provider never published, each under a new kid: refused without a fetch each.
      rotating.forgeSignature = true;
      for (let i = 0; i < 3; i++) {
        rotating.forgedKid = `made-up-${i}`;
        expect((await api.json((await throughProvider(c.email(), rotating)).res)).code).toBe('ID0615');
      }
      expect(rotating.requests.jwks).toBe(2);
      rotating.forgeSignature = false;
      expect((await api.json((await throughProvider(c.email(), rotating)).res)).code).toBe('0');
      expect(rotating.requests).toEqual({ discovery: 1, jwks: 2 });
    } finally {
      await rotating.close();
    }
  });
});

describe('a company with more than one provider', { timeout: 180_000 }, () => {
  it('routes each domain to its own connection: offered, started and admitted through it only; each lists its domains and sign-ins; one disabled leaves the other', async () => {
    const c = await connected();
    const subsidiary = `subsidiary-${api.unique()}.example`;
    await prove(c.admin.cookie, c.companyId, subsidiary);
    const second = await api.json<CompanySsoConnection>(await connect(c.admin.cookie, { companyId: c.companyId, issuer: otherIdp.issuer, clientId: otherIdp.clientId, clientSecret: otherIdp.clientSecret }));
    expect(second.code).toBe('0');
    // Until routed, the new domain signs in through the first connection, like every domain that names none.
    expect((await start(`x@${subsidiary}`)).body.data.authorizeUrl).toContain(idp.issuer);
    const routed = await api.json<CompanyDomain[]>(await api.post('/agg-web/company-domains/connection', { companyId: c.companyId, domain: subsidiary, connectionId: second.data.id }, { cookie: c.admin.cookie }));
    expect(routed.code).toBe('0');
    expect(routed.data.find((d) => d.domain === subsidiary)?.connectionId).toBe(second.data.id);

    const subsidiaryPerson = `okta.${api.unique()}@${subsidiary}`;
    expect((await start(subsidiaryPerson)).body.data.authorizeUrl).toContain(otherIdp.issuer);
    expect((await start(c.email())).body.data.authorizeUrl).toContain(idp.issuer);
    expect((await api.json((await throughProvider(subsidiaryPerson, otherIdp)).res)).code).toBe('0');
    const parentPerson = c.email('entra');
    expect((await api.json((await throughProvider(parentPerson)).res)).code).toBe('0');
    // The first provider vouching for a subsidiary address: not its domain any more.
    const crossing = c.email('crossing');
    idp.people.set(crossing, { sub: `s-${api.unique()}`, email: `someone.${api.unique()}@${subsidiary}`, email_verified: true });
    expect((await api.json((await throughProvider(crossing)).res)).code).toBe('ID0616');
    idp.people.delete(crossing);

    const listed = await api.json<CompanySsoConnection[]>(await api.get(`/agg-web/company-sso/connections?companyId=${c.companyId}`, { cookie: c.admin.cookie }));
    expect(listed.data.map((x) => [x.issuer, x.domains, x.lastSignIns.map((s) => s.email)])).toEqual([
      [idp.issuer, [c.domain], [parentPerson]],
      [otherIdp.issuer, [subsidiary], [subsidiaryPerson]],
    ]);

    // The subsidiary's connection off: its domain is offered nothing, the parent's still is.
    expect((await settings(c.admin.cookie, { companyId: c.companyId, connectionId: second.data.id, disabled: true })).data).toMatchObject({ id: second.data.id, disabled: true });
    const ask = async (email: string) => (await api.json<CompanySsoLookupAnswer>(await api.post('/agg-web/company-sso/lookup', { email }))).data.company;
    expect(await ask(subsidiaryPerson)).toBeNull();
    expect(await ask(parentPerson)).toEqual({ nameEn: c.nameEn, nameCn: null });
    const trail = await db().prepare("SELECT detail FROM audit_log WHERE target_id = ? AND action = 'company.domain_routed'").bind(c.companyId).all<{ detail: string }>();
    expect(trail.results.map((r) => JSON.parse(r.detail))).toEqual([{ domain: subsidiary, connectionId: second.data.id }]);
  });

  it('connects at most 10 providers per company, under 12 parallel adds too (ID0621); the ones it has can still be edited', async () => {
    const c = await connected();
    const more = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => (await api.json<CompanySsoConnection>(await connect(c.admin.cookie, { companyId: c.companyId, issuer: otherIdp.issuer, clientId: `unit-${i}`, clientSecret: otherIdp.clientSecret }))).code),
    );
    expect(more.filter((code) => code === '0')).toHaveLength(9);
    expect(more.filter((code) => code === 'ID0621')).toHaveLength(3);
    const count = await db().prepare('SELECT COUNT(*) AS n FROM company_sso_connections WHERE company_id = ?').bind(c.companyId).first<{ n: number }>();
    expect(count?.n).toBe(10);
    const first = (await api.json<CompanySsoConnection[]>(await api.get(`/agg-web/company-sso/connections?companyId=${c.companyId}`, { cookie: c.admin.cookie }))).data[0]!;
    expect((await api.json(await connect(c.admin.cookie, { companyId: c.companyId, connectionId: first.id, issuer: first.issuer, clientId: 'renamed' }))).code).toBe('0');
  });

  it('refuses to route a domain to, or change, another company’s connection', async () => {
    const c = await connected();
    const rival = await connected();
    const theirs = (await api.json<CompanySsoConnection[]>(await api.get(`/agg-web/company-sso/connections?companyId=${rival.companyId}`, { cookie: rival.admin.cookie }))).data[0]!;
    expect((await api.json(await api.post('/agg-web/company-domains/connection', { companyId: c.companyId, domain: c.domain, connectionId: theirs.id }, { cookie: c.admin.cookie }))).code).toBe('ID0613');
    expect((await api.json(await connect(c.admin.cookie, { companyId: c.companyId, connectionId: theirs.id, issuer: idp.issuer, clientId: 'mine', clientSecret: 'mine' }))).code).toBe('ID0613');
    expect((await settings(c.admin.cookie, { companyId: c.companyId, connectionId: theirs.id, disabled: true })).code).toBe('ID0613');
    const after = await db().prepare('SELECT client_id, disabled_at FROM company_sso_connections WHERE id = ?').bind(theirs.id).first();
    expect(after).toEqual({ client_id: idp.clientId, disabled_at: null });
  });
});

describe('the federation’s attacks', { timeout: 180_000 }, () => {
  it('refuses a forged, a swapped, a replayed and a cookie-less state before the provider is asked', async () => {
    const c = await connected();
    const email = c.email();
    const a = await start(email);
    const b = await start(email);
    const backA = await idp.authorize(a.body.data.authorizeUrl);
    const issued = idp.issued;
    expect((await api.json(await callback({ code: backA.code, state: 'forged-state-value', iss: backA.iss }, a.flow))).code).toBe('ID0614');
    // Swapped: A's state in the browser that started B.
    expect((await api.json(await callback({ code: backA.code, state: backA.state, iss: backA.iss }, b.flow))).code).toBe('ID0614');
    expect((await api.json(await callback({ code: backA.code, state: backA.state, iss: backA.iss }))).code).toBe('ID0614');
    expect(idp.issued).toBe(issued);
    expect((await api.json(await callback({ code: backA.code, state: backA.state, iss: backA.iss }, a.flow))).code).toBe('0');
    // Replayed.
    expect((await api.json(await callback({ code: backA.code, state: backA.state, iss: backA.iss }, a.flow))).code).toBe('ID0614');
    expect(idp.issued).toBe(issued + 1);
  });

  it('refuses an ID token for another client, one signed by a key not in the JWKS, a wrong nonce, and a response whose iss is not the issuer', async () => {
    const c = await connected();
    const email = c.email();
    const cases: [string, () => void][] = [
      ['audience', () => (idp.tamper = (claims) => ({ ...claims, aud: 'another-client' }))],
      ['nonce', () => (idp.tamper = (claims) => ({ ...claims, nonce: 'not-the-flow-nonce' }))],
      ['issuer', () => (idp.tamper = (claims) => ({ ...claims, iss: 'https://evil.example' }))],
      ['signature', () => (idp.forgeSignature = true)],
    ];
    for (const [name, spoil] of cases) {
      spoil();
      try {
        expect((await api.json((await throughProvider(email)).res)).code, name).toBe('ID0615');
      } finally {
        idp.tamper = null;
        idp.forgeSignature = false;
      }
    }
    const started = await start(email);
    const back = await idp.authorize(started.body.data.authorizeUrl);
    expect((await api.json(await callback({ code: back.code, state: back.state, iss: 'https://evil.example' }, started.flow))).code).toBe('ID0615');
    expect(await userByEmail(email)).toBeNull();
  });

  it('refuses an e-mail the provider did not verify, one outside the company’s proved domains, and one on a domain it only claimed', async () => {
    const c = await connected();
    const unverified = c.email();
    idp.people.set(unverified, { sub: `s-${api.unique()}`, email: unverified, email_verified: false });
    expect((await api.json((await throughProvider(unverified)).res)).code).toBe('ID0616');
    // The provider vouches for an address on a domain nobody proved here.
    const outside = c.email();
    idp.people.set(outside, { sub: `s-${api.unique()}`, email: `ceo@elsewhere-${api.unique()}.example`, email_verified: true });
    expect((await api.json((await throughProvider(outside)).res)).code).toBe('ID0616');
    // A domain the company claimed but has not proved.
    const claimedDomain = `claimed-${api.unique()}.example`;
    expect((await api.json(await api.post('/agg-web/company-domains/add', { companyId: c.companyId, domain: claimedDomain }, { cookie: c.admin.cookie, env: env() }))).code).toBe('0');
    const claimed = c.email();
    idp.people.set(claimed, { sub: `s-${api.unique()}`, email: `x@${claimedDomain}`, email_verified: true });
    expect((await api.json((await throughProvider(claimed)).res)).code).toBe('ID0616');
    for (const email of [unverified, outside, claimed]) idp.people.delete(email);
    expect(await db().prepare('SELECT COUNT(*) AS n FROM company_sso_links WHERE company_id = ?').bind(c.companyId).first()).toEqual({ n: 0 });
  });

  it('keeps a domain to the company that proved it: a second company can neither claim it nor sign its people in through its own provider', async () => {
    const first = await connected();
    const second = await company('Rival');
    expect((await api.json(await api.post('/agg-web/company-domains/add', { companyId: second.companyId, domain: first.domain }, { cookie: second.admin.cookie, env: env() }))).code).toBe('ID0431');
    const ownDomain = `rival-${api.unique()}.example`;
    await prove(second.admin.cookie, second.companyId, ownDomain);
    expect((await api.json(await connect(second.admin.cookie, { companyId: second.companyId, issuer: otherIdp.issuer, clientId: otherIdp.clientId, clientSecret: otherIdp.clientSecret }))).code).toBe('0');
    // The rival's provider asserts an address on the first company's domain.
    const victim = first.email('victim');
    const start2 = `someone@${ownDomain}`;
    otherIdp.people.set(start2, { sub: `s-${api.unique()}`, email: victim, email_verified: true });
    expect((await api.json((await throughProvider(start2, otherIdp)).res)).code).toBe('ID0616');
    expect(await userByEmail(victim)).toBeNull();
  });

  it('makes an SSO-only domain refuse its people’s password and code sign-ins, and a new account there, without telling who has one', async () => {
    const c = await connected();
    const member = await api.person({ companies: [{ companyId: c.companyId, role: 'staff', hireTime: '2024-03-01' }] }, c.email('member'));
    const settled = await settings(c.admin.cookie, { companyId: c.companyId, ssoOnly: true });
    expect(settled.data.ssoOnly).toBe(true);
    expect((await api.json<CompanySsoLookupAnswer>(await api.post('/agg-web/company-sso/lookup', { email: member.email }))).data.ssoOnly).toBe(true);
    // The right password: refused, pointing to the company's sign-in.
    expect((await api.json(await api.emailLogin(member.email, 'Harbour2024'))).code).toBe('ID0617');
    // A wrong password answers as for an address nobody has.
    const wrong = await api.json(await api.emailLogin(member.email, 'Wrong2024x'));
    const nobody = await api.json(await api.emailLogin(c.email('nobody'), 'Wrong2024x'));
    expect(wrong.code).toBe('US0010');
    expect(nobody).toEqual(wrong);
    // The right code of the member, and a code that would open a new account on the domain.
    const newcomer = c.email('newcomer');
    for (const email of [member.email, newcomer]) {
      expect((await api.json(await api.post('/agg-web/user/getRegVerificationCode', { emailAddress: email, type: 3 }))).code).toBe('0');
      const code = await api.latestCode(email);
      const answer = await api.json(await api.post('/agg-web/quick/user/login', { loginType: 2, loginEmail: email, code, agreed: true, userIdentity: 1, companyName: 'Somewhere Shipping' }));
      expect(answer.code, email).toBe('ID0617');
    }
    expect(await userByEmail(newcomer)).toBeNull();
    // The company's provider still signs them in (after the tie), and a disabled connection lifts the rule.
    expect((await api.json((await throughProvider(member.email)).res)).data).toMatchObject({ needsLink: true });
    await settings(c.admin.cookie, { companyId: c.companyId, disabled: true });
    expect((await api.json(await api.emailLogin(member.email, 'Harbour2024'))).code).toBe('0');
    expect((await api.json(await api.post('/agg-web/company-sso/start', { email: member.email }))).code).toBe('ID0613');
    const trail = await db().prepare("SELECT detail FROM audit_log WHERE target_kind = 'company' AND target_id = ? AND action = 'company.sso_settings_changed' ORDER BY id").bind(c.companyId).all<{ detail: string }>();
    expect(trail.results.map((r) => JSON.parse(r.detail))).toEqual([
      { ssoOnly: true, admitDomain: null, disabled: null },
      { ssoOnly: null, admitDomain: null, disabled: true },
    ]);
  });

  it('refuses a callback of a flow whose connection was disabled meanwhile', async () => {
    const c = await connected();
    const started = await start(c.email());
    const back = await idp.authorize(started.body.data.authorizeUrl);
    await settings(c.admin.cookie, { companyId: c.companyId, disabled: true });
    expect((await api.json(await callback({ code: back.code, state: back.state, iss: back.iss }, started.flow))).code).toBe('ID0613');
  });

  it('refuses to finish tying an account through a connection disabled while its code was on the way', async () => {
    const c = await connected();
    const member = await api.person({ companies: [{ companyId: c.companyId, role: 'staff', hireTime: '2024-03-01' }] }, c.email('late-tie'));
    const ticket = flowCookieOf((await throughProvider(member.email)).res)!;
    expect((await api.json(await api.post('/agg-web/company-sso/link/code', {}, { cookie: `portal_wechat=${ticket}` }))).code).toBe('0');
    await settings(c.admin.cookie, { companyId: c.companyId, disabled: true });
    const tied = await api.post('/agg-web/company-sso/link', { code: await api.latestCode(member.email) }, { cookie: `portal_wechat=${ticket}` });
    expect((await api.json(tied)).code).toBe('ID0618');
    expect(await db().prepare('SELECT COUNT(*) AS n FROM company_sso_links WHERE user_id = ?').bind(member.userId).first()).toEqual({ n: 0 });
  });
});
