import { afterEach, describe, expect, it, vi } from 'vitest';
import worker_ from '../../functions/worker';
import { operatorInsert, startOperatorSession } from '../../functions/gateway/operators/service';
import { sha256Hex } from '../../functions/gateway/identity/passwords';
import { MONTH_MS } from '../../functions/gateway/registry/service';
import { resetStandIn, setStandInCompany, setStandInMode, standInCalls } from '../../functions/gateway/registry/stand-in';
import type { CompanyDetailAnswer, UploadedFile } from '../../src/schemas/onboarding';
import type { CompanyEditAnswer, ReviewDetailAnswer } from '../../src/schemas/ops-review';
import { REGISTRY_CONSENT_VERSION, type RegistryCheck } from '../../src/schemas/registry';
import { bufferedForm, useWorkerEnv } from './gateway-client';
import { copyContent } from '../../functions/gateway/data-rights/service';
import { findUserById } from '../../functions/gateway/identity/db/people';
import type { DataRightsState } from '../../src/schemas/data-rights';

/**
 * The registry check of issue 42 through the whole Worker on a real local D1: the USCC at the gateway, the
 * applicant's check with consent against the signature-checking stand-ins of both providers (match, differ, not
 * found, not operating, failure, hang, failover), the operator's check again, and the monthly re-check from the
 * Cron Trigger with a status flip, its operator task and the administrator's notice. Nothing of the legal
 * representative's ID number reaches D1 or the request log.
 */
// Operator cookies are __Host- cookies: the portal on https, as in ops-review.test.ts.
const ORIGIN = 'https://portal.example.com';
const { worker, api } = useWorkerEnv(
  'registry',
  { PORTAL_ORIGIN: ORIGIN, REGISTRY_PROVIDERS: 'tencent,aliyun', DELIVERY_TIMEOUT_MS: '400', DELIVERY_TOTAL_TIMEOUT_MS: '900' },
  { origin: ORIGIN },
);
afterEach(() => resetStandIn());

const pdf = new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n');
/** Sound codes computed from GB 32100-2015 (tests/unit/registry-numbers.test.ts holds the rule). */
const CODE = '91330900MA2A1B2C6D';
const LEGAL_REP = { legalRepName: '王海', legalRepId: '11010519491231002X' };

async function operator() {
  const at = Date.now();
  const { id, statement } = await operatorInsert(worker.env.DB, worker.env, { login: `rg.${api.unique()}@ops.example.com`, name: 'Reviewer', role: 'reviewer', clientHash: await sha256Hex('Operator-pass-1') }, at);
  await statement.run();
  const { token } = await startOperatorSession(worker.env.DB, id, at);
  return `__Host-portal_operator=${token}`;
}

async function newCompany(overrides: Record<string, unknown> = {}) {
  const email = `rg.${api.unique()}@example.com`;
  const admin = await api.person({}, email);
  const form = new FormData();
  form.append('kind', 'licence');
  form.append('files', new Blob([pdf]), 'licence.pdf');
  const sent = await bufferedForm(form);
  const files = await api.json<UploadedFile[]>(await api.postRaw('/agg-web/file/uploadFile', sent.body, { cookie: admin.cookie, headers: sent.headers }));
  const fields = {
    companyNameEn: `East Sea Shipping ${api.unique()}`,
    companyNameCn: `东海航运${api.unique()}`,
    companyType: 'shipOwner',
    countryId: 'CN',
    countryName: 'China',
    contactName: 'Li Lei',
    contactTel: '13800138000',
    phoneCode: '+86',
    socialCredit: CODE,
    contactEmail: email,
    corporateCharter: [files.data[0]!.id],
    ...overrides,
  };
  const created = await api.json<{ companyId: string }>(await api.post('/agg-web/company/create', fields, { cookie: admin.cookie }));
  return { admin, email, fields, created };
}

const check = async (cookie: string, companyId: string, body: Record<string, unknown> = {}) =>
  api.json<RegistryCheck>(await api.post('/agg-web/registry/check', { companyId, consentVersion: REGISTRY_CONSENT_VERSION, ...LEGAL_REP, ...body }, { cookie }));

