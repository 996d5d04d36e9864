import { createLocalJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, describe, expect, it } from 'vitest';
import type { ClientWithSecret, CompanyClientCreated, CompanyClientsAnswer, ConsoleClient, LogoutSend } from '../../src/schemas/oidc-clients';
import { useWorkerEnv, type Envelope } from './gateway-client';

/**
 * Issue 27: the operators' client console (admins only, every change audited, the secret shown once) and a
 * company's API clients (its administrators, a fresh proof, scopes of the company's modules, an end date), driven
 * through the whole Worker; tokens are asked for with `openid-client` as a company's system would.
 */
const ISSUER = 'http://localhost';
const { worker, api } = useWorkerEnv('oidc-clients', { PORTAL_ORIGIN: ISSUER });

const toWorker: oidc.CustomFetch = async (url, options) => {
  const { default: app } = await import('../../functions/worker');
  const answer = await app.request(url, { method: options.method, headers: options.headers as HeadersInit, body: options.body as BodyInit, redirect: 'manual' }, worker.env, worker.ctx);
  await worker.settle();
  return answer;
};

async function machine(clientId: string, secret: string) {
  const config = await oidc.discovery(new URL(ISSUER), clientId, undefined, oidc.ClientSecretBasic(secret), { execute: [oidc.allowInsecureRequests], [oidc.customFetch]: toWorker });
  config[oidc.customFetch] = toWorker;
  return config;
}

/** The access token's claims, checked against the published keys. */
async function claimsOf(token: string) {
  const jwks = (await (await toWorker(`${ISSUER}/oidc/jwks`, { method: 'GET', headers: {} } as never)).json()) as { keys: never[] };
  return (await jwtVerify(token, createLocalJWKSet({ keys: jwks.keys }), { issuer: ISSUER })).payload;
}

