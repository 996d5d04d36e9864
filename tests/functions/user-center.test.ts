import { describe, expect, it } from 'vitest';
import type { CompanyListItem } from '../../src/schemas/auth';
import type { MeAnswer } from '../../src/schemas/profile';
import { errorCatalogue } from '../../src/schemas/error-codes';
import type { CompanyMembersAnswer, MemberDecisionAnswer } from '../../src/schemas/onboarding';
import { useWorkerEnv, type CallOptions } from './gateway-client';

/**
 * The user center's own calls through the whole Worker on a real local D1: a person's profile
 * (updateUserInfo, fetchMeByUserToken) and an administrator answering staff joins (member/approve, decline).
 */
const { worker, api } = useWorkerEnv('user-center');

const person = (companies?: unknown[]) => api.person({ realName: 'Zhang San', companies }, `uc.${api.unique()}@example.com`);

/** A visitor reading in Chinese: the edge takes the language from the LANG cookie and passes it on. */
const zh: CallOptions = { lang: 'zh' };
const me = async (cookie: string, extra: CallOptions = {}) => (await api.json<MeAnswer>(await api.get('/agg-web/user/fetchMeByUserToken', { cookie, ...extra }))).data;
const update = (cookie: string, body: Record<string, unknown>, extra: CallOptions = {}) => api.post('/agg-web/user/updateUserInfo', body, { cookie, ...extra });

describe('updateUserInfo', () => {
  it('stores real name, country, birthday and sex, answered by fetchMeByUserToken in the asked language', async () => {
    const p = await person();
    expect(await me(p.cookie)).toMatchObject({ realName: 'Zhang San', countryId: null, countryName: null, birthday: null, sex: null });

    const res = await update(p.cookie, { realName: '  Li   Lei ', countryId: 'sg', birthday: '1990-02-28', sex: 'male' });
    const body = await api.json<MeAnswer>(res);
    expect(body.code).toBe('0');
    expect(body.data).toMatchObject({ userId: p.userId, realName: 'Li Lei', countryId: 'SG', countryName: 'Singapore', birthday: '1990-02-28', sex: 'male' });
    expect(await me(p.cookie)).toMatchObject({ realName: 'Li Lei', countryId: 'SG', countryName: 'Singapore', birthday: '1990-02-28', sex: 'male' });
    expect(await me(p.cookie, zh)).toMatchObject({ countryId: 'SG', countryName: '新加坡' });
    const row = await worker.env.DB.prepare('SELECT country_id, country_name, birthday, sex FROM users WHERE id = ?').bind(p.userId).first();
    expect(row).toEqual({ country_id: 'SG', country_name: 'Singapore', birthday: '1990-02-28', sex: 'male' });

    // Empty and null optional fields clear them; the name stays required.
    expect((await api.json(await update(p.cookie, { realName: '李雷', countryId: '', birthday: null, sex: '' }))).code).toBe('0');
    expect(await me(p.cookie)).toMatchObject({ realName: '李雷', countryId: null, countryName: null, birthday: null, sex: null });
  });

  it('refuses bad input in both languages and changes nothing', async () => {
    const p = await person();
    const good = { realName: 'Han Meimei', countryId: 'CN', birthday: '1985-07-01', sex: 'female' };
    expect((await api.json(await update(p.cookie, good))).code).toBe('0');

    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...good, realName: '   ' }, 'GW0400', 'realName'],
      [{ ...good, realName: 'x'.repeat(65) }, 'GW0400', 'realName'],
      [{ ...good, sex: 'unknown' }, 'GW0400', 'sex'],
      [{ ...good, birthday: '1985-02-30' }, 'GW0400', 'birthday'],
      [{ ...good, birthday: '01/07/1985' }, 'GW0400', 'birthday'],
      [{ ...good, birthday: '1899-12-31' }, 'US0031', 'birthday'],
      [{ ...good, birthday: '2999-01-01' }, 'US0031', 'birthday'],
      [{ ...good, countryId: 'ZZ' }, 'CO0004', 'countryId'],
      [{ ...good, countryId: 'China' }, 'GW0400', 'countryId'],
    ];
    for (const [body, code, path] of cases) {
      for (const [lang, extra] of [['en', {}], ['zh', zh]] as const) {
        const res = await update(p.cookie, body, extra);
        const answer = await api.json<{ path: string } | { path: string }[]>(res);
        expect(answer.code, JSON.stringify(body)).toBe(code);
        expect(res.status).toBe(errorCatalogue[code as keyof typeof errorCatalogue].status);
        expect(answer.message).toBe(errorCatalogue[code as keyof typeof errorCatalogue][lang]);
        const paths = Array.isArray(answer.data) ? answer.data.map((d) => d.path) : [answer.data.path];
        expect(paths).toContain(path);
      }
    }
    // Today is not a past date.
    const today = new Date().toISOString().slice(0, 10);
    expect((await api.json(await update(p.cookie, { ...good, birthday: today }))).code).toBe('US0031');
    expect(await me(p.cookie)).toMatchObject({ realName: 'Han Meimei', countryId: 'CN', birthday: '1985-07-01', sex: 'female' });
  });

  it('needs a session', async () => {
    const res = await api.post('/agg-web/user/updateUserInfo', { realName: 'Nobody' });
    expect(res.status).toBe(401);
    expect((await api.json(res)).code).toBe('TK00001');
  });
});

