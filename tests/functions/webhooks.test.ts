import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { deliverWebhooks, FAILING_LIMIT_MS, RETRY_SCHEDULE_MS } from '../../functions/gateway/webhooks/delivery';
import { operatorInsert, startOperatorSession, type OperatorRole } from '../../functions/gateway/operators/service';
import { sha256Hex } from '../../functions/gateway/identity/passwords';
import { applyDecision } from '../../functions/gateway/review/db';
import { runDataRightsJob } from '../../functions/gateway/data-rights/jobs';
import { emitEvent } from '../../functions/gateway/events/db';
import type { AuditExportAnswer, CompanyAuditPage, EndpointWithSecret, WebhooksAnswer } from '../../src/schemas/webhooks';
import { useWorkerEnv } from './gateway-client';
import { hashPassword } from '../../src/lib/password-hash';

/**
 * Event webhooks (issue 45) through the whole Worker on a real local D1 and R2: a company administrator registers
 * endpoints (fresh proof), changes emit events in the batch of the change, the delivery job (run here with its
 * time given, never waited for) signs every attempt anew, and a receiver verifies each with the `standardwebhooks`
 * package as a customer's system would.
 */
const { worker, api } = useWorkerEnv('webhooks');

type Person = Awaited<ReturnType<typeof api.person>>;
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** The stand-in receiver: /ok answers 200, /fail 500, /gone 410, /moved a redirect to /ok (never to be followed). */
let receiver: Server;
let base = '';
const received: Received[] = [];
let failing = new Set<string>();

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      received.push({ path, headers: request.headers, body });
      if (path.startsWith('/moved')) return void response.writeHead(302, { location: `${base}/ok` }).end();
      if (path.startsWith('/gone')) return void response.writeHead(410).end();
      if (path.startsWith('/fail') || failing.has(path)) return void response.writeHead(500).end('no');
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
afterEach(() => {
  vi.useRealTimers();
  failing = new Set();
});

const companyOf = async (userId: string) =>
  (await worker.env.DB.prepare("SELECT company_id AS id FROM company_members WHERE user_id = ? AND role = 'administrator'").bind(userId).first<{ id: string }>())!.id;

/** A verified company with its administrator (signed in: a fresh proof) and one active staff member. */
async function company() {
  const admin = await api.person({ realName: '王小明', phone: { callingCode: '+86', mobile: api.mobile('138') }, companies: [{ nameEn: `Hooks ${api.unique()}`, type: 'shipOwner', role: 'administrator' }] });
  const companyId = await companyOf(admin.userId);
  const staff = await api.person({ realName: 'Staff One', companies: [{ companyId, role: 'staff', hireTime: '2024-03-01' }] });
  return { companyId, admin, staff };
}

const addEndpoint = async (who: Person, companyId: string, body: Record<string, unknown>) =>
  api.json<EndpointWithSecret>(await api.post('/agg-web/company/webhooks/add', { companyId, ...body }, { cookie: who.cookie }));
const endpoint = async (who: Person, companyId: string, path: string, eventTypes: string[], personalFields = 'masked') => {
  const added = await addEndpoint(who, companyId, { url: `${base}${path}`, eventTypes, personalFields });
  expect(added.code, JSON.stringify(added)).toBe('0');
  return added.data;
};
const toPath = (path: string) => received.filter((r) => r.path === path);
const typeOf = (r: Received) => (JSON.parse(r.body) as { type: string }).type;
/** Verifies one request as the receiver's library does, at the moment it was signed (its own timestamp). */
const verifyAt = (secret: string, r: Pick<Received, 'body' | 'headers'>, at: number) => {
  vi.setSystemTime(at);
  try {
    return new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
  } finally {
    vi.useRealTimers();
  }
};
const headerOf = (r: Received, name: string) => String(r.headers[name]);
const count = async (sql: string, ...binds: unknown[]) => (await worker.env.DB.prepare(sql).bind(...binds).first<{ n: number }>())!.n;

