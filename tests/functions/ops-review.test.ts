import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorInsert, startOperatorSession, type OperatorRole } from '../../functions/gateway/operators/service';
import { sha256Hex } from '../../functions/gateway/identity/passwords';
import type { CompanyDetailAnswer, UploadedFile } from '../../src/schemas/onboarding';
import type { ReviewDecisionAnswer, ReviewDetailAnswer, ReviewQueueAnswer } from '../../src/schemas/ops-review';
import { bufferedForm, useWorkerEnv, type CallOptions } from './gateway-client';
import { STAND_IN_KEYS, startStandIn, type StandIn } from './provider-stand-ins';

/**
 * Company review through the whole Worker on a real local D1 and R2: only reviewers (and admins) open the
 * calls, the company files included; a decision is one conditional update (20 operators at once: one winner)
 * with its audit row in the same batch; the administrator is told in the form's language; the administrator
 * answers a request for more information; members of a blocked company are refused at sign-in and entry.
 */
const ORIGIN = 'https://portal.example.com';
const { worker, api } = useWorkerEnv('ops-review', { PORTAL_ORIGIN: ORIGIN }, { origin: ORIGIN });

/** An operator of `role` with a live session: the operator cookie for the calls. */
async function operator(role: OperatorRole) {
  const at = Date.now();
  const { id, statement } = await operatorInsert(
    worker.env.DB,
    worker.env,
    { login: `rv.${api.unique()}@ops.example.com`, name: `Reviewer ${api.unique()}`, role, clientHash: await sha256Hex('Operator-pass-1') },
    at,
  );
  await statement.run();
  const { token } = await startOperatorSession(worker.env.DB, id, at);
  return { id, cookie: `__Host-portal_operator=${token}` };
}

const pdf = new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n');

/** A ship owner created through the portal by a new administrator (`lang` is the form's language). */
async function newCompany(lang: 'zh' | 'en' = 'en', email = `admin.${api.unique()}@example.com`) {
  const admin = await api.person({}, email);
  const form = new FormData();
  form.append('kind', 'licence');
  form.append('files', new Blob([pdf]), 'licence.pdf');
  const sent = await bufferedForm(form);
  const files = await api.json<UploadedFile[]>(await api.postRaw('/agg-web/file/uploadFile', sent.body, { cookie: admin.cookie, headers: sent.headers }));
  expect(files.code).toBe('0');
  const name = `Harbour Lines ${api.unique()}`;
  const fields = {
    companyNameEn: name,
    companyNameCn: '港航',
    companyType: 'shipOwner',
    countryId: 'SG',
    countryName: 'Singapore',
    contactName: 'Tan Wei',
    contactTel: '8123 4567',
    phoneCode: '+65',
    socialCredit: `SG${api.unique().toUpperCase()}`,
    contactEmail: email,
    corporateCharter: [files.data[0]!.id],
  };
  const created = await api.json<{ companyId: string }>(await api.post('/agg-web/company/create', fields, { cookie: admin.cookie, lang }));
  expect(created.code).toBe('0');
  return { admin, companyId: created.data.companyId, name, fields, fileId: files.data[0]!.id };
}

const decide = (cookie: string, body: Record<string, unknown>, options: CallOptions = {}) =>
  api.post('/ops/v1/companies/decide', body, { cookie, ...options });
const statusOf = async (companyId: string) =>
  (await worker.env.DB.prepare('SELECT status FROM companies WHERE id = ?').bind(companyId).first<{ status: string }>())!.status;
const auditRows = async (companyId: string) =>
  (await worker.env.DB.prepare("SELECT action, actor_id, reason, network FROM audit_log WHERE target_kind = 'company' AND target_id = ? ORDER BY id").bind(companyId).all<{
    action: string;
    actor_id: string;
    reason: string | null;
    network: string | null;
  }>()).results;

