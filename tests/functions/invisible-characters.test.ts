import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { describe, expect, it } from 'vitest';
import type { Passkey } from '../../src/schemas/passkeys';
import type { CompanyMembersAnswer, UploadedFile } from '../../src/schemas/onboarding';
import { bufferedForm, useWorkerEnv } from './gateway-client';
import { SoftAuthenticator } from './soft-authenticator';

/**
 * Issue 30: every display value a person enters refuses bidirectional overrides and zero-width characters
 * (src/schemas/display-text.ts) through its real gateway call, in both languages, and nothing is stored.
 * Upload names are the exception: they come from the person's device, and lose those characters instead.
 */
const PORTAL = 'https://portal.example.com';
const { worker, api } = useWorkerEnv(
  'invisible-characters',
  { PORTAL_ORIGIN: PORTAL, SITE_CN: 'https://portal.example.cn', PASSKEY_RP_ID: '', PASSKEY_ORIGINS: '' },
  { origin: PORTAL },
);

const RLO = '\u202e';
const ZWSP = '\u200b';
const EN = 'Names cannot contain invisible characters or characters that change the text direction.';
const ZH = '名称不能包含不可见字符或改变文字方向的字符。';

const count = async (sql: string, ...binds: unknown[]) => (await worker.env.DB.prepare(sql).bind(...binds).first<{ n: number }>())!.n;
const person = () => api.person<{ companyId: string | null }>({ realName: 'Zhang San' }, `inv.${api.unique()}@example.com`);

/** Sends `body` in English and Chinese (two networks); both must be the display-text refusal at `field`. */
async function refusedBoth(path: string, body: unknown, cookie: string, field: string) {
  for (const [lang, message] of [['en', EN], ['zh', ZH]] as const) {
    const res = await api.post(path, body, { cookie, lang });
    expect(res.status).toBe(400);
    const answer = await api.json<{ path: string; message: string }[]>(res);
    expect(answer).toMatchObject({ code: 'GW0422', message });
    expect(answer.data.map((issue) => issue.path)).toContain(field);
  }
}

const pdf = new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n');
async function upload(cookie: string, name: string, kind = 'licence'): Promise<UploadedFile> {
  const form = new FormData();
  form.append('kind', kind);
  form.append('files', new Blob([pdf]), name);
  const sent = await bufferedForm(form);
  const body = await api.json<UploadedFile[]>(await api.postRaw('/agg-web/file/uploadFile', sent.body, { cookie, headers: sent.headers }));
  expect(body.code).toBe('0');
  return body.data[0]!;
}

const companyForm = async (cookie: string) => ({
  companyNameEn: `Plain Shipping ${api.unique()}`,
  companyType: 'shipOwner',
  countryId: 'CN',
  countryName: 'China',
  contactName: 'Li Lei',
  contactTel: '13800138000',
  phoneCode: '+86',
  socialCredit: '91330900MA2A1B2C6D',
  contactEmail: 'ops@example.com',
  corporateCharter: [(await upload(cookie, 'licence.pdf')).id],
});