describe('registering endpoints', { timeout: 120_000 }, () => {
  it('only https on the internet: private, loopback, link-local and disguised addresses are refused (WH0001)', async () => {
    const { companyId, admin } = await company();
    for (const url of [
      'http://hooks.example.com/in',
      'https://10.0.0.8/in',
      'https://192.168.1.1/in',
      'https://169.254.169.254/latest/meta-data',
      'https://127.0.0.1/in',
      'https://0x7f.1/in',
      'https://2130706433/in',
      'https://[::1]/in',
      'https://[::ffff:10.0.0.1]/in',
      'https://[fe80::1]/in',
      'https://localhost/in',
      'https://metadata.internal/in',
      'https://intranet/in',
      'https://user:pass@hooks.example.com/in',
      'http://10.0.0.8:8080/in',
    ]) {
      expect((await addEndpoint(admin, companyId, { url, eventTypes: ['member.approved'] })).code, url).toBe('WH0001');
    }
    const fine = await addEndpoint(admin, companyId, { url: 'https://hooks.example.com/in', eventTypes: ['member.*', 'grant.*'] });
    expect(fine.code).toBe('0');
    expect(fine.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // Stored sealed: the secret is nowhere in D1.
    const row = await worker.env.DB.prepare('SELECT * FROM webhook_endpoints WHERE id = ?').bind(fine.data.endpoint.id).first();
    expect(JSON.stringify(row)).not.toContain(fine.data.secret.slice(6));
    // A type no company has is refused; so is an operator-only family.
    expect((await addEndpoint(admin, companyId, { url: 'https://hooks.example.com/in', eventTypes: ['oidc.client_added'] })).code).toBe('WH0002');
  });

  it('needs a fresh proof, and an administrator of that very company', async () => {
    const { companyId, admin, staff } = await company();
    const other = await company();
    const body = { url: 'https://hooks.example.com/in', eventTypes: ['member.approved'] };
    expect((await addEndpoint(staff, companyId, body)).code).toBe('CO0008');
    expect((await addEndpoint(other.admin, companyId, body)).code).toBe('CO0009');
    await worker.env.DB.prepare('UPDATE sessions SET proved_at = NULL WHERE user_id = ?').bind(admin.userId).run();
    expect((await addEndpoint(admin, companyId, body)).code).toBe('SU0001');
    expect(await count('SELECT count(*) AS n FROM webhook_endpoints WHERE company_id = ?', companyId)).toBe(0);
    // Forged headers name no one else: the session decides.
    const forged = await api.json(await api.post('/agg-web/company/webhooks/add', { companyId, ...body }, { cookie: staff.cookie, headers: { 'x-user-id': admin.userId } }));
    expect(forged.code).toBe('CO0008');
  });

  it('ten endpoints at most, even when 20 are added at once', async () => {
    const { companyId, admin } = await company();
    const codes = await Promise.all(Array.from({ length: 20 }, (_, i) => addEndpoint(admin, companyId, { url: `https://hooks.example.com/in/${i}`, eventTypes: ['member.approved'] }).then((a) => a.code)));
    expect(codes.filter((code) => code === '0')).toHaveLength(10);
    expect(codes.filter((code) => code === 'WH0003')).toHaveLength(10);
  });
});

describe('delivery', { timeout: 180_000 }, () => {
  it('every attempt, the sixth retry included, verifies with standardwebhooks: the same webhook-id, a new timestamp and signature each time; then a dead letter, sent again', async () => {
    const { companyId, admin, staff } = await company();
    const { secret, endpoint: ep } = await endpoint(admin, companyId, '/flaky', ['member.modules_changed']);
    failing.add('/flaky');
    expect((await api.json(await api.post('/agg-web/company/member/module', { companyId, userId: staff.userId, module: 'port-calls', granted: true }, { cookie: admin.cookie }))).code).toBe('0');
    let at = Date.now() + 1_000;
    const times = [at];
    for (const wait of RETRY_SCHEDULE_MS) times.push((at += wait + 1_000));
    // Early runs send nothing: each retry waits its turn.
    for (const [i, time] of times.entries()) {
      if (i > 0) expect(await deliverWebhooks(worker.env, time - 2_000)).toEqual({ delivered: 0, failed: 0, dead: 0 });
      const run = await deliverWebhooks(worker.env, time);
      expect(run).toEqual(i < times.length - 1 ? { delivered: 0, failed: 1, dead: 0 } : { delivered: 0, failed: 0, dead: 1 });
    }
    const attempts = toPath('/flaky');
    expect(attempts).toHaveLength(7);
    expect(new Set(attempts.map((r) => headerOf(r, 'webhook-id'))).size).toBe(1);
    expect(attempts.map((r) => Number(headerOf(r, 'webhook-timestamp')))).toEqual(times.map((t) => Math.floor(t / 1000)));
    expect(new Set(attempts.map((r) => headerOf(r, 'webhook-signature'))).size).toBe(7);
    for (const [i, r] of attempts.entries()) {
      expect(verifyAt(secret, r, times[i]!)).toEqual({ type: 'member.modules_changed', timestamp: expect.any(String), data: { companyId, userId: staff.userId, module: 'port-calls', granted: true } });
    }
    // One byte changed, or the first attempt's headers replayed at the time of the last: refused.
    const last = attempts[6]!;
    expect(() => verifyAt(secret, { ...last, body: last.body.replace('"granted":true', '"granted":tru ') }, times[6]!)).toThrow(/signature/i);
    expect(() => verifyAt(secret, attempts[0]!, times[6]!)).toThrow(/too old/);
    // Another endpoint's secret does not verify it.
    expect(() => verifyAt(`whsec_${btoa('x'.repeat(32))}`, last, times[6]!)).toThrow();

    // Listed with every attempt (answer code, no body), and sent again on asking: the same webhook-id, delivered.
    const listed = await api.json<WebhooksAnswer>(await api.get(`/agg-web/company/webhooks?companyId=${companyId}`, { cookie: admin.cookie }));
    const dead = listed.data.deliveries.find((d) => d.endpointId === ep.id)!;
    expect(dead).toMatchObject({ status: 'dead', attempts: 7, lastCode: 500, eventType: 'member.modules_changed' });
    expect(dead.history.map((h) => h.answerCode)).toEqual([500, 500, 500, 500, 500, 500, 500]);
    expect(JSON.stringify(listed.data)).not.toContain('"no"');
    failing.delete('/flaky');
    const resent = await api.json<{ status: string }>(await api.post('/agg-web/company/webhooks/resend', { companyId, deliveryId: dead.id }, { cookie: admin.cookie }));
    expect(resent.data.status).toBe('delivered');
    expect(headerOf(toPath('/flaky')[7]!, 'webhook-id')).toBe(dead.id);
    // A delivered one is not sent again.
    expect((await api.json(await api.post('/agg-web/company/webhooks/resend', { companyId, deliveryId: dead.id }, { cookie: admin.cookie }))).code).toBe('WH0005');
  });

  it('a 410 stops the endpoint: what it had waiting becomes dead letters and new events pass it by; a redirect is never followed', async () => {
    const { companyId, admin, staff } = await company();
    const gone = await endpoint(admin, companyId, '/gone', ['member.modules_changed']);
    const moved = await endpoint(admin, companyId, '/moved', ['member.modules_changed']);
    const grant = (module: string, granted: boolean) => api.post('/agg-web/company/member/module', { companyId, userId: staff.userId, module, granted }, { cookie: admin.cookie });
    await grant('port-calls', true);
    await grant('port-calls', false);
    await deliverWebhooks(worker.env, Date.now() + 1_000);
    const endpointRow = await worker.env.DB.prepare('SELECT disabled_at, disabled_reason FROM webhook_endpoints WHERE id = ?').bind(gone.endpoint.id).first<{ disabled_reason: string }>();
    expect(endpointRow!.disabled_reason).toBe('gone');
    expect(await count("SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = ? AND status = 'dead'", gone.endpoint.id)).toBe(2);
    await grant('port-calls', true);
    expect(await count('SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = ?', gone.endpoint.id)).toBe(2);
    // The redirect was a failed attempt, not a trip to /ok.
    expect(toPath('/ok').length).toBe(0);
    expect(await count("SELECT count(*) AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.endpoint_id = ? AND a.answer_code = 302 AND a.ok = 0", moved.endpoint.id)).toBeGreaterThan(0);
    // The company's trail records the stop, and its administrators are told once (the stop, not each dead letter).
    expect(await count("SELECT count(*) AS n FROM audit_log WHERE action = 'webhook.endpoint_disabled' AND target_id = ?", companyId)).toBe(1);
    const told = (await api.outbox(admin.email)).filter((mail) => mail.text.includes(`${base}/gone`));
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toMatch(/410/);
  });

  it('an endpoint failing for 5 days is stopped at its next failure, its administrators told by e-mail once', async () => {
    const { companyId, admin, staff } = await company();
    const hook = await endpoint(admin, companyId, `/fail-days-${companyId}`, ['member.modules_changed']);
    const grant = (module: string, granted: boolean) => api.post('/agg-web/company/member/module', { companyId, userId: staff.userId, module, granted }, { cookie: admin.cookie });
    const now = Date.now();
    // Four days and 23 hours of failures: still receiving after one more.
    await worker.env.DB.prepare('UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?').bind(now - FAILING_LIMIT_MS + 3_600_000, hook.endpoint.id).run();
    await grant('port-calls', true);
    await deliverWebhooks(worker.env, now + 1_000);
    const state = () => worker.env.DB.prepare('SELECT disabled_reason FROM webhook_endpoints WHERE id = ?').bind(hook.endpoint.id).first<{ disabled_reason: string | null }>();
    expect((await state())!.disabled_reason).toBeNull();
    // Five days: the next failure stops it.
    await grant('port-calls', false);
    await deliverWebhooks(worker.env, now + 3_600_000 + 1_000);
    expect((await state())!.disabled_reason).toBe('failing');
    const told = (await api.outbox(admin.email)).filter((mail) => mail.text.includes(`/fail-days-${companyId}`));
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toMatch(/5 天|5 days/);
    await deliverWebhooks(worker.env, now + 2 * 3_600_000);
    expect((await api.outbox(admin.email)).filter((mail) => mail.text.includes(`/fail-days-${companyId}`))).toHaveLength(1);
  });

  it('a rotation signs with both secrets for 24 hours, then with the new one alone', async () => {
    const { companyId, admin } = await company();
    const { secret: old, endpoint: ep } = await endpoint(admin, companyId, '/rotated', ['member.approved']);
    const rotated = await api.json<EndpointWithSecret>(await api.post('/agg-web/company/webhooks/rotate', { companyId, endpointId: ep.id }, { cookie: admin.cookie }));
    const fresh = rotated.data.secret;
    expect(fresh).not.toBe(old);
    const now = Date.now();
    const pinged = await api.json<{ status: string }>(await api.post('/agg-web/company/webhooks/ping', { companyId, endpointId: ep.id }, { cookie: admin.cookie }));
    expect(pinged.data.status).toBe('delivered');
    const first = toPath('/rotated')[0]!;
    expect(headerOf(first, 'webhook-signature').split(' ')).toHaveLength(2);
    const at = Number(headerOf(first, 'webhook-timestamp')) * 1000;
    expect(verifyAt(old, first, at)).toMatchObject({ type: 'ping' });
    expect(verifyAt(fresh, first, at)).toMatchObject({ type: 'ping' });
    // A day later the old secret no longer signs.
    const later = now + 24 * 3_600_000 + 60_000;
    await worker.env.DB.prepare(
      "INSERT INTO webhook_events (id, type, company_id, endpoint_id, data, created_at) VALUES ('evt_later', 'ping', ?, ?, '{}', ?)",
    ).bind(companyId, ep.id, later).run();
    await deliverWebhooks(worker.env, later);
    const second = toPath('/rotated')[1]!;
    expect(headerOf(second, 'webhook-signature').split(' ')).toHaveLength(1);
    expect(verifyAt(fresh, second, later)).toMatchObject({ type: 'ping' });
    expect(() => verifyAt(old, second, later)).toThrow(/signature/i);
  });
});

describe('events and their changes', { timeout: 240_000 }, () => {
  it('a change and its event commit together: a failure in the batch leaves neither', async () => {
    const { companyId, admin } = await company();
    await endpoint(admin, companyId, '/ok', ['company.blocked']);
    const db = worker.env.DB;
    const before = await count('SELECT count(*) AS n FROM webhook_events WHERE company_id = ?', companyId);
    await expect(
      db.batch([
        db.prepare("UPDATE companies SET status = 'blocked' WHERE id = ?").bind(companyId),
        emitEvent(db, { type: 'company.blocked', at: Date.now(), companyId, data: { companyId } }, { ifChanged: true }),
        db.prepare('INSERT INTO companies (id) VALUES (NULL)'),
      ]),
    ).rejects.toThrow();
    expect(await count('SELECT count(*) AS n FROM webhook_events WHERE company_id = ?', companyId)).toBe(before);
    expect((await db.prepare('SELECT status FROM companies WHERE id = ?').bind(companyId).first<{ status: string }>())!.status).not.toBe('blocked');
    // A change refused by its own condition (a member not there) reports nothing either.
    const removed = await api.json(await api.post('/agg-web/company/member/remove', { companyId, userId: crypto.randomUUID() }, { cookie: admin.cookie }));
    expect(removed.code).not.toBe('0');
    expect(await count("SELECT count(*) AS n FROM webhook_events WHERE company_id = ? AND type = 'member.removed'", companyId)).toBe(0);
  });

  it("an endpoint of company A hears none of company B's events, audit rows and members' sign-outs included", async () => {
    const a = await company();
    const b = await company();
    const everything = ['member.requested', 'member.approved', 'member.removed', 'member.modules_changed', 'company.verification_changed', 'company.blocked', 'user.signed_out', 'user.closed', 'audit.*'];
    await endpoint(a.admin, a.companyId, `/a-${a.companyId}`, everything);
    await endpoint(b.admin, b.companyId, `/b-${b.companyId}`, everything);
    await api.post('/agg-web/company/member/module', { companyId: b.companyId, userId: b.staff.userId, module: 'port-calls', granted: true }, { cookie: b.admin.cookie });
    await api.post('/c/user/v2/loginout', {}, { cookie: b.staff.cookie });
    await api.post('/agg-web/company/member/remove', { companyId: b.companyId, userId: b.staff.userId }, { cookie: b.admin.cookie });
    await deliverWebhooks(worker.env, Date.now() + 1_000);
    // A hears only its own: the row of its own endpoint's addition.
    const toA = toPath(`/a-${a.companyId}`).map((r) => JSON.parse(r.body) as { type: string; data: { target: { id: string } } });
    expect(toA.map((e) => [e.type, e.data.target.id])).toEqual([['audit.webhook.endpoint_added', a.companyId]]);
    const heard = toPath(`/b-${b.companyId}`).map(typeOf).sort();
    expect(heard).toEqual(
      ['audit.member.module_granted', 'audit.member.removed', 'audit.webhook.endpoint_added', 'member.modules_changed', 'member.removed', 'user.signed_out'].sort(),
    );
  });

  it("a company's block is heard as company.verification_changed and company.blocked; a member's closed account as user.closed", async () => {
    const { companyId, admin, staff } = await company();
    await endpoint(admin, companyId, `/lifecycle-${companyId}`, ['company.*', 'user.closed']);
    const status = (await worker.env.DB.prepare('SELECT status FROM companies WHERE id = ?').bind(companyId).first<{ status: string }>())!.status;
    const at = Date.now();
    const decision = { companyId, expected: status, to: 'blocked', reason: 'fraud', note: null, at, audit: { at, actor: { kind: 'system' as const, id: null }, action: 'company.blocked' as const, target: { kind: 'company', id: companyId } } };
    expect(await applyDecision(worker.env.DB, decision)).toBe(true);
    // The same decision again changes nothing, so it reports nothing.
    expect(await applyDecision(worker.env.DB, decision)).toBe(false);
    await worker.env.DB.prepare('UPDATE users SET closes_at = ?1, closing_since = ?2 WHERE id = ?3').bind(at - 1, at - 86_400_000, staff.userId).run();
    await runDataRightsJob(worker.env, at + 1);
    await deliverWebhooks(worker.env, at + 2_000);
    const heard = toPath(`/lifecycle-${companyId}`).map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });
    expect(heard.map((e) => e.type).sort()).toEqual(['company.blocked', 'company.verification_changed', 'user.closed']);
    expect(heard.find((e) => e.type === 'company.verification_changed')!.data).toEqual({ companyId, status: 'blocked', action: 'company.blocked' });
    expect(heard.find((e) => e.type === 'user.closed')!.data).toEqual({ userId: staff.userId });
  });

  it('a join asked 10 times at once is one member.requested', async () => {
    const { companyId, admin } = await company();
    await endpoint(admin, companyId, `/requests-${companyId}`, ['member.requested']);
    const code = (await api.json<{ invitationCode: string }>(await api.post('/agg-web/company/invitation/regenerate', { companyId }, { cookie: admin.cookie }))).data.invitationCode;
    const joiner = await api.person();
    const form = { companyId: code, nickName: 'Han Meimei', personalEmail: 'han@example.com', contactTel: '13900139000', phoneCode: '+86', hireTime: '2024-03-01' };
    const codes = await Promise.all(Array.from({ length: 10 }, () => api.post('/agg-web/company/join', form, { cookie: joiner.cookie }).then((r) => api.json(r)).then((a) => a.code)));
    expect(codes.filter((c) => c === '0'), codes.join()).toHaveLength(1);
    await deliverWebhooks(worker.env, Date.now() + 1_000);
    const heard = toPath(`/requests-${companyId}`).map((r) => JSON.parse(r.body) as { type: string; data: unknown });
    expect(heard).toEqual([{ type: 'member.requested', timestamp: expect.any(String), data: { companyId, userId: joiner.userId } }]);
  });

  it('50 approvals at once, each asked twice: 50 events, none lost or doubled, each delivered once', async () => {
    const { companyId, admin } = await company();
    await endpoint(admin, companyId, '/approvals', ['member.approved']);
    const pending = await Promise.all(Array.from({ length: 50 }, () => api.seed({ email: `join.${api.unique()}@example.com`, companies: [{ companyId, role: 'staff', memberStatus: 'pending' }] })));
    const answers = await Promise.all(
      [...pending, ...pending].map((userId) => api.post('/agg-web/company/member/approve', { companyId, userId }, { cookie: admin.cookie }).then((res) => api.json(res))),
    );
    expect(answers.every((a) => a.code === '0')).toBe(true);
    expect(await count("SELECT count(*) AS n FROM webhook_events WHERE company_id = ? AND type = 'member.approved'", companyId)).toBe(50);
    // Two runs of the job at once send each delivery once.
    await Promise.all([deliverWebhooks(worker.env, Date.now() + 1_000), deliverWebhooks(worker.env, Date.now() + 1_000)]);
    const got = toPath('/approvals');
    expect(got).toHaveLength(50);
    expect(new Set(got.map((r) => (JSON.parse(r.body) as { data: { userId: string } }).data.userId))).toEqual(new Set(pending));
  });
});