describe('who may review', { timeout: 90_000 }, () => {
  it('every call refuses no session, a platform session, a support operator and forged headers; reviewers and admins pass', async () => {
    const { admin, companyId, fileId } = await newCompany();
    const support = await operator('support');
    const reviewer = await operator('reviewer');
    const chief = await operator('admin');
    const calls: [string, (cookie?: string, headers?: Record<string, string>) => Promise<Response>][] = [
      ['queue', (cookie, headers) => api.get('/ops/v1/companies?status=approving', { cookie, headers })],
      ['detail', (cookie, headers) => api.get(`/ops/v1/companies/detail?companyId=${companyId}`, { cookie, headers })],
      ['file', (cookie, headers) => api.get(`/ops/v1/companies/${companyId}/files/${fileId}`, { cookie, headers })],
      ['decide', (cookie, headers) => api.post('/ops/v1/companies/decide', { companyId, action: 'verify', expectedStatus: 'verified' }, { cookie, headers })],
    ];
    const platformToken = /portal_token=([^;]*)/.exec(admin.cookie)![1]!;
    const reviewerToken = /portal_operator=([^;]*)/.exec(reviewer.cookie)![1]!;
    for (const [name, send] of calls) {
      const attempts = await Promise.all([
        send(),
        send(admin.cookie),
        // The platform token where the operator cookie goes, and the operator token sent as the edge's own header.
        send(`__Host-portal_operator=${platformToken}`),
        send(undefined, { 'x-operator-session': reviewerToken, 'x-client-ip': '198.51.100.7', host: 'evil.example' }),
        send(support.cookie),
      ]);
      const codes = await Promise.all(attempts.map(async (res) => (await api.readAll(res)).body.code));
      expect(codes, name).toEqual(['OP0001', 'OP0001', 'OP0001', 'OP0001', 'OP0003']);
    }
    for (const allowed of [reviewer, chief]) {
      const queue = await api.read<ReviewQueueAnswer>(await calls[0]![1](allowed.cookie));
      expect(queue.body.code).toBe('0');
      const detail = await api.read<ReviewDetailAnswer>(await calls[1]![1](allowed.cookie));
      expect(detail.body.code).toBe('0');
      const file = await calls[2]![1](allowed.cookie);
      expect(file.status).toBe(200);
      expect(new Uint8Array(await file.arrayBuffer())).toEqual(pdf);
      // A decision from a status the company is not in is refused by its own rule, not by the role check.
      expect((await api.read(await calls[3]![1](allowed.cookie))).body.code).toBe('RV0002');
    }
  });

  it('company files are served inline to reviewers only, and only through the company they belong to', async () => {
    const { admin, companyId, fileId } = await newCompany();
    const other = await newCompany();
    const reviewer = await operator('reviewer');
    const file = await api.get(`/ops/v1/companies/${companyId}/files/${fileId}`, { cookie: reviewer.cookie });
    const headers = Object.fromEntries(file.headers);
    await file.arrayBuffer();
    expect(headers['content-type']).toBe('application/pdf');
    expect(headers['content-disposition']).toMatch(/^inline; filename="licence\.pdf"/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['cache-control']).toBe('private, no-store');
    expect(headers['content-security-policy']).toContain('sandbox');

    // Another company's path does not reach this file, and neither does a path that climbs out.
    const wrongCompany = await api.readAll(await api.get(`/ops/v1/companies/${other.companyId}/files/${fileId}`, { cookie: reviewer.cookie }));
    expect(wrongCompany.body.code).toBe('FL0010');
    const climbing = await api.readAll(await api.get(`/ops/v1/companies/${companyId}/files/..%2F${fileId}`, { cookie: reviewer.cookie }));
    expect(climbing.text).not.toContain('%PDF');
    // The operator path with the administrator's own platform cookie and forged client headers: nothing.
    const forged = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.get(`/ops/v1/companies/${companyId}/files/${fileId}`, {
          cookie: admin.cookie,
          headers: { 'cf-connecting-ip': `203.0.113.${i}`, host: 'ops.portal.example.com', origin: ORIGIN, 'x-operator-session': 'a'.repeat(43) },
        }),
      ),
    );
    for (const res of forged) {
      const seen = await api.readAll(res);
      expect(seen.body.code).toBe('OP0001');
      expect(seen.text).not.toContain('%PDF');
    }
  });
});

