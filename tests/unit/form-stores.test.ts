import { allTasks, cleanStores } from 'nanostores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en } from '../../src/i18n/en';
import { problemText } from '../../src/i18n/problem';
import type { BrowserEnv } from '../../src/stores/browser';
import { SESSION_KEYS } from '../../src/stores/browser';
import { $company, $companyErrors, checkCompanyField, initCreateCompany, setCompanyArea, setCompanyField, submitCompany } from '../../src/stores/company';
import { createForm } from '../../src/stores/form';
import { $join, $joinErrors, initJoin, setInvitationCode, setJoinField, submitJoin } from '../../src/stores/join';
import { $reset, $resetErrors, initPasswordReset, sendCode, setField as setResetField, switchChannel } from '../../src/stores/password-reset';

/**
 * The form stores against a scripted gateway: `fetch` answers as the gateway's envelope does, and records
 * every call, so a test reads what a store sent, how often, and what it shows and where it goes.
 */
type Answer = { code: string; message?: string; data?: unknown; status?: number };
let answers: Record<string, (body: unknown) => Answer | Promise<Answer>>;
let calls: { path: string; body: unknown }[];

beforeEach(() => {
  answers = {};
  calls = [];
  vi.stubGlobal('addEventListener', () => {});
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const path = new URL(url, 'http://portal.test').pathname.replace(/^\/api\//, '');
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ path, body });
    const answer = await (answers[path]?.(body) ?? { code: 'SY0404', message: `no answer scripted for ${path}` });
    return new Response(JSON.stringify({ code: answer.code, message: answer.message ?? '', data: answer.data ?? null }), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
});
afterEach(() => {
  cleanStores($company, $companyErrors, $join, $joinErrors, $reset, $resetErrors);
  vi.unstubAllGlobals();
});

/** A tab of its own: sessionStorage as a Map, navigation recorded, the page's query string. */
function tab(search = '', stored: Record<string, string> = {}) {
  const storage = new Map(Object.entries(stored));
  const went: string[] = [];
  const env: BrowserEnv = {
    storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v), removeItem: (k) => void storage.delete(k) },
    navigate: (url) => void went.push(url),
    search,
  };
  return { env, storage, went };
}

const say = (problem: Parameters<typeof problemText>[1] | undefined) => (problem ? problemText(en, problem) : undefined);

