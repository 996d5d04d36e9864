import { describe, expect, it, vi } from 'vitest';
import { configurationProblems } from '../../functions/worker';
import { createGateway } from '../../functions/gateway/app';
import { findUserById } from '../../functions/gateway/identity/db/people';
import { erasureStatements } from '../../functions/gateway/data-rights/db';
import { copyContent } from '../../functions/gateway/data-rights/service';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { useWorkerEnv } from './gateway-client';
import { deployedVars } from './worker-env';
import { Secret, TOTP } from 'otpauth';
import { startElsewhere } from '../../src/lib/wechat-elsewhere';
import { wechatMethodAsked } from '../../src/lib/wechat-start';

/**
 * Sign in with WeChat and WeCom (issue 29) through the whole Worker, against the local stand-in of WeChat's and
 * WeCom's APIs: the browser starts a flow, opens the stand-in's "scan and confirm" page, confirms as a person,
 * and brings WeChat's redirect (code and state) back to the portal, with the HttpOnly WeChat cookie it was given.
 */
const { worker, api } = useWorkerEnv('wechat', { WECHAT_TIMEOUT_MS: '4000' });

type Flow = { cookie: string; code: string; state: string };
type Method = 'qr' | 'mp' | 'wecom';

const flowCookieOf = (res: Response) => {
  const match = /(?:^|\n)(portal_wechat)=([^;]*)/.exec(res.headers.getSetCookie().join('\n'));
  return match ? `${match[1]}=${match[2]}` : '';
};
const person = () => `p${api.unique()}`;