describe('decisions', { timeout: 90_000 }, () => {
  it('20 reviewers verifying at once: one wins, the others get RV0001 with the status now; one audit row', async () => {
    const { companyId } = await newCompany();
    const reviewers = await Promise.all(Array.from({ length: 20 }, () => operator('reviewer')));
    const answers = await Promise.all(
      reviewers.map((r, i) => decide(r.cookie, { companyId, action: i % 2 ? 'verify' : 'requestInformation', expectedStatus: 'approving', ...(i % 2 ? {} : { reason: 'licenceMissing' }) })),
    );
    const bodies = await Promise.all(answers.map((res) => api.json<ReviewDecisionAnswer & { status: string }>(res)));
    const winners = bodies.filter((b) => b.code === '0');
    expect(winners).toHaveLength(1);
    const status = await statusOf(companyId);
    expect(['verified', 'additional_info']).toContain(status);
    for (const loser of bodies.filter((b) => b.code !== '0')) {
      expect(loser.code).toBe('RV0001');
      expect(loser.data).toEqual({ status: status === 'verified' ? 'verified' : 'additionalInformationRequired' });
    }
    // Exactly one audit row, written by the winner: the change and its row landed together.
    const rows = await auditRows(companyId);
    expect(rows).toHaveLength(1);
    const winnerIndex = bodies.findIndex((b) => b.code === '0');
    expect(rows[0]!.actor_id).toBe(reviewers[winnerIndex]!.id);
    expect(rows[0]!.action).toBe(status === 'verified' ? 'company.verified' : 'company.information_requested');
    expect(rows[0]!.network).toMatch(/^10\./);
  });

  it('20 parallel blocks and unblocks from what each operator saw: statuses move one step at a time', async () => {
    const { companyId } = await newCompany();
    const reviewer = await operator('reviewer');
    expect((await api.json(await decide(reviewer.cookie, { companyId, action: 'verify', expectedStatus: 'approving' }))).code).toBe('0');
    const blocks = await Promise.all(
      Array.from({ length: 20 }, () => decide(reviewer.cookie, { companyId, action: 'block', expectedStatus: 'verified', reason: 'fraudSuspected', note: 'Licence forged' })),
    );
    const codes = await Promise.all(blocks.map(async (res) => (await api.json(res)).code));
    expect(codes.filter((c) => c === '0')).toHaveLength(1);
    expect(await statusOf(companyId)).toBe('blocked');
    const unblocked = await api.json<ReviewDecisionAnswer>(await decide(reviewer.cookie, { companyId, action: 'unblock', expectedStatus: 'blocked' }));
    // Unblock gives back the status the block interrupted.
    expect(unblocked.data.status).toBe('verified');
    const rows = await auditRows(companyId);
    // The block suspended the company's grants in its own batch, once (issue 42); the unblock leaves them suspended.
    expect(rows.map((r) => r.action)).toEqual(['company.verified', 'company.blocked', 'company.grants_suspended', 'company.unblocked']);
    expect(rows[1]!.reason).toBe('fraudSuspected: Licence forged');
  });

  it('a decision that needs a reason is refused without one and writes nothing', async () => {
    const { companyId } = await newCompany();
    const reviewer = await operator('reviewer');
    const refusals = await Promise.all([
      decide(reviewer.cookie, { companyId, action: 'fail', expectedStatus: 'approving' }),
      decide(reviewer.cookie, { companyId, action: 'fail', expectedStatus: 'approving', reason: 'fraudSuspected' }),
      decide(reviewer.cookie, { companyId, action: 'requestInformation', expectedStatus: 'approving', reason: 'other', note: '   ' }),
      decide(reviewer.cookie, { companyId, action: 'verify', expectedStatus: 'approving', reason: 'other', note: 'x' }),
      decide(reviewer.cookie, { companyId, action: 'expire', expectedStatus: 'approving', reason: 'inactive' }),
      decide(reviewer.cookie, { companyId: 'no-such-company', action: 'verify', expectedStatus: 'approving' }),
      decide(reviewer.cookie, { companyId, action: 'verify', expectedStatus: 'approving', note: 'x'.repeat(1001) }),
    ]);
    const codes = await Promise.all(refusals.map(async (res) => (await api.json(res)).code));
    expect(codes).toEqual(['RV0003', 'RV0003', 'RV0005', 'RV0003', 'RV0002', 'RV0004', 'GW0400']);
    expect(await statusOf(companyId)).toBe('approving');
    expect(await auditRows(companyId)).toHaveLength(0);
  });
});