describe("the company's own trail", { timeout: 180_000 }, () => {
  it('masks or hashes phone numbers and e-mail addresses in the stream and in exports (JSON lines and CSV), in clear only when asked', async () => {
    const { companyId, admin, staff } = await company();
    const masked = await endpoint(admin, companyId, '/masked', ['audit.*']);
    const hashed = await endpoint(admin, companyId, '/hashed', ['audit.member.module_granted'], 'hashed');
    await api.post('/agg-web/company/member/module', { companyId, userId: staff.userId, module: 'bunkering', granted: true }, { cookie: admin.cookie });
    await deliverWebhooks(worker.env, Date.now() + 1_000);
    const streamed = toPath('/masked').map((r) => JSON.parse(r.body) as { type: string; data: { actor: { phone: string; email: string } } });
    const grantRow = streamed.find((e) => e.type === 'audit.member.module_granted')!;
    expect(grantRow.data.actor.email).toBe(`${admin.email[0]}***@example.com`);
    expect(grantRow.data.actor.phone).toMatch(/^\+86\*+\d\d$/);
    expect(JSON.stringify(streamed)).not.toContain(admin.email);
    const hashedRow = JSON.parse(toPath('/hashed')[0]!.body) as { data: { actor: { email: string } } };
    expect(hashedRow.data.actor.email).toMatch(/^hmac:[0-9a-f]{32}$/);
    void masked;
    void hashed;

    // The trail in the user center: the administrator's own rows, masked by default.
    const page = await api.json<CompanyAuditPage>(await api.get(`/agg-web/company/audit?companyId=${companyId}`, { cookie: admin.cookie }));
    expect(page.data.rows.map((r) => r.action)).toContain('member.module_granted');
    expect(JSON.stringify(page.data)).not.toContain(admin.email);
    expect((await api.json(await api.get(`/agg-web/company/audit?companyId=${companyId}`, { cookie: staff.cookie }))).code).toBe('CO0008');

    const exportAs = async (format: 'jsonl' | 'csv', personalFields: string) => {
      const answer = await api.json<AuditExportAnswer>(
        await api.post('/agg-web/company/audit/export', { companyId, from: Date.now() - 3_600_000, to: Date.now() + 60_000, format, personalFields }, { cookie: admin.cookie }),
      );
      expect(answer.code).toBe('0');
      const file = await api.get(answer.data.url.replace(/^\/api/, ''), { cookie: admin.cookie });
      expect(file.headers.get('content-disposition')).toContain(`.${format}`);
      return { answer: answer.data, text: await file.text() };
    };
    const jsonl = await exportAs('jsonl', 'masked');
    expect(jsonl.text).not.toContain(admin.email);
    const lines = jsonl.text.trim().split('\n').map((line) => JSON.parse(line) as { action: string; actor: { email: string | null } });
    expect(lines.find((l) => l.action === 'member.module_granted')!.actor.email).toBe(`${admin.email[0]}***@example.com`);
    const csv = await exportAs('csv', 'hashed');
    expect(csv.text.split('\n')[0]).toContain('id,at,action,actor_kind');
    expect(csv.text).not.toContain(admin.email);
    expect(csv.text).toMatch(/hmac:[0-9a-f]{32}/);
    // The same person hashes alike in the stream and the export of the same company.
    expect(csv.text).toContain(hashedRow.data.actor.email);
    const clear = await exportAs('jsonl', 'clear');
    expect(clear.text).toContain(admin.email);
    // The export is in the trail, and the link ends after 24 hours.
    expect(await count("SELECT count(*) AS n FROM audit_log WHERE action = 'company.audit_exported' AND target_id = ?", companyId)).toBe(3);
    await worker.env.DB.prepare('UPDATE audit_exports SET expires_at = ? WHERE id = ?').bind(Date.now() - 1, clear.answer.id).run();
    expect((await api.json(await api.get(clear.answer.url.replace(/^\/api/, ''), { cookie: admin.cookie }))).code).toBe('WH0007');
    // Only the company's administrators download it.
    expect((await api.json(await api.get(jsonl.answer.url.replace(/^\/api/, ''), { cookie: staff.cookie }))).code).toBe('CO0008');
  });
});

