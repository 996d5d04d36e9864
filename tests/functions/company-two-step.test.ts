import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { createHandoffBlob, DEV_HANDOFF_KEY, handoffClaims, importHandoffKey, openHandoffBlob } from '../../functions/gateway/handoff/blob';
import { createWorker } from '../../functions/worker';
import type { WorkerEnv } from '../../functions/env';
import { LOGIN_CLIENT } from '../../src/schemas/auth';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { hashPassword } from '../../src/lib/password-hash';
import { useWorkerEnv, type Envelope } from './gateway-client';

/**
 * Issue 30: a company that requires two-step requires it everywhere (authority/service.ts decides). A staff
 * member signs in and enters the company before its administrator turns the rule on; from then on every answer
 * that would hand them the company treats them as outside it (MF0021, or no company in use), until they set
 * two-step up and sign in with it. The Worker runs on a clock the test moves, so TOTP codes are exact.
 */
const { worker, api } = useWorkerEnv('company-two-step');
const STEP_MS = 30_000;
let at = Math.floor(Date.now() / STEP_MS) * STEP_MS + 2000;
const app = createWorker({ clock: () => at });
const nextStep = () => {
  at = (Math.floor(at / STEP_MS) + 3) * STEP_MS + 2000;
};

const PASSWORD = 'Harbour2026';
const MF0021 = 'MF0021';
const call = async (path: string, init: RequestInit = {}, vars: Partial<WorkerEnv> = {}) =>
  app.request(`http://localhost${path}`, { redirect: 'manual', ...init }, { ...worker.env, ...vars }, worker.ctx);
