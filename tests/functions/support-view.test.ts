import * as oidc from 'openid-client';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it, vi } from 'vitest';
import type { MeAnswer } from '../../src/schemas/profile';
import type { SupportCodeAnswer, SupportConsole, SupportViewStarted } from '../../src/schemas/support-view';
import { useWorkerEnv } from './gateway-client';
import { ISSUER, RP, useTrustedApp } from './trusted-app';

/**
 * Support "view as" (issue 44) the way an attacker tries it, through the whole Worker on a real local D1: codes that
 * are expired, reused, old or guessed; twenty operators racing one code; an operator without the support role;
 * an operator's own account; writes in a read-only view and security settings with writes allowed; /ops from the
 * view; a view past 30 minutes (the dev clock); OpenID tokens (act, amr) refreshed; the notices and the trail.
 */
vi.setConfig({ testTimeout: 60_000 });
const { worker, api } = useWorkerEnv('support-view', { PORTAL_ORIGIN: ISSUER });
const { app: trustedApp, browse } = useTrustedApp(worker);

type Person = Awaited<ReturnType<typeof api.person>>;
type Operator = { id: string; cookie: string; secret: string; login: string };
const MINUTE = 60_000;
let clockOffset = 0;

/** A dev operator in `role` with their console cookie and authenticator secret. */
async function operator(role: 'support' | 'admin' | 'reviewer', name = `Op ${role}`): Promise<Operator> {
  const login = `${role}.${api.unique()}@ops.example.com`;
  const res = await api.post('/dev/operator-session', { login, role, name });
  const [, value] = /(?:^|\n)portal_operator=([^;]+)/.exec(res.headers.getSetCookie().join('\n')) ?? [];
  const body = await api.json<{ operatorId: string; totpSecret: string }>(res);
  expect(body.code).toBe('0');
  return { id: body.data.operatorId, cookie: `portal_operator=${value}`, secret: body.data.totpSecret, login };
}

/** A code of the operator's app `steps` periods from now, on the Worker's clock. */
const proofOf = (op: Operator, steps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(op.secret), digits: 6, period: 30, timestamp: Date.now() + clockOffset + steps * 30_000 });

async function moveClock(ms: number) {
  clockOffset += ms;
  expect((await api.json(await api.post('/dev/clock', { advanceMs: ms }))).code).toBe('0');
}
async function resetClock() {
  clockOffset = 0;
  expect((await api.json(await api.post('/dev/clock', { reset: true }))).code).toBe('0');
}

const supportCode = async (who: Person) => api.json<SupportCodeAnswer>(await api.post('/agg-web/user/support/code', {}, { cookie: who.cookie }));

async function start(op: Operator, body: Record<string, unknown>, steps = 0) {
  const res = await api.post('/ops/v1/support/views', { reason: 'Caller cannot find the vessel list (ticket 4711)', proof: proofOf(op, steps), ...body }, { cookie: op.cookie });
  const cookie = api.sessionCookie(res);
  return { body: await api.json<SupportViewStarted>(res), cookie, setCookies: res.headers.getSetCookie() };
}

/** The support marker an answer writes (the banner of every page): its value, '' when cleared, undefined if untouched. */
const supportMarker = (setCookies: string[]) => {
  const found = setCookies.find((c) => c.startsWith('portal_support='));
  if (found === undefined) return undefined;
  return /Max-Age=0\b/.test(found) ? '' : decodeURIComponent(/^portal_support=([^;]*)/.exec(found)![1]!);
};

const me = async (cookie: string) => api.json<MeAnswer>(await api.get('/agg-web/user/fetchMeByUserToken', { cookie }));
const rows = async (sql: string, ...binds: unknown[]) => (await worker.env.DB.prepare(sql).bind(...binds).all<Record<string, unknown>>()).results;
const auditOf = (action: string, targetId: string) =>
  rows('SELECT actor_kind, actor_id, target_kind, target_id, reason, detail FROM audit_log WHERE action = ? AND target_id = ? ORDER BY id', action, targetId);