describe('platform endpoints (operators)', { timeout: 120_000 }, () => {
  /** An operator of `role` with a live session: the operator cookie for the calls. */
  async function operator(role: OperatorRole) {
    const at = Date.now();
    const { id, statement } = await operatorInsert(worker.env.DB, worker.env, { login: `wh.${api.unique()}@ops.example.com`, name: `Hooks ${api.unique()}`, role, clientHash: await sha256Hex('Operator-pass-1') }, at);
    await statement.run();
    const { token } = await startOperatorSession(worker.env.DB, id, at);
    return { id, cookie: `__Host-portal_operator=${token}` };
  }
  /** The console is reached over https (its cookie is __Host-). */
  const ORIGIN = 'https://portal.example.com';
  const asConsole = { origin: ORIGIN, env: { PORTAL_ORIGIN: ORIGIN } };

  it("an admin operator's endpoint for a platform app hears every company's events and every audit action; other roles and people are refused", async () => {
    const admin = await operator('admin');
    const support = await operator('support');
    const body = { url: `${base}/platform`, eventTypes: ['audit.*', 'member.modules_changed'], clientId: 'voyage-app', personalFields: 'hashed' };
    expect((await api.json(await api.post('/ops/v1/webhooks', body, { cookie: support.cookie, ...asConsole }))).code).toBe('OP0003');
    const { admin: person } = await company();
    expect((await api.json(await api.post('/ops/v1/webhooks', body, { cookie: person.cookie, ...asConsole }))).code).toBe('OP0001');
    const added = await api.json<EndpointWithSecret>(await api.post('/ops/v1/webhooks', body, { cookie: admin.cookie, ...asConsole }));
    expect(added.code).toBe('0');
    expect(added.data.endpoint.clientId).toBe('voyage-app');

    const a = await company();
    const b = await company();
    for (const one of [a, b]) await api.post('/agg-web/company/member/module', { companyId: one.companyId, userId: one.staff.userId, module: 'port-calls', granted: true }, { cookie: one.admin.cookie });
    await deliverWebhooks(worker.env, Date.now() + 1_000);
    const heard = toPath('/platform').map((r) => {
      verifyAt(added.data.secret, r, Number(headerOf(r, 'webhook-timestamp')) * 1000);
      return JSON.parse(r.body) as { type: string; data: { companyId?: string; target?: { id: string }; actor?: { email: string | null } } };
    });
    const changed = heard.filter((e) => e.type === 'member.modules_changed').map((e) => e.data.companyId);
    expect(changed.sort()).toEqual([a.companyId, b.companyId].sort());
    // Audit actions of people too (every sign-in of these tests), each actor's e-mail hashed.
    expect(heard.some((e) => e.type === 'audit.user.signed_in')).toBe(true);
    expect(heard.filter((e) => e.type.startsWith('audit.') && e.data.actor?.email).every((e) => e.data.actor!.email!.startsWith('hmac:'))).toBe(true);
  });

  it("a platform endpoint that answers 410 is stopped and the operators' administrators are told by e-mail once; other operators are not", async () => {
    const admin = await operator('admin');
    const reviewer = await operator('reviewer');
    const [adminLogin, reviewerLogin] = await Promise.all(
      [admin, reviewer].map(async (one) => (await worker.env.DB.prepare('SELECT login FROM operators WHERE id = ?').bind(one.id).first<{ login: string }>())!.login),
    );
    const url = `${base}/gone-platform-${api.unique()}`;
    const added = await api.json<EndpointWithSecret>(await api.post('/ops/v1/webhooks', { url, eventTypes: ['member.modules_changed'], clientId: null, personalFields: 'hashed' }, { cookie: admin.cookie, ...asConsole }));
    expect(added.code).toBe('0');
    const one = await company();
    const grant = (granted: boolean) => api.post('/agg-web/company/member/module', { companyId: one.companyId, userId: one.staff.userId, module: 'port-calls', granted }, { cookie: one.admin.cookie });
    await grant(true);
    await deliverWebhooks(worker.env, Date.now() + 1_000);
    const state = await worker.env.DB.prepare('SELECT disabled_reason FROM webhook_endpoints WHERE id = ?').bind(added.data.endpoint.id).first<{ disabled_reason: string | null }>();
    expect(state!.disabled_reason).toBe('gone');
    const toldOf = async (login: string) => (await api.outbox(login)).filter((mail) => mail.text.includes(url));
    const told = await toldOf(adminLogin!);
    expect(told).toHaveLength(1);
    // In the operator's language (zh by default), naming the platform, the 410 and the console.
    expect(told[0]!.subject).toContain('平台');
    expect(told[0]!.text).toMatch(/410/);
    expect(told[0]!.text).toContain('运营控制台');
    expect(await toldOf(reviewerLogin!)).toHaveLength(0);
    // The company whose event it was hears nothing of the platform's endpoint.
    expect(await toldOf(one.admin.email)).toHaveLength(0);
    // Once per stop: later runs (and new events, which pass a stopped endpoint by) tell no one again.
    await grant(false);
    await deliverWebhooks(worker.env, Date.now() + 60_000);
    expect(await toldOf(adminLogin!)).toHaveLength(1);
  });
});

