import { describe, expect, it } from 'vitest';
import { fileBytes } from '../fixtures/file-bytes';
import { loginCaseAnswer, type LoginCaseAnswer } from '../../src/schemas/auth';
import type { CompanyModulesAnswer } from '../../src/schemas/members';
import type { CompanyMembersAnswer } from '../../src/schemas/onboarding';
import { meAnswer, type MeAnswer } from '../../src/schemas/profile';
import { bufferedForm, useWorkerEnv, type CallOptions } from './gateway-client';

/**
 * Company administrators manage their members (role, removal, module grants) and the full user record,
 * through the whole Worker on a real local D1: bursts of parallel changes by two administrators, refusals of
 * non-administrators with forged headers, the last administrator kept, every field of the record present.
 */
// Every test signs several people in (a 100,000-round PBKDF2 each): a busy machine needs minutes, not seconds.
const { worker, api } = useWorkerEnv('members');

type Person = Awaited<ReturnType<typeof api.person>>;

const count = async (sql: string, ...binds: unknown[]) => (await worker.env.DB.prepare(sql).bind(...binds).first<{ n: number }>())!.n;
const companyOf = async (userId: string) =>
  (await worker.env.DB.prepare('SELECT company_id AS id FROM company_members WHERE user_id = ?').bind(userId).first<{ id: string }>())!.id;

/** A verified company of `type` with `admins` administrators and `staff` active staff members, all signed in. */
async function company({ admins = 1, staff = 1, type = 'shipOwner' } = {}) {
  const first = await api.person({ realName: '王小明', companies: [{ nameEn: `Members ${api.unique()}`, type, role: 'administrator' }] });
  const companyId = await companyOf(first.userId);
  const join = (role: 'administrator' | 'staff', i: number) =>
    api.person({ realName: `${role} ${i}`, companies: [{ companyId, role, hireTime: '2024-03-01' }] });
  const more = await Promise.all(Array.from({ length: admins - 1 }, (_, i) => join('administrator', i + 2)));
  const members = await Promise.all(Array.from({ length: staff }, (_, i) => join('staff', i + 1)));
  return { companyId, admins: [first, ...more], staff: members };
}

const change = (path: 'role' | 'remove' | 'module', who: Person, body: Record<string, unknown>, options: CallOptions = {}) =>
  api.post(`/agg-web/company/member/${path}`, body, { cookie: who.cookie, ...options });
const codeOf = async (res: Response) => (await api.json(res)).code;
const me = async (who: Person, options: CallOptions = {}) => api.json<MeAnswer>(await api.get('/agg-web/user/fetchMeByUserToken', { cookie: who.cookie, ...options }));
const roleOf = async (companyId: string, userId: string) =>
  (await worker.env.DB.prepare('SELECT role FROM company_members WHERE company_id = ? AND user_id = ?').bind(companyId, userId).first<{ role: string }>())?.role ?? null;
const audits = (companyId: string, action: string) =>
  count("SELECT count(*) AS n FROM audit_log WHERE target_kind = 'company' AND target_id = ? AND action = ?", companyId, action);
const tally = (codes: string[]) => codes.reduce<Record<string, number>>((t, code) => ({ ...t, [code]: (t[code] ?? 0) + 1 }), {});

