import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyDomain } from '../../src/schemas/company-sso';
import { useWorkerEnv } from './gateway-client';

/**
 * Issue 43, a company's own identity provider, first step: the company's administrator proves an e-mail domain by a
 * DNS TXT record, read through DNS-over-HTTPS. The resolver is a stand-in on a local port that answers the JSON form
 * (`application/dns-json`) as Cloudflare's does, from the records a test publishes; `down` makes it answer 503.
 */
const records = new Map<string, string[]>();
let down = false;
let lookups = 0;
let resolver: Server;
let dohUrl = '';

beforeAll(async () => {
  resolver = createServer((request, response) => {
    lookups++;
    const url = new URL(request.url ?? '/', 'http://resolver');
    if (down) return void response.writeHead(503).end();
    const name = url.searchParams.get('name') ?? '';
    const values = url.searchParams.get('type') === 'TXT' ? records.get(name) : undefined;
    response.writeHead(200, { 'content-type': 'application/dns-json' });
    response.end(
      JSON.stringify(
        values
          ? { Status: 0, Answer: values.map((value) => ({ name, type: 16, TTL: 300, data: `"${value.slice(0, 40)}" "${value.slice(40)}"` })) }
          : { Status: 3, Answer: [] },
      ),
    );
  });
  await new Promise<void>((resolve) => resolver.listen(0, '127.0.0.1', resolve));
  dohUrl = `http://127.0.0.1:${(resolver.address() as AddressInfo).port}/dns-query`;
});
afterAll(() => new Promise<void>((resolve) => resolver.close(() => resolve())));

const { worker, api } = useWorkerEnv('company-domains');
const env = () => ({ DOH_URL: dohUrl });

async function company() {
  const admin = await api.person({ realName: 'Admin', companies: [{ nameEn: `Domains ${api.unique()}`, type: 'shipOwner', role: 'administrator' }] });
  const { id: companyId } = (await worker.env.DB.prepare('SELECT company_id AS id FROM company_members WHERE user_id = ?').bind(admin.userId).first<{ id: string }>())!;
  const staff = await api.person({ realName: 'Staff', companies: [{ companyId, role: 'staff', hireTime: '2024-03-01' }] });
  return { companyId, admin, staff };
}

const add = async (cookie: string, companyId: string, domain: string) => api.json<CompanyDomain>(await api.post('/agg-web/company-domains/add', { companyId, domain }, { cookie, env: env() }));
const check = async (cookie: string, companyId: string, domain: string) => api.json<CompanyDomain>(await api.post('/agg-web/company-domains/check', { companyId, domain }, { cookie, env: env() }));
const publish = (claim: CompanyDomain) => records.set(claim.recordName, [...(records.get(claim.recordName) ?? []), 'v=spf1 -all', claim.recordValue]);
const domainOf = () => `fleet-${api.unique()}.example`;