/** A staff member of a company with its administrator (who reads the company's trail). */
async function member() {
  const admin = await api.person({ realName: 'Ada Admin', companies: [{ nameEn: `Support Lines ${api.unique()}`, role: 'administrator' }] });
  const { company_id: companyId } = (await rows('SELECT company_id FROM company_members WHERE user_id = ?', admin.userId))[0] as { company_id: string };
  const person = await api.person({ realName: 'Sam Staff', companies: [{ companyId, role: 'staff' }] });
  return { admin, person, companyId };
}

describe('support code and view as', () => {
  it('starts from the person’s code with a reason and a fresh proof: 30 minutes, read-only, marked, told, in both trails, ended by End', async () => {
    const { admin, person, companyId } = await member();
    const op = await operator('support', 'Olga Support');
    const issued = await supportCode(person);
    expect(issued.code).toBe('0');
    expect(issued.data.code).toMatch(/^\d{6}$/);
    expect(issued.data.expiresIn).toBe(900);
    // Hashed at rest: the code is nowhere in the table.
    const stored = await rows('SELECT * FROM support_codes WHERE user_id = ?', person.userId);
    expect(JSON.stringify(stored)).not.toContain(issued.data.code);

    // No proof, or a wrong one, starts nothing and spends nothing.
    const noProof = await api.json(await api.post('/ops/v1/support/views', { userId: person.userId, code: issued.data.code, reason: 'Phone call' }, { cookie: op.cookie }));
    expect(noProof.code).toBe('GW0400');
    const wrongProof = await api.json(
      await api.post('/ops/v1/support/views', { userId: person.userId, code: issued.data.code, reason: 'Phone call', proof: proofOf(op) === '000000' ? '111111' : '000000' }, { cookie: op.cookie }),
    );
    expect(wrongProof.code).toBe('OP0008');

    const started = await start(op, { userId: person.userId, code: issued.data.code });
    expect(started.body.code).toBe('0');
    const { view } = started.body.data;
    expect(view).toMatchObject({ userId: person.userId, writable: false });
    expect(JSON.stringify(started.body)).not.toContain('access_token');
    const [session] = await rows('SELECT * FROM sessions WHERE public_id = ?', view.id);
    expect(session).toMatchObject({ user_id: person.userId, support_operator_id: op.id, support_writable: 0, signed_in_with: 'support', proved_at: null });
    expect(Number(session!.expires_at) - Number(session!.created_at)).toBe(30 * MINUTE);

    // The banner's data, in the view only.
    const seen = await me(started.cookie);
    expect(seen.code).toBe('0');
    expect(seen.data.supportView).toEqual({ operator: 'Olga Support', until: view.until, writable: false });
    expect((await me(person.cookie)).data.supportView).toBeNull();

    // Read-only: a change is refused and changes nothing.
    const write = await api.json(await api.post('/agg-web/user/updateUserInfo', { realName: 'Changed By Support' }, { cookie: started.cookie, lang: 'zh' }));
    expect(write.code).toBe('SV0002');
    expect(write.message).toContain('只读');
    expect((await me(person.cookie)).data.realName).toBe('Sam Staff');
    // Choosing the account in use and reading by POST are no changes.
    expect((await api.json(await api.post('/c/user/v2/getCompanyListByToken', {}, { cookie: started.cookie }))).code).toBe('0');

    // Security settings, secrets and the support code itself: refused whatever the method.
    for (const [method, path] of [
      ['GET', '/agg-web/user/security/sessions'],
      ['GET', '/agg-web/user/security/devices'],
      ['POST', '/agg-web/user/twoStep/recoveryCodes'],
      ['POST', '/agg-web/user/proof/start'],
      ['POST', '/agg-web/passkeys/list'],
      ['POST', '/agg-web/user/changePassword'],
      ['GET', '/agg-web/user/data'],
      ['POST', '/agg-web/user/support/code'],
      ['POST', '/agg-web/api-clients/create'],
    ] as const) {
      const answer = await api.json(method === 'GET' ? await api.get(path, { cookie: started.cookie }) : await api.post(path, {}, { cookie: started.cookie }));
      expect(answer.code, `${method} ${path}`).toBe('SV0001');
    }
    // The view is a person's session: no /ops call opens with it.
    expect((await api.json(await api.get('/ops/v1/support', { cookie: started.cookie }))).code).toBe('OP0001');
    expect((await api.json(await api.get('/ops/v1/me', { cookie: started.cookie }))).code).toBe('OP0001');

    // Told at the start: a notice and their activity; their company's administrator sees it in the company's trail.
    expect((await api.outbox(person.email))[0]!.subject).toBe('A security change on your account');
    expect((await api.outbox(person.email))[0]!.text).toContain('platform support started viewing your account');
    const [startRow] = await auditOf('user.support_view_started', person.userId);
    expect(startRow).toMatchObject({ actor_kind: 'operator', actor_id: op.id, reason: 'Caller cannot find the vessel list (ticket 4711)' });
    expect(await auditOf('company.support_view_started', companyId)).toHaveLength(1);
    const trail = await api.json<unknown>(await api.get(`/agg-web/company/audit?companyId=${companyId}`, { cookie: admin.cookie }));
    expect(JSON.stringify(trail.data)).toContain('company.support_view_started');
    const activity = await api.json<{ action: string; by: string }[]>(await api.get('/agg-web/user/security/activity', { cookie: person.cookie }));
    expect(activity.data).toContainEqual(expect.objectContaining({ action: 'user.support_view_started', by: 'support' }));

    // The console lists it.
    const listed = await api.json<SupportConsole>(await api.get('/ops/v1/support', { cookie: op.cookie }));
    expect(listed.data.views).toContainEqual(expect.objectContaining({ id: view.id, operator: 'Olga Support', writable: false }));

    // End: the session ends, the person is told, both trails say so; a second End is SV0008-free (the session is gone).
    expect((await api.json(await api.post('/agg-web/user/support/end', {}, { cookie: started.cookie }))).code).toBe('0');
    expect((await me(started.cookie)).code).toBe('TK00001');
    expect((await api.outbox(person.email))[0]!.text).toContain('platform support stopped viewing your account');
    expect(await auditOf('user.support_view_ended', person.userId)).toHaveLength(1);
    expect(await auditOf('company.support_view_ended', companyId)).toHaveLength(1);
    // In the person's own session there is no view to end.
    expect((await api.json(await api.post('/agg-web/user/support/end', {}, { cookie: person.cookie }))).code).toBe('SV0008');
  });

  it('refuses a reused code, an old code, a guessed code and an expired one (dev clock), all alike', async () => {
    const person = await api.person();
    const op = await operator('support');
    const first = (await supportCode(person)).data.code;
    expect((await start(op, { userId: person.userId, code: first })).body.code).toBe('0');
    expect((await start(op, { userId: person.userId, code: first }, 1)).body.code).toBe('SV0003');

    // Only the latest code is live.
    const older = (await supportCode(person)).data.code;
    const latest = (await supportCode(person)).data.code;
    // No code at all is refused alike and spends no try.
    expect((await start(await operator('support'), { userId: person.userId })).body.code).toBe('SV0003');
    expect((await rows('SELECT tries FROM support_codes WHERE user_id = ? ORDER BY id DESC LIMIT 1', person.userId))[0]).toEqual({ tries: 0 });
    const other = await operator('support');
    if (older !== latest) expect((await start(other, { userId: person.userId, code: older })).body.code).toBe('SV0003');

    // Five wrong guesses and the code is dead, even for the right one.
    const wrong = latest === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) expect((await start(await operator('support'), { userId: person.userId, code: wrong })).body.code).toBe('SV0003');
    const late = await operator('support');
    expect((await start(late, { userId: person.userId, code: latest })).body.code).toBe('SV0003');

    // 15 minutes later a code has expired.
    const fresh = (await supportCode(person)).data.code;
    await moveClock(16 * MINUTE);
    try {
      const afterwards = await operator('support');
      expect((await start(afterwards, { userId: person.userId, code: fresh })).body.code).toBe('SV0003');
    } finally {
      await resetClock();
    }
  });

  it('gives one session to twenty operators racing with one code', async () => {
    const person = await api.person();
    const operators = await Promise.all(Array.from({ length: 20 }, () => operator('support')));
    const code = (await supportCode(person)).data.code;
    const answers = await Promise.all(operators.map((op) => start(op, { userId: person.userId, code })));
    expect(answers.filter((a) => a.body.code === '0')).toHaveLength(1);
    expect(new Set(answers.filter((a) => a.body.code !== '0').map((a) => a.body.code))).toEqual(new Set(['SV0003']));
    expect(await rows('SELECT 1 FROM sessions WHERE user_id = ? AND support_operator_id IS NOT NULL', person.userId)).toHaveLength(1);
    expect(await auditOf('user.support_view_started', person.userId)).toHaveLength(1);
  });

  it('refuses an operator without the support role, and viewing as an operator’s own account', async () => {
    const person = await api.person();
    const reviewer = await operator('reviewer');
    const code = (await supportCode(person)).data.code;
    expect((await start(reviewer, { userId: person.userId, code })).body.code).toBe('OP0003');
    expect((await api.json(await api.post('/ops/v1/support/approvals', { userId: person.userId, reason: 'Cannot sign in' }, { cookie: reviewer.cookie }))).code).toBe('OP0003');

    // A colleague's platform account (signed up with their operator login) is not support's to view.
    const colleague = await operator('support');
    const theirs = await api.person({}, colleague.login);
    const op = await operator('support');
    const theirCode = (await supportCode(theirs)).data.code;
    expect((await start(op, { userId: theirs.userId, code: theirCode })).body.code).toBe('SV0004');
    // A person who is not there at all: the same.
    expect((await start(op, { userId: 'no-such-person', code: theirCode }, 1)).body.code).toBe('SV0004');
  });

  it('allows changes only by an administrator other than the viewing operator; each change is a row; security settings stay closed', async () => {
    const person = await api.person({ realName: 'Wendy Write' });
    const admin = await operator('admin', 'Adam Admin');
    const op = await operator('support', 'Olga Support');
    const started = await start(op, { userId: person.userId, code: (await supportCode(person)).data.code });
    const viewId = started.body.data.view.id;
    const reason = { reason: 'The person asked on the phone to fix their name' };

    // The viewing operator cannot allow their own changes (support role, or admin viewing).
    expect((await api.json(await api.post(`/ops/v1/support/views/${viewId}/allowWrites`, reason, { cookie: op.cookie }))).code).toBe('OP0003');
    const adminViewing = await start(admin, { userId: person.userId, code: (await supportCode(person)).data.code });
    expect(adminViewing.body.code).toBe('0');
    expect((await api.json(await api.post(`/ops/v1/support/views/${adminViewing.body.data.view.id}/allowWrites`, reason, { cookie: admin.cookie }))).code).toBe('SV0007');

    expect((await api.json(await api.post(`/ops/v1/support/views/${viewId}/allowWrites`, reason, { cookie: admin.cookie }))).code).toBe('0');
    expect((await me(started.cookie)).data.supportView).toMatchObject({ writable: true });
    expect(await auditOf('user.support_write_allowed', person.userId)).toEqual([expect.objectContaining({ actor_id: admin.id, reason: reason.reason })]);

    const changed = await api.json(await api.post('/agg-web/user/updateUserInfo', { realName: 'Wendy Right' }, { cookie: started.cookie }));
    expect(changed.code).toBe('0');
    const [write] = await auditOf('user.support_write', person.userId);
    expect(write).toMatchObject({ actor_kind: 'operator', actor_id: op.id, reason: 'Caller cannot find the vessel list (ticket 4711)' });
    expect(JSON.parse(String(write!.detail))).toMatchObject({ path: '/agg-web/user/updateUserInfo', sessionId: viewId });
    // Reads are no rows of their own.
    await me(started.cookie);
    expect(await auditOf('user.support_write', person.userId)).toHaveLength(1);

    for (const path of ['/agg-web/user/twoStep/enrol/start', '/agg-web/user/changePassword', '/agg-web/user/security/sessions/signOutOthers', '/agg-web/user/data/contact', '/agg-web/user/shareLogin/create']) {
      expect((await api.json(await api.post(path, {}, { cookie: started.cookie }))).code, path).toBe('SV0001');
    }
    // An ended view cannot be allowed anything.
    expect((await api.json(await api.post('/c/user/v2/loginout', {}, { cookie: started.cookie }))).code).toBe('0');
    expect(await auditOf('user.support_view_ended', person.userId)).toHaveLength(1);
    expect((await api.json(await api.post(`/ops/v1/support/views/${viewId}/allowWrites`, reason, { cookie: admin.cookie }))).code).toBe('SV0008');
  });

  it('ends a view 30 minutes after its start whatever it does (dev clock), nothing extends it, and the cron tells the person', async () => {
    const person = await api.person();
    const op = await operator('support');
    const started = await start(op, { userId: person.userId, code: (await supportCode(person)).data.code });
    const [before] = await rows('SELECT expires_at FROM sessions WHERE public_id = ?', started.body.data.view.id);
    try {
      await moveClock(20 * MINUTE);
      expect((await me(started.cookie)).code).toBe('0');
      await moveClock(9 * MINUTE);
      expect((await me(started.cookie)).code).toBe('0');
      const [after] = await rows('SELECT expires_at FROM sessions WHERE public_id = ?', started.body.data.view.id);
      expect(after!.expires_at).toBe(before!.expires_at);
      await moveClock(2 * MINUTE);
      expect((await me(started.cookie)).code).toBe('TK00001');
      // The every-minute cron ends it for good and tells the person, once.
      expect((await api.json<{ ended: number }>(await api.post('/dev/support/run', {}))).data.ended).toBeGreaterThanOrEqual(1);
      expect(await auditOf('user.support_view_ended', person.userId)).toEqual([expect.objectContaining({ actor_kind: 'system', actor_id: null })]);
      expect((await api.outbox(person.email))[0]!.text).toContain('结束了平台客服的代为查看');
      await api.post('/dev/support/run', {});
      expect(await auditOf('user.support_view_ended', person.userId)).toHaveLength(1);
    } finally {
      await resetClock();
    }
  });

  it('puts act { sub: "op:<id>" } and no mfa in OpenID tokens made in a view, and keeps act on a refreshed token', async () => {
    const person = await api.person();
    const op = await operator('support');
    const started = await start(op, { userId: person.userId, code: (await supportCode(person)).data.code });
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(trustedApp.config, {
      redirect_uri: `${RP}/callback`,
      scope: 'openid offline_access',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 's',
    });
    const back = (await browse(url.href, started.cookie)).headers.get('location')!;
    expect(back).toContain(`${RP}/callback`);
    const tokens = await oidc.authorizationCodeGrant(trustedApp.config, new URL(back), { pkceCodeVerifier: verifier, expectedState: 's' });
    const claims = tokens.claims()!;
    expect(claims.sub).toBe(person.userId);
    expect(claims.act).toEqual({ sub: `op:${op.id}` });
    expect(claims.amr ?? []).not.toContain('mfa');
    expect(decodeJwt(tokens.access_token).act).toEqual({ sub: `op:${op.id}` });

    expect(tokens.refresh_token).toBeTruthy();
    const refreshed = await oidc.refreshTokenGrant(trustedApp.config, tokens.refresh_token!);
    expect(refreshed.claims()!.act).toEqual({ sub: `op:${op.id}` });
    expect(refreshed.claims()!.amr ?? []).not.toContain('mfa');
    expect(decodeJwt(refreshed.access_token).act).toEqual({ sub: `op:${op.id}` });

    // The person's own tokens carry no act.
    const own = oidc.randomPKCECodeVerifier();
    const ownUrl = oidc.buildAuthorizationUrl(trustedApp.config, { redirect_uri: `${RP}/callback`, scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(own), code_challenge_method: 'S256', state: 't' });
    const ownBack = (await browse(ownUrl.href, person.cookie)).headers.get('location')!;
    const ownTokens = await oidc.authorizationCodeGrant(trustedApp.config, new URL(ownBack), { pkceCodeVerifier: own, expectedState: 't' });
    expect(ownTokens.claims()!.act).toBeUndefined();
  });

  it('without a code: a support operator asks, an administrator who is not them approves, the approval is used once by the one who asked', async () => {
    const person = await api.person();
    const op = await operator('support');
    const admin = await operator('admin');
    const asked = await api.json<{ id: string }>(await api.post('/ops/v1/support/approvals', { userId: person.userId, reason: 'Locked out, called from the number on file' }, { cookie: op.cookie }));
    expect(asked.code).toBe('0');
    const id = asked.data.id;
    // Not approved yet: nothing to use.
    expect((await start(op, { userId: person.userId, approvalId: id }, -1)).body.code).toBe('SV0006');
    // The support operator cannot approve (role), nor can an administrator their own request.
    expect((await api.json(await api.post(`/ops/v1/support/approvals/${id}/approve`, {}, { cookie: op.cookie }))).code).toBe('OP0003');
    const ownRequest = await api.json<{ id: string }>(await api.post('/ops/v1/support/approvals', { userId: person.userId, reason: 'Locked out, asking myself' }, { cookie: admin.cookie }));
    expect((await api.json(await api.post(`/ops/v1/support/approvals/${ownRequest.data.id}/approve`, {}, { cookie: admin.cookie }))).code).toBe('SV0007');

    expect((await api.json(await api.post(`/ops/v1/support/approvals/${id}/approve`, {}, { cookie: admin.cookie }))).code).toBe('0');
    expect(await auditOf('user.support_view_approved', person.userId)).toEqual([expect.objectContaining({ actor_id: admin.id })]);
    // Another operator cannot use it.
    const other = await operator('support');
    expect((await start(other, { userId: person.userId, approvalId: id })).body.code).toBe('SV0006');
    const started = await start(op, { userId: person.userId, approvalId: id });
    expect(started.body.code).toBe('0');
    expect((await me(started.cookie)).data.supportView).toMatchObject({ writable: false });
    expect((await start(op, { userId: person.userId, approvalId: id }, 1)).body.code).toBe('SV0006');
  });

  it('keeps the banner’s marker beside the view: set at the start, not HttpOnly, cleared by End and by the end of the session', async () => {
    const person = await api.person();
    const op = await operator('support', 'Olga Support');
    const started = await start(op, { userId: person.userId, code: (await supportCode(person)).data.code });
    expect(started.body.code).toBe('0');
    // `<until>~<operator>`, readable by the page's script (display only), for the view's 30 minutes at most.
    expect(supportMarker(started.setCookies)).toBe(`${started.body.data.view.until}~Olga Support`);
    const written = started.setCookies.find((c) => c.startsWith('portal_support='))!;
    expect(written).not.toMatch(/HttpOnly/i);
    expect(written).toMatch(/Max-Age=1800\b/);
    expect(JSON.stringify(started.body)).not.toContain('supportBanner');
    // End clears it with the session cookies.
    const ended = await api.post('/agg-web/user/support/end', {}, { cookie: `${started.cookie}; portal_support=x` });
    expect((await api.json(ended)).code).toBe('0');
    expect(supportMarker(ended.headers.getSetCookie())).toBe('');

    // Ended by the operator from the console: the view's next call answers TK00001, which clears it.
    const again = await start(op, { userId: person.userId, code: (await supportCode(person)).data.code }, 1);
    expect((await api.json(await api.post(`/ops/v1/support/views/${again.body.data.view.id}/end`, {}, { cookie: op.cookie }))).code).toBe('0');
    const next = await api.get('/agg-web/user/fetchMeByUserToken', { cookie: `${again.cookie}; portal_support=x` });
    expect((await api.json(next)).code).toBe('TK00001');
    expect(supportMarker(next.headers.getSetCookie())).toBe('');
    // A forged marker opens nothing: without the view's session cookie it is no session at all.
    expect((await api.json(await api.get('/agg-web/user/fetchMeByUserToken', { cookie: `portal_support=${encodeURIComponent(`${Date.now() + 60_000}~Mallory`)}` }))).code).toBe('TK00001');
    // The person's own sign-in writes no marker and clears one left behind in that browser.
    const own = await api.emailLogin(person.email, 'Harbour2024', {}, { cookie: 'portal_support=left' });
    expect(supportMarker(own.headers.getSetCookie())).toBe('');
  });

  it('lets the person end a view from their own session at once: refused right after, rows, trail and notice; nobody else can', async () => {
    const { admin, person, companyId } = await member();
    const op = await operator('support', 'Olga Support');
    const started = await start(op, { userId: person.userId, code: (await supportCode(person)).data.code });
    const viewId = started.body.data.view.id;
    const listed = await api.json<{ id: string; operator: string; until: number }[]>(await api.get('/agg-web/user/support/views', { cookie: person.cookie }));
    expect(listed.data).toEqual([{ id: viewId, operator: 'Olga Support', until: started.body.data.view.until }]);
    // The view cannot see or end the person's list; another person cannot end it.
    expect((await api.json(await api.get('/agg-web/user/support/views', { cookie: started.cookie }))).code).toBe('SV0001');
    expect((await api.json(await api.post(`/agg-web/user/support/views/${viewId}/end`, {}, { cookie: started.cookie }))).code).toBe('SV0001');
    expect((await api.json(await api.post(`/agg-web/user/support/views/${viewId}/end`, {}, { cookie: admin.cookie }))).code).toBe('SV0008');
    expect((await me(started.cookie)).code).toBe('0');

    expect((await api.json(await api.post(`/agg-web/user/support/views/${viewId}/end`, {}, { cookie: person.cookie }))).code).toBe('0');
    expect((await me(started.cookie)).code).toBe('TK00001');
    expect(await auditOf('user.support_view_ended', person.userId)).toEqual([expect.objectContaining({ actor_kind: 'user', actor_id: person.userId })]);
    expect(await auditOf('company.support_view_ended', companyId)).toHaveLength(1);
    expect((await api.outbox(person.email))[0]!.text).toContain('platform support stopped viewing your account');
    expect((await api.json<unknown[]>(await api.get('/agg-web/user/support/views', { cookie: person.cookie }))).data).toEqual([]);
    // Once: a second End is SV0008 and writes nothing.
    expect((await api.json(await api.post(`/agg-web/user/support/views/${viewId}/end`, {}, { cookie: person.cookie }))).code).toBe('SV0008');
    expect(await auditOf('user.support_view_ended', person.userId)).toHaveLength(1);
  });

  it('tells the person of every view, start and end, however soon another follows (no 10-minute folding)', async () => {
    const person = await api.person();
    const op = await operator('support');
    for (let i = 0; i < 2; i++) {
      const started = await start(op, { userId: person.userId, code: (await supportCode(person)).data.code }, i);
      expect(started.body.code).toBe('0');
      expect((await api.json(await api.post('/agg-web/user/support/end', {}, { cookie: started.cookie }))).code).toBe('0');
    }
    const texts = (await api.outbox(person.email)).map((message) => message.text);
    expect(texts.filter((text) => text.includes('platform support started viewing your account'))).toHaveLength(2);
    expect(texts.filter((text) => text.includes('platform support stopped viewing your account'))).toHaveLength(2);
  });
});