describe('the unified social credit code at the gateway', () => {
  it('refuses a mainland code whose check character is wrong, naming the right one; stores a sound one normalised; leaves other countries free', async () => {
    const wrong = await newCompany({ socialCredit: '91350100M000100Y4Z' });
    expect(wrong.created).toMatchObject({ code: 'RG0001', data: { path: 'socialCredit', expected: '3' } });
    expect((await newCompany({ socialCredit: '91350100M000100Y' })).created.code).toBe('RG0002');
    expect((await newCompany({ socialCredit: '91350100O000100Y43' })).created.code).toBe('RG0002');
    // A warning of the organisation code alone (…XXXX…) is no refusal.
    expect((await newCompany({ socialCredit: '91330900MA2A0XXX13' })).created.code).toBe('0');
    const spaced = await newCompany({ socialCredit: '９１３５０１００ｍ000 100y43' });
    expect(spaced.created.code).toBe('0');
    const row = await worker.env.DB.prepare('SELECT social_credit FROM companies WHERE id = ?').bind(spaced.created.data.companyId).first<{ social_credit: string }>();
    expect(row?.social_credit).toBe('91350100M000100Y43');
    expect((await newCompany({ countryId: 'SG', countryName: 'Singapore', socialCredit: '201912345K', phoneCode: '+65', contactTel: '81234567' })).created.code).toBe('0');
  });
});

describe('the check before review', () => {
  it('records the consent (version, language) and answers "matches" from the first provider, whose signature the stand-in checked', async () => {
    const { admin, created } = await newCompany();
    const answer = await check(admin.cookie, created.data.companyId);
    expect(answer.data).toMatchObject({ verdict: 'match', provider: 'tencent', cause: 'application', differing: [], registryStatus: 'operating' });
    expect(standInCalls).toEqual([{ provider: 'tencent', action: 'VerifyBizLicenseEnterprise4', code: CODE, withRep: true, problems: [] }]);
    const consent = await worker.env.DB.prepare('SELECT text_version, lang, user_id FROM registry_consents WHERE company_id = ?').bind(created.data.companyId).first();
    expect(consent).toEqual({ text_version: REGISTRY_CONSENT_VERSION, lang: 'en', user_id: admin.userId });
  });

  it('refuses an old consent text (RG0003) and a stranger (CO0009), and checks nothing', async () => {
    const { admin, created } = await newCompany();
    expect((await check(admin.cookie, created.data.companyId, { consentVersion: '2020-01-01' })).code).toBe('RG0003');
    const stranger = await api.person({}, `rg.${api.unique()}@example.com`);
    expect((await check(stranger.cookie, created.data.companyId)).code).toBe('CO0009');
    expect(standInCalls).toEqual([]);
  });

  it.each([
    ['differs: name', { name: '别的公司' }, { verdict: 'differs', differing: ['name'] }],
    ['differs: the legal representative', { repDiffers: true }, { verdict: 'differs', differing: ['legalRepName', 'legalRepId'] }],
    ['not found', { missing: true }, { verdict: 'notFound', registryStatus: null }],
    ['not operating (revoked)', { status: '吊销' }, { verdict: 'notOperating', registryStatus: 'revoked' }],
  ])('%s, from either provider alike', async (_, entry, expected) => {
    for (const provider of ['tencent', 'aliyun'] as const) {
      const { admin, created } = await newCompany();
      setStandInCompany(CODE, entry);
      // The first provider down: the second gives the same verdict.
      setStandInMode('tencent', provider === 'aliyun' ? 'down' : null);
      const answer = await check(admin.cookie, created.data.companyId);
      expect(answer.data).toMatchObject({ ...expected, provider });
    }
    expect(standInCalls.every((call) => call.problems.length === 0)).toBe(true);
  });

  it('fails over from a hanging provider to the second within the time limit; both failing gives "not checked", and the application stands', async () => {
    const { admin, created } = await newCompany();
    setStandInMode('tencent', 'hang');
    const started = Date.now();
    expect((await check(admin.cookie, created.data.companyId)).data).toMatchObject({ verdict: 'match', provider: 'aliyun' });
    expect(Date.now() - started).toBeLessThan(900 + 500);
    setStandInMode('aliyun', 'throttled');
    const none = await check(admin.cookie, created.data.companyId);
    expect(none.data).toMatchObject({ verdict: 'notChecked', provider: null });
    const tried = await worker.env.DB.prepare('SELECT tried FROM registry_checks WHERE company_id = ? ORDER BY checked_at DESC, rowid DESC LIMIT 1').bind(created.data.companyId).first<{ tried: string }>();
    expect(JSON.parse(tried!.tried)).toEqual([
      { provider: 'tencent', outcome: 'unavailable', detail: expect.stringContaining('timeout') },
      { provider: 'aliyun', outcome: 'throttled', detail: 'HTTP 200 Throttling.User' },
    ]);
    const detail = await api.json<{ status: string }>(await api.get(`/agg-web/company/detail?companyId=${created.data.companyId}`, { cookie: admin.cookie }));
    expect(detail.data.status).toBe('approving');
  });

  it('keeps nothing of the ID number or the name in D1 or in the log', async () => {
    const log = vi.spyOn(console, 'log');
    const error = vi.spyOn(console, 'error');
    const { admin, created } = await newCompany();
    setStandInMode('tencent', 'down');
    await check(admin.cookie, created.data.companyId);
    const said = [...log.mock.calls, ...error.mock.calls].map((call) => call.map(String).join(' ')).join('\n');
    const { results: tables } = await worker.env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'").all<{ name: string }>();
    let stored = '';
    for (const { name } of tables) stored += JSON.stringify((await worker.env.DB.prepare(`SELECT * FROM "${name}"`).all()).results);
    for (const secret of [LEGAL_REP.legalRepId, LEGAL_REP.legalRepId.slice(0, 17), '110105194912', LEGAL_REP.legalRepName]) {
      expect(stored).not.toContain(secret);
      expect(said).not.toContain(secret);
    }
  });
});