describe('createForm', () => {
  const fields = () =>
    createForm<{ channel: 'phone' | 'email'; mobile: string; email: string; code: string }, 'mobile' | 'email' | 'code'>(
      { channel: 'phone', mobile: '', email: '', code: '' },
      { codes: { PH: (v) => (v.channel === 'phone' ? 'mobile' : 'email'), CD: 'code', CD0099: 'form' }, paths: { loginEmail: 'email' } },
    );

  it('puts a failure where the longest matching code, a function of the values, or the zod path says', () => {
    const form = fields();
    form.failure({ ok: false, code: 'PH0001', message: 'bad phone' });
    expect(form.$errors.get()).toEqual({ mobile: { code: 'PH0001', message: 'bad phone' } });
    form.set('channel', 'email');
    form.failure({ ok: false, code: 'PH0001', message: 'bad address' });
    expect(form.$errors.get().email).toEqual({ code: 'PH0001', message: 'bad address' });
    form.failure({ ok: false, code: 'CD0099', message: 'x' });
    expect(form.$errors.get().form).toEqual({ code: 'CD0099', message: 'x' });
    form.failure({ ok: false, code: 'GW0400', message: 'y', data: [{ path: ['loginEmail'] }] });
    expect(form.$errors.get().email).toEqual({ code: 'GW0400', message: 'y' });
    form.set('email', 'a@b.example');
    expect(form.$errors.get().email).toBeUndefined();
    cleanStores(form.$values, form.$errors);
  });

  it('runs a burst of 40 parallel submits once, and is free again afterwards', async () => {
    const form = fields();
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const burst = Array.from({ length: 40 }, () => form.run(async () => ((runs += 1), await gate, runs)));
    expect(form.$values.get().busy).toBe(true);
    release();
    const results = await Promise.all(burst);
    expect(runs).toBe(1);
    expect(results.filter((r) => r === 1)).toHaveLength(1);
    expect(results.filter((r) => r === undefined)).toHaveLength(39);
    expect(form.$values.get().busy).toBe(false);
    await form.run(async () => void (runs += 1));
    expect(runs).toBe(2);
    cleanStores(form.$values, form.$errors);
  });

  it('stays busy when the flow leaves the page, and frees itself when work throws', async () => {
    const form = fields();
    await form.run(async () => form.leaving());
    expect(form.$values.get().busy).toBe(true);
    form.reset();
    await expect(form.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(form.$values.get().busy).toBe(false);
    cleanStores(form.$values, form.$errors);
  });
});

describe('problemText', () => {
  it('says keys with values (nested problems too), gateway messages, and the network default', () => {
    expect(problemText(en, { key: 'upload.refused', values: { name: 'a.exe', reason: { key: 'upload.unsupportedType' } } })).toBe('a.exe: Unsupported file type.');
    expect(problemText(en, [{ key: 'upload.tooMany', values: { max: '10' } }, { code: 'FI0001', message: 'Refused by the server' }])).toBe('At most 10 files Refused by the server');
    expect(problemText(en, { code: 'NETWORK' })).toBe(en.errors.network);
    expect(problemText(en, { code: 'SY0001', message: '' })).toBe(en.errors.generic);
  });
});

/** The calls that send something: the company form also reads the person (their answer to the new-user dialog). */
const sent = () => calls.filter((c) => c.path !== 'agg-web/user/fetchMeByUserToken');

const filledCompany = () => {
  setCompanyField('companyType', 'shipOwner');
  setCompanyField('country', { id: 'GB', name: 'United Kingdom' });
  setCompanyField('contactName', '  Ada   Lovelace ');
  setCompanyField('contactTel', '138 0013 8000');
  setCompanyField('socialCredit', 'X1');
  setCompanyField('contactEmail', 'ada@ship.example');
  $company.setKey('licence', [{ id: 'f1', url: '/api/agg-web/file/f1', originName: 'l.pdf', extension: 'pdf' }]);
};

describe('the administrator form ($company)', () => {
  it('pre-fills from the sign-in hand-over in sessionStorage, under the shared keys', () => {
    const { env } = tab('', { [SESSION_KEYS.companyName]: 'Acme Shipping', [SESSION_KEYS.ports]: JSON.stringify([{ id: 'P1', name: 'Ningbo', code: 'CNNGB' }]) });
    initCreateCompany(env);
    expect($company.get()).toMatchObject({ companyNameEn: 'Acme Shipping', port: { id: 'P1', name: 'Ningbo', code: 'CNNGB' } });
  });

  it('fills the empty contact fields with the phone the person signed in with and their name, as the join form does (issue 47)', async () => {
    answers['agg-web/user/fetchMeByUserToken'] = () => ({
      code: '0',
      data: { realName: 'Chen Jing', registerMobile: '13800138000', userPhoneCode: '+86', userPhoneCodeValue: '1', identity: null },
    });
    initCreateCompany(tab().env);
    await vi.waitFor(() => expect($company.get()).toMatchObject({ contactName: 'Chen Jing', contactTel: '13800138000', phoneCode: '+86', areaId: '1' }));
  });

  it('asks for the contact person\'s number, not "your" number, and drops "Please correct the marked fields" once every mark is gone, however it went (issue 47)', async () => {
    initCreateCompany(tab().env);
    filledCompany();
    setCompanyField('companyNameEn', 'Acme');
    setCompanyField('contactTel', '');
    setCompanyField('companyType', 'shipAgent');
    await submitCompany();
    expect(say($companyErrors.get().contactTel)).toBe(en.onboarding.errors.contactPhoneRequired);
    expect(say($companyErrors.get().port)).toBe(en.onboarding.errors.portRequired);
    expect(say($companyErrors.get().form)).toBe(en.onboarding.errorSummary);
    setCompanyField('contactTel', '13800138000');
    expect(say($companyErrors.get().form)).toBe(en.onboarding.errorSummary);
    // The port is no longer asked of a ship owner: its mark goes with the rule, and so does the summary.
    setCompanyField('companyType', 'shipOwner');
    expect($companyErrors.get()).toEqual({});
  });

  it('checks the contact phone with the shared contracts: mainland pattern for CN, 4 to 15 digits elsewhere', async () => {
    initCreateCompany(tab().env);
    filledCompany();
    setCompanyField('companyNameEn', 'Acme');
    setCompanyField('contactTel', '12345');
    // The checks load with the form's first use (company-actions.ts): the submit waits for them.
    await submitCompany();
    expect(say($companyErrors.get().contactTel)).toBe(en.onboarding.errors.phoneInvalid);
    expect(say($companyErrors.get().form)).toBe(en.onboarding.errorSummary);
    expect(sent()).toHaveLength(0);
    setCompanyArea({ id: 'GB', phoneCode: '+44' } as never);
    expect($companyErrors.get().contactTel).toBeUndefined();
    // The create call is held unanswered: what is read is the checks' verdict before the answer.
    answers['agg-web/company/create'] = () => new Promise<never>(() => {});
    void submitCompany();
    await vi.waitFor(() => expect(sent()).toHaveLength(1));
    expect($companyErrors.get()).toEqual({});
  });

  it('sends once for a burst of 30 clicks, hands the company on in sessionStorage and goes to the completion page', async () => {
    const { env, storage, went } = tab('?loginType=2', { [SESSION_KEYS.companyName]: 'Acme', [SESSION_KEYS.ports]: '[]' });
    initCreateCompany(env);
    filledCompany();
    answers['agg-web/company/create'] = () => ({ code: '0', data: { companyId: 'C-9' } });
    await Promise.all(Array.from({ length: 30 }, () => submitCompany()));
    await allTasks();
    expect(calls.filter((c) => c.path === 'agg-web/company/create')).toHaveLength(1);
    expect(calls.find((c) => c.path === 'agg-web/company/create')!.body).toMatchObject({ companyNameEn: 'Acme', contactName: 'Ada Lovelace', contactTel: '13800138000', phoneCode: '+86', corporateCharter: ['f1'] });
    expect(storage.get(SESSION_KEYS.application)).toBe('C-9');
    expect(storage.has(SESSION_KEYS.companyName) || storage.has(SESSION_KEYS.ports)).toBe(false);
    expect(went).toEqual(['/completion_of_application?userType=2&loginType=2&ifJumpToSaas=false']);
    expect($company.get().busy).toBe(true); // the next page is loading: no second send
  });

  it('the registry check (issue 42): asks for both fields once agreed, sends them once after the company is saved, and never holds the application', async () => {
    const mainland = () => {
      filledCompany();
      setCompanyField('companyNameEn', 'Acme');
      setCompanyField('country', { id: 'CN', name: 'China' });
      setCompanyField('socialCredit', '91350100M000100Y43');
    };
    const first = tab('?loginType=2');
    initCreateCompany(first.env);
    mainland();
    setCompanyField('registryConsent', true);
    setCompanyField('legalRepId', '1101051949123100');
    await submitCompany();
    expect(say($companyErrors.get().legalRepName)).toBe(en.onboarding.errors.legalRepNameRequired);
    expect(say($companyErrors.get().legalRepId)).toBe(en.onboarding.errors.legalRepIdMalformed);
    expect(sent()).toHaveLength(0);

    setCompanyField('legalRepName', ' 王海 ');
    setCompanyField('legalRepId', '11010519491231002x');
    answers['agg-web/company/create'] = () => ({ code: '0', data: { companyId: 'C-42' } });
    answers['agg-web/registry/check'] = () => ({ code: '0', data: { verdict: 'differs', differing: ['name'], registryStatus: 'operating', provider: 'tencent', cause: 'application', checkedAt: 1 } });
    await submitCompany();
    expect(sent().map((c) => c.path)).toEqual(['agg-web/company/create', 'agg-web/registry/check']);
    expect(sent()[1]!.body).toMatchObject({ companyId: 'C-42', legalRepName: '王海', legalRepId: '11010519491231002x', consentVersion: expect.any(String) });
    // The legal representative is in no request but the check's, and not in the page's memory afterwards.
    expect(JSON.stringify(sent()[0]!.body)).not.toContain('王海');
    expect($company.get()).toMatchObject({ legalRepName: '', legalRepId: '' });
    expect(first.storage.get(SESSION_KEYS.registryOutcome)).toBe('review');
    expect(first.went).toHaveLength(1);

    // A failing check: the application goes on, and the next page says an operator will check.
    calls = [];
    const second = tab('?loginType=2');
    initCreateCompany(second.env);
    mainland();
    setCompanyField('registryConsent', true);
    setCompanyField('legalRepName', '王海');
    setCompanyField('legalRepId', '11010519491231002X');
    answers['agg-web/registry/check'] = () => ({ code: 'SY0500', status: 500 });
    await submitCompany();
    expect(second.storage.get(SESSION_KEYS.registryOutcome)).toBe('later');
    expect(second.went).toHaveLength(1);

    // Not agreed: nothing but the company is sent.
    calls = [];
    const third = tab('?loginType=2', { [SESSION_KEYS.registryOutcome]: 'match' });
    initCreateCompany(third.env);
    mainland();
    await submitCompany();
    expect(sent().map((c) => c.path)).toEqual(['agg-web/company/create']);
    expect(third.storage.has(SESSION_KEYS.registryOutcome)).toBe(false);
  });

  it("an overseas company's IMO company number (issue 42): said on leaving the field and at submit, sent with the national number and the evidence; a mainland company sends none", async () => {
    initCreateCompany(tab('?loginType=2').env);
    filledCompany();
    setCompanyField('companyNameEn', 'Acme');
    setCompanyField('imoCompanyNumber', '2041998');
    await checkCompanyField('imoCompanyNumber');
    expect(say($companyErrors.get().imoCompanyNumber)).toBe(en.onboarding.errors.imoCompanyNumberCheck.replace('{expected}', '9'));
    setCompanyField('imoCompanyNumber', '20419');
    await submitCompany();
    expect(say($companyErrors.get().imoCompanyNumber)).toBe(en.onboarding.errors.imoCompanyNumberMalformed);
    expect(sent()).toHaveLength(0);

    // Sound here; the gateway's refusal is said at the field as well, with the form's summary.
    setCompanyField('imoCompanyNumber', ' 204 1999 ');
    setCompanyField('nationalRegistryNumber', ' UEN   201912345K ');
    $company.setKey('registryEvidence', [{ id: 'e1', url: '/api/agg-web/file/e1', originName: 'e.pdf', extension: 'pdf' }]);
    answers['agg-web/company/create'] = () => ({ code: 'RG0004', message: 'This IMO company number is not valid', data: { path: 'imoCompanyNumber', expected: '9' } });
    await submitCompany();
    expect(sent()[0]!.body).toMatchObject({ imoCompanyNumber: '204 1999', nationalRegistryNumber: 'UEN 201912345K', registryEvidence: ['e1'] });
    expect($companyErrors.get().imoCompanyNumber).toMatchObject({ code: 'RG0004', message: 'This IMO company number is not valid' });
    expect(say($companyErrors.get().form)).toBe(en.onboarding.errorSummary);

    // A mainland company: no check of the field and none of them sent.
    calls = [];
    setCompanyField('country', { id: 'CN', name: 'China' });
    setCompanyField('socialCredit', '91350100M000100Y43');
    setCompanyField('imoCompanyNumber', '2041998');
    answers['agg-web/company/create'] = () => new Promise<never>(() => {});
    void submitCompany();
    await vi.waitFor(() => expect(sent()).toHaveLength(1));
    expect($companyErrors.get().imoCompanyNumber).toBeUndefined();
    expect(Object.keys(sent()[0]!.body as object)).not.toEqual(expect.arrayContaining(['imoCompanyNumber']));
    expect(sent()[0]!.body).not.toHaveProperty('registryEvidence');
  });

  it('shows a refused company at the field its code names and on the form, in the gateway words', async () => {
    const { env, went } = tab('?loginType=1');
    initCreateCompany(env);
    filledCompany();
    setCompanyField('companyNameEn', 'Taken Ltd');
    answers['agg-web/company/create'] = () => ({ code: 'CO0001', message: 'This company is already registered' });
    await submitCompany();
    expect($companyErrors.get().companyNameEn).toEqual({ code: 'CO0001', message: 'This company is already registered' });
    // The form-level alert points at the field rather than repeating its words (issue 33).
    expect(say($companyErrors.get().form)).toBe(en.onboarding.errorSummary);
    expect($company.get().busy).toBe(false);
    expect(went).toEqual([]);
    setCompanyField('companyNameEn', 'Other Ltd');
    expect($companyErrors.get().companyNameEn).toBeUndefined();
  });
});

describe('the staff form ($join)', () => {
  it('looks the company up once for a complete code from the link, and maps a refused join to the code field', async () => {
    answers['agg-web/user/selectCompanyNameByCompanyId'] = () => ({ code: '0', data: { companyNameEn: 'Acme', companyNameCn: '阿克米' } });
    const { env, went } = tab('?code=abcd-efgh');
    initJoin('zh', env);
    await allTasks();
    expect($join.get().lookup).toBe('found');
    expect($join.get()).toMatchObject({ invitationCode: 'ABCDEFGH', companyName: '阿克米' });
    setInvitationCode('ABCDEFGH');
    expect(calls.filter((c) => c.path === 'agg-web/user/selectCompanyNameByCompanyId')).toHaveLength(1);

    setJoinField('nickName', 'Li Lei');
    setJoinField('personalEmail', 'li@ship.example');
    setJoinField('contactTel', '13800138000');
    answers['agg-web/company/join'] = () => ({ code: 'CO0010', message: '邀请码无效' });
    await Promise.all(Array.from({ length: 20 }, () => submitJoin()));
    expect(calls.filter((c) => c.path === 'agg-web/company/join')).toHaveLength(1);
    expect($joinErrors.get()).toEqual({ invitationCode: { code: 'CO0010', message: '邀请码无效' }, form: { code: 'CO0010', message: '邀请码无效' } });
    expect(went).toEqual([]);
  });
});

describe('display names with hidden characters (the display-text rule)', () => {
  it('the administrator form refuses them before sending: company name (its own words) and contact name', async () => {
    initCreateCompany(tab().env);
    filledCompany();
    setCompanyField('companyNameEn', 'Acme \u202eenihS');
    setCompanyField('contactName', 'Ada\u200b Lovelace');
    await submitCompany();
    expect(say($companyErrors.get().companyNameEn)).toBe(en.onboarding.errors.companyNameHiddenCharacters);
    expect(say($companyErrors.get().contactName)).toBe(en.errors.hiddenCharacters);
    expect(sent()).toHaveLength(0);
  });

  it('the staff form refuses a nick name before sending, and shows a gateway GW0422 at the nick name field', async () => {
    answers['agg-web/user/selectCompanyNameByCompanyId'] = () => ({ code: '0', data: { companyNameEn: 'Acme', companyNameCn: null } });
    initJoin('en', tab('?code=ABCDEFGH').env);
    await allTasks();
    setJoinField('nickName', 'Li\u202eLei');
    setJoinField('personalEmail', 'li@ship.example');
    setJoinField('contactTel', '13800138000');
    await submitJoin();
    expect(say($joinErrors.get().nickName)).toBe(en.errors.hiddenCharacters);
    expect(calls.filter((c) => c.path === 'agg-web/company/join')).toHaveLength(0);
    setJoinField('nickName', 'Li Lei');
    const message = 'Names cannot contain invisible characters or characters that change the text direction.';
    answers['agg-web/company/join'] = () => ({ code: 'GW0422', message, status: 400, data: [{ path: 'nickName', message: 'GW0422' }] });
    await submitJoin();
    expect($joinErrors.get().nickName).toEqual({ code: 'GW0422', message });
  });
});

describe('the password reset form ($reset)', () => {
  it('checks the address with the shared e-mail contract, and puts a PH failure at the e-mail field', async () => {
    initPasswordReset({ loginPath: '/login' }, tab().env);
    switchChannel('email');
    setResetField('email', 'not-an-address');
    await sendCode();
    expect(say($resetErrors.get().email)).toBe(en.validation.emailInvalid);
    expect(calls).toHaveLength(0);
    setResetField('email', ' a@ship.example, ');
    answers['agg-web/user/password/reset/sendCode'] = () => ({ code: 'PH0009', message: 'Too many codes' });
    await sendCode();
    expect(calls[0]).toEqual({ path: 'agg-web/user/password/reset/sendCode', body: { loginType: 2, loginEmail: 'a@ship.example' } });
    expect($resetErrors.get()).toEqual({ email: { code: 'PH0009', message: 'Too many codes' } });
    expect($reset.get().notice).toBe('');
  });
});
