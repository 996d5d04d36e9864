import { describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/lib/password-hash';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { useWorkerEnv, type Envelope } from './gateway-client';

/**
 * People support and the audit trail through the whole Worker (edge cookies included) on a real local D1:
 * who may call what, that each action changes something once under a burst, that its audit row lands in the
 * same batch as the change (a refused change writes none), that a blocked person is refused everywhere, and
 * that a person sees their own part of the trail and nobody else's.
 */
const { worker, api } = useWorkerEnv('ops-people');

type Role = 'reviewer' | 'support' | 'admin';

/** An operator of `role` signed in through the dev route: the operator cookie the edge set. */
async function operator(role: Role) {
  const res = await api.post('/dev/operator-session', { login: `${role}.${api.unique()}@ops.example.com`, role });
  const body = await api.json<{ operatorId: string; operatorSession: Record<string, unknown> }>(res);
  expect(body.code).toBe('0');
  // The token went into the HttpOnly cookie and out of the answer.
  expect(body.data.operatorSession).not.toHaveProperty('token');
  const [, value] = /(?:^|\n)portal_operator=([^;]+)/.exec(res.headers.getSetCookie().join('\n')) ?? [];
  expect(value).toBeTruthy();
  return { id: body.data.operatorId, cookie: `portal_operator=${value}` };
}

const auditRows = async (action: string, targetId: string) =>
  (
    await worker.env.DB.prepare('SELECT actor_kind, actor_id, reason, network FROM audit_log WHERE action = ? AND target_id = ?')
      .bind(action, targetId)
      .all<{ actor_kind: string; actor_id: string; reason: string; network: string }>()
  ).results;

const act = async (cookie: string, path: string, body: unknown = { reason: 'Person called the help desk, identity checked' }, from?: string) =>
  api.json(await api.post(path, body, { cookie, from }));

/** `n` parallel calls of the same action: their codes, counted. */
async function burst(n: number, call: () => Promise<Envelope>) {
  const codes = (await Promise.all(Array.from({ length: n }, call))).map((b) => b.code);
  return codes.reduce<Record<string, number>>((count, code) => ({ ...count, [code]: (count[code] ?? 0) + 1 }), {});
}

describe('who may call people support', { timeout: 120_000 }, () => {
  it('support and admin may; a reviewer, a platform session, a forged header and nobody may not', async () => {
    const person = await api.person();
    const [support, admin, reviewer] = await Promise.all([operator('support'), operator('admin'), operator('reviewer')]);
    const calls: [method: 'GET' | 'POST', path: string][] = [
      ['GET', `/ops/v1/people?q=${encodeURIComponent(person.email)}`],
      ['GET', `/ops/v1/people/${person.userId}`],
      ['POST', `/ops/v1/people/${person.userId}/unlock`],
      ['POST', `/ops/v1/people/${person.userId}/signOut`],
      ['POST', `/ops/v1/people/${person.userId}/requirePasswordChange`],
      ['POST', `/ops/v1/people/${person.userId}/resetTwoStep`],
      ['POST', `/ops/v1/people/${person.userId}/block`],
      ['POST', `/ops/v1/people/${person.userId}/unblock`],
      ['POST', `/ops/v1/companies/c-1/transferAdministrator`],
    ];
    const body = { reason: 'role check', userId: person.userId };
    const send = async (method: 'GET' | 'POST', path: string, cookie?: string, headers?: Record<string, string>) =>
      api.json(await (method === 'GET' ? api.get(path, { cookie, headers }) : api.post(path, body, { cookie, headers })));
    for (const [method, path] of calls) {
      const [asReviewer, asPlatform, forged, anonymous] = await Promise.all([
        send(method, path, reviewer.cookie),
        send(method, path, person.cookie),
        // A script sending the edge's own header, or the platform token as the operator cookie.
        send(method, path, undefined, { 'x-operator-session': person.cookie.split('=')[1]! }),
        send(method, path),
      ]);
      expect([asReviewer.code, asPlatform.code, forged.code, anonymous.code], `${method} ${path}`).toEqual(['OP0003', 'OP0001', 'OP0001', 'OP0001']);
    }
    // Nothing was changed or recorded by the refused calls.
    expect((await worker.env.DB.prepare('SELECT COUNT(*) AS n FROM audit_log WHERE target_id = ? AND actor_kind = ?').bind(person.userId, 'operator').first<{ n: number }>())!.n).toBe(0);

    // Support and admin reach the calls (the look-ups answer, the actions answer their own codes).
    for (const who of [support, admin]) {
      const found = await send('GET', `/ops/v1/people?q=${encodeURIComponent(person.email)}`, who.cookie);
      expect(found.code).toBe('0');
      expect((found.data as { people: { id: string }[] }).people.map((p) => p.id)).toEqual([person.userId]);
      expect((await send('GET', `/ops/v1/people/${person.userId}`, who.cookie)).code).toBe('0');
      expect((await send('POST', `/ops/v1/people/${person.userId}/unblock`, who.cookie)).code).toBe('PS0004');
    }
    // The audit trail is for every operator role, and never for a platform session.
    expect((await send('GET', '/ops/v1/audit', reviewer.cookie)).code).toBe('0');
    expect((await send('GET', '/ops/v1/audit', person.cookie)).code).toBe('OP0001');
  });

  it('an action without a reason is refused and writes nothing', async () => {
    const person = await api.person();
    const support = await operator('support');
    for (const body of [{}, { reason: '  ' }, { reason: 'x'.repeat(501) }]) {
      expect((await act(support.cookie, `/ops/v1/people/${person.userId}/block`, body)).code).toBe('PS0009');
    }
    expect(await auditRows('user.blocked', person.userId)).toEqual([]);
    expect((await api.json(await api.get('/agg-web/user/fetchMeByUserToken', { cookie: person.cookie }))).code).toBe('0');
  });
});

describe('finding a person', { timeout: 120_000 }, () => {
  it('by phone, e-mail, user ID and name prefix; details show lock and two-step state without secrets', async () => {
    const support = await operator('support');
    const mobile = api.mobile('137');
    const realName = `Zhou ${api.unique()}`;
    const email = `find.${api.unique()}@example.com`;
    const userId = await api.seed({ email, password: 'Harbour2024', realName, phone: { callingCode: '+86', mobile } });
    for (const q of [email, email.toUpperCase(), mobile, `+86 ${mobile}`, userId, realName.slice(0, 9)]) {
      const page = await api.json<{ people: { id: string }[] }>(await api.get(`/ops/v1/people?q=${encodeURIComponent(q)}`, { cookie: support.cookie }));
      expect(page.code, q).toBe('0');
      expect(page.data.people.map((p) => p.id), q).toContain(userId);
    }
    expect((await api.json(await api.get('/ops/v1/people?q=', { cookie: support.cookie }))).code).toBe('PS0010');
    expect((await api.json(await api.get('/ops/v1/people/no-such-person', { cookie: support.cookie }))).code).toBe('PS0001');
    const detail = await api.readAll(await api.get(`/ops/v1/people/${userId}`, { cookie: support.cookie }));
    expect(detail.body.code).toBe('0');
    expect(detail.body.data).toMatchObject({ profile: { id: userId, email, blocked: false }, twoStep: { enabled: false }, lock: { locked: false } });
    expect(detail.text).not.toMatch(/password_hash|salt|secret|token/i);
  });
});

describe('support actions', { timeout: 120_000 }, () => {
  it('unlock: a locked-out person signs in again from the locked network; 20 parallel unlocks change once and write one row', async () => {
    const email = `locked.${api.unique()}@example.com`;
    const userId = await api.seed({ email, password: 'Harbour2024' });
    const from = api.ip();
    const attempt = async (password: string) =>
      api.json(await api.emailLogin(email, password, { nvcvalStr: JSON.stringify(await api.sliderCheck('login', email)) }, { from }));
    for (let i = 0; i < 10; i++) expect((await attempt('wrong-one1')).code).toBe('US0010');
    // Locked: the right password reads like any failure.
    expect((await attempt('Harbour2024')).code).toBe('US0010');

    const support = await operator('support');
    const detail = await api.json<{ lock: { locked: boolean; failures: { network: string }[] } }>(await api.get(`/ops/v1/people/${userId}`, { cookie: support.cookie }));
    expect(detail.data.lock.locked).toBe(true);
    expect(detail.data.lock.failures.map((f) => f.network)).toContain(from);

    expect(await burst(20, () => act(support.cookie, `/ops/v1/people/${userId}/unlock`))).toEqual({ '0': 1, PS0002: 19 });
    const rows = await auditRows('user.unlocked', userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor_kind: 'operator', actor_id: support.id, reason: 'Person called the help desk, identity checked' });

    const signedIn = await api.emailLogin(email, 'Harbour2024', {}, { from });
    expect((await api.json(signedIn)).code).toBe('0');
  });

  it('block: 20 parallel blocks change once, write one row and end the sessions; every sign-in is refused clearly; unblock restores', async () => {
    const person = await api.person();
    const support = await operator('support');
    expect(await burst(20, () => act(support.cookie, `/ops/v1/people/${person.userId}/block`))).toEqual({ '0': 1, PS0003: 19 });
    expect(await auditRows('user.blocked', person.userId)).toHaveLength(1);

    // The session it had is over (and the edge clears the cookie).
    const me = await api.get('/agg-web/user/fetchMeByUserToken', { cookie: person.cookie });
    expect((await api.json(me)).code).toBe('TK00001');
    // The right password: refused with the clear message, in both languages; no session cookie.
    for (const lang of ['en', 'zh'] as const) {
      const refused = await api.emailLogin(person.email, 'Harbour2024', {}, { lang });
      expect(refused.headers.getSetCookie().some((c) => c.startsWith('portal_token=') && !c.startsWith('portal_token=;'))).toBe(false);
      const body = await api.json(refused);
      expect(body).toMatchObject({ code: 'PS0100', message: expect.stringContaining(errorCatalogue.PS0100[lang]) });
    }
    // The wrong password still answers like any failure (the block is no oracle for the password).
    expect((await api.json(await api.emailLogin(person.email, 'Wrong-pass1'))).code).toBe('US0010');
    // No sign-in row of a success was written while blocked.
    const signIns = await worker.env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'user.signed_in' AND target_id = ?").bind(person.userId).first<{ n: number }>();
    expect(signIns!.n).toBe(1);

    expect(await burst(20, () => act(support.cookie, `/ops/v1/people/${person.userId}/unblock`))).toEqual({ '0': 1, PS0004: 19 });
    expect(await auditRows('user.unblocked', person.userId)).toHaveLength(1);
    expect((await api.json(await api.emailLogin(person.email, 'Harbour2024'))).code).toBe('0');
  });

  it('sign out everywhere and require a password change: once each, and the next sign-in answers originalFlag', async () => {
    const person = await api.person();
    const second = await api.signIn(person.email);
    const support = await operator('support');
    const ended = await burst(20, () => act(support.cookie, `/ops/v1/people/${person.userId}/signOut`));
    expect(ended).toEqual({ '0': 1, PS0005: 19 });
    for (const cookie of [person.cookie, second.cookie]) expect((await api.json(await api.get('/agg-web/user/fetchMeByUserToken', { cookie }))).code).toBe('TK00001');
    expect(await auditRows('user.signed_out_everywhere', person.userId)).toHaveLength(1);

    expect(await burst(20, () => act(support.cookie, `/ops/v1/people/${person.userId}/requirePasswordChange`))).toEqual({ '0': 1, PS0006: 19 });
    expect(await auditRows('user.password_change_required', person.userId)).toHaveLength(1);
    const again = await api.json<{ originalFlag: boolean }>(await api.emailLogin(person.email, 'Harbour2024'));
    expect(again).toMatchObject({ code: '0', data: { originalFlag: true } });
  });

  it('sign out everywhere of a person with no live session but a trusted device: the trust ends, 0 sessions, one row; then nothing is left', async () => {
    const person = await api.person();
    // Signed out by the person themselves; a device they trusted remains (the second step would skip it).
    expect((await api.json(await api.post('/c/user/v2/loginout', {}, { cookie: person.cookie }))).code).toBe('0');
    const at = Date.now();
    await worker.env.DB.prepare('INSERT INTO known_devices (token_hash, public_id, user_id, created_at, last_used_at, trusted_until) VALUES (?, ?, ?, ?, ?, ?)')
      .bind(`hash-${api.unique()}`, `dev-${api.unique()}`, person.userId, at, at, at + 30 * 86_400_000)
      .run();
    const support = await operator('support');
    const answers = await Promise.all(Array.from({ length: 5 }, () => act(support.cookie, `/ops/v1/people/${person.userId}/signOut`)));
    expect(answers.map((a) => a.code).sort()).toEqual(['0', 'PS0005', 'PS0005', 'PS0005', 'PS0005']);
    expect(answers.find((a) => a.code === '0')!.data).toEqual({ ended: 0 });
    const trusted = await worker.env.DB.prepare('SELECT COUNT(*) AS n FROM known_devices WHERE user_id = ? AND trusted_until IS NOT NULL').bind(person.userId).first<{ n: number }>();
    expect(trusted!.n).toBe(0);
    expect(await auditRows('user.signed_out_everywhere', person.userId)).toHaveLength(1);
    // Nothing left to end: refused, and no row.
    expect((await act(support.cookie, `/ops/v1/people/${person.userId}/signOut`)).code).toBe('PS0005');
    expect(await auditRows('user.signed_out_everywhere', person.userId)).toHaveLength(1);
  });

  it('transfer the administrator role: 20 parallel transfers to different staff leave exactly one administrator; a refused one writes nothing', async () => {
    const admin = await api.person({ companies: [{ nameEn: `Left Ltd ${api.unique()}`, role: 'administrator' }] });
    const { company_id: companyId } = (await worker.env.DB.prepare('SELECT company_id FROM company_members WHERE user_id = ?').bind(admin.userId).first<{ company_id: string }>())!;
    const staff = await Promise.all(Array.from({ length: 20 }, () => api.seed({ email: `staff.${api.unique()}@example.com`, password: 'Harbour2024' })));
    const outsider = await api.seed({ email: `out.${api.unique()}@example.com`, password: 'Harbour2024' });
    await worker.env.DB.batch(
      staff.map((id) => worker.env.DB.prepare("INSERT INTO company_members (company_id, user_id, role, status, joined_at) VALUES (?, ?, 'staff', 'active', 0)").bind(companyId, id)),
    );
    const support = await operator('support');
    const path = `/ops/v1/companies/${companyId}/transferAdministrator`;

    // Someone who is no member of the company cannot become its administrator; nothing is recorded.
    expect((await act(support.cookie, path, { userId: outsider, reason: 'administrator left' })).code).toBe('PS0008');
    expect(await auditRows('company.administrator_transferred', companyId)).toEqual([]);

    // Each of the 20 calls names another staff member.
    const queue = [...staff];
    const codes = await burst(20, () => act(support.cookie, path, { userId: queue.shift()!, reason: 'administrator left the company' }));
    expect(codes).toEqual({ '0': 1, PS0008: 19 });
    const admins = await worker.env.DB.prepare("SELECT user_id FROM company_members WHERE company_id = ? AND role = 'administrator'").bind(companyId).all();
    expect(admins.results).toHaveLength(1);
    const old = await worker.env.DB.prepare('SELECT role, status FROM company_members WHERE company_id = ? AND user_id = ?').bind(companyId, admin.userId).first();
    expect(old).toEqual({ role: 'staff', status: 'rejected' });
    expect(await auditRows('company.administrator_transferred', companyId)).toHaveLength(1);
  });
});

