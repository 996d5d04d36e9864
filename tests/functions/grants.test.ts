import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import type { ActingChoice, DeclareVesselAnswer, Grant, GrantsAnswer } from '../../src/schemas/grants';
import type { MeAnswer } from '../../src/schemas/profile';
import { imoCheckDigit } from '../../src/lib/imo';
import app from '../../functions/worker';
import { DEV_HANDOFF_KEY, importHandoffKey, openHandoffBlob } from '../../functions/gateway/handoff/blob';
import { useWorkerEnv, type CallOptions } from './gateway-client';
import { ISSUER, RP, useTrustedApp } from './trusted-app';

/**
 * Issue 41: vessels, grants between companies and acting for another company, attacked the way a script would:
 * vessels and modules outside the scope, vessels the principal does not hold, another company reading or answering
 * a grant, an agent widening its scope, twenty parallel accepts, a grant used after it expired, after the person
 * left, and a revoke between two calls of one token. Through the whole Worker on a real local D1.
 */
const { worker, api } = useWorkerEnv('grants', { PORTAL_ORIGIN: ISSUER });
const { app: trustedApp, browse } = useTrustedApp(worker);

type Person = Awaited<ReturnType<typeof api.person>>;
const DAY = 24 * 60 * 60 * 1000;

const companyOf = async (userId: string) =>
  (await worker.env.DB.prepare('SELECT company_id AS id FROM company_members WHERE user_id = ?').bind(userId).first<{ id: string }>())!.id;
const count = async (sql: string, ...binds: unknown[]) => (await worker.env.DB.prepare(sql).bind(...binds).first<{ n: number }>())!.n;

/** A verified company of `type` with its administrator and, when asked, a staff member with `modules`. */
async function company(type: string, { staffModules }: { staffModules?: string[] } = {}) {
  const admin = await api.person({ realName: `Admin ${type}`, companies: [{ nameEn: `${type} ${api.unique()}`, type, role: 'administrator' }] });
  const companyId = await companyOf(admin.userId);
  let staff: Person | null = null;
  if (staffModules) {
    staff = await api.person({ realName: `Staff ${type}`, companies: [{ companyId, role: 'staff' }] });
    for (const module of staffModules) {
      const granted = await call(admin, '/agg-web/company/member/module', { companyId, userId: staff.userId, module, granted: true });
      expect(granted.code, `module ${module}`).toBe('0');
    }
  }
  return { companyId, admin, staff };
}

async function call<T = Record<string, unknown>>(who: Person, path: string, body: Record<string, unknown>, options: CallOptions = {}) {
  return api.json<T>(await api.post(path, body, { cookie: who.cookie, ...options }));
}

/** A valid IMO number no other test uses: an IMO number has one owner on the whole platform. */
function freshImo(): string {
  const firstSix = String(100_000 + Math.floor(Math.random() * 900_000));
  return `${firstSix}${imoCheckDigit(firstSix)}`;
}

/** yyyy-mm-dd of a Beijing day `days` from now. */
const day = (days: number) => new Date(Date.now() + days * DAY + 8 * 60 * 60 * 1000).toISOString().slice(0, 10);

const declare = (who: Person, companyId: string, imo: string, relation = 'owner', extra: Record<string, unknown> = {}) =>
  call<DeclareVesselAnswer>(who, '/agg-web/company/vessels/declare', { companyId, imo, name: `MV ${imo}`, relation, ...extra });

const grantBody = (companyId: string, otherCompanyId: string, extra: Record<string, unknown> = {}) => ({
  companyId,
  side: 'principal',
  otherCompanyId,
  vessels: ['9074729'],
  ports: ['CNSHA'],
  modules: ['port-calls'],
  level: 'act',
  startsOn: day(0),
  endsOn: day(30),
  ...extra,
});

/** An owner with a vessel of its own, an agent with a staff member who has port-calls and agency-orders, and an active grant. */
async function activeGrant() {
  const owner = await company('ship_owner');
  const agent = await company('ship_agent', { staffModules: ['port-calls', 'agency-orders'] });
  const imo = freshImo();
  expect((await declare(owner.admin, owner.companyId, imo)).code).toBe('0');
  const created = await call<Grant>(owner.admin, '/agg-web/company/grants/create', grantBody(owner.companyId, agent.companyId, { vessels: [imo] }));
  expect(created.code).toBe('0');
  expect(created.data.status).toBe('pending');
  const accepted = await call<Grant>(agent.admin, '/agg-web/company/grants/accept', { companyId: agent.companyId, grantId: created.data.id });
  expect(accepted.code).toBe('0');
  return { owner, agent, imo, grantId: created.data.id, staff: agent.staff! };
}