/** Starts a flow (sign-in, or bind with a session cookie) and confirms it as `who` on the stand-in's page. */
async function scan(method: Method, who: string, options: { profile?: boolean; session?: string } = {}): Promise<Flow> {
  const start = await api.post(options.session ? '/agg-web/user/wechat/bind' : '/agg-web/wechat/start', { method, profile: options.profile }, { cookie: options.session });
  const started = await api.json<{ authorizeUrl: string; wechatFlow?: unknown }>(start);
  expect(started.code, JSON.stringify(started)).toBe('0');
  // The browser's secret reaches it only as the HttpOnly cookie.
  expect(started.data.wechatFlow).toEqual({ expiresIn: 600 });
  expect(start.headers.getSetCookie().join('\n')).toMatch(/portal_wechat=[^;]+;.*HttpOnly/i);
  const cookie = flowCookieOf(start);
  const url = new URL(started.data.authorizeUrl, 'http://localhost');
  const page = await api.get(url.pathname.replace(/^\/api/, '') + url.search);
  expect(page.status).toBe(200);
  const html = await page.text();
  const form = new URLSearchParams([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))]));
  form.set('person', who);
  form.set('answer', 'confirm');
  const confirmed = await api.postRaw('/dev/wechat/confirm', form.toString(), { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  expect(confirmed.status).toBe(302);
  const back = new URL(confirmed.headers.get('location')!);
  expect(back.pathname).toBe('/wechat_callback');
  return { cookie, code: back.searchParams.get('code')!, state: back.searchParams.get('state')! };
}

const callback = (flow: Flow, options: { cookie?: string; lang?: 'zh' | 'en'; env?: Record<string, unknown> } = {}) =>
  api.post('/agg-web/wechat/callback', { code: flow.code, state: flow.state }, { cookie: options.cookie ?? flow.cookie, lang: options.lang, env: options.env });

/** Sends a sign-in code to a mainland phone (slider passed) and reads it from the outbox. */
async function phoneCode(mobile: string) {
  const sliderCheck = await api.sliderCheck('sms', `+86${mobile}`);
  const sent = await api.json(await api.post('/agg-web/sms/send', { phoneCode: 'CN', mobile, type: 3, phoneCodeValue: '+86', sliderCheck }));
  expect(sent.code).toBe('0');
  return api.latestCode(`+86${mobile}`);
}

const bindPhone = (cookie: string, mobile: string, code: string, lang?: 'zh' | 'en') =>
  api.post('/agg-web/wechat/bindPhone', { mobileCode: '+86', mobile, code, agreed: true }, { cookie, lang });

/** A first scan of `who`, bound to a new phone: the session cookie and the phone. */
async function registerWith(method: Method, who: string) {
  const flow = await scan(method, who, method === 'mp' ? { profile: true } : {});
  const first = await callback(flow);
  const ticket = flowCookieOf(first);
  const mobile = api.mobile();
  const res = await bindPhone(ticket, mobile, await phoneCode(mobile));
  const body = await api.json<{ newUser: boolean; userId: string }>(res);
  expect(body.code).toBe('0');
  return { session: api.sessionCookie(res), mobile, userId: body.data.userId };
}

const history = async (session: string) =>
  (await api.json<{ method: string; success: boolean }[]>(await api.get('/agg-web/user/security/signIns', { cookie: session }))).data;

describe('WeChat QR sign-in', () => {
  it('asks a WeChat it does not know for a phone and its code, registers the phone, and a second scan signs straight in', async () => {
    const who = person();
    const flow = await scan('qr', who);
    const first = await callback(flow);
    const answer = await api.json<{ needsPhone: boolean; provider: string; nickname: string; oauthVO?: unknown }>(first);
    expect(answer.data).toMatchObject({ needsPhone: true, provider: 'wechat', nickname: who });
    expect(api.sessionCookie(first)).toBe('portal_token=undefined');
    const ticket = flowCookieOf(first);
    expect(ticket).not.toBe(flow.cookie);

    const mobile = api.mobile();
    const res = await bindPhone(ticket, mobile, await phoneCode(mobile));
    const signedIn = await api.json<{ newUser: boolean; userId: string; oauthVO?: unknown }>(res);
    expect(signedIn.code).toBe('0');
    expect(signedIn.data.newUser).toBe(true);
    expect(signedIn.data.oauthVO).toBeUndefined();
    const session = api.sessionCookie(res);
    // The login case decides where a new person goes: no company yet.
    const loginCase = await api.json<{ userLoginCase: number }>(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { cookie: session }));
    expect(loginCase.data.userLoginCase).toBe(1);

    const again = await callback(await scan('qr', who));
    const second = await api.json<{ userId: string; needsPhone?: boolean }>(again);
    expect(second.code).toBe('0');
    expect(second.data.userId).toBe(signedIn.data.userId);
    expect(second.data.needsPhone).toBeUndefined();
    expect((await history(api.sessionCookie(again)))[0]).toMatchObject({ method: 'wechat', success: true });
  });

  it('gives one result for 20 parallel callbacks with one state', async () => {
    const who = person();
    await registerWith('qr', who);
    const flow = await scan('qr', who);
    const answers = await Promise.all(Array.from({ length: 20 }, () => callback(flow)));
    const codes = await Promise.all(answers.map(async (res) => (await api.json(res)).code));
    expect(codes.filter((code) => code === '0')).toHaveLength(1);
    expect(codes.filter((code) => code === 'WX0002')).toHaveLength(19);
    expect(answers.filter((res) => api.sessionCookie(res) !== 'portal_token=undefined')).toHaveLength(1);
  });

  it('refuses a forged, replayed, cookie-less or swapped callback, in the visitor language', async () => {
    const mine = await scan('qr', person());
    const theirs = await scan('qr', person());
    // The attacker's state in the victim's browser (login CSRF): the cookie is not the one that state was made for.
    const swapped = await api.json(await callback({ ...theirs, cookie: mine.cookie }, { lang: 'zh' }));
    expect(swapped).toMatchObject({ code: 'WX0002', message: errorCatalogue.WX0002.zh });
    expect((await api.json(await callback({ ...mine, state: `${mine.state.slice(0, -2)}xx` }))).code).toBe('WX0002');
    expect((await api.json(await callback(mine, { cookie: 'portal_wechat=' }))).code).toBe('WX0002');
    expect((await api.json(await callback(mine))).code).toBe('0');
    expect((await api.json(await callback(mine))).code).toBe('WX0002');
  });

  it('refuses an authorization code used twice, by its own record, before asking WeChat', async () => {
    const used = await scan('qr', person());
    expect((await api.json(await callback(used))).code).toBe('0');
    const fresh = await scan('qr', person());
    const again = await api.json(await callback({ ...fresh, code: used.code }, { lang: 'en' }));
    expect(again).toMatchObject({ code: 'WX0003', message: errorCatalogue.WX0003.en });
  });

  it('refuses a state after its 10 minutes', async () => {
    let at = Date.now();
    const onClock = createGateway({ clock: () => at });
    const started = await api.throughGateway(onClock, async () => api.json<{ authorizeUrl: string; wechatFlow: { secret: string } }>(await api.post('/agg-web/wechat/start', { method: 'qr' })));
    const state = new URL(started.data.authorizeUrl, 'http://localhost').searchParams.get('state')!;
    at += 10 * 60_000 + 1;
    const late = await api.throughGateway(onClock, async () =>
      api.json(await api.post('/agg-web/wechat/callback', { code: 'whatever-code', state }, { headers: { 'x-wechat-flow': started.data.wechatFlow.secret } })),
    );
    expect(late.code).toBe('WX0002');
  });

  it("cannot tie a WeChat to someone else's phone without that phone's code", async () => {
    const victim = api.mobile();
    const victimId = await api.seed({ phone: { callingCode: '+86', mobile: victim }, email: `v.${api.unique()}@example.com`, password: 'Harbour2024' });
    const flow = await scan('qr', person());
    const ticket = flowCookieOf(await callback(flow));
    const wrong = await api.json(await bindPhone(ticket, victim, '000000'));
    expect(wrong.code).toMatch(/^CD00/);
    // Nothing was tied: the same scan still needs a phone, and the victim's history shows the failed attempt.
    expect((await api.json(await bindPhone(ticket, victim, '000001'))).code).toMatch(/^CD00/);
    const signIn = await api.json<{ userId: string }>(await bindPhone(ticket, victim, await phoneCode(victim)));
    // With the phone's own code it is the phone holder who binds, into their own account.
    expect(signIn.data.userId).toBe(victimId);
  });

  it('refuses a WeChat that is already tied to another account, and a ticket used twice', async () => {
    const who = person();
    await registerWith('qr', who);
    // A second, parallel registration of the same WeChat (two tickets) cannot tie it to a second phone.
    const other = await scan('qr', who);
    const signedIn = await api.json<{ userId: string }>(await callback(other));
    expect(signedIn.code).toBe('0');

    const fresh = person();
    const a = flowCookieOf(await callback(await scan('qr', fresh)));
    const b = flowCookieOf(await callback(await scan('qr', fresh)));
    const mobileA = api.mobile();
    expect((await api.json(await bindPhone(a, mobileA, await phoneCode(mobileA)))).code).toBe('0');
    const mobileB = api.mobile();
    expect((await api.json(await bindPhone(b, mobileB, await phoneCode(mobileB)))).code).toBe('WX0007');
    const mobileC = api.mobile();
    expect((await api.json(await bindPhone(a, mobileC, await phoneCode(mobileC)))).code).toBe('WX0009');
  });

  it('asks for the second step when two-step is on, as every sign-in does', async () => {
    const mobile = api.mobile();
    const me = await api.person({ phone: { callingCode: '+86', mobile } });
    const start = await api.json<{ secret: string }>(await api.post('/agg-web/user/twoStep/enrol/start', {}, { cookie: me.cookie }));
    const code = TOTP.generate({ secret: Secret.fromBase32(start.data.secret) });
    expect((await api.json(await api.post('/agg-web/user/twoStep/enrol/finish', { code }, { cookie: me.cookie }))).code).toBe('0');

    const ticket = flowCookieOf(await callback(await scan('qr', person())));
    const res = await bindPhone(ticket, mobile, await phoneCode(mobile));
    const owed = await api.json<{ secondStep: { expiresIn: number }; userId: string }>(res);
    expect(owed.code).toBe('0');
    expect(owed.data.secondStep.expiresIn).toBeGreaterThan(0);
    expect(owed.data.userId).toBe('');
    expect(api.sessionCookie(res)).toBe('portal_token=undefined');
  });
});