describe('what the person is told', () => {
  it('"Your data" and the data copy say when the person\'s company was checked against the registry; a run nobody answered is no check', async () => {
    const { admin, created } = await newCompany();
    const companyId = created.data.companyId;
    const state = async () => (await api.json<DataRightsState>(await api.get('/agg-web/user/data', { cookie: admin.cookie }))).data;
    expect((await state()).registryChecked).toEqual([]);
    // No provider answers: "not checked" is not a check.
    setStandInMode('tencent', 'down');
    setStandInMode('aliyun', 'down');
    expect((await check(admin.cookie, companyId)).data.verdict).toBe('notChecked');
    expect((await state()).registryChecked).toEqual([]);
    resetStandIn();
    const checked = await check(admin.cookie, companyId);
    expect(checked.data.verdict).toBe('match');
    expect((await state()).registryChecked).toEqual([{ companyId, name: expect.any(String), checkedAt: checked.data.checkedAt }]);
    const user = (await findUserById(worker.env.DB, admin.userId))!;
    const { data } = await copyContent(worker.env.DB, user, Date.now());
    expect(data.companies).toEqual([expect.objectContaining({ companyId, registryCheckedAt: checked.data.checkedAt })]);
    // Nothing of the legal representative in the copy either.
    expect(JSON.stringify(data)).not.toContain(LEGAL_REP.legalRepId);
    expect(JSON.stringify(data)).not.toContain(LEGAL_REP.legalRepName);
  });
});

describe('the operators', () => {
  it('see the verdict and its time on the review page, and ask for the check again', async () => {
    const { admin, created } = await newCompany();
    setStandInCompany(CODE, { name: '别的公司' });
    await check(admin.cookie, created.data.companyId);
    const reviewer = await operator();
    const page = await api.json<ReviewDetailAnswer>(await api.get(`/ops/v1/companies/detail?companyId=${created.data.companyId}`, { cookie: reviewer }));
    expect(page.data.registry).toEqual({ latest: expect.objectContaining({ verdict: 'differs', differing: ['name'], checkedAt: expect.any(Number) }), tasks: [] });
    setStandInCompany(CODE, null);
    const again = await api.json<RegistryCheck>(await api.post('/ops/v1/registry/check', { companyId: created.data.companyId }, { cookie: reviewer }));
    expect(again.data).toMatchObject({ verdict: 'match', cause: 'operator' });
    // Without the legal representative: the two-element operation.
    expect(standInCalls.at(-1)).toMatchObject({ withRep: false });
    expect((await api.post('/ops/v1/registry/check', { companyId: created.data.companyId }, { cookie: admin.cookie })).status).toBe(401);
  });
});

