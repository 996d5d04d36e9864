import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app from '../../functions/worker';
import { hashPassword } from '../../src/lib/password-hash';
import { startWorkerEnv } from './worker-env';
import { CHEAP_POW, solvePow, type PowChallenge } from './pow-solver';

/** POST agg-web/partner/v2/passwordLogin (issue 4) through the whole Worker, on a real local D1. */
let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
beforeAll(async () => {
  worker = await startWorkerEnv('partner', CHEAP_POW);
});
afterAll(() => worker.dispose());

let seq = 0;
const uniqueMobile = () => `136${String(Date.now() % 1e5).padStart(5, '0')}${String(seq++ % 1000).padStart(3, '0')}`;
const ip = () => `10.8.${seq % 250}.${(seq++ * 7) % 250}`;
type Envelope<T = Record<string, unknown>> = { code: string; message: string; data: T };

const NAVIGATOR = 'http://navigator.example.com';
const call = (path: string, init: RequestInit = {}, origin = 'http://localhost') => app.request(`${origin}/api${path}`, init, worker.env, worker.ctx);
function post(path: string, body: unknown, { cookie, origin }: { cookie?: string; origin?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cf-connecting-ip': ip(), 'x-client-ip': ip() };
  if (cookie) headers.cookie = cookie;
  return call(path, { method: 'POST', headers, body: JSON.stringify(body) }, origin);
}
const json = async <T = Record<string, unknown>>(res: Response) => (await res.json()) as Envelope<T>;
const setCookies = (res: Response) => res.headers.getSetCookie().join('\n');

const seed = async (body: Record<string, unknown>) => {
  const res = await json<{ userId: string }>(await post('/dev/users', { agreed: true, ...body }));
  expect(res.code).toBe('0');
  return res.data.userId;
};

async function passSlider(subject: string, scene: 'sms' | 'login' = 'login') {
  const challenge = await json<{ sessionId: string; pow: PowChallenge }>(await post('/agg-web/captcha/slider/init', { scene, subject }));
  const x = (await json<{ x: number }>(await call(`/dev/captcha/${challenge.data.sessionId}`))).data.x;
  const trail: [number, number][] = [0, 0.2, 0.45, 0.7, 0.85, 0.95, 1].map((p, i) => [i * 60 + (i % 2) * 15, Math.round(x * p)]);
  const pow = await solvePow(challenge.data.pow);
  return (await json(await post('/agg-web/captcha/slider/verify', { sessionId: challenge.data.sessionId, x, trail, pow }))).data;
}

async function partnerLogin(mobile: string, password: string, options: { origin?: string; extra?: Record<string, unknown>; sliderCheck?: unknown } = {}) {
  const sliderCheck = options.sliderCheck ?? (await passSlider(`+86${mobile}`));
  return post(
    '/agg-web/partner/v2/passwordLogin',
    { phone: mobile, phoneCode: '+86', password: await hashPassword(password), captchaType: 2, passwordVersion: 2, sliderCheck, ...options.extra },
    { origin: options.origin },
  );
}

describe('partner sign-in', () => {
  it('signs a partner in on the navigator host with the navigator_token cookie and a partner session', async () => {
    const mobile = uniqueMobile();
    const userId = await seed({ phone: { callingCode: '+86', mobile }, password: 'Partner123', isPartner: true, userType: 2 });
    const res = await partnerLogin(mobile, 'Partner123', { origin: NAVIGATOR });
    const body = await json<Record<string, unknown>>(res);
    expect(body.code).toBe('0');
    expect(body.data).toMatchObject({ userId, tracelessCheckResult: 100, newUser: false });
    expect(body.data.oauthVO).toBeUndefined();
    const cookies = setCookies(res);
    const token = /(?:^|\n)navigator_token=([^;]+);[^\n]*HttpOnly/.exec(cookies)?.[1];
    expect(token).toBeTruthy();
    expect(cookies).not.toMatch(/(?:^|\n)portal_token=/);
    const row = await worker.env.DB.prepare('SELECT kind FROM sessions WHERE user_id = ? AND revoked_at IS NULL').bind(userId).first<{ kind: string }>();
    expect(row?.kind).toBe('partner');
    // The session works on the navigator host, read from its own cookie.
    const loginCase = await json(await post('/agg-web/quick/user/findUserLoginCase', {}, { origin: NAVIGATOR, cookie: `navigator_token=${token}` }));
    expect(loginCase.code).toBe('0');
    // …and a platform cookie of that name means nothing on the navigator host.
    expect((await json(await post('/agg-web/quick/user/findUserLoginCase', {}, { origin: NAVIGATOR, cookie: `portal_token=${token}` }))).code).toBe('TK00001');
  });

  it('uses portal_token elsewhere (such as /navigator_login on the platform host)', async () => {
    const mobile = uniqueMobile();
    await seed({ phone: { callingCode: '+86', mobile }, password: 'Partner123', isPartner: true });
    const res = await partnerLogin(mobile, 'Partner123');
    expect((await json(res)).code).toBe('0');
    expect(setCookies(res)).toMatch(/(?:^|\n)portal_token=[^;]+;[^\n]*HttpOnly/);
  });

  it('refuses a non-partner with the same generic error as a wrong password or an unknown phone', async () => {
    const partner = uniqueMobile();
    const platformUser = uniqueMobile();
    await seed({ phone: { callingCode: '+86', mobile: partner }, password: 'Partner123', isPartner: true });
    await seed({ phone: { callingCode: '+86', mobile: platformUser }, password: 'Platform123' });
    const nonPartner = await partnerLogin(platformUser, 'Platform123', { origin: NAVIGATOR });
    const wrong = await partnerLogin(partner, 'Wrong12345', { origin: NAVIGATOR });
    const unknown = await partnerLogin(uniqueMobile(), 'Partner123', { origin: NAVIGATOR });
    const answers = await Promise.all([nonPartner, wrong, unknown].map(json));
    for (const answer of answers) expect(answer).toEqual({ code: 'US0010', message: 'Wrong account or password.', data: null });
    expect(setCookies(nonPartner)).toBe('');
    // The platform login still works for the platform user.
    const platform = await post('/agg-web/user/loginByPhone', {
      mobile: platformUser,
      mobileCode: '+86',
      password: await hashPassword('Platform123'),
      passwordVersion: 2,
      loginType: 101,
      captchaType: 3,
    });
    expect((await json(platform)).code).toBe('0');
  });

  it('needs a passed slider bound to this phone, used once', async () => {
    const mobile = uniqueMobile();
    const other = uniqueMobile();
    await seed({ phone: { callingCode: '+86', mobile }, password: 'Partner123', isPartner: true });
    const forOther = await passSlider(`+86${other}`);
    expect((await json(await partnerLogin(mobile, 'Partner123', { sliderCheck: forOther }))).code).toBe('CP0003');
    const smsScene = await passSlider(`+86${mobile}`, 'sms');
    expect((await json(await partnerLogin(mobile, 'Partner123', { sliderCheck: smsScene }))).code).toBe('CP0003');
    const check = await passSlider(`+86${mobile}`);
    expect((await json(await partnerLogin(mobile, 'Partner123', { sliderCheck: check }))).code).toBe('0');
    expect((await json(await partnerLogin(mobile, 'Partner123', { sliderCheck: check }))).code).toBe('CP0003');
    const missing = await post('/agg-web/partner/v2/passwordLogin', { phone: mobile, phoneCode: '+86', password: await hashPassword('x'), captchaType: 2, passwordVersion: 2 });
    expect((await json(missing)).code).toBe('GW0400');
    const wrongType = await partnerLogin(mobile, 'Partner123', { extra: { captchaType: 3 } });
    expect((await json(wrongType)).code).toBe('GW0400');
  });

  it('replaces an insecure password with newPassword: the old one stops working', async () => {
    const mobile = uniqueMobile();
    await seed({ phone: { callingCode: '+86', mobile }, password: 'abc', insecurePassword: true, isPartner: true, originalFlag: true });
    const res = await partnerLogin(mobile, 'abc', { extra: { newPassword: await hashPassword('Better2024') } });
    const body = await json<{ originalFlag: boolean }>(res);
    expect(body.code).toBe('0');
    expect(body.data.originalFlag).toBe(false);
    expect((await json(await partnerLogin(mobile, 'abc'))).code).toBe('US0010');
    expect((await json(await partnerLogin(mobile, 'Better2024'))).code).toBe('0');
  });

  it('answers SY9990 for a legacy partner record and accepts the salted hash', async () => {
    const mobile = uniqueMobile();
    await seed({ phone: { callingCode: '+86', mobile }, password: 'Legacy123', legacySalt: 'salt42', isPartner: true });
    expect((await json(await partnerLogin(mobile, 'Legacy123'))).code).toBe('SY9990');
    const salted = await post('/agg-web/partner/v2/passwordLogin', {
      phone: mobile,
      phoneCode: '+86',
      password: await hashPassword('Legacy123', 'salt42'),
      captchaType: 2,
      passwordVersion: 1,
      sliderCheck: await passSlider(`+86${mobile}`),
    });
    expect((await json(salted)).code).toBe('0');
  });
});