describe('a company that requires two-step', () => {
  it('is not entered by a WeChat sign-in of a member without two-step, as by any sign-in', async () => {
    const mobile = api.mobile();
    await api.seed({ phone: { callingCode: '+86', mobile }, companies: [{ isMain: true, role: 'staff', requireTwoStep: true }] });
    const ticket = flowCookieOf(await callback(await scan('qr', person())));
    const answer = await api.json<{ isMaster: boolean; companyId: string | null; userId: string }>(await bindPhone(ticket, mobile, await phoneCode(mobile)));
    expect(answer.code).toBe('0');
    expect(answer.data).toMatchObject({ isMaster: false, companyId: null });
  });
});

describe('inside WeChat (Official Account)', () => {
  it('asks for the profile when snsapi_base does not know the person, then later visits sign in silently', async () => {
    const who = person();
    const base = await api.json<{ next: string }>(await callback(await scan('mp', who)));
    expect(base.data.next).toBe('profile');
    const { userId } = await registerWith('mp', who);
    const silent = await api.json<{ userId: string }>(await callback(await scan('mp', who)));
    expect(silent.code).toBe('0');
    expect(silent.data.userId).toBe(userId);
  });

  it('recognises in WeChat a person who bound with the QR code (one unionid for both apps)', async () => {
    const who = person();
    const { userId } = await registerWith('qr', who);
    const profile = await api.json<{ userId: string }>(await callback(await scan('mp', who, { profile: true })));
    expect(profile.data.userId).toBe(userId);
  });
});