describe('kept checked: the monthly re-check', () => {
  it('checks each approved company once a month from the Cron Trigger; a flip to revoked opens a task and tells the administrator; suspending settles it', async () => {
    const { email, created } = await newCompany();
    const companyId = created.data.companyId;
    const reviewer = await operator();
    expect((await api.json(await api.post('/ops/v1/companies/decide', { companyId, action: 'verify', expectedStatus: 'approving' }, { cookie: reviewer }))).code).toBe('0');
    const cron = (at: number) => worker_.scheduled!({ scheduledTime: at, cron: '17 * * * *', noRetry() {} } as ScheduledController, worker.env);
    const checks = async () => (await worker.env.DB.prepare("SELECT count(*) AS n FROM registry_checks WHERE company_id = ? AND cause = 'monthly'").bind(companyId).first<{ n: number }>())!.n;
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const t0 = Date.now();
    await cron(t0);
    const watch = await worker.env.DB.prepare('SELECT next_check_at FROM registry_watch WHERE company_id = ?').bind(companyId).first<{ next_check_at: number }>();
    // Spread: first due somewhere in the coming month.
    expect(watch!.next_check_at).toBeGreaterThanOrEqual(t0);
    expect(watch!.next_check_at).toBeLessThan(t0 + MONTH_MS);
    const first = watch!.next_check_at;
    await cron(first);
    expect(await checks()).toBe(1);
    // The same hour again, and any hour until a month later: no second check.
    await cron(first + 3_600_000);
    await cron(first + MONTH_MS - 3_600_000);
    expect(await checks()).toBe(1);

    setStandInCompany(CODE, { status: '吊销' });
    await cron(first + MONTH_MS);
    expect(await checks()).toBe(2);
    // The hourly run pruned sessions as of a month on: the operator signs in again.
    const operatorNow = await operator();
    const page = await api.json<ReviewDetailAnswer>(await api.get(`/ops/v1/companies/detail?companyId=${companyId}`, { cookie: operatorNow }));
    expect(page).toMatchObject({ code: '0' });
    expect(page.data.registry.tasks).toEqual([expect.objectContaining({ fromStatus: 'operating', toStatus: 'revoked' })]);
    expect(page.data.registry.latest).toMatchObject({ verdict: 'notOperating', registryStatus: 'revoked', cause: 'monthly' });
    const mail = await api.outbox(email);
    expect(mail[0]!.subject).toContain('Registry status changed');
    expect(mail[0]!.text).toContain('licence revoked');
    log.mockRestore();

    // One action with a reason: suspended, and the task settled.
    const blocked = await api.json(await api.post('/ops/v1/companies/decide', { companyId, action: 'block', expectedStatus: 'verified', reason: 'registryNotOperating' }, { cookie: operatorNow }));
    expect(blocked.code).toBe('0');
    const after = await api.json<ReviewDetailAnswer>(await api.get(`/ops/v1/companies/detail?companyId=${companyId}`, { cookie: operatorNow }));
    expect(after.data.registry.tasks).toEqual([]);
  });

  it('stays under the hourly rate: at most REGISTRY_RECHECK_PER_RUN companies a run', async () => {
    const env = { ...worker.env, REGISTRY_RECHECK_PER_RUN: '2' };
    const reviewer = await operator();
    for (let i = 0; i < 3; i++) {
      const { created } = await newCompany();
      await api.post('/ops/v1/companies/decide', { companyId: created.data.companyId, action: 'verify', expectedStatus: 'approving' }, { cookie: reviewer });
    }
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const far = Date.now() + 20 * MONTH_MS;
    await worker_.scheduled!({ scheduledTime: far, cron: '17 * * * *', noRetry() {} } as ScheduledController, env as never);
    await worker_.scheduled!({ scheduledTime: far + 10 * MONTH_MS, cron: '17 * * * *', noRetry() {} } as ScheduledController, env as never);
    const runs = log.mock.calls.filter((call) => call[0] === 'registry re-checks').map((call) => JSON.parse(String(call[1])) as { checked: number });
    log.mockRestore();
    // Whatever else is due, a run never checks more than 2; the three approved here are all due in the second.
    expect(runs).toHaveLength(2);
    expect(runs[0]!.checked).toBeLessThanOrEqual(2);
    expect(runs[1]!.checked).toBe(2);
  });
});

