import { describe, expect, it } from 'vitest';
import { UPLOAD_LIMITS, type CompanyDetailAnswer, type CompanyMembersAnswer, type UploadedFile } from '../../src/schemas/onboarding';
import { bufferedForm, useWorkerEnv } from './gateway-client';

/**
 * Companies of onboarding through the whole Worker on a real local D1 and R2: create (fuel supplier with
 * licences and GTC), the refusals that must leave nothing half-made, invitations, join, members, main account.
 */
// Bursts of parallel calls: the bridge to the local D1 takes a few statements at a time (throttled-d1.ts).
const { worker, api } = useWorkerEnv('companies');

/** A person seeded with `companies` (none unless given), signed in, with the sign-in answer. */
const person = (companies?: unknown[]) => api.person<SignInAnswer>({ companies }, `co.${api.unique()}@example.com`);
type SignInAnswer = { isMaster: boolean; companyId: string | null };

const pdf = new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n');
const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, ...new Array(32).fill(0)]);

async function upload(cookie: string, names: string[], kind = 'licence'): Promise<UploadedFile[]> {
  const form = new FormData();
  form.append('kind', kind);
  for (const name of names) form.append('files', new Blob([name.endsWith('.png') ? png : pdf]), name);
  const sent = await bufferedForm(form);
  const body = await api.json<UploadedFile[]>(await api.postRaw('/agg-web/file/uploadFile', sent.body, { cookie, headers: sent.headers }));
  expect(body.code).toBe('0');
  return body.data;
}

/** The administrator form's text fields, without type, port and files. */
const formFields = (name: string) => ({
  companyNameEn: name,
  companyNameCn: '东海燃供',
  countryId: 'CN',
  countryName: 'China',
  contactName: 'Li Lei',
  contactTel: '138 0013 8000',
  phoneCode: '+86',
  socialCredit: '91330900MA2A1B2C6D',
  contactEmail: 'ops@east-sea-fuel.example.com',
});

async function fuelSupplierForm(cookie: string, name: string) {
  const licences = await upload(cookie, ['licence-1.pdf', 'licence-2.pdf']);
  const [gtc] = await upload(cookie, ['gtc.pdf'], 'gtc');
  const [logo] = await upload(cookie, ['logo.png'], 'logo');
  return {
    ...formFields(name),
    companyType: 'fuelSupplier',
    portId: 'CNZOS',
    portName: 'Zhoushan',
    portCode: 'CNZOS',
    corporateCharter: licences.map((f) => f.id),
    oilSupplyGtc: gtc!.id,
    companyLogo: logo!.id,
  };
}

/** A ship owner's form (no port, no GTC) with one licence of this person. */
async function shipOwnerForm(cookie: string, name: string) {
  const [licence] = await upload(cookie, ['licence.pdf']);
  return { ...formFields(name), companyType: 'shipOwner', corporateCharter: [licence!.id] };
}

const count = async (sql: string, ...binds: unknown[]) => (await worker.env.DB.prepare(sql).bind(...binds).first<{ n: number }>())!.n;