describe('the administrator', { timeout: 90_000 }, () => {
  let aliyun: StandIn;
  beforeAll(async () => {
    aliyun = await startStandIn('aliyun');
  });
  afterAll(() => aliyun.close());

  it('is told of each decision in the form language; answers a request for more information, which puts the company back in the queue', async () => {
    const { admin, companyId, fields } = await newCompany('zh');
    const reviewer = await operator('reviewer');
    const asked = await api.json(await decide(reviewer.cookie, { companyId, action: 'requestInformation', expectedStatus: 'approving', reason: 'licenceMissing', note: '请上传第二页' }));
    expect(asked.code).toBe('0');
    const [message] = await api.outbox(admin.email);
    expect(message!.subject).toContain('企业认证状态更新');
    expect(message!.text).toContain('需补充资料');
    expect(message!.text).toContain('营业执照缺失或不完整。 请上传第二页');
    expect(message!.text).toContain(`${ORIGIN}/fill_account?companyId=${companyId}`);

    // The administrator's pages see the status with the reason; the detail carries its words in the visitor's
    // language (the form shows them as they come: issue 31), the template first, then the operator's note.
    for (const [lang, template] of [['zh', '营业执照缺失或不完整。'], ['en', 'The business licence is missing or incomplete.']] as const) {
      const detail = await api.json<CompanyDetailAnswer>(await api.get(`/agg-web/company/detail?companyId=${companyId}`, { cookie: admin.cookie, lang }));
      expect(detail.data.status).toBe('additionalInformationRequired');
      expect(detail.data.review).toMatchObject({ reason: 'licenceMissing', note: '请上传第二页', text: `${template} 请上传第二页` });
    }
    const list = await api.json<{ companyId: string; status: string; review?: { reason: string } }[]>(await api.post('/c/user/v2/getCompanyListByToken', {}, { cookie: admin.cookie }));
    expect(list.data.find((c) => c.companyId === companyId)).toMatchObject({ status: 'additionalInformationRequired', review: { reason: 'licenceMissing' } });

    // Twenty resubmissions at once and a reviewer deciding meanwhile: the company is back in the queue once.
    const resubmits = await Promise.all(
      Array.from({ length: 20 }, () => api.post('/agg-web/company/fill', { ...fields, companyId }, { cookie: admin.cookie, lang: 'en' })),
    );
    const codes = await Promise.all(resubmits.map(async (res) => (await api.json(res)).code));
    expect(codes.every((c) => c === '0' || c === 'CO0012')).toBe(true);
    expect(await statusOf(companyId)).toBe('approving');
    const queue = await api.json<ReviewQueueAnswer>(await api.get(`/ops/v1/companies?status=approving&q=${encodeURIComponent(fields.socialCredit.toLowerCase())}`, { cookie: reviewer.cookie }));
    expect(queue.data.items.map((i) => i.companyId)).toEqual([companyId]);

    // The form was sent again in English: the next decision is written in English.
    expect((await api.json(await decide(reviewer.cookie, { companyId, action: 'verify', expectedStatus: 'approving' }))).code).toBe('0');
    const [verified] = await api.outbox(admin.email);
    expect(verified!.subject).toBe(`Company verification update: ${fields.companyNameEn}`);
    expect(verified!.text).toContain('is now: verified');
  });

  it('who registered with a phone only is told by template SMS in the form language: the company and its new status', async () => {
    const { admin, companyId } = await newCompany('zh');
    const phone = `+86139${String(Date.now()).slice(-8)}`;
    await worker.env.DB.prepare('UPDATE users SET email = NULL, phone_e164 = ? WHERE id = ?').bind(phone, admin.userId).run();
    const reviewer = await operator('reviewer');
    const sms = {
      ...STAND_IN_KEYS,
      SMS_PROVIDER: 'aliyun',
      ALIYUN_SMS_ENDPOINT: aliyun.url,
      SMS_SIGN_NAMES: 'zh=船运平台,en=ShipPortal',
      SMS_REVIEW_TEMPLATES: 'zh=SMS_300,en=SMS_400',
    };
    const decided = await api.json<ReviewDecisionAnswer>(await decide(reviewer.cookie, { companyId, action: 'verify', expectedStatus: 'approving' }, { env: sms }));
    expect(decided.data).toMatchObject({ status: 'verified', notified: true });
    const request = aliyun.received.at(-1)!;
    expect(request.problems).toEqual([]);
    expect(request.query.get('PhoneNumbers')).toBe(phone.slice(3));
    expect(request.query.get('SignName')).toBe('船运平台');
    expect(request.query.get('TemplateCode')).toBe('SMS_300');
    expect(JSON.parse(request.query.get('TemplateParam')!)).toEqual({ company: '港航', status: '已认证' });
  });

  it('the queue filters by status, text, country and type, newest first, 20 to a page', async () => {
    const reviewer = await operator('reviewer');
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await newCompany());
    const search = await api.json<ReviewQueueAnswer>(await api.get(`/ops/v1/companies?status=approving&q=${encodeURIComponent(made[1]!.name.toUpperCase())}&country=sg&type=shipOwner`, { cookie: reviewer.cookie }));
    expect(search.data.items.map((i) => i.companyId)).toEqual([made[1]!.companyId]);
    const none = await api.json<ReviewQueueAnswer>(await api.get(`/ops/v1/companies?status=approving&q=${encodeURIComponent(made[1]!.name)}&type=shipyard`, { cookie: reviewer.cookie }));
    expect(none.data.total).toBe(0);
    // A LIKE wildcard in the search text matches only itself.
    const wildcard = await api.json<ReviewQueueAnswer>(await api.get('/ops/v1/companies?status=all&q=%25', { cookie: reviewer.cookie }));
    expect(wildcard.data.total).toBe(0);
    const all = await api.json<ReviewQueueAnswer>(await api.get('/ops/v1/companies?status=approving', { cookie: reviewer.cookie }));
    expect(all.data.pageSize).toBe(20);
    const times = all.data.items.map((i) => i.createdAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const bad = await api.json(await api.get('/ops/v1/companies?page=0', { cookie: reviewer.cookie }));
    expect(bad.code).toBe('GW0400');
  });
});