describe('WeCom', () => {
  it('registers a member on first sign-in and signs them in afterwards; an outsider is refused', async () => {
    const who = person();
    const { userId, session } = await registerWith('wecom', who);
    const again = await api.json<{ userId: string }>(await callback(await scan('wecom', who)));
    expect(again.data.userId).toBe(userId);
    expect((await history(session))[0]).toMatchObject({ method: 'wecom' });
    const outsider = await api.json(await callback(await scan('wecom', `outsider${api.unique()}`), { lang: 'zh' }));
    expect(outsider).toMatchObject({ code: 'WX0012', message: errorCatalogue.WX0012.zh });
  });
});

describe('a slow or failing WeChat', () => {
  it('answers WX0005 within the time limit and WX0006 when it is down, in the visitor language', async () => {
    const slow = await scan('qr', person());
    const down = await scan('qr', person());
    await api.post('/dev/wechat/fault', { mode: 'slow' });
    // A short limit for this call only: the stand-in then answers 500 ms after it.
    const quick = { WECHAT_TIMEOUT_MS: '300' };
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const began = Date.now();
      expect(await api.json(await callback(slow, { lang: 'zh', env: quick }))).toMatchObject({ code: 'WX0005', message: errorCatalogue.WX0005.zh });
      expect(Date.now() - began).toBeLessThan(2500);
      await api.post('/dev/wechat/fault', { mode: 'down' });
      expect(await api.json(await callback(down, { lang: 'en' }))).toMatchObject({ code: 'WX0006', message: errorCatalogue.WX0006.en });
    } finally {
      await api.post('/dev/wechat/fault', { mode: null });
      error.mockRestore();
    }
  });
});

describe('the stand-in', () => {
  it("answers with WeChat's error codes: 40029 invalid, 40163 used, 42001 expired token", async () => {
    let at = Date.now();
    const onClock = createGateway({ clock: () => at });
    const flow = await scan('qr', person());
    const token = (code: string) =>
      api.throughGateway(onClock, async () =>
        (await api.get(`/dev/wechat/sns/oauth2/access_token?appid=wx_stand_in_website&secret=stand-in-website-secret&code=${code}&grant_type=authorization_code`)).json() as Promise<Record<string, string | number>>,
      );
    expect((await token('nonsense')).errcode).toBe(40029);
    const first = await token(flow.code);
    expect(first).toMatchObject({ scope: 'snsapi_login', expires_in: 7200 });
    expect(String(first.unionid)).toMatch(/^u/);
    expect((await token(flow.code)).errcode).toBe(40163);
    at += 7200 * 1000 + 1;
    const info = await api.throughGateway(onClock, async () => (await api.get(`/dev/wechat/sns/userinfo?access_token=${first.access_token}&openid=${first.openid}`)).json());
    expect(info).toMatchObject({ errcode: 42001 });
  });

  it('is not there unless the dev outbox is on', async () => {
    const off = await api.json(await api.get('/dev/wechat/connect/qrconnect?appid=x', { env: { DEV_OUTBOX: 'false' } }));
    expect(off.code).toBe('GW0404');
    const started = await api.json(await api.post('/agg-web/wechat/start', { method: 'qr' }, { env: { DEV_OUTBOX: 'false' } }));
    expect(started.code).toBe('WX0001');
  });
});