describe('approving staff', () => {
  /** An administrator of a verified company, its invitation code, and a staff member whose join is pending. */
  async function pendingJoin() {
    const name = `Approve Co ${api.unique()}`;
    const admin = await person([{ nameEn: name, status: 'verified' }]);
    const [company] = (await api.json<CompanyListItem[]>(await api.post('/c/user/v2/getCompanyListByToken', {}, { cookie: admin.cookie }))).data;
    const companyId = company!.companyId;
    const { invitationCode } = (await api.json<{ invitationCode: string }>(await api.post('/agg-web/company/invitation/regenerate', { companyId }, { cookie: admin.cookie }))).data;
    const staff = await person();
    const joined = await api.json(await api.post('/agg-web/company/join', { companyId: invitationCode, nickName: 'Wang Wu', personalEmail: 'wang@example.com', contactTel: '13700137000', phoneCode: '+86' }, { cookie: staff.cookie }));
    expect(joined.code).toBe('0');
    return { name, admin, staff, companyId };
  }
  const statusOf = async (companyId: string, userId: string) =>
    (await worker.env.DB.prepare('SELECT status FROM company_members WHERE company_id = ? AND user_id = ?').bind(companyId, userId).first<{ status: string }>())?.status;

  it('approves a pending member, who can then enter the company; a second approve changes nothing', async () => {
    const { name, admin, staff, companyId } = await pendingJoin();
    const before = (await api.json<CompanyListItem[]>(await api.post('/c/user/v2/getCompanyListByToken', {}, { cookie: staff.cookie }))).data;
    expect(before).toEqual([expect.objectContaining({ companyId, companyNameEn: name, role: 'staff', canEnter: false, memberStatus: 'pending' })]);
    expect((await api.json(await api.post('/agg-web/user/chooseAccount', { companyId }, { cookie: staff.cookie }))).code).toBe('US0020');

    // Double clicks arrive together: one change, every answer says the same.
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => api.post('/agg-web/company/member/approve', { companyId, userId: staff.userId }, { cookie: admin.cookie }).then((r) => api.json<MemberDecisionAnswer>(r))),
    );
    for (const answer of answers) expect(answer).toMatchObject({ code: '0', data: { companyId, userId: staff.userId, status: 'active' } });
    expect(await statusOf(companyId, staff.userId)).toBe('active');
    expect((await api.json(await api.post('/agg-web/company/member/approve', { companyId, userId: staff.userId }, { cookie: admin.cookie }))).code).toBe('0');

    const members = await api.json<CompanyMembersAnswer>(await api.get(`/agg-web/company/members?companyId=${companyId}`, { cookie: admin.cookie }));
    expect(members.data.members.find((m) => m.userId === staff.userId)).toMatchObject({ name: 'Wang Wu', role: 'staff', status: 'active' });
    const after = (await api.json<CompanyListItem[]>(await api.post('/c/user/v2/getCompanyListByToken', {}, { cookie: staff.cookie }))).data;
    expect(after).toEqual([expect.objectContaining({ companyId, canEnter: true, memberStatus: 'active' })]);
    expect((await api.json(await api.post('/agg-web/user/chooseAccount', { companyId }, { cookie: staff.cookie }))).code).toBe('0');
    const loginCase = await api.json<{ userLoginCase: number; accountSize: number }>(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: staff.cookie }));
    expect(loginCase.data).toMatchObject({ userLoginCase: 2, accountSize: 1 });

    // Approved is final here: declining it now is the opposite answer.
    const late = await api.json<{ status: string }>(await api.post('/agg-web/company/member/decline', { companyId, userId: staff.userId }, { cookie: admin.cookie, lang: 'zh' }));
    expect(late).toEqual({ code: 'CO0016', message: errorCatalogue.CO0016.zh, data: { status: 'active' } });
    expect(await statusOf(companyId, staff.userId)).toBe('active');
  });

  it('declines a pending member: rejected, cannot enter, no longer listed on /account', async () => {
    const { admin, staff, companyId } = await pendingJoin();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => api.post('/agg-web/company/member/decline', { companyId, userId: staff.userId }, { cookie: admin.cookie }).then((r) => api.json<MemberDecisionAnswer>(r))),
    );
    for (const answer of answers) expect(answer).toMatchObject({ code: '0', data: { status: 'rejected' } });
    expect(await statusOf(companyId, staff.userId)).toBe('rejected');
    expect((await api.json(await api.post('/agg-web/user/chooseAccount', { companyId }, { cookie: staff.cookie }))).code).toBe('US0020');
    expect((await api.json<CompanyListItem[]>(await api.post('/c/user/v2/getCompanyListByToken', {}, { cookie: staff.cookie }))).data).toEqual([]);
    const approve = await api.post('/agg-web/company/member/approve', { companyId, userId: staff.userId }, { cookie: admin.cookie });
    expect(approve.status).toBe(409);
    expect(await api.json(approve)).toEqual({ code: 'CO0016', message: errorCatalogue.CO0016.en, data: { status: 'rejected' } });
  });

  it('only an administrator of that company may answer, and only for a staff join it has', async () => {
    const { admin, staff, companyId } = await pendingJoin();
    // Another company's administrator, a fellow staff member and the pending person themselves are refused.
    const stranger = await person([{ nameEn: `Other Co ${api.unique()}` }]);
    expect((await api.json(await api.post('/agg-web/company/member/approve', { companyId, userId: staff.userId }, { cookie: stranger.cookie }))).code).toBe('CO0009');
    const colleague = await person();
    await worker.env.DB.prepare("INSERT INTO company_members (company_id, user_id, role, status, joined_at) VALUES (?, ?, 'staff', 'active', 0)").bind(companyId, colleague.userId).run();
    const refused = await api.post('/agg-web/company/member/approve', { companyId, userId: staff.userId }, { cookie: colleague.cookie, lang: 'zh' });
    expect(refused.status).toBe(403);
    expect(await api.json(refused)).toEqual({ code: 'CO0008', message: errorCatalogue.CO0008.zh, data: null });
    expect((await api.json(await api.post('/agg-web/company/member/approve', { companyId, userId: staff.userId }, { cookie: staff.cookie }))).code).toBe('CO0009');
    expect(await statusOf(companyId, staff.userId)).toBe('pending');

    // Unknown members, the administrator's own row, and a person of another company are not requests here.
    for (const userId of ['no-such-user', admin.userId, stranger.userId]) {
      const res = await api.post('/agg-web/company/member/decline', { companyId, userId }, { cookie: admin.cookie });
      expect(res.status).toBe(404);
      expect((await api.json(res)).code).toBe('CO0015');
    }
    expect((await api.json(await api.post('/agg-web/company/member/approve', { companyId: 'no-such-company', userId: staff.userId }, { cookie: admin.cookie }))).code).toBe('CO0009');
    for (const body of [{ companyId }, { companyId, userId: '' }, { companyId, userId: 'x'.repeat(65) }]) {
      expect((await api.json(await api.post('/agg-web/company/member/approve', body, { cookie: admin.cookie }))).code).toBe('GW0400');
    }
    expect((await api.json(await api.post('/agg-web/company/member/approve', { companyId, userId: staff.userId }))).code).toBe('TK00001');
    expect(await statusOf(companyId, staff.userId)).toBe('pending');
  });
});