const post = (path: string, body: unknown, cookie?: string) =>
  call(`/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'cf-connecting-ip': '203.0.113.30', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
const get = (path: string, cookie: string) => call(`/api${path}`, { headers: { cookie } });
const json = <T = Record<string, unknown>>(res: Response) => res.json() as Promise<Envelope<T>>;
const cookieValue = (res: Response, name: string) => new RegExp(`(?:^|\\n)${name}=([^;]*)`).exec(res.headers.getSetCookie().join('\n'))?.[1];
const sessionOf = (res: Response) => (cookieValue(res, 'portal_token') ? `portal_token=${cookieValue(res, 'portal_token')}` : undefined);
const codeAt = (secret: string) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });

const passwordSignIn = async (email: string) =>
  post('/agg-web/user/v3/userLogin', { loginEmail: email, loginPassword: await hashPassword(PASSWORD), passwordVersion: 2, captchaType: 3, ...LOGIN_CLIENT });

async function person(companies: Record<string, unknown>[]) {
  const email = `company.two.${api.unique()}@example.com`;
  const userId = await api.seed({ email, password: PASSWORD, companies });
  const res = await passwordSignIn(email);
  const cookie = sessionOf(res)!;
  await res.body?.cancel();
  expect(cookie).toBeDefined();
  return { email, userId, cookie };
}

async function enrol(cookie: string) {
  const start = await json<{ secret: string }>(await post('/agg-web/user/twoStep/enrol/start', {}, cookie));
  expect(start.code).toBe('0');
  expect((await json(await post('/agg-web/user/twoStep/enrol/finish', { code: codeAt(start.data.secret) }, cookie))).code).toBe('0');
  nextStep();
  return start.data.secret;
}

type ListItem = { companyId: string; canEnter?: boolean; requireTwoStep?: boolean; twoStepRequired?: boolean };
/** The staff card's answer for this company: may they enter, and is the two-step rule why not? */
const cardOf = async (cookie: string, companyId: string) => {
  const list = await json<ListItem[]>(await post('/c/user/v2/getCompanyListByToken', {}, cookie));
  expect(list.code).toBe('0');
  const { canEnter, requireTwoStep, twoStepRequired } = list.data.find((c) => c.companyId === companyId)!;
  return { canEnter, requireTwoStep, twoStepRequired };
};

type Me = { accountId: string | null; groupId: string | null; roles: string[]; authoriseList: unknown[]; superAdmin: boolean };

describe('a company that turns the two-step rule on while a member without it is inside', { timeout: 120_000 }, () => {
  it('keeps them out of every answer that hands them the company, in parallel too, until they sign in with two-step', async () => {
    const admin = await person([{ nameEn: `Rule ${api.unique()}`, role: 'administrator' }]);
    const companyId = (await worker.env.DB.prepare('SELECT company_id FROM company_members WHERE user_id = ?').bind(admin.userId).first<{ company_id: string }>())!
      .company_id;
    // A staff member (main enterprise) and a second administrator, neither with two-step; a file of the company.
    const staff = await person([{ companyId, role: 'staff', isMain: true }]);
    const coAdmin = await person([{ companyId, role: 'administrator' }]);
    const fileId = crypto.randomUUID();
    await worker.env.UPLOADS.put(`uploads/${fileId}`, new Uint8Array([0x25, 0x50, 0x44, 0x46]), { httpMetadata: { contentType: 'application/pdf' } });
    await worker.env.DB.prepare(
      "INSERT INTO files (id, owner_user_id, company_id, purpose, kind, r2_key, extension, content_type, origin_name, size, created_at) VALUES (?, ?, ?, 'licence', 'licence', ?, 'pdf', 'application/pdf', 'licence.pdf', 4, 0)",
    )
      .bind(fileId, admin.userId, companyId, `uploads/${fileId}`)
      .run();

    // Before the rule: the staff member enters the company and has it in use.
    expect(await cardOf(staff.cookie, companyId)).toEqual({ canEnter: true, requireTwoStep: false, twoStepRequired: false });
    expect((await json(await post('/agg-web/user/chooseAccount', { companyId }, staff.cookie))).code).toBe('0');
    const before = await json<Me>(await get('/agg-web/user/fetchMeByUserToken', staff.cookie));
    expect(before.data.accountId).toBe(companyId);
    expect((await json(await get(`/agg-web/company/modules?companyId=${companyId}`, staff.cookie))).code).toBe('0');
    expect((await json(await get(`/agg-web/company/detail?companyId=${companyId}`, staff.cookie))).code).toBe('0');
    expect((await get(`/agg-web/file/${fileId}`, staff.cookie)).status).toBe(200);
    expect((await json(await get(`/agg-web/company/members?companyId=${companyId}`, coAdmin.cookie))).code).toBe('0');

    // The administrator sets up two-step and turns the rule on.
    await enrol(admin.cookie);
    expect((await json(await post('/agg-web/company/twoStep', { companyId, required: true }, admin.cookie))).code).toBe('0');

    /** Every answer that would hand the staff member (or the second administrator) the company. */
    const outside = async () => {
      const me = await json<Me>(await get('/agg-web/user/fetchMeByUserToken', staff.cookie));
      expect(me.code).toBe('0');
      expect(me.data).toMatchObject({ accountId: null, groupId: null, roles: [], authoriseList: [], superAdmin: false });
      const coMe = await json<Me>(await get('/agg-web/user/fetchMeByUserToken', coAdmin.cookie));
      expect(coMe.data).toMatchObject({ accountId: null, roles: [], authoriseList: [], superAdmin: false });
      const refusals = await Promise.all([
        get(`/agg-web/company/modules?companyId=${companyId}`, staff.cookie),
        get(`/agg-web/company/detail?companyId=${companyId}`, staff.cookie),
        get(`/agg-web/company/members?companyId=${companyId}`, staff.cookie),
        get(`/agg-web/company/members?companyId=${companyId}`, coAdmin.cookie),
        get(`/agg-web/company/detail?companyId=${companyId}`, coAdmin.cookie),
        post('/agg-web/company/member/role', { companyId, userId: staff.userId, role: 'administrator' }, coAdmin.cookie),
        post('/agg-web/company/invitation/regenerate', { companyId }, coAdmin.cookie),
        get(`/agg-web/file/${fileId}`, staff.cookie),
        post('/agg-web/user/chooseAccount', { companyId }, staff.cookie),
        post('/agg-web/user/setMainAccount', { companyId }, coAdmin.cookie),
        // The rule holds: an administrator it keeps out may not lift it either.
        post('/agg-web/company/twoStep', { companyId, required: false }, coAdmin.cookie),
      ]);
      const codes = await Promise.all(refusals.map(async (res) => (await json(res)).code));
      expect(codes).toEqual([...Array(10).fill(MF0021), 'MF0022']);
    };
    await outside();
    // The company list says so too: not enterable, and the rule is the reason (issue 33 item 8).
    expect(await cardOf(staff.cookie, companyId)).toEqual({ canEnter: false, requireTwoStep: true, twoStepRequired: true });
    expect(await cardOf(coAdmin.cookie, companyId)).toEqual({ canEnter: false, requireTwoStep: true, twoStepRequired: true });
    expect(await cardOf(admin.cookie, companyId)).toEqual({ canEnter: true, requireTwoStep: true, twoStepRequired: false });

    // 20 parallel calls of the staff member's session: not one hands them the company.
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 4 === 0
          ? get('/agg-web/user/fetchMeByUserToken', staff.cookie).then(json<Me>).then((me) => (me.data.accountId === null ? 'outside' : 'inside'))
          : (i % 4 === 1
              ? get(`/agg-web/company/modules?companyId=${companyId}`, staff.cookie)
              : i % 4 === 2
                ? post('/agg-web/user/chooseAccount', { companyId }, staff.cookie)
                : get(`/agg-web/file/${fileId}`, staff.cookie)
            )
              .then(json)
              .then((answer) => (answer.code === MF0021 ? 'outside' : 'inside')),
      ),
    );
    expect(burst).toEqual(Array(20).fill('outside'));
    const rules = await json(await get(`/agg-web/company/modules?companyId=${companyId}`, staff.cookie));
    expect(rules.message).toBe(errorCatalogue.MF0021.en);

    // A fresh sign-in does not make the company the main one in use (isMaster), nor does the hand-off into the
    // portal: the session it opens has no company in use.
    const again = await json<{ isMaster: boolean; companyId: string | null }>(await passwordSignIn(staff.email));
    expect(again.data).toMatchObject({ isMaster: false, companyId: null });
    const blob = await createHandoffBlob(await importHandoffKey(DEV_HANDOFF_KEY), handoffClaims({ sub: staff.userId, aud: 'portal', purpose: 'session', now: at }));
    const handedOff = await call(`/user_center?token=${blob}`);
    const handedCookie = sessionOf(handedOff)!;
    await handedOff.body?.cancel();
    expect(handedCookie).toBeDefined();
    expect((await json<Me>(await get('/agg-web/user/fetchMeByUserToken', handedCookie))).data.accountId).toBeNull();
    expect((await json(await post('/agg-web/user/chooseAccount', { companyId }, handedCookie))).code).toBe(MF0021);
    // /go hands the web app the person only (no company); the session it opens there asks the same user record.
    const vars = { WEB_APP_URL: 'https://app.example.com/home', REDIRECT_ALLOWLIST: 'https://app.example.com' } as Partial<WorkerEnv>;
    const go = await call('/go/web_app', { headers: { cookie: staff.cookie } }, vars);
    const token = new URL(go.headers.get('location')!).searchParams.get('token')!;
    const opened = await openHandoffBlob(token, { keys: [await importHandoffKey(DEV_HANDOFF_KEY)], audience: 'web-app', purpose: 'session', now: at });
    expect(opened.ok && opened.claims.sub).toBe(staff.userId);
    expect(opened.ok && Object.keys(opened.claims).some((key) => /company/i.test(key))).toBe(false);

    // The staff member sets up two-step (their session stays outside until then) and signs in with it: inside again.
    const secret = await enrol(staff.cookie);
    expect(await cardOf(staff.cookie, companyId)).toEqual({ canEnter: true, requireTwoStep: true, twoStepRequired: false });
    const first = await passwordSignIn(staff.email);
    const challenge = cookieValue(first, 'portal_second_step');
    await first.body?.cancel();
    expect(challenge).toBeDefined();
    const passed = await call('/api/agg-web/user/twoStep/verify', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `portal_second_step=${challenge}` },
      body: JSON.stringify({ kind: 'totp', code: codeAt(secret) }),
    });
    const inside = sessionOf(passed)!;
    const verified = await json<{ companyId: string | null; isMaster: boolean }>(passed);
    expect(verified.code).toBe('0');
    expect(inside).toBeDefined();
    const me = await json<Me>(await get('/agg-web/user/fetchMeByUserToken', inside));
    expect(me.data.accountId).toBe(companyId);
    expect(me.data.roles).toEqual(['staff']);
    const welcome = await Promise.all([
      get(`/agg-web/company/modules?companyId=${companyId}`, inside),
      get(`/agg-web/company/detail?companyId=${companyId}`, inside),
      post('/agg-web/user/chooseAccount', { companyId }, inside),
      post('/agg-web/user/setMainAccount', { companyId }, inside),
    ]);
    expect(await Promise.all(welcome.map(async (res) => (await json(res)).code))).toEqual(['0', '0', '0', '0']);
    expect((await get(`/agg-web/file/${fileId}`, inside)).status).toBe(200);
    // Members stay for administrators: a staff member inside is told CO0008, no longer MF0021.
    expect((await json(await get(`/agg-web/company/members?companyId=${companyId}`, inside))).code).toBe('CO0008');
    // The second administrator is still outside until they set it up too.
    expect((await json(await get(`/agg-web/company/members?companyId=${companyId}`, coAdmin.cookie))).code).toBe(MF0021);
    await enrol(coAdmin.cookie);
    expect((await json(await get(`/agg-web/company/members?companyId=${companyId}`, coAdmin.cookie))).code).toBe('0');
  });
});