const me = async (who: Person) => api.json<MeAnswer>(await api.get('/agg-web/user/fetchMeByUserToken', { cookie: who.cookie }));

describe('vessels', { timeout: 180_000 }, () => {
  it('takes an IMO number only with its check digit, on every vessel field, in the visitor language', async () => {
    const owner = await company('ship_owner');
    const wrong = await declare(owner.admin, owner.companyId, '9074728');
    expect(wrong).toMatchObject({ code: 'DG0002', data: { path: 'imo', expected: 9 } });
    const inEnglish = await api.json(await api.post('/agg-web/company/vessels/declare', { companyId: owner.companyId, imo: '123', name: 'MV X', relation: 'owner' }, { cookie: owner.admin.cookie, headers: { 'accept-language': 'en' } }));
    expect(inEnglish.code).toBe('DG0001');
    expect((await declare(owner.admin, owner.companyId, 'IMO 9074729')).data.vessel).toMatchObject({ imo: '9074729', relation: 'owner' });
    expect((await declare(owner.admin, owner.companyId, '7654329', 'manager')).data.vessel?.imo).toBe('7654329');
    const agent = await company('ship_agent');
    const inGrant = await call(owner.admin, '/agg-web/company/grants/create', grantBody(owner.companyId, agent.companyId, { vessels: ['9074729', '9074728'] }));
    expect(inGrant).toMatchObject({ code: 'DG0002', data: { path: 'vessels.1' } });
    expect(await count('SELECT count(*) AS n FROM company_grants WHERE principal_company_id = ?', owner.companyId)).toBe(0);
  });

  it('keeps the first owner when a second company claims the same IMO number, and leaves the operators a task naming both', async () => {
    const first = await company('ship_owner');
    const second = await company('ship_owner');
    const imo = freshImo();
    expect((await declare(first.admin, first.companyId, imo)).data).toMatchObject({ disputed: false });
    // Twice at once from the second company: no second owner, one task.
    const claims = await Promise.all([declare(second.admin, second.companyId, imo), declare(second.admin, second.companyId, imo)]);
    expect(claims.map((claim) => claim.data)).toEqual([{ vessel: null, disputed: true }, { vessel: null, disputed: true }]);
    expect(await count("SELECT count(*) AS n FROM vessels WHERE imo = ? AND relation = 'owner' AND removed_at IS NULL", imo)).toBe(1);
    expect(await count('SELECT count(*) AS n FROM vessels WHERE imo = ? AND company_id = ?', imo, second.companyId)).toBe(0);
    const task = await worker.env.DB.prepare('SELECT claimant_company_id, holder_company_id FROM vessel_claims WHERE imo = ? AND claimant_company_id = ?').bind(imo, second.companyId).all();
    expect(task.results).toEqual([{ claimant_company_id: second.companyId, holder_company_id: first.companyId }]);
    // A staff member or another company's administrator cannot declare for the company.
    const outsider = await company('ship_owner');
    expect((await declare(outsider.admin, first.companyId, '7654329')).code).toBe('CO0009');
  });
});