describe('role changes', { timeout: 180_000 }, () => {
  it('two administrators promote one staff member 20 times at once: one wins, the others hear MB0003, one audit row', async () => {
    const { companyId, admins, staff } = await company({ admins: 2, staff: 1 });
    const target = staff[0]!;
    const codes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => change('role', admins[i % 2]!, { companyId, userId: target.userId, role: 'administrator' }).then(codeOf)),
    );
    expect(tally(codes)).toEqual({ '0': 1, MB0003: 19 });
    expect(await roleOf(companyId, target.userId)).toBe('administrator');
    expect(await audits(companyId, 'member.role_changed')).toBe(1);
    const row = await worker.env.DB.prepare("SELECT actor_kind, actor_id, detail FROM audit_log WHERE target_id = ? AND action = 'member.role_changed'").bind(companyId).first();
    expect(admins.map((a) => a.userId)).toContain(row!.actor_id);
    expect(JSON.parse(String(row!.detail))).toEqual({ userId: target.userId, role: 'administrator' });
  });

  it('two administrators demote each other 20 times at once: exactly one stays administrator', async () => {
    const { companyId, admins } = await company({ admins: 2, staff: 0 });
    const [a, b] = admins as [Person, Person];
    const codes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const [actor, target] = i % 2 ? [a, b] : [b, a];
        return change('role', actor, { companyId, userId: target.userId, role: 'staff' }).then(codeOf);
      }),
    );
    // One demotion wins; the demoted one is no longer an administrator (CO0008), the other hears MB0003 or MB0001.
    expect(codes.filter((code) => code === '0')).toHaveLength(1);
    expect(codes.every((code) => ['0', 'CO0008', 'MB0001', 'MB0003'].includes(code))).toBe(true);
    expect(await count("SELECT count(*) AS n FROM company_members WHERE company_id = ? AND role = 'administrator' AND status = 'active'", companyId)).toBe(1);
    expect(await audits(companyId, 'member.role_changed')).toBe(1);
  });

  it('the last administrator can neither demote nor remove themselves, even 20 times at once', async () => {
    const { companyId, admins, staff } = await company({ admins: 1, staff: 1 });
    const admin = admins[0]!;
    const codes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? change('role', admin, { companyId, userId: admin.userId, role: 'staff' }).then(codeOf)
          : change('remove', admin, { companyId, userId: admin.userId }).then(codeOf),
      ),
    );
    expect(tally(codes)).toEqual({ MB0001: 20 });
    expect(await roleOf(companyId, admin.userId)).toBe('administrator');
    expect(await count("SELECT count(*) AS n FROM audit_log WHERE target_id = ?", companyId)).toBe(0);

    // With a second administrator the first may step down.
    expect(await codeOf(await change('role', admin, { companyId, userId: staff[0]!.userId, role: 'administrator' }))).toBe('0');
    expect(await codeOf(await change('role', admin, { companyId, userId: admin.userId, role: 'staff' }))).toBe('0');
    expect(await roleOf(companyId, admin.userId)).toBe('staff');
    // The message says what to do, in both languages.
    const zh = await api.json(await change('role', staff[0]!, { companyId, userId: staff[0]!.userId, role: 'staff' }, { lang: 'zh' }));
    expect(zh).toMatchObject({ code: 'MB0001', message: expect.stringContaining('管理员') });
  });
});

describe('non-administrators', { timeout: 180_000 }, () => {
  it('staff, strangers and forged headers change nothing and leave no audit row', async () => {
    const { companyId, admins, staff } = await company({ admins: 1, staff: 2 });
    const [s1, s2] = staff as [Person, Person];
    const stranger = await api.person({ realName: 'Stranger' });
    const admin = admins[0]!;
    const attempts: [Person, 'role' | 'remove' | 'module', Record<string, unknown>, CallOptions, string][] = [];
    for (let i = 0; i < 20; i++) {
      // A staff member forging the client address and a header naming the administrator.
      const forged: CallOptions = { headers: { 'cf-connecting-ip': `203.0.113.${i}`, 'x-user-id': admin.userId, 'x-client-ip': '127.0.0.1' } };
      attempts.push([s1, 'role', { companyId, userId: s1.userId, role: 'administrator' }, forged, 'CO0008']);
      attempts.push([s1, 'remove', { companyId, userId: s2.userId }, forged, 'CO0008']);
      attempts.push([s1, 'module', { companyId, userId: s1.userId, module: 'invoices', granted: true }, forged, 'CO0008']);
      attempts.push([stranger, 'remove', { companyId, userId: admin.userId }, {}, 'CO0009']);
    }
    // The administrator's own cookie sent from another site.
    attempts.push([admin, 'remove', { companyId, userId: s2.userId }, { origin: 'https://evil.example', headers: { origin: 'https://evil.example' } }, 'GW0403']);
    const results = await Promise.all(attempts.map(([who, path, body, options]) => change(path, who, body, options).then(codeOf)));
    expect(results).toEqual(attempts.map((a) => a[4]));
    // No session at all.
    expect(await codeOf(await api.post('/agg-web/company/member/remove', { companyId, userId: s2.userId }))).toBe('TK00001');
    expect(await count('SELECT count(*) AS n FROM company_members WHERE company_id = ?', companyId)).toBe(3);
    expect(await roleOf(companyId, s1.userId)).toBe('staff');
    expect(await count('SELECT count(*) AS n FROM member_modules WHERE company_id = ?', companyId)).toBe(0);
    expect(await count('SELECT count(*) AS n FROM audit_log WHERE target_id = ?', companyId)).toBe(0);
    // Staff may not list the members either.
    expect(await codeOf(await api.get(`/agg-web/company/members?companyId=${companyId}`, { cookie: s1.cookie }))).toBe('CO0008');
  });
});