describe("the operator's edit and suspend", () => {
  const auditRows = async (companyId: string, action: string) =>
    (
      await worker.env.DB.prepare('SELECT reason, detail, actor_kind FROM audit_log WHERE target_kind = ? AND target_id = ? AND action = ?')
        .bind('company', companyId, action)
        .all<{ reason: string | null; detail: string | null; actor_kind: string }>()
    ).results;
  const detail = async (cookie: string, companyId: string) => (await api.json<ReviewDetailAnswer>(await api.get(`/ops/v1/companies/detail?companyId=${companyId}`, { cookie }))).data;
  const editOf = (companyId: string, seen: ReviewDetailAnswer, body: Record<string, unknown>) => ({
    companyId,
    expectedUpdatedAt: seen.updatedAt,
    companyNameEn: seen.companyNameEn,
    companyNameCn: seen.companyNameCn,
    socialCredit: seen.socialCredit,
    reason: 'Licence shows another name',
    ...body,
  });

  it('corrects the names and the credit code with the same checks as at entry, and records the reason with what changed', async () => {
    const { created, fields } = await newCompany();
    const companyId = created.data.companyId;
    const reviewer = await operator();
    const seen = await detail(reviewer, companyId);
    const edit = async (body: Record<string, unknown>) => api.json<{ changed: string[] }>(await api.post('/ops/v1/companies/edit', editOf(companyId, seen, body), { cookie: reviewer }));
    // Both levels of the code, as at entry.
    expect(await edit({ socialCredit: '91350100M000100Y4Z' })).toMatchObject({ code: 'RG0001', data: { path: 'socialCredit', expected: '3' } });
    expect((await edit({ socialCredit: '91350100M000100Y' })).code).toBe('RG0002');
    expect((await edit({ reason: ' ' })).code).toBe('GW0400');
    // Another company's name of the same type is refused.
    const other = await newCompany();
    expect(await edit({ companyNameEn: other.fields.companyNameEn })).toMatchObject({ code: 'CO0001' });
    expect(await auditRows(companyId, 'company.edited')).toEqual([]);

    const saved = await edit({ socialCredit: '９１３５０１００ｍ000 100y43', companyNameCn: '东海远洋有限公司' });
    expect(saved).toMatchObject({ code: '0', data: { changed: ['nameCn', 'socialCredit'] } });
    const now = await detail(reviewer, companyId);
    expect(now).toMatchObject({ socialCredit: '91350100M000100Y43', companyNameCn: '东海远洋有限公司', companyNameEn: fields.companyNameEn });
    const rows = await auditRows(companyId, 'company.edited');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor_kind: 'operator', reason: 'Licence shows another name' });
    expect(JSON.parse(rows[0]!.detail!)).toEqual({
      changed: ['nameCn', 'socialCredit'],
      from: { nameCn: fields.companyNameCn, socialCredit: CODE },
      to: { nameCn: '东海远洋有限公司', socialCredit: '91350100M000100Y43' },
    });
    // The page the operator opened before the edit is out of date: nothing is saved.
    expect((await edit({ companyNameEn: 'East Sea Ocean Lines' })).code).toBe('RV0006');
    expect((await detail(reviewer, companyId)).companyNameEn).toBe(fields.companyNameEn);
    // A platform session is no operator.
    const { admin } = await newCompany();
    expect((await api.post('/ops/v1/companies/edit', editOf(companyId, now, { companyNameEn: 'X Lines' }), { cookie: admin.cookie })).status).toBe(401);
  });

  it('a corrected mainland code is checked against the registry again in the same action, as "Check again" does; a change the registry does not see is not', async () => {
    const { admin, created } = await newCompany();
    const companyId = created.data.companyId;
    setStandInCompany(CODE, { name: '别的公司' });
    expect((await check(admin.cookie, companyId)).data.verdict).toBe('differs');
    const reviewer = await operator();
    const checks = async () => (await worker.env.DB.prepare('SELECT count(*) AS n FROM registry_checks WHERE company_id = ?').bind(companyId).first<{ n: number }>())!.n;
    const edit = async (body: Record<string, unknown>) =>
      api.json<CompanyEditAnswer>(await api.post('/ops/v1/companies/edit', editOf(companyId, await detail(reviewer, companyId), body), { cookie: reviewer }));

    // The corrected code: the registry is asked with it (name and code, without the legal representative).
    const fixed = '91350100M000100Y43';
    const saved = await edit({ socialCredit: fixed });
    expect(saved).toMatchObject({ code: '0', data: { changed: ['socialCredit'], registry: { verdict: 'match', cause: 'operator' } } });
    expect(standInCalls.at(-1)).toMatchObject({ code: fixed, withRep: false });
    // The review page shows the new verdict, not the old one.
    expect((await detail(reviewer, companyId)).registry.latest).toMatchObject({ verdict: 'match', cause: 'operator' });
    expect(await checks()).toBe(2);

    // The English name, while the Chinese one is what the registry knows: no new check.
    const renamed = await edit({ companyNameEn: `East Sea Renamed ${api.unique()}` });
    expect(renamed).toMatchObject({ code: '0', data: { changed: ['nameEn'], registry: null } });
    expect(await checks()).toBe(2);

    // No provider answers: the correction stands, and the check says "not checked".
    setStandInMode('tencent', 'down');
    setStandInMode('aliyun', 'down');
    const unanswered = await edit({ socialCredit: CODE });
    expect(unanswered).toMatchObject({ code: '0', data: { changed: ['socialCredit'], registry: { verdict: 'notChecked' } } });
    expect((await detail(reviewer, companyId)).socialCredit).toBe(CODE);
  });

  it('of 30 parallel edits from one view exactly one is saved, with one audit row', async () => {
    const { created } = await newCompany();
    const companyId = created.data.companyId;
    const reviewer = await operator();
    const seen = await detail(reviewer, companyId);
    const answers = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => (await api.json(await api.post('/ops/v1/companies/edit', editOf(companyId, seen, { companyNameEn: `Parallel Lines ${i} ${api.unique()}` }), { cookie: reviewer }))).code),
    );
    expect(answers.filter((code) => code === '0')).toHaveLength(1);
    expect(answers.filter((code) => code !== '0').every((code) => code === 'RV0006')).toBe(true);
    expect(await auditRows(companyId, 'company.edited')).toHaveLength(1);
  });

  it('a block suspends the company\'s grants in the same action, with the reason; of parallel blocks one writes each row', async () => {
    const { created } = await newCompany();
    const companyId = created.data.companyId;
    const reviewer = await operator();
    expect((await api.json(await api.post('/ops/v1/companies/decide', { companyId, action: 'verify', expectedStatus: 'approving' }, { cookie: reviewer }))).code).toBe('0');
    const blocks = await Promise.all(
      Array.from({ length: 20 }, async () =>
        (await api.json(await api.post('/ops/v1/companies/decide', { companyId, action: 'block', expectedStatus: 'verified', reason: 'registryNotOperating', note: 'revoked in the registry' }, { cookie: reviewer }))).code,
      ),
    );
    expect(blocks.filter((code) => code === '0')).toHaveLength(1);
    const row = await worker.env.DB.prepare('SELECT status, grants_suspended_at, grants_suspended_reason FROM companies WHERE id = ?').bind(companyId).first<{ status: string; grants_suspended_at: number | null; grants_suspended_reason: string }>();
    expect(row).toMatchObject({ status: 'blocked', grants_suspended_at: expect.any(Number) });
    expect(row!.grants_suspended_reason).toContain('revoked in the registry');
    const suspended = await auditRows(companyId, 'company.grants_suspended');
    expect(suspended).toHaveLength(1);
    expect(JSON.parse(suspended[0]!.detail!)).toEqual({ with: 'company.blocked' });
    expect(await auditRows(companyId, 'company.blocked')).toHaveLength(1);

    // Unblocked and blocked again: the grants stay suspended as they were (the operator restores them on purpose).
    expect((await api.json(await api.post('/ops/v1/companies/decide', { companyId, action: 'unblock', expectedStatus: 'blocked' }, { cookie: reviewer }))).code).toBe('0');
    expect((await api.json(await api.post('/ops/v1/companies/decide', { companyId, action: 'block', expectedStatus: 'verified', reason: 'other', note: 'again' }, { cookie: reviewer }))).code).toBe('0');
    expect(await auditRows(companyId, 'company.grants_suspended')).toHaveLength(1);
    const still = await worker.env.DB.prepare('SELECT grants_suspended_at FROM companies WHERE id = ?').bind(companyId).first<{ grants_suspended_at: number }>();
    expect(still!.grants_suspended_at).toBe(row!.grants_suspended_at);
  });
});