describe('create a company', () => {
  it('creates a fuel supplier with licences, GTC and logo; the creator is its administrator', async () => {
    const admin = await person();
    const name = `East Sea Fuel ${api.unique()}`;
    const form = await fuelSupplierForm(admin.cookie, name);
    const created = await api.json<{ companyId: string }>(await api.post('/agg-web/company/create', form, { cookie: admin.cookie }));
    expect(created.code).toBe('0');
    const { companyId } = created.data;

    const detail = await api.json<CompanyDetailAnswer>(await api.get(`/agg-web/company/detail?companyId=${companyId}`, { cookie: admin.cookie }));
    expect(detail.data).toMatchObject({
      companyId,
      status: 'approving',
      role: 'administrator',
      companyNameEn: name,
      companyType: 'fuelSupplier',
      contactTel: '13800138000',
      phoneCode: '+86',
      portId: 'CNZOS',
      portCode: 'CNZOS',
    });
    expect(detail.data.corporateCharter.map((f) => f.id)).toEqual(form.corporateCharter);
    expect(detail.data.oilSupplyGtc?.id).toBe(form.oilSupplyGtc);
    expect(detail.data.companyLogo?.id).toBe(form.companyLogo);

    const list = await api.json<{ status: string; role: string; companyType: string; canEnter: boolean }[]>(await api.post('/c/user/v2/getCompanyListByToken', {}, { cookie: admin.cookie }));
    // Listed with its verification status, but not enterable while it is being approved.
    expect(list.data).toEqual([expect.objectContaining({ status: 'approving', role: 'administrator', companyType: 'fuelSupplier', canEnter: false })]);
    const loginCase = await api.json<{ userLoginCase: number; userType: number }>(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: admin.cookie }));
    expect(loginCase.data).toMatchObject({ userLoginCase: 4, userType: 2 });

    // Attached files can no longer be deleted by the uploader, and another person cannot read them.
    expect((await api.json(await api.post('/agg-web/file/deleteFile', { ids: [form.oilSupplyGtc] }, { cookie: admin.cookie }))).code).toBe('FL0011');
    const stranger = await person();
    const unseen = await api.get(`/agg-web/file/${form.oilSupplyGtc}`, { cookie: stranger.cookie });
    expect(unseen.status).toBe(404);
    expect((await api.json(unseen)).code).toBe('FL0010');
    expect((await api.json(await api.get(`/agg-web/company/detail?companyId=${companyId}`, { cookie: stranger.cookie }))).code).toBe('CO0009');
  });

  it('refuses a company of the same name and type in another case, and writes nothing', async () => {
    const first = await person();
    const name = `Blue Harbour Agency ${api.unique()}`;
    const form = await fuelSupplierForm(first.cookie, name);
    expect((await api.json(await api.post('/agg-web/company/create', form, { cookie: first.cookie }))).code).toBe('0');

    const second = await person();
    const again = await fuelSupplierForm(second.cookie, `  ${name.toUpperCase().replace(/ /g, '  ')} `);
    const companiesBefore = await count('SELECT count(*) AS n FROM companies');
    const res = await api.post('/agg-web/company/create', again, { cookie: second.cookie });
    expect(res.status).toBe(409);
    expect((await api.json(res)).code).toBe('CO0001');
    expect(await count('SELECT count(*) AS n FROM companies')).toBe(companiesBefore);
    expect(await count('SELECT count(*) AS n FROM company_members WHERE user_id = ?', second.userId)).toBe(0);
    expect(await count('SELECT count(*) AS n FROM files WHERE owner_user_id = ? AND company_id IS NOT NULL', second.userId)).toBe(0);
    expect(await count('SELECT user_type AS n FROM users WHERE id = ?', second.userId)).toBe(0);
    // The same name with another type is another company.
    const { oilSupplyGtc: _gtc, ...rest } = again;
    expect((await api.json(await api.post('/agg-web/company/create', { ...rest, companyType: 'shipOwner' }, { cookie: second.cookie }))).code).toBe('0');
  });

  it('requires the port for an agent, the GTC for a fuel supplier (only), and the files of this user', async () => {
    const admin = await person();
    const form = await fuelSupplierForm(admin.cookie, `Rule Check ${api.unique()}`);
    const codeOf = async (body: unknown) => (await api.json(await api.post('/agg-web/company/create', body, { cookie: admin.cookie }))).code;
    const { oilSupplyGtc, portId, ...base } = form;
    expect(await codeOf({ ...base, oilSupplyGtc, companyType: 'shipAgent', portId: undefined })).toBe('CO0002');
    expect(await codeOf({ ...base, companyType: 'fuelSupplier', portId })).toBe('CO0003');
    expect(await codeOf({ ...base, oilSupplyGtc, companyType: 'charterer' })).toBe('CO0003');
    expect(await codeOf({ ...form, portId: 'XXXXX' })).toBe('CO0005');
    expect(await codeOf({ ...form, countryId: 'ZZ' })).toBe('CO0004');
    expect(await codeOf({ ...form, contactTel: '12345' })).toBe('PH0001');
    expect(await codeOf({ ...form, contactEmail: 'not-an-email' })).toBe('GW0400');
    expect(await codeOf({ ...form, companyNameEn: 'x'.repeat(129) })).toBe('GW0400');
    expect(await codeOf({ ...form, corporateCharter: [] })).toBe('GW0400');
    expect(await codeOf({ ...form, corporateCharter: Array.from({ length: 11 }, (_, i) => `id-${i}`) })).toBe('GW0400');
    expect(await codeOf({ ...form, corporateCharter: ['no-such-file'] })).toBe('CO0006');
    expect(await codeOf({ ...form, companyLogo: form.corporateCharter[0] })).toBe('CO0006');
    // A pdf as the logo.
    const [pdfLogo] = await upload(admin.cookie, ['logo.pdf']);
    expect(await codeOf({ ...form, companyLogo: pdfLogo!.id })).toBe('CO0007');
    // Another person's upload.
    const other = await person();
    const [foreign] = await upload(other.cookie, ['theirs.pdf']);
    expect(await codeOf({ ...form, corporateCharter: [foreign!.id] })).toBe('CO0006');
    expect(await count('SELECT count(*) AS n FROM company_members WHERE user_id = ?', admin.userId)).toBe(0);
    // A ship agent with its port is fine.
    expect(await codeOf({ ...base, companyType: 'shipAgent', portId: 'CNSHA' })).toBe('0');
  });
});