describe('grants between companies', { timeout: 240_000 }, () => {
  it('refuses a vessel the principal does not own, manage or charter for the dates, a module outside the agent type, an unknown port', async () => {
    const owner = await company('ship_owner');
    const agent = await company('ship_agent');
    await declare(owner.admin, owner.companyId, '9074729', 'operator');
    await declare(owner.admin, owner.companyId, '7654329', 'charterer', { startsOn: day(0), endsOn: day(10) });
    const create = (extra: Record<string, unknown>) => call(owner.admin, '/agg-web/company/grants/create', grantBody(owner.companyId, agent.companyId, extra));
    // An operator of the vessel may not grant it.
    expect(await create({ vessels: ['9074729'] })).toMatchObject({ code: 'DG0005', data: { path: 'vessels.0' } });
    // A charter that ends before the grant does.
    expect(await create({ vessels: ['7654329'], endsOn: day(20) })).toMatchObject({ code: 'DG0005', data: { path: 'vessels.0' } });
    expect((await create({ vessels: ['7654329'], endsOn: day(10) })).code).toBe('0');
    expect(await create({ vessels: ['7654329'], endsOn: day(5), modules: ['repairs'] })).toMatchObject({ code: 'DG0007', data: { path: 'modules.0' } });
    expect(await create({ vessels: [], ports: ['ZZZZZ'] })).toMatchObject({ code: 'DG0006', data: { path: 'ports.0' } });
    expect(await create({ vessels: [], ports: [] })).toMatchObject({ code: 'DG0013' });
    expect(await create({ vessels: ['7654329'], startsOn: day(5), endsOn: day(2) })).toMatchObject({ code: 'DG0008' });
  });

  it('twenty parallel accepts make one grant; the other side answers, never the side that asked, nor another company', async () => {
    const owner = await company('ship_owner');
    const agent = await company('ship_agent');
    const outsider = await company('ship_agent');
    const imo = freshImo();
    await declare(owner.admin, owner.companyId, imo);
    // Each company's webhook endpoint for grant events (issue 45), as its administrator would have registered it.
    for (const companyId of [owner.companyId, agent.companyId]) {
      await worker.env.DB.prepare(
        "INSERT INTO webhook_endpoints (id, company_id, url, event_types, sealed_secret, created_by_kind, created_by, created_at) VALUES (?, ?, 'https://hooks.example.com/in', '[\"grant.*\"]', 'sealed', 'user', 'test', 0)",
      )
        .bind(`ep_${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`, companyId)
        .run();
    }
    const { data: grant } = await call<Grant>(owner.admin, '/agg-web/company/grants/create', grantBody(owner.companyId, agent.companyId, { vessels: [imo] }));
    expect(await call(owner.admin, '/agg-web/company/grants/accept', { companyId: owner.companyId, grantId: grant.id })).toMatchObject({ code: 'DG0012' });
    expect(await call(outsider.admin, '/agg-web/company/grants/accept', { companyId: outsider.companyId, grantId: grant.id })).toMatchObject({ code: 'DG0010' });
    expect(await call(outsider.admin, '/agg-web/company/grants/accept', { companyId: agent.companyId, grantId: grant.id })).toMatchObject({ code: 'CO0009' });
    const codes = await Promise.all(Array.from({ length: 20 }, () => call(agent.admin, '/agg-web/company/grants/accept', { companyId: agent.companyId, grantId: grant.id }).then((answer) => answer.code)));
    expect(codes.filter((code) => code === '0')).toHaveLength(1);
    expect(codes.filter((code) => code === 'DG0011')).toHaveLength(19);
    expect(await count("SELECT count(*) AS n FROM company_grants WHERE id = ? AND status = 'active'", grant.id)).toBe(1);
    for (const companyId of [owner.companyId, agent.companyId]) {
      expect(await count("SELECT count(*) AS n FROM audit_log WHERE action = 'grant.accepted' AND target_id = ?", companyId)).toBe(1);
      // One grant.accepted event to each company's endpoint, written with the change (issue 45's outbox), none to the other's.
      expect(
        await count(
          "SELECT count(*) AS n FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id JOIN webhook_endpoints p ON p.id = d.endpoint_id WHERE e.type = 'grant.accepted' AND p.company_id = ?",
          companyId,
        ),
      ).toBe(1);
    }
    // Another company cannot read either side's list; each side sees the grant.
    expect((await call(outsider.admin, '/agg-web/company/grants/list', { companyId: owner.companyId })).code).toBe('CO0009');
    const listed = await call<GrantsAnswer>(owner.admin, '/agg-web/company/grants/list', { companyId: owner.companyId });
    expect(listed.data.grants.map((g) => [g.id, g.status])).toEqual([[grant.id, 'active']]);
    expect((await call<GrantsAnswer>(agent.admin, '/agg-web/company/grants/list', { companyId: agent.companyId })).data.grants[0]!.agent.id).toBe(agent.companyId);
    // The other side's administrators are told by e-mail.
    expect((await api.outbox(agent.admin.email)).some((message) => message.subject.includes(owner.companyId) || /grant|授权/i.test(message.subject))).toBe(true);
  });

  it('an agent cannot widen its scope: a wider request waits for the principal, and only the principal turns on automatic acceptance', async () => {
    const { owner, agent, grantId, imo } = await activeGrant();
    const wider = await call<Grant>(agent.admin, '/agg-web/company/grants/create', { ...grantBody(agent.companyId, owner.companyId, { vessels: [imo] }), side: 'agent', modules: ['port-calls', 'agency-orders'] });
    expect(wider.code).toBe('0');
    expect(wider.data.status).toBe('pending');
    expect(await call(agent.admin, '/agg-web/company/grants/accept', { companyId: agent.companyId, grantId: wider.data.id })).toMatchObject({ code: 'DG0012' });
    // The agent's administrator cannot say "accept from us automatically" for the owner.
    expect((await call(agent.admin, '/agg-web/company/grants/autoAccept', { companyId: owner.companyId, agentCompanyId: agent.companyId, on: true })).code).toBe('CO0009');
    // The owner can; the agent's next request is then active at once.
    expect((await call(owner.admin, '/agg-web/company/grants/autoAccept', { companyId: owner.companyId, agentCompanyId: agent.companyId, on: true })).data).toEqual({ autoAccept: [agent.companyId] });
    const automatic = await call<Grant>(agent.admin, '/agg-web/company/grants/create', { ...grantBody(agent.companyId, owner.companyId, { vessels: [imo] }), side: 'agent' });
    expect(automatic.data.status).toBe('active');
    // The first grant kept its scope.
    const row = await worker.env.DB.prepare('SELECT modules FROM company_grants WHERE id = ?').bind(grantId).first<{ modules: string }>();
    expect(JSON.parse(row!.modules)).toEqual(['port-calls']);
  });
});