describe('overseas and shipping companies: the IMO company number, the national registry number and their evidence', () => {
  /** A company outside the mainland: its credit code is the local registration number, free text. */
  const SG = { countryId: 'SG', countryName: 'Singapore', socialCredit: '201912345K', phoneCode: '+65', contactTel: '81234567' };
  const upload = async (cookie: string, kind: string, name = 'evidence.pdf', bytes: Uint8Array = pdf) => {
    const form = new FormData();
    form.append('kind', kind);
    form.append('files', new Blob([bytes]), name);
    const sent = await bufferedForm(form);
    return api.json<UploadedFile[]>(await api.postRaw('/agg-web/file/uploadFile', sent.body, { cookie, headers: sent.headers }));
  };
  const companyRow = (id: string) =>
    worker.env.DB.prepare('SELECT imo_company_number, national_registry_number, updated_at FROM companies WHERE id = ?')
      .bind(id)
      .first<{ imo_company_number: string | null; national_registry_number: string | null; updated_at: number }>();
  const fileRow = (id: string) => worker.env.DB.prepare('SELECT company_id, purpose, kind FROM files WHERE id = ?').bind(id).first<{ company_id: string | null; purpose: string | null; kind: string }>();
  const auditRows = async (companyId: string) =>
    (await worker.env.DB.prepare("SELECT reason, detail FROM audit_log WHERE target_kind = 'company' AND target_id = ? AND action = 'company.edited'").bind(companyId).all<{ reason: string; detail: string }>()).results;

  it('create: 2041999 is stored with the national number and the evidence tied to the company; 2041998 is RG0004 in both languages with nothing written', async () => {
    // A wrong check digit: refused in the language of the request, naming the digit that fits, and nothing written.
    const { admin, fields } = await newCompany({ ...SG });
    const licence = (await upload(admin.cookie, 'licence', 'licence.pdf')).data[0]!;
    const evidence = (await upload(admin.cookie, 'registryEvidence')).data[0]!;
    const form = { ...fields, companyNameEn: `Straits Ship Management ${api.unique()}`, corporateCharter: [licence.id], registryEvidence: [evidence.id], nationalRegistryNumber: ' UEN  201912345K ' };
    const en = await api.json(await api.post('/agg-web/company/create', { ...form, imoCompanyNumber: '2041998' }, { cookie: admin.cookie, lang: 'en' }));
    expect(en).toMatchObject({ code: 'RG0004', data: { path: 'imoCompanyNumber', expected: '9' } });
    expect(en.message).toBe('This IMO company number is not valid: its last digit does not fit the first six.');
    const zh = await api.json(await api.post('/agg-web/company/create', { ...form, imoCompanyNumber: '2041998' }, { cookie: admin.cookie, lang: 'zh' }));
    expect(zh).toMatchObject({ code: 'RG0004', message: 'IMO 公司编号无效：最后一位校验码与前六位不符。' });
    expect((await api.json(await api.post('/agg-web/company/create', { ...form, imoCompanyNumber: '20419' }, { cookie: admin.cookie }))).code).toBe('RG0007');
    const none = await worker.env.DB.prepare('SELECT COUNT(*) AS n FROM companies WHERE name_en = ?').bind(form.companyNameEn).first<{ n: number }>();
    expect(none!.n).toBe(0);
    expect(await fileRow(evidence.id)).toMatchObject({ company_id: null, purpose: null, kind: 'registryEvidence' });

    // A sound one, spaces trimmed and inner spaces of the national number collapsed.
    const created = await api.json<{ companyId: string }>(await api.post('/agg-web/company/create', { ...form, imoCompanyNumber: ' 204 1999 ' }, { cookie: admin.cookie }));
    expect(created.code).toBe('0');
    const companyId = created.data.companyId;
    expect(await companyRow(companyId)).toMatchObject({ imo_company_number: '2041999', national_registry_number: 'UEN 201912345K' });
    expect(await fileRow(evidence.id)).toMatchObject({ company_id: companyId, purpose: 'registryEvidence' });
    const detail = await api.json<CompanyDetailAnswer>(await api.get(`/agg-web/company/detail?companyId=${companyId}`, { cookie: admin.cookie }));
    expect(detail.data).toMatchObject({ imoCompanyNumber: '2041999', nationalRegistryNumber: 'UEN 201912345K', registryEvidence: [{ id: evidence.id, originName: 'evidence.pdf' }] });
    expect(detail.data.corporateCharter.map((file) => file.id)).toEqual([licence.id]);

    // Listed for the operator beside the licence, each with its address, and the numbers shown.
    const reviewer = await operator();
    const review = (await api.json<ReviewDetailAnswer>(await api.get(`/ops/v1/companies/detail?companyId=${companyId}`, { cookie: reviewer }))).data;
    expect(review).toMatchObject({ imoCompanyNumber: '2041999', nationalRegistryNumber: 'UEN 201912345K' });
    expect(review.files.map((file) => [file.purpose, file.id])).toEqual([
      ['licence', licence.id],
      ['registryEvidence', evidence.id],
    ]);
    const opened = await api.get(review.files[1]!.url.replace(/^\/api/, ''), { cookie: reviewer });
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toBe('application/pdf');

    // An empty string is none; the evidence may be a CSV, as a licence may.
    const csv = (await upload(admin.cookie, 'registryEvidence', 'register.csv', new TextEncoder().encode('name,number\nStraits,201912345K\n'))).data[0]!;
    const plain = await api.json<{ companyId: string }>(
      await api.post('/agg-web/company/create', { ...form, companyNameEn: `Straits Two ${api.unique()}`, corporateCharter: [(await upload(admin.cookie, 'licence', 'l.pdf')).data[0]!.id], registryEvidence: [csv.id], imoCompanyNumber: '', nationalRegistryNumber: '' }, { cookie: admin.cookie }),
    );
    expect(plain.code).toBe('0');
    expect(await companyRow(plain.data.companyId)).toMatchObject({ imo_company_number: null, national_registry_number: null });
    expect(await fileRow(csv.id)).toMatchObject({ company_id: plain.data.companyId, purpose: 'registryEvidence' });
  });

  it('a mainland company: an IMO number, a national number and evidence it sends are ignored (not stored, not attached)', async () => {
    const { admin, fields } = await newCompany();
    const evidence = (await upload(admin.cookie, 'registryEvidence')).data[0]!;
    const licence = (await upload(admin.cookie, 'licence', 'licence.pdf')).data[0]!;
    const created = await api.json<{ companyId: string }>(
      await api.post(
        '/agg-web/company/create',
        { ...fields, companyNameEn: `Mainland Lines ${api.unique()}`, corporateCharter: [licence.id], imoCompanyNumber: '2041998', nationalRegistryNumber: 'X-1', registryEvidence: [evidence.id] },
        { cookie: admin.cookie },
      ),
    );
    expect(created.code).toBe('0');
    expect(await companyRow(created.data.companyId)).toMatchObject({ imo_company_number: null, national_registry_number: null });
    expect(await fileRow(evidence.id)).toMatchObject({ company_id: null, purpose: null });
  });

  it('fill: a wrong IMO number changes nothing; a sound one is stored; evidence left out of the form is removed', async () => {
    const { admin, fields, created } = await newCompany({ ...SG, imoCompanyNumber: '2041999', nationalRegistryNumber: 'UEN 1' });
    expect(created.code).toBe('0');
    const companyId = created.data.companyId;
    const evidence = (await upload(admin.cookie, 'registryEvidence')).data[0]!;
    const fill = async (body: Record<string, unknown>, lang: 'en' | 'zh' = 'en') => api.json(await api.post('/agg-web/company/fill', { ...fields, companyId, ...body }, { cookie: admin.cookie, lang }));
    const saved = await fill({ imoCompanyNumber: '2041999', nationalRegistryNumber: 'UEN 2', registryEvidence: [evidence.id] });
    expect(saved.code).toBe('0');
    const before = await companyRow(companyId);
    expect(before).toMatchObject({ imo_company_number: '2041999', national_registry_number: 'UEN 2' });

    const wrong = await fill({ imoCompanyNumber: '2041998', nationalRegistryNumber: 'UEN 3', registryEvidence: [] }, 'zh');
    expect(wrong).toMatchObject({ code: 'RG0004', message: 'IMO 公司编号无效：最后一位校验码与前六位不符。', data: { path: 'imoCompanyNumber', expected: '9' } });
    expect(await companyRow(companyId)).toEqual(before);
    expect(await fileRow(evidence.id)).toMatchObject({ company_id: companyId, purpose: 'registryEvidence' });

    // Sent without them: no numbers and no evidence any more.
    expect((await fill({ imoCompanyNumber: undefined, nationalRegistryNumber: undefined })).code).toBe('0');
    expect(await companyRow(companyId)).toMatchObject({ imo_company_number: null, national_registry_number: null });
    expect(await fileRow(evidence.id)).toBeNull();
  });

  it("the operator's correction of the IMO number: checked as at entry, one audit row with the old and new values", async () => {
    const { created } = await newCompany({ ...SG, imoCompanyNumber: '2041999' });
    const companyId = created.data.companyId;
    const reviewer = await operator();
    const seen = (await api.json<ReviewDetailAnswer>(await api.get(`/ops/v1/companies/detail?companyId=${companyId}`, { cookie: reviewer }))).data;
    const edit = async (body: Record<string, unknown>, lang: 'en' | 'zh' = 'en') =>
      api.json<{ changed: string[] }>(
        await api.post(
          '/ops/v1/companies/edit',
          { companyId, expectedUpdatedAt: seen.updatedAt, companyNameEn: seen.companyNameEn, companyNameCn: seen.companyNameCn, socialCredit: seen.socialCredit, reason: 'Certificate shows another number', ...body },
          { cookie: reviewer, lang },
        ),
      );
    expect(await edit({ imoCompanyNumber: '2041998' })).toMatchObject({ code: 'RG0004', message: 'This IMO company number is not valid: its last digit does not fit the first six.', data: { path: 'imoCompanyNumber', expected: '9' } });
    expect((await edit({ imoCompanyNumber: '2041998' }, 'zh')).message).toBe('IMO 公司编号无效：最后一位校验码与前六位不符。');
    expect((await edit({ imoCompanyNumber: '1234' })).code).toBe('RG0007');
    expect(await auditRows(companyId)).toEqual([]);
    expect((await companyRow(companyId))!.imo_company_number).toBe('2041999');
    // Left out, the numbers stay as they are (nothing changed: no edit, no row).
    expect(await edit({})).toMatchObject({ code: '0', data: { changed: [] } });

    // 0123453: 0·8 + 1·6 + 2·4 + 3·2 + 4·9 + 5·7 = 91, 91 mod 11 = 3, (11 − 3) mod 10 = 8 → 0123458.
    expect(await edit({ imoCompanyNumber: 'IMO 0123458', nationalRegistryNumber: 'UEN 201912345K' })).toMatchObject({ code: '0', data: { changed: ['imoCompanyNumber', 'nationalRegistryNumber'] } });
    expect(await companyRow(companyId)).toMatchObject({ imo_company_number: '0123458', national_registry_number: 'UEN 201912345K' });
    const rows = await auditRows(companyId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.reason).toBe('Certificate shows another number');
    expect(JSON.parse(rows[0]!.detail)).toEqual({
      changed: ['imoCompanyNumber', 'nationalRegistryNumber'],
      from: { imoCompanyNumber: '2041999', nationalRegistryNumber: null },
      to: { imoCompanyNumber: '0123458', nationalRegistryNumber: 'UEN 201912345K' },
    });
    const now = (await api.json<ReviewDetailAnswer>(await api.get(`/ops/v1/companies/detail?companyId=${companyId}`, { cookie: reviewer }))).data;
    expect(now).toMatchObject({ imoCompanyNumber: '0123458', nationalRegistryNumber: 'UEN 201912345K' });
  });
});