describe('invitations, joining and members', () => {
  it('looks up the name, joins once as pending staff, regenerates, and lists members for the administrator only', async () => {
    const admin = await person();
    const name = `Join Test Shipping ${api.unique()}`;
    const form = await fuelSupplierForm(admin.cookie, name);
    const { companyId } = (await api.json<{ companyId: string }>(await api.post('/agg-web/company/create', form, { cookie: admin.cookie }))).data;
    const members = await api.json<CompanyMembersAnswer>(await api.get(`/agg-web/company/members?companyId=${companyId}`, { cookie: admin.cookie }));
    const code = members.data.invitationCode!;
    expect(code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);

    const lookup = await api.json(await api.post('/agg-web/user/selectCompanyNameByCompanyId', { companyId: code.toLowerCase() }));
    expect(lookup).toMatchObject({ code: '0', data: { companyNameEn: name, companyNameCn: '东海燃供' } });
    expect((await api.json(await api.post('/agg-web/user/selectCompanyNameByCompanyId', { companyId: 'ZZZZZZZZ' }))).code).toBe('CO0010');
    expect((await api.json(await api.post('/agg-web/user/selectCompanyNameByCompanyId', { companyId: '<script>' }))).code).toBe('CO0010');

    const staff = await person();
    const joinForm = { companyId: code, nickName: 'Han Meimei', personalEmail: 'han@example.com', contactTel: '13900139000', phoneCode: '+86', hireTime: '2024-03-01' };
    const joins = await Promise.all(Array.from({ length: 20 }, () => api.post('/agg-web/company/join', joinForm, { cookie: staff.cookie }).then((r) => api.json(r))));
    expect(joins.filter((j) => j.code === '0')).toHaveLength(1);
    expect(joins.filter((j) => j.code === 'CO0011')).toHaveLength(19);
    expect(joins.find((j) => j.code === '0')!.data).toEqual({ companyId, companyNameEn: name, role: 'staff', status: 'pending' });
    expect(await count('SELECT count(*) AS n FROM company_members WHERE user_id = ?', staff.userId)).toBe(1);
    const staffCase = await api.json<{ userLoginCase: number }>(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: staff.cookie }));
    expect(staffCase.data.userLoginCase).toBe(5);
    expect((await api.json(await api.post('/agg-web/company/join', { ...joinForm, hireTime: '2024-02-30' }, { cookie: staff.cookie }))).code).toBe('GW0400');

    const listed = await api.json<CompanyMembersAnswer>(await api.get(`/agg-web/company/members?companyId=${companyId}`, { cookie: admin.cookie }));
    expect(listed.data.members.map((m) => [m.name, m.role, m.status, m.phone, m.email, m.hireTime])).toEqual([
      // The administrator's row is the person: their own e-mail; with no name or phone of their own, the form's contact (issue 33).
      ['Li Lei', 'administrator', 'active', '+8613800138000', admin.email, null],
      ['Han Meimei', 'staff', 'pending', '+8613900139000', 'han@example.com', '2024-03-01'],
    ]);
    expect((await api.json(await api.get(`/agg-web/company/members?companyId=${companyId}`, { cookie: staff.cookie }))).code).toBe('CO0009');
    expect((await api.json(await api.post('/agg-web/company/invitation/regenerate', { companyId }, { cookie: staff.cookie }))).code).toBe('CO0009');

    const regenerated = await api.json<{ invitationCode: string }>(await api.post('/agg-web/company/invitation/regenerate', { companyId }, { cookie: admin.cookie }));
    expect(regenerated.code).toBe('0');
    expect(regenerated.data.invitationCode).not.toBe(code);
    expect((await api.json(await api.post('/agg-web/user/selectCompanyNameByCompanyId', { companyId: code }))).code).toBe('CO0010');
    const late = await person();
    expect((await api.json(await api.post('/agg-web/company/join', joinForm, { cookie: late.cookie }))).code).toBe('CO0010');
    expect((await api.json(await api.post('/agg-web/company/join', { ...joinForm, companyId: regenerated.data.invitationCode }, { cookie: late.cookie }))).code).toBe('0');
  });

  it('an active staff member sees the detail but not the members', async () => {
    const staff = await person([{ nameEn: `Verified Co ${api.unique()}`, role: 'staff' }]);
    const [company] = (await api.json<{ companyId: string }[]>(await api.post('/c/user/v2/getCompanyListByToken', {}, { cookie: staff.cookie }))).data;
    expect((await api.json(await api.get(`/agg-web/company/detail?companyId=${company!.companyId}`, { cookie: staff.cookie }))).code).toBe('0');
    expect((await api.json(await api.get(`/agg-web/company/members?companyId=${company!.companyId}`, { cookie: staff.cookie }))).code).toBe('CO0008');
  });
});