describe('the audit trail', { timeout: 120_000 }, () => {
  it('sign-ins, password and membership events are rows; operators filter them; a person sees only their own part', async () => {
    const one = await api.person();
    const other = await api.person();
    const support = await operator('support');
    expect((await act(support.cookie, `/ops/v1/people/${one.userId}/requirePasswordChange`, { reason: 'Internal note: suspected phishing' })).code).toBe('0');

    const reviewer = await operator('reviewer');
    const filtered = await api.json<{ entries: { action: string; targetId: string; actorName: string | null }[] }>(
      await api.get(`/ops/v1/audit?target=${one.userId}`, { cookie: reviewer.cookie }),
    );
    expect(filtered.code).toBe('0');
    expect(filtered.data.entries.map((e) => e.action)).toEqual(['user.password_change_required', 'user.signed_in']);
    expect(filtered.data.entries.every((e) => e.targetId === one.userId)).toBe(true);
    const byActor = await api.json<{ entries: { action: string }[] }>(await api.get(`/ops/v1/audit?actor=${support.id}&action=user.password_change_required`, { cookie: reviewer.cookie }));
    expect(byActor.data.entries).toHaveLength(1);
    const future = await api.json<{ entries: unknown[] }>(await api.get(`/ops/v1/audit?target=${one.userId}&from=${Date.now() + 60_000}`, { cookie: reviewer.cookie }));
    expect(future.data.entries).toEqual([]);

    // The person's own view (signed in again: the action ended their sessions): their sign-ins and the support
    // action, without the operator's id, name, reason or network.
    const again = await api.signIn(one.email);
    const mine = await api.readAll<{ action: string; by: string; network: string | null }[]>(await api.get('/agg-web/user/security/activity', { cookie: again.cookie }));
    expect(mine.body.code).toBe('0');
    expect(mine.body.data.map((e) => [e.action, e.by])).toEqual([
      ['user.signed_in', 'you'],
      ['user.password_change_required', 'support'],
      ['user.signed_in', 'you'],
    ]);
    expect(mine.body.data[0]!.network).toBeTruthy();
    expect(mine.body.data[1]!.network).toBeNull();
    expect(mine.text).not.toContain(support.id);
    expect(mine.text).not.toContain('phishing');
    expect(mine.text).not.toContain(other.userId);
    // And the other person's view has nothing of the first.
    const theirs = await api.readAll(await api.get('/agg-web/user/security/activity', { cookie: other.cookie }));
    expect(theirs.text).not.toContain('password_change_required');
    expect((await api.json(await api.get('/agg-web/user/security/activity'))).code).toBe('TK00001');
  });

  it('a password reset and a staff approval write their rows with the change', async () => {
    const admin = await api.person({ companies: [{ nameEn: `Approve Ltd ${api.unique()}`, role: 'administrator' }] });
    const { company_id: companyId } = (await worker.env.DB.prepare('SELECT company_id FROM company_members WHERE user_id = ?').bind(admin.userId).first<{ company_id: string }>())!;
    const staff = await api.seed({ email: `join.${api.unique()}@example.com`, password: 'Harbour2024' });
    await worker.env.DB.prepare("INSERT INTO company_members (company_id, user_id, role, status, joined_at) VALUES (?, ?, 'staff', 'pending', 0)").bind(companyId, staff).run();
    const answers = await burst(20, async () => api.json(await api.post('/agg-web/company/member/approve', { companyId, userId: staff }, { cookie: admin.cookie })));
    expect(answers).toEqual({ '0': 20 });
    const rows = await auditRows('member.approved', staff);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor_kind: 'user', actor_id: admin.userId });

    const email = `reset.${api.unique()}@example.com`;
    const userId = await api.seed({ email, password: 'Harbour2024' });
    await api.post('/agg-web/user/password/reset/sendCode', { loginType: 2, loginEmail: email }).then((r) => r.body?.cancel());
    const code = await api.latestCode(email);
    const wrong = await api.json(
      await api.post('/agg-web/user/password/reset', { loginType: 2, loginEmail: email, code: code === '000000' ? '111111' : '000000', newPassword: await hashPassword('Harbour2025'), newPasswordSubmit: await hashPassword('Harbour2025') }),
    );
    expect(wrong.code).not.toBe('0');
    expect(await auditRows('user.password_reset', userId)).toEqual([]);
    const reset = await api.json(
      await api.post('/agg-web/user/password/reset', { loginType: 2, loginEmail: email, code, newPassword: await hashPassword('Harbour2025'), newPasswordSubmit: await hashPassword('Harbour2025') }),
    );
    expect(reset.code).toBe('0');
    expect(await auditRows('user.password_reset', userId)).toHaveLength(1);
  });
});
