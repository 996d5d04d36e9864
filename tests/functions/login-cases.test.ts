import { describe, expect, it } from 'vitest';
import { useWorkerEnv } from './gateway-client';

/**
 * Every login case (sign-in/login-case.ts, README "Login cases") derived by the embedded gateway from what
 * people did, through the whole Worker on a real local D1: registration with a company name and a port (7),
 * a join the administrator declined and applications that ended (9), and cases 1-9 side by side.
 */
const { worker, api } = useWorkerEnv('login-cases');

type LoginCase = { userLoginCase: number; accountSize: number; ifJumpToSaas: boolean; companyInfo: { name: string; ports: { id: string; name: string; code: string }[] } | null };
const loginCase = async (cookie: string, headers: Record<string, string> = {}) => {
  const body = await api.json<LoginCase>(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie, headers }));
  expect(body.code).toBe('0');
  return body.data;
};
const uniqueEmail = () => `case.${api.unique()}@example.com`;

async function emailCode(email: string): Promise<string> {
  expect((await api.json(await api.post('/agg-web/user/getRegVerificationCode', { emailAddress: email, type: 3 }))).code).toBe('0');
  return api.latestCode(email);
}
const register = (email: string, code: string, extra: Record<string, unknown>) =>
  api.post('/agg-web/quick/user/login', { loginType: 2, loginEmail: email, code, agreed: true, userIdentity: 2, companyName: 'Blue Whale Shipping', ...extra });

describe('case 7: registered with a company name and a serviced port', () => {
  it('keeps the port of a registration and answers it with the name; 20 parallel registrations make one person', async () => {
    const email = uniqueEmail();
    const code = await emailCode(email);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => register(email, code, { portId: 'cnzos' }).then(async (res) => ({ i, res, body: await api.json(res.clone()) }))));
    const winners = answers.filter((a) => a.body.code === '0');
    expect(winners).toHaveLength(1);
    for (const loser of answers.filter((a) => a.body.code !== '0')) await loser.res.body?.cancel();
    const cookie = api.sessionCookie(winners[0]!.res);
    await winners[0]!.res.body?.cancel();
    expect(await loginCase(cookie)).toMatchObject({
      userLoginCase: 7,
      accountSize: 0,
      companyInfo: { name: 'Blue Whale Shipping', ports: [{ id: 'CNZOS', name: 'Zhoushan', code: 'CNZOS' }] },
    });
    const rows = await worker.env.DB.prepare('SELECT pending_port_id FROM users WHERE email = ?').bind(email).all();
    expect(rows.results).toEqual([{ pending_port_id: 'CNZOS' }]);
  }, 60_000);

  it('refuses a port that is not on the list before the code is used, and the same code then registers case 6', async () => {
    const email = uniqueEmail();
    const code = await emailCode(email);
    for (const portId of ['ZZZZZ', 'CN ZOS', "CN'; ", 'x'.repeat(6)]) {
      const refused = await api.json(await register(email, code, { portId }));
      expect(['CO0005', 'GW0400'], portId).toContain(refused.code);
    }
    expect((await api.json(await register(email, code, { portId: 'ZZZZZ' }))).code).toBe('CO0005');
    const res = await register(email, code, {});
    expect((await api.json(res.clone())).code).toBe('0');
    await res.body?.cancel();
    expect(await loginCase(api.sessionCookie(res))).toMatchObject({ userLoginCase: 6, companyInfo: { name: 'Blue Whale Shipping', ports: [] } });
  });

  it('never gives an existing person a port through a later code sign-in', async () => {
    const { email, cookie } = await api.person({ pendingCompanyName: 'Harbour Ltd' });
    expect(await loginCase(cookie)).toMatchObject({ userLoginCase: 6 });
    const res = await register(email, await emailCode(email), { portId: 'CNSHA', companyName: 'Other Name' });
    expect((await api.json(res.clone())).code).toBe('0');
    await res.body?.cancel();
    expect(await loginCase(api.sessionCookie(res))).toMatchObject({ userLoginCase: 6, companyInfo: { name: 'Harbour Ltd', ports: [] } });
  });
});

