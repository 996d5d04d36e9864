import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app from '../../functions/worker';
import { hashPassword } from '../../src/lib/password-hash';
import { LOGIN_CLIENT } from '../../src/schemas/auth';
import { UPLOAD_LIMITS, type CompanyDetailAnswer, type CompanyMembersAnswer, type UploadedFile } from '../../src/schemas/onboarding';
import { bufferedForm } from './gateway-client';
import { startWorkerEnv } from './worker-env';

/**
 * Companies of onboarding through the whole Worker on a real local D1 and R2: create (fuel supplier with
 * licences and GTC), the refusals that must leave nothing half-made, invitations, join, members, main account.
 */
let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
beforeAll(async () => {
  worker = await startWorkerEnv('companies');
  // Bursts of parallel calls: the bridge to the local D1 takes a few statements at a time (throttled-d1.ts).
});
afterAll(() => worker.dispose());

let seq = 0;
const unique = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;
const ip = () => `10.7.${seq % 250}.${(seq++ * 7) % 250}`;
type Envelope<T = Record<string, unknown>> = { code: string; message: string; data: T };
const json = async <T = Record<string, unknown>>(res: Response) => (await res.json()) as Envelope<T>;
const call = async (path: string, init: RequestInit = {}) => app.request(`http://localhost/api${path}`, init, worker.env, worker.ctx);
const headers = (cookie?: string, extra: Record<string, string> = {}) => ({ 'cf-connecting-ip': ip(), ...(cookie ? { cookie } : {}), ...extra });
const post = (path: string, body: unknown, cookie?: string) =>
  call(path, { method: 'POST', headers: headers(cookie, { 'content-type': 'application/json' }), body: JSON.stringify(body) });
const get = (path: string, cookie?: string) => call(path, { headers: headers(cookie) });

async function login(email: string) {
  const res = await post('/agg-web/user/v3/userLogin', {
    loginEmail: email,
    loginPassword: await hashPassword('Harbour2024'),
    passwordVersion: 2,
    captchaType: 3,
    ...LOGIN_CLIENT,
  });
  const body = await json<{ isMaster: boolean; companyId: string | null }>(res.clone());
  expect(body.code).toBe('0');
  const token = /(?:^|\n)portal_token=([^;]*)/.exec(res.headers.getSetCookie().join('\n'))?.[1];
  return { cookie: `portal_token=${token}`, answer: body.data };
}

async function person(companies?: unknown[]) {
  const email = `co.${unique()}@example.com`;
  const seeded = await json<{ userId: string }>(await post('/dev/users', { email, password: 'Harbour2024', companies }));
  expect(seeded.code).toBe('0');
  return { email, userId: seeded.data.userId, ...(await login(email)) };
}

const pdf = new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n');
const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, ...new Array(32).fill(0)]);