describe('the user center', () => {
  it('binds a WeChat to a signed-in account, lists them, and unbinds after a fresh proof; cross-site writes are refused', async () => {
    const me = await api.person();
    const who = person();
    const bound = await api.json<{ bound: string }>(await callback(await scan('qr', who, { session: me.cookie })));
    expect(bound.data.bound).toBe('wechat');
    const list = await api.json<{ provider: string; nickname: string }[]>(await api.get('/agg-web/user/wechat/bindings', { cookie: me.cookie }));
    expect(list.data).toEqual([expect.objectContaining({ provider: 'wechat', nickname: who })]);
    // The scan now signs in to this account.
    expect((await api.json<{ userId: string }>(await callback(await scan('qr', who)))).data.userId).toBe(me.userId);

    const crossSite = await api.post('/agg-web/user/wechat/unbind', { provider: 'wechat' }, { cookie: me.cookie, origin: 'https://evil.example', headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect((await api.json(crossSite)).code).toBe('GW0403');
    const bindCrossSite = await api.post('/agg-web/user/wechat/bind', { method: 'qr' }, { cookie: me.cookie, headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect((await api.json(bindCrossSite)).code).toBe('GW0403');

    const unbound = await api.json(await api.post('/agg-web/user/wechat/unbind', { provider: 'wechat' }, { cookie: me.cookie }));
    expect(unbound.code).toBe('0');
    expect((await api.json(await api.post('/agg-web/user/wechat/unbind', { provider: 'wechat' }, { cookie: me.cookie }))).code).toBe('WX0011');
    const activity = await api.json<{ items: { action: string }[] }>(await api.get('/agg-web/user/security/activity', { cookie: me.cookie }));
    expect(JSON.stringify(activity.data)).toContain('user.social_unbound');
  });

  it('needs a fresh proof to bind or unbind', async () => {
    let at = Date.now();
    const onClock = createGateway({ clock: () => at });
    const me = await api.person();
    await callback(await scan('qr', person(), { session: me.cookie }));
    at += 11 * 60_000;
    await api.throughGateway(onClock, async () => {
      const token = me.cookie.split('=')[1];
      const headers = { authorization: `Bearer ${token}` };
      expect((await api.json(await api.post('/agg-web/user/wechat/unbind', { provider: 'wechat' }, { headers }))).code).toBe('SU0001');
      expect((await api.json(await api.post('/agg-web/user/wechat/bind', { method: 'wecom' }, { headers }))).code).toBe('SU0001');
    });
  });
});

describe('data rights', () => {
  it('lists the binding in the copy of the data and erases it with the account', async () => {
    const { userId } = await registerWith('qr', person());
    const db = worker.env.DB;
    const { data } = await copyContent(db, (await findUserById(db, userId))!, Date.now());
    expect(data.linkedAccounts).toEqual([expect.objectContaining({ provider: 'wechat', subject: expect.stringMatching(/^u/) })]);
    // Past its cooling-off: the erasure batch of the data-rights job.
    await db.prepare('UPDATE users SET closes_at = 1 WHERE id = ?').bind(userId).run();
    await db.batch(erasureStatements(db, userId, Date.now(), []));
    expect(await db.prepare('SELECT COUNT(*) AS n FROM social_bindings WHERE user_id = ?').bind(userId).first('n')).toBe(0);
  });
});

describe('settings', () => {
  it('names a missing secret wherever a method is turned on in a deployed Worker', () => {
    const problems = configurationProblems({ ...deployedVars, WECHAT_APP_ID: 'wx1', WECHAT_MP_APP_ID: 'wx2', WECOM_CORP_ID: 'ww1' });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('WECHAT_APP_SECRET'),
        expect.stringContaining('WECHAT_MP_APP_SECRET'),
        expect.stringContaining('WECOM_SECRET'),
        expect.stringContaining('WECOM_AGENT_ID'),
      ]),
    );
    expect(configurationProblems({ ...deployedVars })).toEqual([]);
  });
});


/** What the attacker review of issue 29 found, each held by a test that failed before its fix. */
describe('the attacker review', () => {
  it('does not count a scan as a fresh proof of identity; the phone-code binding, which spends a code, does', async () => {
    const who = person();
    const registered = await registerWith('qr', who);
    // The phone code proves the person: the user center's binding is open to that session.
    expect((await api.json(await api.post('/agg-web/user/wechat/bind', { method: 'wecom' }, { cookie: registered.session }))).code).toBe('0');
    const scanned = await callback(await scan('qr', who));
    const session = api.sessionCookie(scanned);
    expect((await api.json(scanned)).code).toBe('0');
    for (const [path, body] of [['/agg-web/user/wechat/bind', { method: 'wecom' }], ['/agg-web/user/security/sessions/signOutOthers', {}], ['/agg-web/user/wechat/unbind', { provider: 'wechat' }]] as const) {
      expect(await api.json(await api.post(path, body, { cookie: session, lang: 'en' }))).toMatchObject({ code: 'SU0001', message: errorCatalogue.SU0001.en });
    }
    // Inside WeChat the silent snsapi_base sign-in proves nobody either.
    const silent = await callback(await scan('mp', who, { profile: true }));
    expect((await api.json(await api.post('/agg-web/user/security/sessions/signOutOthers', {}, { cookie: api.sessionCookie(silent) }))).code).toBe('SU0001');
  });
});

describe('the attacker review: binding', () => {
  const cookieNamed = (res: Response, name: string) => {
    const match = new RegExp(`(?:^|\\n)(${name})=([^;]*)`).exec(res.headers.getSetCookie().join('\n'));
    return match ? `${match[1]}=${match[2]}` : '';
  };
  const bindings = async (session: string) =>
    (await api.json<{ provider: string; nickname: string }[]>(await api.get('/agg-web/user/wechat/bindings', { cookie: session }))).data;

  it("ties a WeChat to a two-step account only when the second step is passed, and tells the person which", async () => {
    const mobile = api.mobile();
    const me = await api.person({ phone: { callingCode: '+86', mobile } });
    const secret = (await api.json<{ secret: string }>(await api.post('/agg-web/user/twoStep/enrol/start', {}, { cookie: me.cookie }))).data.secret;
    const totp = (skew: number) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + skew });
    expect((await api.json(await api.post('/agg-web/user/twoStep/enrol/finish', { code: totp(0) }, { cookie: me.cookie }))).code).toBe('0');

    // The attacker has the phone's code, not the authenticator.
    const who = person();
    const ticket = flowCookieOf(await callback(await scan('qr', who)));
    const owed = await bindPhone(ticket, mobile, await phoneCode(mobile), 'en');
    expect((await api.json<{ secondStep?: unknown }>(owed)).data.secondStep).toBeDefined();
    expect(await bindings(me.cookie)).toEqual([]);
    expect((await api.json<{ needsPhone?: boolean }>(await callback(await scan('qr', who)))).data.needsPhone).toBe(true);

    // The person passes the second step: now the WeChat is tied, and the account's owner is told.
    const passed = await api.post('/agg-web/user/twoStep/verify', { kind: 'totp', code: totp(30_000) }, { cookie: cookieNamed(owed, 'portal_second_step'), lang: 'en' });
    expect((await api.json(passed)).code).toBe('0');
    expect(await bindings(me.cookie)).toEqual([expect.objectContaining({ provider: 'wechat', nickname: who })]);
    expect((await api.outbox(me.email))[0]).toMatchObject({ subject: 'A security change on your account', text: expect.stringContaining('a WeChat account was linked') });
    // The WeChat now signs in (to the second step this account always owes).
    expect((await api.json<{ secondStep?: unknown; needsPhone?: boolean }>(await callback(await scan('qr', who)))).data).toMatchObject({ secondStep: expect.anything() });
  });

  it('names the WeChat a user-center binding tied, and tells the person', async () => {
    const me = await api.person();
    const who = person();
    const bound = await api.json(await callback(await scan('qr', who, { session: me.cookie }), { lang: 'zh' }));
    expect(bound.data).toMatchObject({ bound: 'wechat', nickname: who });
    expect((await api.outbox(me.email))[0]).toMatchObject({ subject: '账号安全设置变更提醒', text: expect.stringContaining('绑定了一个微信账号') });
  });
});

