import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app from '../../functions/worker';
import { auditStatement } from '../../functions/gateway/audit/db';
import { OPERATOR_IDLE_MS, operatorInsert, startOperatorSession } from '../../functions/gateway/operators/service';
import { sha256Hex } from '../../functions/gateway/identity/passwords';
import { createSession } from '../../functions/gateway/sessions/service';
import { startWorkerEnv } from './worker-env';

/**
 * The ground every operator call stands on: the operator cookie opens operator calls and nothing else opens
 * them (not the platform cookie, not a header a script sends itself), sessions end after 30 idle minutes
 * and at logout, and the audit trail cannot be rewritten.
 */
const ORIGIN = 'https://portal.example.com';
let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
let seq = 0;
beforeAll(async () => {
  worker = await startWorkerEnv('operators-foundation', { PORTAL_ORIGIN: ORIGIN });
});
afterAll(() => worker.dispose());

async function call(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await app.request(
    `${ORIGIN}${path}`,
    { method, headers: { 'cf-connecting-ip': `203.0.113.${++seq % 250}`, origin: ORIGIN, 'sec-fetch-site': 'same-origin', ...headers } },
    worker.env,
    worker.ctx,
  );
  return { body: (await res.json()) as { code: string; data: Record<string, unknown> | null }, cookies: res.headers.getSetCookie() };
}

async function newOperator(role: 'reviewer' | 'support' | 'admin' = 'reviewer') {
  const at = Date.now();
  const { id, statement } = await operatorInsert(
    worker.env.DB,
    worker.env,
    { login: `op${++seq}.${at.toString(36)}@ops.example.com`, name: `Operator ${seq}`, role, clientHash: await sha256Hex('Operator-pass-1') },
    at,
  );
  await statement.run();
  return id;
}

describe('operator sessions', () => {
  it('the operator cookie opens operator calls; the platform cookie and a forged header do not', async () => {
    const id = await newOperator('support');
    const { token } = await startOperatorSession(worker.env.DB, id, Date.now());
    const me = await call('/api/ops/v1/me', { cookie: `__Host-portal_operator=${token}` });
    expect(me.body.code).toBe('0');
    expect(me.body.data).toMatchObject({ id, role: 'support' });
    expect(JSON.stringify(me.body.data)).not.toMatch(/password|totp/);

    // The same token in the platform cookie, or sent by a script as the edge's own header, opens nothing.
    expect((await call('/api/ops/v1/me', { cookie: `__Host-portal_token=${token}` })).body.code).toBe('OP0001');
    expect((await call('/api/ops/v1/me', { 'x-operator-session': token })).body.code).toBe('OP0001');
    // An operator cookie without the __Host- prefix on https could have been planted: not read.
    expect((await call('/api/ops/v1/me', { cookie: `portal_operator=${token}` })).body.code).toBe('OP0001');
  });

  it('a platform session in the operator cookie is no operator session', async () => {
    const user = crypto.randomUUID();
    await worker.env.DB.prepare("INSERT INTO users (id, email, created_at) VALUES (?, ?, 0)").bind(user, `p${seq}@example.com`).run();
    const { token } = await createSession(worker.env.DB, { userId: user, kind: 'platform', now: Date.now() });
    const refused = await call('/api/ops/v1/me', { cookie: `__Host-portal_operator=${token}` });
    expect(refused.body.code).toBe('OP0001');
    // The refusal clears the operator cookie, and only it.
    expect(refused.cookies.some((c) => c.startsWith('__Host-portal_operator=;'))).toBe(true);
    expect(refused.cookies.some((c) => c.includes('portal_token'))).toBe(false);
  });

  it('ends after 30 idle minutes and at logout', async () => {
    const id = await newOperator();
    const idle = await startOperatorSession(worker.env.DB, id, Date.now() - OPERATOR_IDLE_MS - 1000);
    expect((await call('/api/ops/v1/me', { cookie: `__Host-portal_operator=${idle.token}` })).body.code).toBe('OP0001');

    const { token } = await startOperatorSession(worker.env.DB, id, Date.now());
    const cookie = `__Host-portal_operator=${token}`;
    const out = await call('/api/ops/v1/logout', { cookie }, 'POST');
    expect(out.body.code).toBe('0');
    expect(out.cookies.some((c) => /^__Host-portal_operator=; Max-Age=0/.test(c))).toBe(true);
    expect((await call('/api/ops/v1/me', { cookie })).body.code).toBe('OP0001');
    const row = await worker.env.DB.prepare("SELECT action FROM audit_log WHERE actor_id = ? AND action = 'operator.signed_out'").bind(id).first();
    expect(row).not.toBeNull();
  });
});

describe('audit trail', () => {
  it('rows can be added but never changed or deleted', async () => {
    const at = Date.now();
    await auditStatement(worker.env.DB, { at, actor: { kind: 'system', id: null }, action: 'user.unlocked', target: { kind: 'user', id: 'u1' } }).run();
    const row = await worker.env.DB.prepare("SELECT id FROM audit_log WHERE action = 'user.unlocked' AND created_at = ?").bind(at).first<{ id: number }>();
    expect(row).not.toBeNull();
    await expect(worker.env.DB.prepare("UPDATE audit_log SET action = 'test.rewritten' WHERE id = ?").bind(row!.id).run()).rejects.toThrow(/append-only/);
    await expect(worker.env.DB.prepare('DELETE FROM audit_log WHERE id = ?').bind(row!.id).run()).rejects.toThrow(/append-only/);
    const still = await worker.env.DB.prepare('SELECT action FROM audit_log WHERE id = ?').bind(row!.id).first<{ action: string }>();
    expect(still?.action).toBe('user.unlocked');
  });
});