describe('case 9: every application or join ended', () => {
  it('gives staff whose join the administrator declined case 9, with nothing to pre-fill, to every parallel ask', async () => {
    const admin = await api.person({ userType: 2, companies: [{ nameEn: `Declining ${api.unique()}` }] });
    const companyId = (await api.json<{ companyId: string }[]>(await api.post('/c/user/v2/getCompanyListByToken', {}, { cookie: admin.cookie }))).data[0]!.companyId;
    // A seeded company has no invitation code yet: the administrator makes one, as on the members page.
    const invitation = await api.json<{ invitationCode: string }>(await api.post('/agg-web/company/invitation/regenerate', { companyId }, { cookie: admin.cookie }));
    const staff = await api.person({ pendingCompanyName: 'Declined Staff Co' });
    const join = { companyId: invitation.data.invitationCode, nickName: 'Han Meimei', personalEmail: 'han@example.com', contactTel: '13900139000', phoneCode: '+86', hireTime: '2024-03-01' };
    expect((await api.json(await api.post('/agg-web/company/join', join, { cookie: staff.cookie }))).code).toBe('0');
    expect(await loginCase(staff.cookie)).toMatchObject({ userLoginCase: 5 });

    expect((await api.json(await api.post('/agg-web/company/member/decline', { companyId, userId: staff.userId }, { cookie: admin.cookie }))).code).toBe('0');
    // Asked as a script would: in parallel, from forged networks and hosts; every answer says the same.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => loginCase(staff.cookie, { 'cf-connecting-ip': `203.0.113.${i}`, 'x-forwarded-host': 'evil.example', host: 'evil.example' })),
    );
    for (const answer of answers) expect(answer).toMatchObject({ userLoginCase: 9, accountSize: 0, companyInfo: null });
  }, 60_000);

  it('gives the administrator of a refused or unbound company case 9, refuses one of a blocked or expired company, and a live application wins', async () => {
    const people = await Promise.all(
      ['verification_failed', 'fail_bind'].map((status) => api.person({ userType: 2, companies: [{ nameEn: `Ended ${status} ${api.unique()}`, status }] })),
    );
    for (const person of people) expect(await loginCase(person.cookie)).toMatchObject({ userLoginCase: 9, companyInfo: null });
    // The platform closed the company: its member is told so (RV0010 / RV0011) rather than sent to start again.
    for (const [status, code] of [['blocked', 'RV0010'], ['expired', 'RV0011']] as const) {
      const closed = await api.person({ userType: 2, companies: [{ nameEn: `Closed ${status} ${api.unique()}`, status }] });
      expect((await api.json(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: closed.cookie }))).code).toBe(code);
    }
    const both = await api.person({
      userType: 2,
      companies: [
        { nameEn: `Ended ${api.unique()}`, status: 'verification_failed' },
        { nameEn: `Again ${api.unique()}`, status: 'approving' },
      ],
    });
    expect(await loginCase(both.cookie)).toMatchObject({ userLoginCase: 4 });
  }, 60_000);
});