describe('the attacker review: the .cn site', () => {
  it('starts every flow on PORTAL_ORIGIN, whatever host the page is on or the request claims', async () => {
    const forged = { host: 'evil.example', 'x-forwarded-host': 'evil.example' };
    const portal = (worker.env as unknown as { PORTAL_ORIGIN: string }).PORTAL_ORIGIN;
    const onCn = await api.json<{ startAt: string | null }>(await api.get('/agg-web/wechat/methods', { origin: 'https://portal.example.cn', headers: forged }));
    expect(onCn.data.startAt).toBe(`${portal}/login`);
    // The .cn page's button goes there first, with the method and the language; on PORTAL_ORIGIN it starts in place.
    expect(startElsewhere(onCn.data.startAt, 'https://portal.example.cn/login', 'qr', 'zh')).toBe(`${portal}/login?wechat=qr&lang=zh`);
    expect(startElsewhere(onCn.data.startAt, `${portal}/login?from=x`, 'mp', 'en')).toBeNull();
    expect(wechatMethodAsked('?wechat=wecom&lang=zh')).toBe('wecom');
    expect(wechatMethodAsked('?wechat=javascript:alert(1)')).toBeNull();
    // WeChat sends the person back to PORTAL_ORIGIN's callback, never to the host that asked.
    const started = await api.json<{ authorizeUrl: string }>(await api.post('/agg-web/wechat/start', { method: 'qr' }, { origin: 'https://portal.example.cn', headers: forged }));
    expect(new URL(started.data.authorizeUrl, 'http://localhost').searchParams.get('redirect_uri')).toBe(`${portal}/wechat_callback`);
  });
});