async function upload(cookie: string, names: string[], kind = 'licence'): Promise<UploadedFile[]> {
  const form = new FormData();
  form.append('kind', kind);
  for (const name of names) form.append('files', new Blob([name.endsWith('.png') ? png : pdf]), name);
  const sent = await bufferedForm(form);
  const body = await json<UploadedFile[]>(await call('/agg-web/file/uploadFile', { method: 'POST', headers: headers(cookie, sent.headers), body: sent.body }));
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
  socialCredit: '91330900MA2A1B2C3D',
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
    const name = `East Sea Fuel ${unique()}`;
    const form = await fuelSupplierForm(admin.cookie, name);
    const created = await json<{ companyId: string }>(await post('/agg-web/company/create', form, admin.cookie));
    expect(created.code).toBe('0');
    const { companyId } = created.data;

    const detail = await json<CompanyDetailAnswer>(await get(`/agg-web/company/detail?companyId=${companyId}`, admin.cookie));
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

    const list = await json<{ status: string; role: string; companyType: string; canEnter: boolean }[]>(
      await post('/c/user/v2/getCompanyListByToken', {}, admin.cookie),
    );
    // Listed with its verification status, but not enterable while it is being approved.
    expect(list.data).toEqual([expect.objectContaining({ status: 'approving', role: 'administrator', companyType: 'fuelSupplier', canEnter: false })]);
    const loginCase = await json<{ userLoginCase: number; userType: number }>(await post('/agg-web/quick/user/findUserLoginCase', {}, admin.cookie));
    expect(loginCase.data).toMatchObject({ userLoginCase: 4, userType: 2 });

    // Attached files can no longer be deleted by the uploader, and another person cannot read them.
    expect((await json(await post('/agg-web/file/deleteFile', { ids: [form.oilSupplyGtc] }, admin.cookie))).code).toBe('FL0011');
    const stranger = await person();
    const unseen = await get(`/agg-web/file/${form.oilSupplyGtc}`, stranger.cookie);
    expect(unseen.status).toBe(404);
    expect((await json(unseen)).code).toBe('FL0010');
    expect((await json(await get(`/agg-web/company/detail?companyId=${companyId}`, stranger.cookie))).code).toBe('CO0009');
  });

  it('refuses a company of the same name and type in another case, and writes nothing', async () => {
    const first = await person();
    const name = `Blue Harbour Agency ${unique()}`;
    const form = await fuelSupplierForm(first.cookie, name);
    expect((await json(await post('/agg-web/company/create', form, first.cookie))).code).toBe('0');

    const second = await person();
    const again = await fuelSupplierForm(second.cookie, `  ${name.toUpperCase().replace(/ /g, '  ')} `);
    const companiesBefore = await count('SELECT count(*) AS n FROM companies');
    const res = await post('/agg-web/company/create', again, second.cookie);
    expect(res.status).toBe(409);
    expect((await json(res)).code).toBe('CO0001');
    expect(await count('SELECT count(*) AS n FROM companies')).toBe(companiesBefore);
    expect(await count('SELECT count(*) AS n FROM company_members WHERE user_id = ?', second.userId)).toBe(0);
    expect(await count('SELECT count(*) AS n FROM files WHERE owner_user_id = ? AND company_id IS NOT NULL', second.userId)).toBe(0);
    expect(await count('SELECT user_type AS n FROM users WHERE id = ?', second.userId)).toBe(0);
    // The same name with another type is another company.
    const { oilSupplyGtc: _gtc, ...rest } = again;
    expect((await json(await post('/agg-web/company/create', { ...rest, companyType: 'shipOwner' }, second.cookie))).code).toBe('0');
  });

  it('requires the port for an agent, the GTC for a fuel supplier (only), and the files of this user', async () => {
    const admin = await person();
    const form = await fuelSupplierForm(admin.cookie, `Rule Check ${unique()}`);
    const codeOf = async (body: unknown) => (await json(await post('/agg-web/company/create', body, admin.cookie))).code;
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
    const name = `Join Test Shipping ${unique()}`;
    const form = await fuelSupplierForm(admin.cookie, name);
    const { companyId } = (await json<{ companyId: string }>(await post('/agg-web/company/create', form, admin.cookie))).data;
    const members = await json<CompanyMembersAnswer>(await get(`/agg-web/company/members?companyId=${companyId}`, admin.cookie));
    const code = members.data.invitationCode!;
    expect(code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);

    const lookup = await json(await post('/agg-web/user/selectCompanyNameByCompanyId', { companyId: code.toLowerCase() }));
    expect(lookup).toMatchObject({ code: '0', data: { companyNameEn: name, companyNameCn: '东海燃供' } });
    expect((await json(await post('/agg-web/user/selectCompanyNameByCompanyId', { companyId: 'ZZZZZZZZ' }))).code).toBe('CO0010');
    expect((await json(await post('/agg-web/user/selectCompanyNameByCompanyId', { companyId: '<script>' }))).code).toBe('CO0010');

    const staff = await person();
    const joinForm = { companyId: code, nickName: 'Han Meimei', personalEmail: 'han@example.com', contactTel: '13900139000', phoneCode: '+86', hireTime: '2024-03-01' };
    const joins = await Promise.all(Array.from({ length: 20 }, () => post('/agg-web/company/join', joinForm, staff.cookie).then((r) => json(r))));
    expect(joins.filter((j) => j.code === '0')).toHaveLength(1);
    expect(joins.filter((j) => j.code === 'CO0011')).toHaveLength(19);
    expect(joins.find((j) => j.code === '0')!.data).toEqual({ companyId, companyNameEn: name, role: 'staff', status: 'pending' });
    expect(await count('SELECT count(*) AS n FROM company_members WHERE user_id = ?', staff.userId)).toBe(1);
    const staffCase = await json<{ userLoginCase: number }>(await post('/agg-web/quick/user/findUserLoginCase', {}, staff.cookie));
    expect(staffCase.data.userLoginCase).toBe(5);
    expect((await json(await post('/agg-web/company/join', { ...joinForm, hireTime: '2024-02-30' }, staff.cookie))).code).toBe('GW0400');

    const listed = await json<CompanyMembersAnswer>(await get(`/agg-web/company/members?companyId=${companyId}`, admin.cookie));
    expect(listed.data.members.map((m) => [m.name, m.role, m.status, m.phone, m.email, m.hireTime])).toEqual([
      ['Li Lei', 'administrator', 'active', '+8613800138000', 'ops@east-sea-fuel.example.com', null],
      ['Han Meimei', 'staff', 'pending', '+8613900139000', 'han@example.com', '2024-03-01'],
    ]);
    expect((await json(await get(`/agg-web/company/members?companyId=${companyId}`, staff.cookie))).code).toBe('CO0009');
    expect((await json(await post('/agg-web/company/invitation/regenerate', { companyId }, staff.cookie))).code).toBe('CO0009');

    const regenerated = await json<{ invitationCode: string }>(await post('/agg-web/company/invitation/regenerate', { companyId }, admin.cookie));
    expect(regenerated.code).toBe('0');
    expect(regenerated.data.invitationCode).not.toBe(code);
    expect((await json(await post('/agg-web/user/selectCompanyNameByCompanyId', { companyId: code }))).code).toBe('CO0010');
    const late = await person();
    expect((await json(await post('/agg-web/company/join', joinForm, late.cookie))).code).toBe('CO0010');
    expect((await json(await post('/agg-web/company/join', { ...joinForm, companyId: regenerated.data.invitationCode }, late.cookie))).code).toBe('0');
  });

  it('an active staff member sees the detail but not the members', async () => {
    const staff = await person([{ nameEn: `Verified Co ${unique()}`, role: 'staff' }]);
    const [company] = (await json<{ companyId: string }[]>(await post('/c/user/v2/getCompanyListByToken', {}, staff.cookie))).data;
    expect((await json(await get(`/agg-web/company/detail?companyId=${company!.companyId}`, staff.cookie))).code).toBe('0');
    expect((await json(await get(`/agg-web/company/members?companyId=${company!.companyId}`, staff.cookie))).code).toBe('CO0008');
  });
});