describe('a company proves its e-mail domain by DNS', { timeout: 120_000 }, () => {
  it('shows the TXT record to publish, refuses to prove it until the record is there, then proves it; both steps are in the company’s trail', async () => {
    const { companyId, admin } = await company();
    const domain = domainOf();
    const claim = await add(admin.cookie, companyId, `  ${domain.toUpperCase()} `);
    expect(claim.code).toBe('0');
    expect(claim.data).toMatchObject({ domain, state: 'pending', recordName: `_shipping-portal-challenge.${domain}`, recordValue: expect.stringMatching(/^shipping-portal-domain=[A-Za-z0-9_-]{43}$/) });
    // Added twice: one claim, the same record.
    expect((await add(admin.cookie, companyId, domain)).data.recordValue).toBe(claim.data.recordValue);

    expect((await check(admin.cookie, companyId, domain)).code).toBe('ID0432');
    // Another company's record value at the name is not this company's.
    records.set(claim.data.recordName, ['shipping-portal-domain=somebody-else']);
    expect((await check(admin.cookie, companyId, domain)).code).toBe('ID0432');
    publish(claim.data);
    const proved = await check(admin.cookie, companyId, domain);
    expect(proved.code).toBe('0');
    expect(proved.data).toMatchObject({ state: 'proved', provedAt: expect.any(Number) });
    const listed = await api.json<CompanyDomain[]>(await api.get(`/agg-web/company-domains?companyId=${companyId}`, { cookie: admin.cookie }));
    expect(listed.data).toEqual([expect.objectContaining({ domain, state: 'proved' })]);
    const trail = await worker.env.DB.prepare("SELECT action, actor_id, detail FROM audit_log WHERE target_kind = 'company' AND target_id = ? AND action LIKE 'company.domain_%' ORDER BY id").bind(companyId).all<{ action: string; actor_id: string; detail: string }>();
    expect(trail.results.map((row) => [row.action, row.actor_id, JSON.parse(row.detail).domain])).toEqual([
      ['company.domain_added', admin.userId, domain],
      ['company.domain_proved', admin.userId, domain],
    ]);
  });

  it('one domain belongs to one company: a second company can neither add nor prove a domain another proved', async () => {
    const first = await company();
    const second = await company();
    const domain = domainOf();
    // The second company claims it first, but the first proves it first.
    const early = await add(second.admin.cookie, second.companyId, domain);
    const claim = await add(first.admin.cookie, first.companyId, domain);
    publish(claim.data);
    publish(early.data);
    expect((await check(first.admin.cookie, first.companyId, domain)).data.state).toBe('proved');
    expect((await check(second.admin.cookie, second.companyId, domain)).code).toBe('ID0431');
    const third = await company();
    expect((await add(third.admin.cookie, third.companyId, domain)).code).toBe('ID0431');
  });

  it('two companies proving one domain at once (10 checks each, in parallel): exactly one holds it', async () => {
    const [a, b] = await Promise.all([company(), company()]);
    const domain = domainOf();
    const claims = [await add(a.admin.cookie, a.companyId, domain), await add(b.admin.cookie, b.companyId, domain)];
    claims.forEach((claim) => publish(claim.data));
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? check(b.admin.cookie, b.companyId, domain) : check(a.admin.cookie, a.companyId, domain))));
    // Each company's checks all succeed or all fail: never both companies.
    const succeeded = new Set(answers.flatMap((answer, i) => (answer.code === '0' ? [i % 2 ? 'b' : 'a'] : [])));
    expect(succeeded.size).toBe(1);
    expect(answers.every((answer) => answer.code === '0' || answer.code === 'ID0431')).toBe(true);
    const owners = await worker.env.DB.prepare('SELECT company_id FROM company_domains WHERE domain = ? AND proved_at IS NOT NULL AND removed_at IS NULL').bind(domain).all<{ company_id: string }>();
    expect(owners.results).toHaveLength(1);
    const proved = await worker.env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'company.domain_proved' AND detail LIKE ?").bind(`%${domain}%`).first<{ n: number }>();
    expect(proved!.n).toBe(1);
  });

  it('only the company’s administrators, and adding needs a fresh proof of the person', async () => {
    const { companyId, admin, staff } = await company();
    const other = await company();
    const outsider = await api.person();
    const domain = domainOf();
    for (const [who, code] of [[staff, 'CO0008'], [other.admin, 'CO0009'], [outsider, 'CO0009']] as const) {
      expect((await add(who.cookie, companyId, domain)).code).toBe(code);
      expect((await api.json(await api.get(`/agg-web/company-domains?companyId=${companyId}`, { cookie: who.cookie }))).code).toBe(code);
    }
    // A claim of this company checked by someone else proves nothing.
    const claim = await add(admin.cookie, companyId, domain);
    publish(claim.data);
    expect((await check(staff.cookie, companyId, domain)).code).toBe('CO0008');
    expect((await check(other.admin.cookie, other.companyId, domain)).code).toBe('ID0434');
    // An hour later the session's proof is stale: "Confirm it's you" first.
    await worker.env.DB.prepare('UPDATE sessions SET proved_at = ?, created_at = ? WHERE user_id = ?').bind(Date.now() - 3_600_000, Date.now() - 3_600_000, admin.userId).run();
    expect((await add(admin.cookie, companyId, domainOf())).code).toBe('SU0001');
  });

  it('tells a resolver that is down from a record that is missing, and refuses what is not a domain', async () => {
    const { companyId, admin } = await company();
    const domain = domainOf();
    const claim = await add(admin.cookie, companyId, domain);
    publish(claim.data);
    down = true;
    const before = lookups;
    expect((await check(admin.cookie, companyId, domain)).code).toBe('ID0433');
    expect(lookups).toBe(before + 1);
    down = false;
    expect((await check(admin.cookie, companyId, domain)).code).toBe('0');
    for (const bad of ['localhost', 'example', '127.0.0.1', '-bad.example', 'a..example', 'ex ample.com', `${'a'.repeat(64)}.example`, 'https://example.com']) {
      expect((await add(admin.cookie, companyId, bad)).code, bad).toBe('ID0435');
    }
  });
});