describe('cases 1-9 side by side', () => {
  it('derives each case from its data, all at once', async () => {
    const seeds: [number, Record<string, unknown>][] = [
      [1, {}],
      [2, { userType: 2, companies: [{ nameEn: `Two ${api.unique()}` }] }],
      [3, { userType: 1 }],
      [4, { userType: 2, companies: [{ nameEn: `Four ${api.unique()}`, status: 'approving' }] }],
      [5, { userType: 2, companies: [{ nameEn: `Five ${api.unique()}`, role: 'staff', memberStatus: 'pending' }] }],
      [6, { pendingCompanyName: 'Six Shipping' }],
      [7, { pendingCompanyName: 'Seven Shipping', pendingPortId: 'CNSHA' }],
      [9, { userType: 2, companies: [{ nameEn: `Nine ${api.unique()}`, role: 'staff', memberStatus: 'rejected' }] }],
    ];
    const people = await Promise.all(seeds.map(([, fields]) => api.person(fields)));
    const cases = await Promise.all(people.map((p) => loginCase(p.cookie)));
    expect(cases.map((c) => c.userLoginCase)).toEqual(seeds.map(([n]) => n));
    expect(cases[5]!.companyInfo).toEqual({ name: 'Six Shipping', ports: [] });
    expect(cases[6]!.companyInfo).toEqual({ name: 'Seven Shipping', ports: [{ id: 'CNSHA', name: 'Shanghai', code: 'CNSHA' }] });
  }, 60_000);
});

describe('where a signed-in person is sent, by case', () => {
  // The people of tests/e2e/login-cases.spec.ts (e-mail accounts without a registered mobile, hence loginType=2): the
  // gateway's answer through the whole Worker, and the page's route for it (src/lib/login-route.ts), which the sign-in
  // form and a signed-in visit of /login both follow. The browser spec shows what the person then sees there.
  it('derives each example case and routes it to its page, with what the company form starts from', async () => {
    const { routeForLoginCase } = await import('../../src/lib/login-route');
    const examples: [string, Record<string, unknown>, string, { name: string } | null][] = [
      ['1: never chose', {}, '/enterprise_adm_and_staff?loginType=2', null],
      ['2: must change the password', { originalFlag: true }, '/change_password', null],
      ['2: enterprise user without a company', { userType: 2 }, '/create_account', null],
      ['2: member of a verified company', { userType: 2, companies: [{ nameEn: `Case ${api.unique()}` }] }, '/account', null],
      ['3: individual', { userType: 1 }, '/go/web_home', null],
      ['4: administrator awaiting verification', { userType: 2, companies: [{ nameEn: `Case ${api.unique()}`, status: 'approving' }] }, '/completion_of_application?userType=2&loginType=2&ifJumpToSaas=false', null],
      ['5: staff whose join is pending', { userType: 2, companies: [{ nameEn: `Case ${api.unique()}`, role: 'staff', memberStatus: 'pending' }] }, '/completion_of_application?userType=2&loginType=2', null],
      ['6: registered with a company name', { pendingCompanyName: 'Six Seas Shipping' }, '/enterprise_adm_and_staff?loginType=2', { name: 'Six Seas Shipping' }],
      ['7: registered with a company name and a port', { pendingCompanyName: 'Seven Seas Shipping', pendingPortId: 'CNSHA' }, '/enterprise_adm_and_staff?loginType=2', { name: 'Seven Seas Shipping' }],
      ['9: the join was declined', { userType: 2, pendingCompanyName: 'Old Name Co', companies: [{ nameEn: `Case ${api.unique()}`, role: 'staff', memberStatus: 'rejected' }] }, '/enterprise_adm_and_staff?loginType=2', null],
    ];
    const people = await Promise.all(examples.map(([, fields]) => api.person(fields)));
    for (const [i, [name, , lands, prefill]] of examples.entries()) {
      const body = await api.json<Parameters<typeof routeForLoginCase>[0]>(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: people[i]!.cookie }));
      expect(body.code, name).toBe('0');
      expect(routeForLoginCase(body.data).to, name).toBe(lands);
      expect(body.data.companyInfo ? { name: body.data.companyInfo.name } : null, name).toEqual(prefill);
    }
    // Case 3 signs in as the individual account first; the web home is WEB_HOME_URL (/user_center in wrangler.toml).
    const { default: app } = await import('../../functions/worker');
    const home = await app.request('http://localhost/go/web_home', { headers: { cookie: people[4]!.cookie }, redirect: 'manual' }, worker.env, worker.ctx);
    await home.body?.cancel();
    expect(home.headers.get('location')).toBe('/user_center');
  }, 60_000);
});