describe('fill_account', () => {
  it('updates a company awaiting additional information, swapping files, and refuses a verified one', async () => {
    const admin = await person();
    const form = await fuelSupplierForm(admin.cookie, `Fill Test ${unique()}`);
    const { companyId } = (await json<{ companyId: string }>(await post('/agg-web/company/create', form, admin.cookie))).data;
    await worker.env.DB.prepare("UPDATE companies SET status = 'additional_info' WHERE id = ?").bind(companyId).run();
    const [newLicence] = await upload(admin.cookie, ['licence-3.pdf']);
    const keysBefore = (await worker.env.UPLOADS.list()).objects.length;
    const filled = await json(
      await post('/agg-web/company/fill', { ...form, companyId, contactName: 'Wang Wu', corporateCharter: [form.corporateCharter[0], newLicence!.id] }, admin.cookie),
    );
    expect(filled.code).toBe('0');
    const detail = await json<CompanyDetailAnswer>(await get(`/agg-web/company/detail?companyId=${companyId}`, admin.cookie));
    expect(detail.data).toMatchObject({ status: 'approving', contactName: 'Wang Wu' });
    expect(detail.data.corporateCharter.map((f) => f.id).sort()).toEqual([form.corporateCharter[0], newLicence!.id].sort());
    expect((await worker.env.UPLOADS.list()).objects.length).toBe(keysBefore - 1);

    await worker.env.DB.prepare("UPDATE companies SET status = 'verified' WHERE id = ?").bind(companyId).run();
    expect((await json(await post('/agg-web/company/fill', { ...form, companyId, corporateCharter: [form.corporateCharter[0]] }, admin.cookie))).code).toBe('CO0012');
  });
});