describe('a blocked company', { timeout: 90_000 }, () => {
  it('its members are refused at sign-in and when entering it; its sessions lose it', async () => {
    const { admin, companyId } = await newCompany('en');
    const reviewer = await operator('reviewer');
    expect((await api.json(await decide(reviewer.cookie, { companyId, action: 'verify', expectedStatus: 'approving' }))).code).toBe('0');
    // The administrator enters the verified company.
    const again = await api.signIn(admin.email);
    expect((await api.json(await api.post('/agg-web/user/chooseAccount', { companyId }, { cookie: again.cookie }))).code).toBe('0');
    expect((await worker.env.DB.prepare('SELECT COUNT(*) AS n FROM sessions WHERE current_company_id = ?').bind(companyId).first<{ n: number }>())!.n).toBeGreaterThan(0);

    expect((await api.json(await decide(reviewer.cookie, { companyId, action: 'block', expectedStatus: 'verified', reason: 'termsBreached' }))).code).toBe('0');
    expect((await worker.env.DB.prepare('SELECT COUNT(*) AS n FROM sessions WHERE current_company_id = ?').bind(companyId).first<{ n: number }>())!.n).toBe(0);

    const blocked = await api.signIn(admin.email);
    const loginCase = await api.json(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: blocked.cookie, lang: 'en' }));
    expect(loginCase.code).toBe('RV0010');
    expect(loginCase.message).toMatch(/blocked by the platform/);
    const entries = await Promise.all(Array.from({ length: 20 }, () => api.post('/agg-web/user/chooseAccount', { companyId }, { cookie: blocked.cookie, lang: 'zh' })));
    for (const res of entries) {
      const body = await api.json(res);
      expect(body.code).toBe('RV0010');
      expect(body.message).toContain('冻结');
    }
    // Expired: the same refusal in its own words.
    expect((await api.json(await decide(reviewer.cookie, { companyId, action: 'unblock', expectedStatus: 'blocked' }))).code).toBe('0');
    expect((await api.json(await decide(reviewer.cookie, { companyId, action: 'expire', expectedStatus: 'verified', reason: 'licenceExpired' }))).code).toBe('0');
    expect((await api.json(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: blocked.cookie }))).code).toBe('RV0011');
  });

  it('the review page shows the form, files, members and history with operator names', async () => {
    const { companyId, fileId, fields } = await newCompany();
    const reviewer = await operator('reviewer');
    await api.json(await decide(reviewer.cookie, { companyId, action: 'fail', expectedStatus: 'approving', reason: 'documentsMismatch', note: 'Name differs' }));
    const detail = await api.json<ReviewDetailAnswer>(await api.get(`/ops/v1/companies/detail?companyId=${companyId}`, { cookie: reviewer.cookie }));
    expect(detail.data).toMatchObject({
      status: 'verificationFailed',
      companyNameEn: fields.companyNameEn,
      socialCredit: fields.socialCredit,
      contactPhone: '+6581234567',
      review: { reason: 'documentsMismatch', note: 'Name differs' },
      actions: ['block'],
    });
    expect(detail.data.files).toEqual([expect.objectContaining({ id: fileId, purpose: 'licence', url: `/api/ops/v1/companies/${companyId}/files/${fileId}` })]);
    expect(detail.data.members).toEqual([expect.objectContaining({ role: 'administrator', status: 'active' })]);
    expect(detail.data.history).toEqual([expect.objectContaining({ action: 'company.verification_failed', actorName: expect.stringMatching(/^Reviewer /) })]);
  });
});