describe('fill_account', () => {
  it('updates a company awaiting additional information, swapping files, and refuses a verified one', async () => {
    const admin = await person();
    const form = await fuelSupplierForm(admin.cookie, `Fill Test ${api.unique()}`);
    const { companyId } = (await api.json<{ companyId: string }>(await api.post('/agg-web/company/create', form, { cookie: admin.cookie }))).data;
    await worker.env.DB.prepare("UPDATE companies SET status = 'additional_info' WHERE id = ?").bind(companyId).run();
    const [newLicence] = await upload(admin.cookie, ['licence-3.pdf']);
    const keysBefore = (await worker.env.UPLOADS.list()).objects.length;
    const filled = await api.json(await api.post('/agg-web/company/fill', { ...form, companyId, contactName: 'Wang Wu', corporateCharter: [form.corporateCharter[0], newLicence!.id] }, { cookie: admin.cookie }));
    expect(filled.code).toBe('0');
    const detail = await api.json<CompanyDetailAnswer>(await api.get(`/agg-web/company/detail?companyId=${companyId}`, { cookie: admin.cookie }));
    expect(detail.data).toMatchObject({ status: 'approving', contactName: 'Wang Wu' });
    expect(detail.data.corporateCharter.map((f) => f.id).sort()).toEqual([form.corporateCharter[0], newLicence!.id].sort());
    expect((await worker.env.UPLOADS.list()).objects.length).toBe(keysBefore - 1);

    await worker.env.DB.prepare("UPDATE companies SET status = 'verified' WHERE id = ?").bind(companyId).run();
    expect((await api.json(await api.post('/agg-web/company/fill', { ...form, companyId, corporateCharter: [form.corporateCharter[0]] }, { cookie: admin.cookie }))).code).toBe('CO0012');
  });
});