describe('main account', () => {
  it('marks one enterprise as main so sign-in answers isMaster with its id, and clears it', async () => {
    const p = await person([
      { nameEn: `Main A ${unique()}` },
      { nameEn: `Main B ${unique()}`, role: 'staff' },
      { nameEn: `Main C ${unique()}`, status: 'approving' },
    ]);
    const all = (await json<{ companyId: string; canEnter: boolean }[]>(await post('/c/user/v2/getCompanyListByToken', {}, p.cookie))).data;
    expect(all).toHaveLength(3);
    const list = all.filter((company) => company.canEnter);
    expect(list).toHaveLength(2);
    expect((await json(await post('/agg-web/user/setMainAccount', { companyId: list[0]!.companyId }, p.cookie))).data).toBe(true);
    expect((await json(await post('/agg-web/user/setMainAccount', { companyId: list[1]!.companyId }, p.cookie))).code).toBe('0');
    expect(await count('SELECT count(*) AS n FROM company_members WHERE user_id = ? AND is_main = 1', p.userId)).toBe(1);
    const again = await login(p.email);
    expect(again.answer).toMatchObject({ isMaster: true, companyId: list[1]!.companyId });

    const approving = await worker.env.DB.prepare("SELECT company_id AS id FROM company_members m JOIN companies c ON c.id = m.company_id WHERE m.user_id = ? AND c.status = 'approving'")
      .bind(p.userId)
      .first<{ id: string }>();
    expect((await json(await post('/agg-web/user/setMainAccount', { companyId: approving!.id }, p.cookie))).code).toBe('CO0014');
    expect((await json(await post('/agg-web/user/setMainAccount', { companyId: 'not-mine' }, p.cookie))).code).toBe('CO0014');

    expect((await json(await post('/agg-web/user/clearMainAccount', {}, p.cookie))).data).toBe(true);
    expect((await login(p.email)).answer).toMatchObject({ isMaster: false, companyId: null });
  });
});