describe('modules', { timeout: 180_000 }, () => {
  it('20 parallel grants of one module by two administrators: one grant; the staff member then sees it, administrators see all', async () => {
    const { companyId, admins, staff } = await company({ admins: 2, staff: 2, type: 'shipAgent' });
    const [s1, s2] = staff as [Person, Person];
    const codes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => change('module', admins[i % 2]!, { companyId, userId: s1.userId, module: 'agency-orders', granted: true }).then(codeOf)),
    );
    expect(tally(codes)).toEqual({ '0': 1, MB0004: 19 });
    expect(await audits(companyId, 'member.module_granted')).toBe(1);

    const modules = async (who: Person, lang: 'zh' | 'en' = 'en') =>
      (await api.json<CompanyModulesAnswer>(await api.get(`/agg-web/company/modules?companyId=${companyId}`, { cookie: who.cookie, lang }))).data.modules;
    expect(await modules(s1)).toEqual([{ key: 'agency-orders', name: 'Agency orders' }]);
    expect(await modules(s1, 'zh')).toEqual([{ key: 'agency-orders', name: '代理委托' }]);
    expect(await modules(s2)).toEqual([]);
    // A ship agent sees the catalogue's modules for its type, not the shipyard's or the bunker supplier's.
    const all = (await modules(admins[0]!)).map((m) => m.key);
    expect(all).toEqual(['port-calls', 'agency-orders', 'invoices', 'documents']);
    expect((await me(s1)).data.authoriseList).toEqual([{ key: 'agency-orders', name: 'Agency orders' }]);
    expect((await me(admins[1]!)).data.authoriseList.map((m) => m.key)).toEqual(all);

    const listed = await api.json<CompanyMembersAnswer>(await api.get(`/agg-web/company/members?companyId=${companyId}`, { cookie: admins[0]!.cookie, lang: 'zh' }));
    expect(listed.data.modules!.map((m) => m.key)).toEqual(all);
    expect(listed.data.modules![0]).toEqual({ key: 'port-calls', name: '港口挂靠' });
    expect(listed.data.members.find((m) => m.userId === s1.userId)!.modules).toEqual(['agency-orders']);

    // Refusals: a module of another type, a module that does not exist, an administrator, a withdrawal twice.
    const refused = await Promise.all([
      change('module', admins[0]!, { companyId, userId: s1.userId, module: 'bunkering', granted: true }).then(codeOf),
      change('module', admins[0]!, { companyId, userId: s1.userId, module: 'no-such-module', granted: true }).then(codeOf),
      change('module', admins[0]!, { companyId, userId: admins[1]!.userId, module: 'invoices', granted: true }).then(codeOf),
      change('module', admins[0]!, { companyId, userId: s1.userId, module: '../x', granted: true }).then(codeOf),
    ]);
    expect(refused).toEqual(['MB0005', 'MB0005', 'MB0006', 'GW0400']);
    const withdrawn = await Promise.all(
      Array.from({ length: 20 }, (_, i) => change('module', admins[i % 2]!, { companyId, userId: s1.userId, module: 'agency-orders', granted: false }).then(codeOf)),
    );
    expect(tally(withdrawn)).toEqual({ '0': 1, MB0004: 19 });
    expect(await modules(s1)).toEqual([]);

    // Made administrator, a staff member's grants go: an administrator sees every module anyway.
    await change('module', admins[0]!, { companyId, userId: s2.userId, module: 'invoices', granted: true });
    expect(await codeOf(await change('role', admins[0]!, { companyId, userId: s2.userId, role: 'administrator' }))).toBe('0');
    expect(await count('SELECT count(*) AS n FROM member_modules WHERE company_id = ? AND user_id = ?', companyId, s2.userId)).toBe(0);
  });
});

