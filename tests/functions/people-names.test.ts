import { describe, expect, it } from 'vitest';
import { useWorkerEnv } from './gateway-client';

/**
 * A person is shown by their own name and contact wherever they appear: the operators' audit trail names them
 * (and finds them by name, phone or e-mail), the name given once on the company join form becomes the profile's
 * name, and a company's members list shows the administrator's own name and phone, not the company's contact.
 */
const { worker, api } = useWorkerEnv('people-names');

describe('the audit trail names people and companies', () => {
  it('shows a person by name, phone and e-mail, and the filters find rows by name, phone and e-mail', async () => {
    const res = await api.post('/dev/operator-session', { login: `support.${api.unique()}@ops.example.com`, role: 'support' });
    const [, value] = /(?:^|\n)portal_operator=([^;]+)/.exec(res.headers.getSetCookie().join('\n')) ?? [];
    const cookie = `portal_operator=${value}`;
    const mobile = api.mobile('135');
    const name = `Audit Person ${api.unique()}`;
    const email = `audit.${api.unique()}@example.com`;
    const userId = await api.seed({ email, phone: { callingCode: '+86', mobile }, realName: name, password: 'Harbour2024' });
    // An operator action on the person writes a row that targets them.
    expect((await api.json(await api.post(`/ops/v1/people/${userId}/block`, { reason: 'Asked by the person, identity checked' }, { cookie }))).code).toBe('0');

    type Page = { entries: { targetId: string; targetParty: { name: string; phone: string; email: string } | null }[] };
    for (const filter of [userId, name.slice(6), `+86${mobile}`, mobile, email.toUpperCase()]) {
      const page = await api.json<Page>(await api.get(`/ops/v1/audit?${new URLSearchParams({ target: filter })}`, { cookie }));
      expect(page.code, filter).toBe('0');
      const row = page.data.entries.find((entry) => entry.targetId === userId);
      expect(row?.targetParty, filter).toEqual({ name, phone: `+86${mobile}`, email });
    }
    // A name nobody has finds nothing (never every row).
    const none = await api.json<Page>(await api.get(`/ops/v1/audit?${new URLSearchParams({ target: 'Nobody By This Name 42' })}`, { cookie }));
    expect(none.data.entries).toEqual([]);
  });
});

describe('what a person said once is kept', () => {
  it("the join form's real name becomes the profile's name; a refused join writes none", async () => {
    const admin = await api.person({ userType: 2, companies: [{ nameEn: `Kept Name Shipping ${api.unique()}`, status: 'verified', role: 'administrator' }] });
    const list = await api.json<{ companyId: string }[]>(await api.post('/c/user/v2/getCompanyListByToken', {}, { cookie: admin.cookie }));
    const companyId = list.data[0]!.companyId;
    const code = (await api.json<{ invitationCode: string }>(await api.post('/agg-web/company/invitation/regenerate', { companyId }, { cookie: admin.cookie }))).data.invitationCode;

    const joiner = await api.person({ userType: 2 });
    // A wrong code: refused, and the profile keeps no name.
    const refused = await api.json(await api.post('/agg-web/company/join', { companyId: 'ZZZZ9999', nickName: 'Gao Wen', personalEmail: 'gao@example.com', contactTel: '13900139111', phoneCode: '+86' }, { cookie: joiner.cookie }));
    expect(refused.code).not.toBe('0');
    const before = await api.json<{ realName: string }>(await api.get('/agg-web/user/fetchMeByUserToken', { cookie: joiner.cookie }));
    expect(before.data.realName).toBe('');
    const joined = await api.json(await api.post('/agg-web/company/join', { companyId: code, nickName: 'Gao Wen', personalEmail: 'gao@example.com', contactTel: '13900139111', phoneCode: '+86' }, { cookie: joiner.cookie }));
    expect(joined.code).toBe('0');
    const after = await api.json<{ realName: string; username: string }>(await api.get('/agg-web/user/fetchMeByUserToken', { cookie: joiner.cookie }));
    expect(after.data.realName).toBe('Gao Wen');
    expect(after.data.username).toBe('Gao Wen');
  });

  it("the administrator's row shows the person's own name and phone, not the company's contact person", async () => {
    const mobile = api.mobile('133');
    const admin = await api.person({ userType: 2, realName: 'Lu Xin', phone: { callingCode: '+86', mobile }, companies: [{ nameEn: `Own Row Shipping ${api.unique()}`, status: 'verified', role: 'administrator' }] });
    const companyId = (await api.json<{ companyId: string }[]>(await api.post('/c/user/v2/getCompanyListByToken', {}, { cookie: admin.cookie }))).data[0]!.companyId;
    // The company form writes its contact person onto the administrator's membership.
    await worker.env.DB.prepare("UPDATE company_members SET nick_name = 'Front Desk', contact_phone = '+8613700137000' WHERE company_id = ?").bind(companyId).run();
    const members = await api.json<{ members: { userId: string; name: string; phone: string | null }[] }>(await api.get(`/agg-web/company/members?companyId=${companyId}`, { cookie: admin.cookie }));
    expect(members.data.members.find((m) => m.userId === admin.userId)).toMatchObject({ name: 'Lu Xin', phone: `+86${mobile}` });
  });
});