describe('user.signed_out on every path that ends a session', { timeout: 180_000 }, () => {
  const ORIGIN = 'https://portal.example.com';
  const asConsole = { origin: ORIGIN, env: { PORTAL_ORIGIN: ORIGIN } };
  async function supportOperator() {
    const at = Date.now();
    const { id, statement } = await operatorInsert(worker.env.DB, worker.env, { login: `so.${api.unique()}@ops.example.com`, name: `Support ${api.unique()}`, role: 'support', clientHash: await sha256Hex('Operator-pass-1') }, at);
    await statement.run();
    return `__Host-portal_operator=${(await startOperatorSession(worker.env.DB, id, at)).token}`;
  }
  /** The session a cookie holds, by the id the Security section shows. */
  const publicIdOf = async (cookie: string) =>
    (await api.json<{ id: string; current: boolean }[]>(await api.get('/agg-web/user/security/sessions', { cookie }))).data.find((s) => s.current)!.id;
  const signedIn = async (email: string, password = 'Harbour2024') => {
    const { cookie } = await api.signIn(email, password);
    return { cookie, id: await publicIdOf(cookie) };
  };

  it('sign-out, one session from Security, sign out everywhere, a password change, an operator\'s sign-out and block: one event per ended session, none for a session already ended', async () => {
    const { companyId, admin, staff } = await company();
    const other = await company();
    const ep = await endpoint(admin, companyId, `/signed-out-${companyId}`, ['user.signed_out']);
    const otherEp = await endpoint(other.admin, other.companyId, `/signed-out-${other.companyId}`, ['user.signed_out']);
    const heard = async (endpointId: string) =>
      (
        await worker.env.DB.prepare(
          `SELECT json_extract(e.data, '$.sessionId') AS sid, json_extract(e.data, '$.userId') AS uid FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
           WHERE d.endpoint_id = ? AND e.type = 'user.signed_out' ORDER BY e.created_at, e.rowid`,
        )
          .bind(endpointId)
          .all<{ sid: string; uid: string }>()
      ).results;
    const expected: string[] = [];
    const expectHeard = async (ids: string[]) => {
      expected.push(...ids);
      const rows = await heard(ep.endpoint.id);
      expect(rows.every((row) => row.uid === staff.userId)).toBe(true);
      expect(rows.map((row) => row.sid).sort()).toEqual([...expected].sort());
    };
    const first = { cookie: staff.cookie, id: await publicIdOf(staff.cookie) };

    // Sign-out of this session.
    const s1 = await signedIn(staff.email);
    expect((await api.json(await api.post('/c/user/v2/loginout', {}, { cookie: s1.cookie }))).code).toBe('0');
    await expectHeard([s1.id]);

    // One session ended from the Security section; asked again, nothing more.
    const s2 = await signedIn(staff.email);
    const s3 = await signedIn(staff.email);
    expect((await api.json(await api.post('/agg-web/user/security/sessions/signOut', { id: s2.id }, { cookie: s3.cookie }))).code).toBe('0');
    expect((await api.json(await api.post('/agg-web/user/security/sessions/signOut', { id: s2.id }, { cookie: s3.cookie }))).code).toBe('SS0001');
    await expectHeard([s2.id]);

    // Sign out everywhere else: the first session and s3.
    const s4 = await signedIn(staff.email);
    const ended = await api.json<{ ended: number }>(await api.post('/agg-web/user/security/sessions/signOutOthers', {}, { cookie: s4.cookie }));
    expect(ended).toMatchObject({ code: '0', data: { ended: 2 } });
    await expectHeard([first.id, s3.id]);

    // A password change ends the other sessions (s5), not the one making it (s4).
    const s5 = await signedIn(staff.email);
    const change = { currentPassword: await hashPassword('Harbour2024'), newPassword: await hashPassword('Fresh2024x'), newPasswordSubmit: await hashPassword('Fresh2024x') };
    expect((await api.json(await api.post('/agg-web/user/changePassword', change, { cookie: s4.cookie }))).code).toBe('0');
    await expectHeard([s5.id]);

    // An operator signs the person out everywhere (s4, s6), then blocks them (s7).
    const support = await supportOperator();
    const s6 = await signedIn(staff.email, 'Fresh2024x');
    expect((await api.json(await api.post(`/ops/v1/people/${staff.userId}/signOut`, { reason: 'Phone reported stolen' }, { cookie: support, ...asConsole }))).code).toBe('0');
    await expectHeard([s4.id, s6.id]);
    const s7 = await signedIn(staff.email, 'Fresh2024x');
    expect((await api.json(await api.post(`/ops/v1/people/${staff.userId}/block`, { reason: 'Fraud suspected' }, { cookie: support, ...asConsole }))).code).toBe('0');
    await expectHeard([s7.id]);

    // Another company's endpoint heard none of them; the company's own heard each once, also when delivered.
    expect(await heard(otherEp.endpoint.id)).toEqual([]);
    await deliverWebhooks(worker.env, Date.now() + 1_000);
    const bodies = toPath(`/signed-out-${companyId}`).map((r) => JSON.parse(r.body) as { type: string; data: { sessionId: string } });
    expect(bodies.map((b) => b.data.sessionId).sort()).toEqual([...expected].sort());
    expect(toPath(`/signed-out-${other.companyId}`)).toEqual([]);
  });
});