describe('removing a member', { timeout: 180_000 }, () => {
  it('one of 20 parallel removals wins; the member loses the company, its grants and their sessions in it', async () => {
    const { companyId, admins, staff } = await company({ admins: 2, staff: 1 });
    const target = staff[0]!;
    await change('module', admins[0]!, { companyId, userId: target.userId, module: 'invoices', granted: true });
    // Two sessions: one has entered the company, the other not.
    expect(await codeOf(await api.post('/agg-web/user/chooseAccount', { companyId }, { cookie: target.cookie }))).toBe('0');
    const other = await api.signIn(target.email);
    expect((await me(target)).data.accountId).toBe(companyId);

    const codes = await Promise.all(Array.from({ length: 20 }, (_, i) => change('remove', admins[i % 2]!, { companyId, userId: target.userId }).then(codeOf)));
    expect(tally(codes)).toEqual({ '0': 1, MB0002: 19 });
    expect(await count('SELECT count(*) AS n FROM company_members WHERE company_id = ? AND user_id = ?', companyId, target.userId)).toBe(0);
    expect(await count('SELECT count(*) AS n FROM member_modules WHERE company_id = ? AND user_id = ?', companyId, target.userId)).toBe(0);
    expect(await audits(companyId, 'member.removed')).toBe(1);
    // The session in the company has ended; the other goes on, with no company in use.
    expect((await me(target)).code).toBe('TK00001');
    const still = await api.json<MeAnswer>(await api.get('/agg-web/user/fetchMeByUserToken', { cookie: other.cookie }));
    expect(still.code).toBe('0');
    expect(still.data).toMatchObject({ accountId: null, roles: [], authoriseList: [], superAdmin: false });
  });
});

/** Every field of the specification's User, and of its login case response. */
const USER_FIELDS = [
  'username', 'superAdmin', 'superAdminName', 'loginName', 'account', 'accountId', 'authoriseList', 'birthday', 'businessEmails',
  'countryId', 'countryName', 'dateCreate', 'givenName', 'groupId', 'hireDate', 'mainAccountId', 'photo', 'realName', 'roles',
  'registerMobile', 'sex', 'userPhoneCode', 'userPhoneCodeValue', 'passwordVersion', 'source',
];
const LOGIN_CASE_FIELDS = ['userLoginCase', 'userType', 'registerMobile', 'username', 'userId', 'companyInfo', 'ifJumpToSaas'];