describe('main account', () => {
  it('marks one enterprise as main so sign-in answers isMaster with its id, and clears it', async () => {
    const p = await person([
      { nameEn: `Main A ${api.unique()}` },
      { nameEn: `Main B ${api.unique()}`, role: 'staff' },
      { nameEn: `Main C ${api.unique()}`, status: 'approving' },
    ]);
    const all = (await api.json<{ companyId: string; canEnter: boolean }[]>(await api.post('/c/user/v2/getCompanyListByToken', {}, { cookie: p.cookie }))).data;
    expect(all).toHaveLength(3);
    const list = all.filter((company) => company.canEnter);
    expect(list).toHaveLength(2);
    expect((await api.json(await api.post('/agg-web/user/setMainAccount', { companyId: list[0]!.companyId }, { cookie: p.cookie }))).data).toBe(true);
    expect((await api.json(await api.post('/agg-web/user/setMainAccount', { companyId: list[1]!.companyId }, { cookie: p.cookie }))).code).toBe('0');
    expect(await count('SELECT count(*) AS n FROM company_members WHERE user_id = ? AND is_main = 1', p.userId)).toBe(1);
    const again = await api.signIn<SignInAnswer>(p.email);
    expect(again.answer).toMatchObject({ isMaster: true, companyId: list[1]!.companyId });

    const approving = await worker.env.DB.prepare("SELECT company_id AS id FROM company_members m JOIN companies c ON c.id = m.company_id WHERE m.user_id = ? AND c.status = 'approving'")
      .bind(p.userId)
      .first<{ id: string }>();
    expect((await api.json(await api.post('/agg-web/user/setMainAccount', { companyId: approving!.id }, { cookie: p.cookie }))).code).toBe('CO0014');
    expect((await api.json(await api.post('/agg-web/user/setMainAccount', { companyId: 'not-mine' }, { cookie: p.cookie }))).code).toBe('CO0014');

    expect((await api.json(await api.post('/agg-web/user/clearMainAccount', {}, { cookie: p.cookie }))).data).toBe(true);
    expect((await api.signIn<SignInAnswer>(p.email)).answer).toMatchObject({ isMaster: false, companyId: null });
  });
});