describe('acting for another company', { timeout: 240_000 }, () => {
  it("shows the principal to the agent's staff member, with the modules both allow, and ends with the grant on the next call", async () => {
    const { owner, agent, grantId, staff, imo } = await activeGrant();
    const choices = await call<ActingChoice[]>(staff, '/agg-web/user/actingChoices', {});
    expect(choices.data).toHaveLength(1);
    expect(choices.data[0]).toMatchObject({ grantId, principal: { id: owner.companyId }, vessels: [imo], ports: ['CNSHA'], level: 'act' });
    // port-calls is both the grant's and the person's; agency-orders only the person's.
    expect(choices.data[0]!.modules.map((module) => module.key)).toEqual(['port-calls']);
    expect((await call(staff, '/agg-web/user/actFor', { grantId })).code).toBe('0');
    const acting = await me(staff);
    expect(acting.data.actingFor).toMatchObject({ grantId, principal: { id: owner.companyId } });
    expect(acting.data.accountId).toBe(agent.companyId);
    expect(acting.data.authoriseList.map((module) => module.key)).toEqual(['port-calls']);

    // Someone else's grant cannot be acted under.
    const stranger = await company('ship_agent', { staffModules: ['port-calls'] });
    expect((await call(stranger.staff!, '/agg-web/user/actFor', { grantId })).code).toBe('DG0014');

    // The grant expires: the next call acts for no one.
    await worker.env.DB.prepare('UPDATE company_grants SET ends_at = ? WHERE id = ?').bind(Date.now() - 1, grantId).run();
    const after = await me(staff);
    expect(after.data.actingFor).toBeNull();
    expect(after.data.authoriseList.map((module) => module.key)).toEqual(['port-calls', 'agency-orders']);
    expect((await call(staff, '/agg-web/user/actFor', { grantId })).code).toBe('DG0014');
  });

  it('a person who left the agent company, or a blocked principal, acts no more; the operators can suspend every grant of a company', async () => {
    const { owner, agent, grantId, staff } = await activeGrant();
    expect((await call(staff, '/agg-web/user/actFor', { grantId })).code).toBe('0');
    await worker.env.DB.prepare("UPDATE companies SET status = 'blocked' WHERE id = ?").bind(owner.companyId).run();
    expect((await me(staff)).data.actingFor).toBeNull();
    await worker.env.DB.prepare("UPDATE companies SET status = 'verified' WHERE id = ?").bind(owner.companyId).run();
    expect((await call(staff, '/agg-web/user/actFor', { grantId })).code).toBe('0');

    const session = await api.post('/dev/operator-session', { login: `support.${api.unique()}@ops.example.com`, role: 'support' });
    const [, value] = /(?:^|\n)portal_operator=([^;]+)/.exec(session.headers.getSetCookie().join('\n')) ?? [];
    const opsCookie = `portal_operator=${value}`;
    const suspended = await api.json(await api.post('/ops/v1/companies/grants/suspend', { companyId: agent.companyId, suspend: true, reason: 'Agent under investigation' }, { cookie: opsCookie }));
    expect(suspended.code).toBe('0');
    expect((await me(staff)).data.actingFor).toBeNull();
    const view = await api.json<{ suspended: { reason: string }; grants: Grant[] }>(await api.get(`/ops/v1/companies/${agent.companyId}/grants`, { cookie: opsCookie }));
    expect(view.data.suspended.reason).toBe('Agent under investigation');
    expect(view.data.grants.map((grant) => grant.id)).toEqual([grantId]);
    await api.post('/ops/v1/companies/grants/suspend', { companyId: agent.companyId, suspend: false, reason: '' }, { cookie: opsCookie });

    // The staff member leaves the agent company: the session that acted ends, and a new one may not act.
    expect((await call(agent.admin, '/agg-web/company/member/remove', { companyId: agent.companyId, userId: staff.userId })).code).toBe('0');
    expect((await me(staff)).code).toBe('TK00001');
    const again = { ...staff, ...(await api.signIn(staff.email)) };
    expect((await call(again, '/agg-web/user/actingChoices', {})).data).toEqual([]);
    expect((await call(again, '/agg-web/user/actFor', { grantId })).code).toBe('DG0014');
  });

  it("puts on_behalf_of in the app's tokens, read by openid-client, and a revoke between two calls of one token refuses the second", async () => {
    const { owner, agent, grantId, staff, imo } = await activeGrant();
    expect((await call(staff, '/agg-web/user/actFor', { grantId })).code).toBe('0');
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(trustedApp.config, { redirect_uri: `${RP}/callback`, scope: 'openid company', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 's' });
    const back = (await browse(url.href, staff.cookie)).headers.get('location')!;
    const tokens = await oidc.authorizationCodeGrant(trustedApp.config, new URL(back), { pkceCodeVerifier: verifier, expectedState: 's' });
    const idClaims = tokens.claims()!;
    expect(idClaims.sub).toBe(staff.userId);
    expect(idClaims.on_behalf_of).toMatchObject({ company_id: owner.companyId, grant_id: grantId, vessels: [imo], ports: ['CNSHA'], modules: ['port-calls'], level: 'act' });
    expect((idClaims.company as { id: string }).id).toBe(agent.companyId);

    const first = await oidc.fetchUserInfo(trustedApp.config, tokens.access_token, oidc.skipSubjectCheck);
    expect(first.on_behalf_of).toMatchObject({ company_id: owner.companyId, grant_id: grantId });
    const introspected = await oidc.tokenIntrospection(trustedApp.config, tokens.access_token);
    expect(introspected).toMatchObject({ active: true, on_behalf_of: { company_id: owner.companyId, grant_id: grantId } });

    // The /go hand-off to the platform's web app carries the same on_behalf_of, for as long as the grant lets it.
    const goBlob = async () => {
      const vars = { WEB_APP_URL: 'https://app.example.com/home', REDIRECT_ALLOWLIST: 'https://app.example.com' };
      const portalToken = /portal_token=([^;]+)/.exec(staff.cookie)![1]!;
      const res = await app.request('http://localhost/go/web_app', { headers: { cookie: `portal_token=${portalToken}` } }, { ...worker.env, ...vars }, worker.ctx);
      const opened = await openHandoffBlob(new URL(res.headers.get('location')!).searchParams.get('token')!, { keys: [await importHandoffKey(DEV_HANDOFF_KEY)], audience: 'web-app', purpose: 'session', now: Date.now() });
      return opened.ok ? opened.claims : null;
    };
    expect((await goBlob())?.on_behalf_of).toMatchObject({ company_id: owner.companyId, grant_id: grantId, vessels: [imo] });

    expect((await call(owner.admin, '/agg-web/company/grants/revoke', { companyId: owner.companyId, grantId })).code).toBe('0');
    expect((await goBlob())?.on_behalf_of).toBeUndefined();
    await expect(oidc.fetchUserInfo(trustedApp.config, tokens.access_token, oidc.skipSubjectCheck)).rejects.toThrow();
    expect((await oidc.tokenIntrospection(trustedApp.config, tokens.access_token)).active).toBe(false);
    for (const companyId of [owner.companyId, agent.companyId]) {
      expect(await count("SELECT count(*) AS n FROM audit_log WHERE action = 'grant.revoked' AND target_id = ?", companyId)).toBe(1);
      expect(await count("SELECT count(*) AS n FROM audit_log WHERE action = 'grant.used' AND target_id = ?", companyId)).toBe(1);
    }
  });
});