describe('abuse resistance', () => {
  const postFrom = (from: string, path: string, body: unknown, cookie?: string, lang = 'en') =>
    call(path, {
      method: 'POST',
      headers: { 'cf-connecting-ip': from, 'content-type': 'application/json', cookie: [cookie, `LANG=${lang}`].filter(Boolean).join('; ') },
      body: JSON.stringify(body),
    });
  const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
  const randomCode = () => Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => ALPHABET[b % ALPHABET.length]).join('');

  /** A verified company with a known invitation code. */
  async function companyWithCode() {
    const admin = await person([{ nameEn: `Guess Target ${unique()}` }]);
    const code = randomCode();
    await worker.env.DB.prepare('UPDATE companies SET invitation_code = ? WHERE created_by = ?').bind(code, admin.userId).run();
    return code;
  }

  const joinForm = (companyId: string) => ({ companyId, nickName: 'Guesser', personalEmail: 'g@example.com', contactTel: '13900139000', phoneCode: '+86' });

  it('answers 20 wrong invitation codes per account an hour, however parallel and from however many networks', async () => {
    const code = await companyWithCode();
    const guesser = await person();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => postFrom(`198.18.${i}.${i + 1}`, '/agg-web/company/join', joinForm(randomCode()), guesser.cookie).then(async (res) => ({ status: res.status, ...(await json(res)) }))),
    );
    expect(answers.filter((a) => a.code === 'CO0010')).toHaveLength(20);
    const throttled = answers.filter((a) => a.code === 'CO0017');
    expect(throttled).toHaveLength(30);
    expect(throttled[0]).toMatchObject({ status: 429, message: 'Too many invitation codes were tried. Please try again in an hour.' });
    // Past the cap even the right code is refused, so a guess that hits learns nothing.
    const right = await postFrom('198.18.99.1', '/agg-web/company/join', joinForm(code), guesser.cookie, 'zh');
    expect(await json(right)).toMatchObject({ code: 'CO0017', message: '尝试邀请码次数过多，请一小时后再试。' });
    expect(await count('SELECT count(*) AS n FROM company_members WHERE user_id = ?', guesser.userId)).toBe(0);
    // An hour later the account may try again.
    await worker.env.DB.prepare('UPDATE invitation_attempts SET created_at = created_at - 3600001 WHERE user_id = ?').bind(guesser.userId).run();
    expect((await json(await postFrom('198.18.99.2', '/agg-web/company/join', joinForm(code), guesser.cookie))).code).toBe('0');
  }, 60_000);

  it('answers 30 wrong invitation codes per client network an hour on the name look-up, which needs no session', async () => {
    const code = await companyWithCode();
    const network = '198.19.7.7';
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => postFrom(network, '/agg-web/user/selectCompanyNameByCompanyId', { companyId: randomCode() }).then(json)),
    );
    expect(answers.filter((a) => a.code === 'CO0010')).toHaveLength(30);
    expect(answers.filter((a) => a.code === 'CO0017')).toHaveLength(20);
    expect((await json(await postFrom(network, '/agg-web/user/selectCompanyNameByCompanyId', { companyId: code }))).code).toBe('CO0017');
    // Another network is not held back by this one.
    expect((await json(await postFrom('198.19.8.8', '/agg-web/user/selectCompanyNameByCompanyId', { companyId: code }))).code).toBe('0');
  }, 60_000);

  it('lets one of five names that differ only by case, width or compatibility form win, in parallel', async () => {
    const u = unique();
    const names = [`Fine Ocean ${u}`, `ＦＩＮＥ ＯＣＥＡＮ ${u}`, `ﬁne ocean ${u}`, `FINE  OCEAN ${u}`, `Fine\u00a0Ocean ${u}`];
    const people = await Promise.all(names.map(() => person()));
    const forms = await Promise.all(people.map((p, i) => shipOwnerForm(p.cookie, names[i]!)));
    const answers = await Promise.all(people.map((p, i) => post('/agg-web/company/create', forms[i], p.cookie).then(json)));
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
    const form = await shipOwnerForm(admin.cookie, `Heavy Files ${unique()}`);
    // Two large uploads of this person (rows only: the cap counts the rows' sizes).
    const half = UPLOAD_LIMITS.maxCompanyBytes / 2;
    const big = [`big-a-${unique()}`, `big-b-${unique()}`];
    for (const id of big) {
      await worker.env.DB.prepare(
        "INSERT INTO files (id, owner_user_id, kind, r2_key, extension, content_type, origin_name, size, created_at) VALUES (?, ?, 'licence', ?, 'pdf', 'application/pdf', 'big.pdf', ?, 0)",
      )
        .bind(id, admin.userId, `uploads/${id}`, half)
        .run();
    }
    const res = await post('/agg-web/company/create', { ...form, corporateCharter: [...form.corporateCharter, ...big] }, admin.cookie);
    expect(res.status).toBe(413);
    expect((await json(res)).code).toBe('FL0007');
    expect(await count('SELECT count(*) AS n FROM company_members WHERE user_id = ?', admin.userId)).toBe(0);
    expect((await json(await post('/agg-web/company/create', { ...form, corporateCharter: [big[0]!] }, admin.cookie))).code).toBe('0');
  });

  it('refuses names with bidirectional overrides or zero-width characters, in both languages, and writes nothing', async () => {
    const admin = await person();
    const form = await shipOwnerForm(admin.cookie, `Plain Name ${unique()}`);
    const hidden = [
      { companyNameEn: `Acme \u202egnippihS ${unique()}` },
      { companyNameEn: `Ac\u200bme Shipping ${unique()}` },
      { companyNameEn: `Acme\u2066 Shipping ${unique()}` },
      { companyNameCn: '东海\u200d燃供' },
    ];
    for (const change of hidden) {
      const en = await post('/agg-web/company/create', { ...form, ...change }, admin.cookie);
      expect(en.status).toBe(400);
      expect(await json(en)).toMatchObject({ code: 'CO0018', message: 'Company names cannot contain invisible or text-direction characters.' });
      const zh = await postFrom('198.20.1.1', '/agg-web/company/create', { ...form, ...change }, admin.cookie, 'zh');
      expect(await json(zh)).toMatchObject({ code: 'CO0018', message: '企业名称不能包含不可见字符或文字方向控制字符。' });
    }
    expect(await count('SELECT count(*) AS n FROM company_members WHERE user_id = ?', admin.userId)).toBe(0);
    expect((await json(await post('/agg-web/company/create', form, admin.cookie))).code).toBe('0');
  });
});