describe('abuse resistance', () => {
  const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
  const randomCode = () => Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => ALPHABET[b % ALPHABET.length]).join('');

  /** A verified company with a known invitation code. */
  async function companyWithCode() {
    const admin = await person([{ nameEn: `Guess Target ${api.unique()}` }]);
    const code = randomCode();
    await worker.env.DB.prepare('UPDATE companies SET invitation_code = ? WHERE created_by = ?').bind(code, admin.userId).run();
    return code;
  }

  const joinForm = (companyId: string) => ({ companyId, nickName: 'Guesser', personalEmail: 'g@example.com', contactTel: '13900139000', phoneCode: '+86' });

  it('answers 20 wrong invitation codes per account an hour, however parallel and from however many networks', async () => {
    const code = await companyWithCode();
    const guesser = await person();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => api.post('/agg-web/company/join', joinForm(randomCode()), { from: `198.18.${i}.${i + 1}`, cookie: guesser.cookie }).then(async (res) => ({ status: res.status, ...(await api.json(res)) }))),
    );
    expect(answers.filter((a) => a.code === 'CO0010')).toHaveLength(20);
    const throttled = answers.filter((a) => a.code === 'CO0017');
    expect(throttled).toHaveLength(30);
    expect(throttled[0]).toMatchObject({ status: 429, message: 'Too many invitation codes were tried. Please try again in an hour.' });
    // Past the cap even the right code is refused, so a guess that hits learns nothing.
    const right = await api.post('/agg-web/company/join', joinForm(code), { from: '198.18.99.1', cookie: guesser.cookie, lang: 'zh' });
    expect(await api.json(right)).toMatchObject({ code: 'CO0017', message: '尝试邀请码次数过多，请一小时后再试。' });
    expect(await count('SELECT count(*) AS n FROM company_members WHERE user_id = ?', guesser.userId)).toBe(0);
    // An hour later the account may try again.
    await worker.env.DB.prepare('UPDATE invitation_attempts SET created_at = created_at - 3600001 WHERE user_id = ?').bind(guesser.userId).run();
    expect((await api.json(await api.post('/agg-web/company/join', joinForm(code), { from: '198.18.99.2', cookie: guesser.cookie }))).code).toBe('0');
  }, 60_000);

  it('answers 30 wrong invitation codes per client network an hour on the name look-up, which needs no session', async () => {
    const code = await companyWithCode();
    const network = '198.19.7.7';
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => api.post('/agg-web/user/selectCompanyNameByCompanyId', { companyId: randomCode() }, { from: network }).then(api.json)),
    );
    expect(answers.filter((a) => a.code === 'CO0010')).toHaveLength(30);
    expect(answers.filter((a) => a.code === 'CO0017')).toHaveLength(20);
    expect((await api.json(await api.post('/agg-web/user/selectCompanyNameByCompanyId', { companyId: code }, { from: network }))).code).toBe('CO0017');
    // Another network is not held back by this one.
    expect((await api.json(await api.post('/agg-web/user/selectCompanyNameByCompanyId', { companyId: code }, { from: '198.19.8.8' }))).code).toBe('0');
  }, 60_000);

  it('lets one of five names that differ only by case, width or compatibility form win, in parallel', async () => {
    const u = api.unique();
    const names = [`Fine Ocean ${u}`, `ＦＩＮＥ ＯＣＥＡＮ ${u}`, `ﬁne ocean ${u}`, `FINE  OCEAN ${u}`, `Fine\u00a0Ocean ${u}`];
    const people = await Promise.all(names.map(() => person()));
    const forms = await Promise.all(people.map((p, i) => shipOwnerForm(p.cookie, names[i]!)));
    const answers = await Promise.all(people.map((p, i) => api.post('/agg-web/company/create', forms[i], { cookie: p.cookie }).then(api.json)));
    expect(answers.filter((a) => a.code === '0')).toHaveLength(1);
    expect(answers.filter((a) => a.code === 'CO0001')).toHaveLength(4);
    const ids = people.map((p) => p.userId);
    const marks = ids.map(() => '?').join(', ');
    expect(await count(`SELECT count(*) AS n FROM companies WHERE created_by IN (${marks})`, ...ids)).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM company_members WHERE user_id IN (${marks})`, ...ids)).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM files WHERE owner_user_id IN (${marks}) AND company_id IS NOT NULL`, ...ids)).toBe(1);
  });

  it("refuses a company form whose files exceed the company's storage cap (FL0007), writing nothing", async () => {
    const admin = await person();
    const form = await shipOwnerForm(admin.cookie, `Heavy Files ${api.unique()}`);
    // Two large uploads of this person (rows only: the cap counts the rows' sizes).
    const half = UPLOAD_LIMITS.maxCompanyBytes / 2;
    const big = [`big-a-${api.unique()}`, `big-b-${api.unique()}`];
    for (const id of big) {
      await worker.env.DB.prepare(
        "INSERT INTO files (id, owner_user_id, kind, r2_key, extension, content_type, origin_name, size, created_at) VALUES (?, ?, 'licence', ?, 'pdf', 'application/pdf', 'big.pdf', ?, 0)",
      )
        .bind(id, admin.userId, `uploads/${id}`, half)
        .run();
    }
    const res = await api.post('/agg-web/company/create', { ...form, corporateCharter: [...form.corporateCharter, ...big] }, { cookie: admin.cookie });
    expect(res.status).toBe(413);
    expect((await api.json(res)).code).toBe('FL0007');
    expect(await count('SELECT count(*) AS n FROM company_members WHERE user_id = ?', admin.userId)).toBe(0);
    expect((await api.json(await api.post('/agg-web/company/create', { ...form, corporateCharter: [big[0]!] }, { cookie: admin.cookie }))).code).toBe('0');
  });

  it('refuses names with bidirectional overrides or zero-width characters, in both languages, and writes nothing', async () => {
    const admin = await person();
    const form = await shipOwnerForm(admin.cookie, `Plain Name ${api.unique()}`);
    const hidden = [
      { companyNameEn: `Acme \u202egnippihS ${api.unique()}` },
      { companyNameEn: `Ac\u200bme Shipping ${api.unique()}` },
      { companyNameEn: `Acme\u2066 Shipping ${api.unique()}` },
      { companyNameCn: '东海\u200d燃供' },
    ];
    for (const change of hidden) {
      const en = await api.post('/agg-web/company/create', { ...form, ...change }, { cookie: admin.cookie });
      expect(en.status).toBe(400);
      expect(await api.json(en)).toMatchObject({ code: 'CO0018', message: 'Company names cannot contain invisible or text-direction characters.' });
      const zh = await api.post('/agg-web/company/create', { ...form, ...change }, { from: '198.20.1.1', cookie: admin.cookie, lang: 'zh' });
      expect(await api.json(zh)).toMatchObject({ code: 'CO0018', message: '企业名称不能包含不可见字符或文字方向控制字符。' });
    }
    expect(await count('SELECT count(*) AS n FROM company_members WHERE user_id = ?', admin.userId)).toBe(0);
    expect((await api.json(await api.post('/agg-web/company/create', form, { cookie: admin.cookie }))).code).toBe('0');
  });
});