/** A client-credentials call as any HTTP client sends it: its status and OAuth error. */
async function tokenCall(clientId: string, secret: string) {
  const answer = await toWorker(`${ISSUER}/oidc/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${btoa(`${clientId}:${secret}`)}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&scope=company',
  } as never);
  return { status: answer.status, ...((await answer.json()) as { error?: string; access_token?: string }) };
}

async function operator(role: 'reviewer' | 'support' | 'admin') {
  const res = await api.post('/dev/operator-session', { login: `${role}.${api.unique()}@ops.example.com`, role });
  const body = await api.json<{ operatorId: string }>(res);
  expect(body.code).toBe('0');
  const [, value] = /(?:^|\n)portal_operator=([^;]+)/.exec(res.headers.getSetCookie().join('\n')) ?? [];
  return { id: body.data.operatorId, cookie: `portal_operator=${value}` };
}

const count = async (sql: string, ...binds: unknown[]) => (await worker.env.DB.prepare(sql).bind(...binds).first<{ n: number }>())!.n;
const audits = (action: string, targetId: string) => count('SELECT COUNT(*) AS n FROM audit_log WHERE action = ? AND target_id = ?', action, targetId);
const tally = (codes: string[]) => codes.reduce<Record<string, number>>((t, code) => ({ ...t, [code]: (t[code] ?? 0) + 1 }), {});

describe("the operators' client console", { timeout: 120_000 }, () => {
  const form = { name: 'Harbour app', redirectUris: ['https://harbour.example/cb'], postLogoutUris: ['https://harbour.example/bye'], backchannelLogoutUri: 'https://harbour.example/bcl', public: false, trusted: true };

  it('is for admins only: a reviewer, support, a platform session and nobody are refused and nothing is written', async () => {
    const [reviewer, support, person] = await Promise.all([operator('reviewer'), operator('support'), api.person()]);
    const before = await count('SELECT COUNT(*) AS n FROM oidc_clients');
    for (const [cookie, code] of [[reviewer.cookie, 'OP0003'], [support.cookie, 'OP0003'], [person.cookie, 'OP0001'], [undefined, 'OP0001']] as const) {
      expect((await api.json(await api.post('/ops/v1/oidc/clients', form, { cookie }))).code).toBe(code);
      expect((await api.json(await api.get('/ops/v1/oidc/clients', { cookie }))).code).toBe(code);
    }
    expect(await count('SELECT COUNT(*) AS n FROM oidc_clients')).toBe(before);
  });

  it('registers, edits, rotates, disables and enables a client; the secret works once shown and every change is audited', async () => {
    const admin = await operator('admin');
    const created = await api.json<ClientWithSecret>(await api.post('/ops/v1/oidc/clients', { ...form, redirectUris: [] , backchannelLogoutUri: null }, { cookie: admin.cookie }));
    expect(created.code).toBe('0');
    const { client, secret } = created.data;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the hash is kept: the secret itself is nowhere in D1.
    const stored = await worker.env.DB.prepare('SELECT secret_hash FROM oidc_clients WHERE id = ?').bind(client.id).first<{ secret_hash: string }>();
    expect(stored!.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await api.json(await api.get('/ops/v1/oidc/clients', { cookie: admin.cookie })))).not.toContain(secret);
    expect(client.grantTypes).toEqual(['client_credentials']);
    const first = await oidc.clientCredentialsGrant(await machine(client.id, secret!), { scope: 'company' });
    expect(first.access_token).toBeTruthy();

    const edited = await api.json<ConsoleClient>(await api.post(`/ops/v1/oidc/clients/${client.id}`, { ...form, name: 'Harbour app 2' }, { cookie: admin.cookie }));
    expect(edited.data).toMatchObject({ name: 'Harbour app 2', redirectUris: form.redirectUris, trusted: true, grantTypes: ['authorization_code', 'refresh_token'] });

    const rotated = await api.json<ClientWithSecret>(await api.post(`/ops/v1/oidc/clients/${client.id}/rotateSecret`, {}, { cookie: admin.cookie }));
    expect(rotated.data.secret).not.toBe(secret);
    // The old secret stops at once; the new one authenticates (the client now signs people in: unauthorized_client, not invalid_client).
    await expect(oidc.clientCredentialsGrant(await machine(client.id, secret!), { scope: 'company' })).rejects.toMatchObject({ status: 401 });
    await expect(oidc.clientCredentialsGrant(await machine(client.id, rotated.data.secret!), { scope: 'company' })).rejects.toMatchObject({ error: 'unauthorized_client' });

    const disabled = await api.json<ConsoleClient>(await api.post(`/ops/v1/oidc/clients/${client.id}/disable`, {}, { cookie: admin.cookie }));
    expect(disabled.data.disabledAt).not.toBeNull();
    // Twice disabled is one change and one audit row.
    await api.post(`/ops/v1/oidc/clients/${client.id}/disable`, {}, { cookie: admin.cookie });
    await expect(oidc.clientCredentialsGrant(await machine(client.id, rotated.data.secret!), { scope: 'company' })).rejects.toMatchObject({ status: 401 });
    expect((await api.json<ConsoleClient>(await api.post(`/ops/v1/oidc/clients/${client.id}/enable`, {}, { cookie: admin.cookie }))).data.disabledAt).toBeNull();

    for (const action of ['oidc.client_added', 'oidc.client_changed', 'oidc.client_secret_rotated', 'oidc.client_disabled', 'oidc.client_enabled']) {
      expect(await audits(action, client.id), action).toBe(1);
    }
    const row = await worker.env.DB.prepare("SELECT actor_kind, actor_id, detail FROM audit_log WHERE action = 'oidc.client_secret_rotated' AND target_id = ?").bind(client.id).first<{ actor_kind: string; actor_id: string; detail: string | null }>();
    expect(row).toMatchObject({ actor_kind: 'operator', actor_id: admin.id });
    expect(await count("SELECT COUNT(*) AS n FROM audit_log WHERE target_id = ? AND (detail LIKE '%' || ? || '%' OR detail LIKE '%' || ? || '%')", client.id, secret, rotated.data.secret)).toBe(0);

    const sends = await api.json<LogoutSend[]>(await api.get(`/ops/v1/oidc/clients/${client.id}/logoutSends`, { cookie: admin.cookie }));
    expect(sends).toMatchObject({ code: '0', data: [] });
  });

  it('refuses wildcards, fragments, http for a real host and a public client without a redirect URI, in the visitor’s language', async () => {
    const admin = await operator('admin');
    for (const uri of ['https://*.harbour.example/cb', 'https://harbour.example/cb#x', 'http://harbour.example/cb', 'javascript:alert(1)']) {
      const answer = await api.json(await api.post('/ops/v1/oidc/clients', { ...form, redirectUris: [uri] }, { cookie: admin.cookie, lang: 'zh' }));
      expect(answer.code, uri).toBe('OI0011');
      expect(answer.message).toMatch(/[\u4e00-\u9fff]/);
    }
    // Loopback http is a native app's and is fine.
    expect((await api.json(await api.post('/ops/v1/oidc/clients', { ...form, redirectUris: ['http://127.0.0.1:8123/cb'] }, { cookie: admin.cookie }))).code).toBe('0');
    expect((await api.json(await api.post('/ops/v1/oidc/clients', { ...form, public: true, redirectUris: [] }, { cookie: admin.cookie }))).code).toBe('OI0012');
    expect((await api.json(await api.post('/ops/v1/oidc/clients/nope/disable', {}, { cookie: admin.cookie }))).code).toBe('OI0010');
    // A company's API client is its administrators' to manage, not the console's.
    const owner = await company();
    const theirs = await api.json<CompanyClientCreated>(
      await api.post('/agg-web/api-clients/create', { companyId: owner.companyId, name: 'Theirs', scopes: ['company'], expiresAt: Date.now() + 30 * DAY, creationKey: key() }, { cookie: owner.admin.cookie }),
    );
    expect((await api.json(await api.post(`/ops/v1/oidc/clients/${theirs.data.client.id}/rotateSecret`, {}, { cookie: admin.cookie }))).code).toBe('OI0019');
    expect(JSON.stringify((await api.json(await api.get('/ops/v1/oidc/clients', { cookie: admin.cookie }))).data)).not.toContain(theirs.data.client.id);
  });
});

/** A verified company with an administrator and a staff member, signed in. */
async function company(type = 'shipOwner') {
  const admin = await api.person({ realName: 'Admin', companies: [{ nameEn: `Clients ${api.unique()}`, type, role: 'administrator' }] });
  const { id: companyId } = (await worker.env.DB.prepare('SELECT company_id AS id FROM company_members WHERE user_id = ?').bind(admin.userId).first<{ id: string }>())!;
  const staff = await api.person({ realName: 'Staff', companies: [{ companyId, role: 'staff', hireTime: '2024-03-01' }] });
  return { companyId, admin, staff };
}

const DAY = 24 * 60 * 60 * 1000;
const key = () => `k${api.unique()}${'x'.repeat(16)}`;

describe("a company's API clients", { timeout: 180_000 }, () => {
  afterAll(async () => {
    await api.post('/dev/clock', { reset: true });
  });

  it('an administrator creates one (fresh proof), its system gets a token naming the company, and each token is in the company’s activity', async () => {
    const { companyId, admin } = await company();
    const listed = await api.json<CompanyClientsAnswer>(await api.get(`/agg-web/api-clients?companyId=${companyId}`, { cookie: admin.cookie }));
    expect(listed.code).toBe('0');
    const moduleScope = listed.data.scopes.find((entry) => entry.scope.startsWith('module:'))!.scope;
    const request = { companyId, name: 'Berth planner', scopes: ['company', moduleScope], expiresAt: Date.now() + 90 * DAY, creationKey: key() };
    const answer = await api.post('/agg-web/api-clients/create', request, { cookie: admin.cookie });
    // The one answer with the secret is kept by no cache.
    expect(answer.headers.get('cache-control')).toContain('no-store');
    const created = await api.json<CompanyClientCreated>(answer);
    expect(created.code).toBe('0');
    const config = await machine(created.data.client.id, created.data.secret);
    const tokens = await oidc.clientCredentialsGrant(config, { scope: `company ${moduleScope}` });
    const claims = await claimsOf(tokens.access_token);
    expect(claims).toMatchObject({ company_id: companyId, client_id: created.data.client.id, scope: `company ${moduleScope}` });
    await expect(oidc.clientCredentialsGrant(config, { scope: 'module:somebody-elses' })).rejects.toMatchObject({ error: 'invalid_scope' });
    const used = await worker.env.DB.prepare("SELECT actor_kind, detail FROM audit_log WHERE action = 'oidc.company_client_used' AND target_kind = 'company' AND target_id = ?").bind(companyId).all<{ actor_kind: string; detail: string }>();
    expect(used.results).toHaveLength(1);
    expect(JSON.parse(used.results[0]!.detail)).toMatchObject({ clientId: created.data.client.id });
    // The list shows it, its last use, and never its secret.
    const after = await api.read<CompanyClientsAnswer>(await api.get(`/agg-web/api-clients?companyId=${companyId}`, { cookie: admin.cookie }));
    expect(after.body.data.clients[0]).toMatchObject({ id: created.data.client.id, name: 'Berth planner', revokedAt: null });
    expect(after.body.data.clients[0]!.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(after.body)).not.toContain(created.data.secret);

    // A company the operators blocked: its clients get no token until it is unblocked.
    await worker.env.DB.prepare("UPDATE companies SET status = 'blocked' WHERE id = ?").bind(companyId).run();
    expect(await tokenCall(created.data.client.id, created.data.secret)).toMatchObject({ status: 401, error: 'invalid_client' });
    await worker.env.DB.prepare("UPDATE companies SET status = 'verified' WHERE id = ?").bind(companyId).run();
    expect((await tokenCall(created.data.client.id, created.data.secret)).access_token).toBeTruthy();

    // Revoked: no new token for it.
    expect((await api.json(await api.post('/agg-web/api-clients/revoke', { companyId, clientId: created.data.client.id }, { cookie: admin.cookie }))).code).toBe('0');
    expect(await tokenCall(created.data.client.id, created.data.secret)).toMatchObject({ status: 401, error: 'invalid_client' });
    expect(await audits('oidc.company_client_revoked', companyId)).toBe(1);
    expect((await api.json(await api.post('/agg-web/api-clients/revoke', { companyId, clientId: created.data.client.id }, { cookie: admin.cookie }))).code).toBe('OI0018');
  });

  it('a staff member, an administrator of another company and a person of no company cannot create, list or revoke', async () => {
    const { companyId, admin, staff } = await company();
    const other = await company();
    const mine = await api.json<CompanyClientCreated>(
      await api.post('/agg-web/api-clients/create', { companyId, name: 'Mine', scopes: ['company'], expiresAt: Date.now() + 30 * DAY, creationKey: key() }, { cookie: admin.cookie }),
    );
    expect(mine.code).toBe('0');
    const outsider = await api.person();
    for (const [who, code] of [[staff, 'CO0008'], [other.admin, 'CO0009'], [outsider, 'CO0009']] as const) {
      const create = await api.json(await api.post('/agg-web/api-clients/create', { companyId, name: 'Sneaky', scopes: ['company'], expiresAt: Date.now() + 30 * DAY, creationKey: key() }, { cookie: who.cookie }));
      const list = await api.json(await api.get(`/agg-web/api-clients?companyId=${companyId}`, { cookie: who.cookie }));
      const revoke = await api.json(await api.post('/agg-web/api-clients/revoke', { companyId, clientId: mine.data.client.id }, { cookie: who.cookie }));
      expect([create.code, list.code, revoke.code]).toEqual([code, code, code]);
    }
    // Naming their own company and this company's client revokes nothing either.
    expect((await api.json(await api.post('/agg-web/api-clients/revoke', { companyId: other.companyId, clientId: mine.data.client.id }, { cookie: other.admin.cookie }))).code).toBe('OI0018');
    expect(await count('SELECT COUNT(*) AS n FROM oidc_clients WHERE company_id = ? AND revoked_at IS NULL', companyId)).toBe(1);
    expect(await count('SELECT COUNT(*) AS n FROM oidc_clients WHERE company_id = ?', companyId)).toBe(1);
    expect((await api.json(await api.get(`/agg-web/api-clients?companyId=${companyId}`))).code).not.toBe('0');
  });

  it('asks for a fresh proof, checks the scopes and the end date, and a double click of 20 creates one client whose secret is shown once', async () => {
    const { companyId, admin } = await company();
    const base = { companyId, name: 'Gate system', scopes: ['company'], expiresAt: Date.now() + 30 * DAY };
    expect((await api.json(await api.post('/agg-web/api-clients/create', { ...base, scopes: ['module:not-a-module'], creationKey: key() }, { cookie: admin.cookie }))).code).toBe('OI0015');
    expect((await api.json(await api.post('/agg-web/api-clients/create', { ...base, expiresAt: Date.now() + 400 * DAY, creationKey: key() }, { cookie: admin.cookie }))).code).toBe('OI0014');
    const noScope = await api.json(await api.post('/agg-web/api-clients/create', { ...base, scopes: [], creationKey: key() }, { cookie: admin.cookie, lang: 'zh' }));
    expect(noScope.code).toBe('OI0013');
    expect(noScope.message).toMatch(/[\u4e00-\u9fff]/);

    const creationKey = key();
    const answers = await Promise.all(Array.from({ length: 20 }, () => api.post('/agg-web/api-clients/create', { ...base, creationKey }, { cookie: admin.cookie }).then((res) => api.json<CompanyClientCreated>(res))));
    expect(tally(answers.map((answer) => answer.code))).toEqual({ '0': 1, OI0016: 19 });
    expect(answers.filter((answer) => answer.data && (answer.data as Partial<CompanyClientCreated>).secret)).toHaveLength(1);
    expect(await count('SELECT COUNT(*) AS n FROM oidc_clients WHERE company_id = ?', companyId)).toBe(1);
    expect(await audits('oidc.company_client_created', companyId)).toBe(1);

    // Ten minutes after the sign-in the proof is stale: SU0001 and nothing created.
    await worker.env.DB.prepare('UPDATE sessions SET proved_at = proved_at - 3600000 WHERE user_id = ?').bind(admin.userId).run();
    const stale: Envelope = await api.json(await api.post('/agg-web/api-clients/create', { ...base, creationKey: key() }, { cookie: admin.cookie }));
    expect(stale.code).toBe('SU0001');
    expect(await count('SELECT COUNT(*) AS n FROM oidc_clients WHERE company_id = ?', companyId)).toBe(1);
  });

  it('a token issued before the company was blocked introspects as inactive from that moment, asked 10 times at once', async () => {
    const { companyId, admin } = await company();
    const created = await api.json<CompanyClientCreated>(
      await api.post('/agg-web/api-clients/create', { companyId, name: 'Yard sync', scopes: ['company'], expiresAt: Date.now() + 30 * DAY, creationKey: key() }, { cookie: admin.cookie }),
    );
    const { id: clientId } = created.data.client;
    const token = (await tokenCall(clientId, created.data.secret)).access_token!;
    // The company's own system asks, as a resource server does with every call it gets (RFC 7662).
    const introspect = async () => {
      const answer = await toWorker(`${ISSUER}/oidc/introspect`, {
        method: 'POST',
        headers: { authorization: `Basic ${btoa(`${clientId}:${created.data.secret}`)}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: `token=${token}`,
      } as never);
      return ((await answer.json()) as { active?: boolean }).active;
    };
    expect(await introspect()).toBe(true);
    const reviewer = await operator('reviewer');
    const blocked = await api.post('/ops/v1/companies/decide', { companyId, action: 'block', expectedStatus: 'verified', reason: 'fraudSuspected' }, { cookie: reviewer.cookie });
    expect((await api.json(blocked)).code).toBe('0');
    expect(await Promise.all(Array.from({ length: 10 }, introspect))).toEqual(Array(10).fill(false));
    // Unblocked, the same token is live again (it never outlives its ten minutes).
    expect((await api.json(await api.post('/ops/v1/companies/decide', { companyId, action: 'unblock', expectedStatus: 'blocked' }, { cookie: reviewer.cookie }))).code).toBe('0');
    expect(await introspect()).toBe(true);
  });

  it('an expired client gets invalid_client', async () => {
    const { companyId, admin } = await company();
    const created = await api.json<CompanyClientCreated>(
      await api.post('/agg-web/api-clients/create', { companyId, name: 'Short-lived', scopes: ['company'], expiresAt: Date.now() + 2 * DAY, creationKey: key() }, { cookie: admin.cookie }),
    );
    const config = await machine(created.data.client.id, created.data.secret);
    expect((await oidc.clientCredentialsGrant(config, { scope: 'company' })).access_token).toBeTruthy();
    expect((await api.json(await api.post('/dev/clock', { advanceMs: 3 * DAY }))).code).toBe('0');
    expect(await tokenCall(created.data.client.id, created.data.secret)).toMatchObject({ status: 401, error: 'invalid_client' });
  });
});