describe('display values with hidden characters', () => {
  it('refuses them in a real name (profile), and keeps the old one', async () => {
    const p = await person();
    for (const realName of [`Ann${RLO}A`, `Li${ZWSP}Lei`]) await refusedBoth('/agg-web/user/updateUserInfo', { realName }, p.cookie, 'realName');
    expect(await count('SELECT count(*) AS n FROM users WHERE id = ? AND real_name = ?', p.userId, 'Zhang San')).toBe(1);
    expect((await api.json(await api.post('/agg-web/user/updateUserInfo', { realName: '李雷 👩‍💻' }, { cookie: p.cookie }))).code).toBe('0');
  });

  it('refuses them in the company contact name, and creates no company', async () => {
    const admin = await person();
    const form = await companyForm(admin.cookie);
    for (const contactName of [`Li ${RLO}ieL`, `Li${ZWSP} Lei`]) await refusedBoth('/agg-web/company/create', { ...form, contactName }, admin.cookie, 'contactName');
    expect(await count('SELECT count(*) AS n FROM company_members WHERE user_id = ?', admin.userId)).toBe(0);
    expect((await api.json(await api.post('/agg-web/company/create', form, { cookie: admin.cookie }))).code).toBe('0');
  });

  it('refuses them in the staff nick name, also under 20 parallel joins, and stores no membership', async () => {
    const admin = await person();
    const { companyId } = (await api.json<{ companyId: string }>(await api.post('/agg-web/company/create', await companyForm(admin.cookie), { cookie: admin.cookie }))).data;
    const members = await api.json<CompanyMembersAnswer>(await api.get(`/agg-web/company/members?companyId=${companyId}`, { cookie: admin.cookie }));
    const staff = await person();
    const joinForm = { companyId: members.data.invitationCode!, nickName: 'Han Meimei', personalEmail: 'han@example.com', contactTel: '13900139000', phoneCode: '+86' };
    for (const nickName of [`Han ${RLO}iemieM`, `Han${ZWSP}Meimei`]) await refusedBoth('/agg-web/company/join', { ...joinForm, nickName }, staff.cookie, 'nickName');
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api.post('/agg-web/company/join', { ...joinForm, nickName: i % 2 ? `Han${RLO}${i}` : `Han${ZWSP}${i}` }, { cookie: staff.cookie }).then((r) => api.json(r))),
    );
    expect(burst.map((answer) => answer.code)).toEqual(Array(20).fill('GW0422'));
    expect(await count('SELECT count(*) AS n FROM company_members WHERE user_id = ?', staff.userId)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM company_members WHERE nick_name LIKE '%' || ? || '%' OR nick_name LIKE '%' || ? || '%'`, RLO, ZWSP)).toBe(0);
    expect((await api.json(await api.post('/agg-web/company/join', joinForm, { cookie: staff.cookie }))).code).toBe('0');
  });

  it('refuses them in a passkey name, on register and on rename', async () => {
    const p = await person();
    const authenticator = new SoftAuthenticator();
    const register = async (name: string, lang: 'en' | 'zh' = 'en') => {
      const options = await api.json<{ options: PublicKeyCredentialCreationOptionsJSON }>(await api.post('/agg-web/passkeys/registration/options', {}, { cookie: p.cookie }));
      expect(options.code).toBe('0');
      const response = await authenticator.register(options.data.options, PORTAL);
      return api.post('/agg-web/passkeys/registration/verify', { name, response }, { cookie: p.cookie, lang });
    };
    for (const name of [`Laptop ${RLO}`, `Lap${ZWSP}top`])
      for (const [lang, message] of [['en', EN], ['zh', ZH]] as const) {
        const res = await register(name, lang);
        expect(res.status).toBe(400);
        expect(await api.json(res)).toMatchObject({ code: 'GW0422', message });
      }
    expect(await count('SELECT count(*) AS n FROM passkeys WHERE user_id = ?', p.userId)).toBe(0);
    const made = await api.json<Passkey>(await register('Work laptop'));
    expect(made.code).toBe('0');
    for (const name of [`Work ${RLO}potpal`, `Work${ZWSP}laptop`]) await refusedBoth('/agg-web/passkeys/rename', { id: made.data.id, name }, p.cookie, 'name');
    expect(await count('SELECT count(*) AS n FROM passkeys WHERE user_id = ? AND name = ?', p.userId, 'Work laptop')).toBe(1);
  });

  it('refuses them in the company name a new user gives at code sign-up (CO0018, the company-name code), and makes no account', async () => {
    const email = `inv.new.${api.unique()}@example.com`;
    const body = { loginType: 2, loginEmail: email, code: '123456', agreed: true, userIdentity: 2 };
    const messages = { en: 'Company names cannot contain invisible or text-direction characters.', zh: '企业名称不能包含不可见字符或文字方向控制字符。' };
    for (const companyName of [`Blue ${RLO}elahW`, `Blue${ZWSP} Whale`])
      for (const lang of ['en', 'zh'] as const) {
        const res = await api.post('/agg-web/quick/user/login', { ...body, companyName }, { lang });
        expect(res.status).toBe(400);
        expect(await api.json(res)).toMatchObject({ code: 'CO0018', message: messages[lang] });
      }
    expect(await count('SELECT count(*) AS n FROM users WHERE email = ?', email)).toBe(0);
  });

  it("refuses them in the name of an operator-console client and of a company's API client (consent pages show both), and registers none", async () => {
    const TAG = '\u{e0041}';
    const names = [`Harbour${RLO}ppa`, `Pay${ZWSP}Pal`, `Berth${TAG}planner`];
    const ops = await api.post('/dev/operator-session', { login: `admin.${api.unique()}@ops.example.com`, role: 'admin' });
    expect((await api.json(ops)).code).toBe('0');
    const [, cookieName, value] = /(?:^|\n)((?:__Host-)?portal_operator)=([^;]+)/.exec(ops.headers.getSetCookie().join('\n')) ?? [];
    const operator = `${cookieName}=${value}`;
    const client = { redirectUris: ['https://harbour.example/cb'], postLogoutUris: [], backchannelLogoutUri: null, public: false, trusted: false };
    for (const name of names) await refusedBoth('/ops/v1/oidc/clients', { ...client, name }, operator, 'name');
    expect(await count('SELECT count(*) AS n FROM oidc_clients WHERE company_id IS NULL AND name LIKE ?', 'Harbour%')).toBe(0);

    const admin = await api.person({ companies: [{ nameEn: `Client Names ${api.unique()}`, role: 'administrator' }] }, `inv.${api.unique()}@example.com`);
    const { id: companyId } = (await worker.env.DB.prepare('SELECT company_id AS id FROM company_members WHERE user_id = ?').bind(admin.userId).first<{ id: string }>())!;
    const request = (name: string) => ({ companyId, name, scopes: ['company'], expiresAt: Date.now() + 30 * 86_400_000, creationKey: `k${api.unique()}${'x'.repeat(16)}` });
    for (const name of names) await refusedBoth('/agg-web/api-clients/create', request(name), admin.cookie, 'name');
    expect(await count('SELECT count(*) AS n FROM oidc_clients WHERE company_id = ?', companyId)).toBe(0);
    // A plain name is taken.
    expect((await api.json(await api.post('/agg-web/api-clients/create', request('Berth planner'), { cookie: admin.cookie }))).code).toBe('0');
  });

  it('strips them from an uploaded file name (the name comes from the device, not from a form)', async () => {
    const p = await person();
    const file = await upload(p.cookie, `licence${RLO}fdp.exe${ZWSP}.pdf`);
    const row = await worker.env.DB.prepare('SELECT origin_name FROM files WHERE id = ?').bind(file.id).first<{ origin_name: string }>();
    expect(row!.origin_name).toBe('licencefdp.exe.pdf');
    expect(file.originName).toBe('licencefdp.exe.pdf');
  });
});