describe('the attacker review: probing phones', () => {
  it("tells whether a phone's account has a WeChat only after that phone's code is spent", async () => {
    const mobile = api.mobile();
    const me = await api.person({ phone: { callingCode: '+86', mobile } });
    expect((await api.json(await callback(await scan('qr', person(), { session: me.cookie })))).code).toBe('0');
    const ticket = flowCookieOf(await callback(await scan('qr', person())));
    // A script with one scan's ticket and no code learns nothing about the phone.
    const guessed = await api.json(await bindPhone(ticket, mobile, '000000'));
    expect(guessed.code).toMatch(/^CD00/);
    expect(await api.json(await bindPhone(ticket, mobile, await phoneCode(mobile), 'en'))).toMatchObject({ code: 'WX0008', message: errorCatalogue.WX0008.en });
  });
});

describe('the attacker review: starts per network', () => {
  it('caps the flows one network starts in the INSERT itself: 50 parallel starts give the cap', async () => {
    const from = api.ip();
    const capped = { WECHAT_START_CAP: '5' };
    const answers = await Promise.all(Array.from({ length: 50 }, () => api.post('/agg-web/wechat/start', { method: 'qr' }, { from, env: capped, lang: 'zh' })));
    const bodies = await Promise.all(answers.map((res) => api.json(res)));
    expect(bodies.filter((b) => b.code === '0')).toHaveLength(5);
    expect(bodies.filter((b) => b.code === 'WX0013')).toHaveLength(45);
    expect(bodies.find((b) => b.code === 'WX0013')).toMatchObject({ message: errorCatalogue.WX0013.zh });
    expect(answers.find((res) => res.status === 429)).toBeDefined();
    // Another network is not held up by this one.
    expect((await api.json(await api.post('/agg-web/wechat/start', { method: 'qr' }, { env: capped }))).code).toBe('0');
  });
});

describe('the attacker review: one time limit per sign-in', () => {
  it('gives WX0005 when a sign-in\'s calls together outlast WECHAT_TIMEOUT_MS, each of them in time', async () => {
    const flow = await scan('qr', person());
    // Each stand-in call answers after 60% of the limit: the QR sign-in's two calls need 120% of it.
    await api.post('/dev/wechat/fault', { mode: 'sluggish' });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const began = Date.now();
      expect(await api.json(await callback(flow, { lang: 'en', env: { WECHAT_TIMEOUT_MS: '400' } }))).toMatchObject({ code: 'WX0005', message: errorCatalogue.WX0005.en });
      // The person waited the limit, not a limit per call.
      expect(Date.now() - began).toBeLessThan(1000);
    } finally {
      await api.post('/dev/wechat/fault', { mode: null });
      error.mockRestore();
    }
  });

  it('ends the sign-in before the edge gives up on the gateway, whatever WECHAT_TIMEOUT_MS says', async () => {
    const flow = await scan('qr', person());
    await api.post('/dev/wechat/fault', { mode: 'slow' });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const began = Date.now();
      // WECHAT_TIMEOUT_MS longer than GATEWAY_TIMEOUT_MS: the sign-in still ends within 80% of the latter.
      const answer = await callback(flow, { lang: 'zh', env: { WECHAT_TIMEOUT_MS: '3000', GATEWAY_TIMEOUT_MS: '500' } });
      expect(await api.json(answer)).toMatchObject({ code: 'WX0005', message: errorCatalogue.WX0005.zh });
      expect(Date.now() - began).toBeLessThan(1500);
    } finally {
      await api.post('/dev/wechat/fault', { mode: null });
      error.mockRestore();
    }
  });
});