describe('the full user record', { timeout: 180_000 }, () => {
  it('a person without a company: every field present, the company ones null or empty', async () => {
    const mobile = api.mobile();
    const email = `record.${api.unique()}@example.com`;
    await api.seed({ email, phone: { callingCode: '+86', mobile }, password: 'Harbour2024', realName: 'Ada Lovelace' });
    const p = await api.signIn(email);
    const record = await api.json<MeAnswer>(await api.get('/agg-web/user/fetchMeByUserToken', { cookie: p.cookie }));
    expect(Object.keys(record.data).sort()).toEqual(expect.arrayContaining(USER_FIELDS));
    expect(meAnswer.safeParse(record.data).success).toBe(true);
    expect(record.data).toMatchObject({
      username: 'Ada Lovelace',
      givenName: 'Ada',
      registerMobile: mobile,
      userPhoneCode: '+86',
      userPhoneCodeValue: 'CN',
      photo: null,
      accountId: null,
      groupId: null,
      mainAccountId: null,
      superAdmin: false,
      superAdminName: null,
      roles: [],
      authoriseList: [],
      hireDate: null,
    });
    // What the person signs in with: the login name when there is one, else the phone.
    expect(record.data.account).toBe(record.data.loginName || `+86${mobile}`);
    expect(typeof record.data.dateCreate).toBe('number');
    expect(Math.abs(record.data.dateCreate - Date.now())).toBeLessThan(10 * 60_000);

    const loginCase = await api.json<LoginCaseAnswer>(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: p.cookie }));
    expect(Object.keys(loginCase.data)).toEqual(expect.arrayContaining(LOGIN_CASE_FIELDS));
    expect(loginCaseAnswer.safeParse(loginCase.data).success).toBe(true);
  });

  it('a staff member: company, administrator, role, hire date, main account, granted modules; the photo served to its owner only', async () => {
    const { companyId, admins, staff } = await company({ admins: 1, staff: 1, type: 'fuelSupplier' });
    const s = staff[0]!;
    await change('module', admins[0]!, { companyId, userId: s.userId, module: 'bunkering', granted: true });
    expect(await codeOf(await api.post('/agg-web/user/setMainAccount', { companyId }, { cookie: s.cookie }))).toBe('0');

    const form = new FormData();
    form.append('kind', 'logo');
    form.append('files', new Blob([fileBytes.png], { type: 'text/plain' }), 'me.png');
    const { body, headers } = await bufferedForm(form);
    const uploaded = await api.json<{ id: string }[]>(await api.postRaw('/agg-web/file/uploadFile', body, { cookie: s.cookie, headers }));
    const photoId = uploaded.data[0]!.id;
    // Only one's own image: another person's upload, or none that exists, is refused.
    expect(await codeOf(await api.post('/agg-web/user/setPhoto', { fileId: photoId }, { cookie: admins[0]!.cookie }))).toBe('MB0010');
    expect(await codeOf(await api.post('/agg-web/user/setPhoto', { fileId: 'nope' }, { cookie: s.cookie }))).toBe('MB0010');
    expect(await codeOf(await api.post('/agg-web/user/setPhoto', { fileId: photoId }, { cookie: s.cookie }))).toBe('0');

    const record = (await me(s, { lang: 'zh' })).data;
    expect(meAnswer.safeParse(record).success).toBe(true);
    expect(record).toMatchObject({
      username: 'staff 1',
      givenName: 'staff',
      accountId: companyId,
      groupId: 'oiler',
      mainAccountId: companyId,
      superAdmin: false,
      superAdminName: '王小明',
      roles: ['staff'],
      authoriseList: [{ key: 'bunkering', name: '燃油加注' }],
      hireDate: '2024-03-01',
      photo: `/api/agg-web/file/${photoId}`,
    });
    const adminRecord = (await me(admins[0]!)).data;
    expect(adminRecord).toMatchObject({ superAdmin: true, superAdminName: '王小明', givenName: '小明', roles: ['administrator'], groupId: 'oiler' });
    expect(adminRecord.authoriseList.map((m) => m.key)).toEqual(['bunkering', 'invoices', 'documents']);

    const own = await api.get(`/agg-web/file/${photoId}`, { cookie: s.cookie });
    expect(own.status).toBe(200);
    expect(new Uint8Array(await own.arrayBuffer())).toEqual(fileBytes.png);
    expect(await codeOf(await api.get(`/agg-web/file/${photoId}`, { cookie: admins[0]!.cookie }))).toBe('FL0010');
  });
});
