import { describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/lib/password-hash';
import { useWorkerEnv } from './gateway-client';
import { CHEAP_POW } from './pow-solver';

/** POST agg-web/partner/v2/passwordLogin (issue 4) through the whole Worker, on a real local D1. */
const { worker, api } = useWorkerEnv('partner', CHEAP_POW);

const NAVIGATOR = 'http://navigator.example.com';
const setCookies = (res: Response) => res.headers.getSetCookie().join('\n');
const passSlider = (subject: string, scene: 'sms' | 'login' = 'login') => api.sliderCheck(scene, subject);

async function partnerLogin(mobile: string, password: string, options: { origin?: string; extra?: Record<string, unknown>; sliderCheck?: unknown } = {}) {
  const sliderCheck = options.sliderCheck ?? (await passSlider(`+86${mobile}`));
  return api.post(
    '/agg-web/partner/v2/passwordLogin',
    { phone: mobile, phoneCode: '+86', password: await hashPassword(password), captchaType: 2, passwordVersion: 2, sliderCheck, ...options.extra },
    { origin: options.origin },
  );
}

describe('partner sign-in', () => {
  it('signs a partner in on the navigator host with the navigator_token cookie and a partner session', async () => {
    const mobile = api.mobile('136');
    const userId = await api.seed({ phone: { callingCode: '+86', mobile }, password: 'Partner123', isPartner: true, userType: 2 });
    const res = await partnerLogin(mobile, 'Partner123', { origin: NAVIGATOR });
    const body = await api.json<Record<string, unknown>>(res);
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
    const loginCase = await api.json(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { origin: NAVIGATOR, cookie: `navigator_token=${token}` }));
    expect(loginCase.code).toBe('0');
    // …and a platform cookie of that name means nothing on the navigator host.
    expect((await api.json(await api.post('/agg-web/quick/user/findUserLoginCase', {}, { origin: NAVIGATOR, cookie: `portal_token=${token}` }))).code).toBe('TK00001');
  });

  it('uses portal_token elsewhere (such as /navigator_login on the platform host)', async () => {
    const mobile = api.mobile('136');
    await api.seed({ phone: { callingCode: '+86', mobile }, password: 'Partner123', isPartner: true });
    const res = await partnerLogin(mobile, 'Partner123');
    expect((await api.json(res)).code).toBe('0');
    expect(setCookies(res)).toMatch(/(?:^|\n)portal_token=[^;]+;[^\n]*HttpOnly/);
  });

  it('refuses a non-partner with the same generic error as a wrong password or an unknown phone', async () => {
    const partner = api.mobile('136');
    const platformUser = api.mobile('136');
    await api.seed({ phone: { callingCode: '+86', mobile: partner }, password: 'Partner123', isPartner: true });
    await api.seed({ phone: { callingCode: '+86', mobile: platformUser }, password: 'Platform123' });
    const nonPartner = await partnerLogin(platformUser, 'Platform123', { origin: NAVIGATOR });
    const wrong = await partnerLogin(partner, 'Wrong12345', { origin: NAVIGATOR });
    const unknown = await partnerLogin(api.mobile('136'), 'Partner123', { origin: NAVIGATOR });
    const answers = await Promise.all([nonPartner, wrong, unknown].map(api.json));
    for (const answer of answers) expect(answer).toEqual({ code: 'US0010', message: 'Wrong account or password.', data: null });
    expect(setCookies(nonPartner)).toBe('');
    // The platform login still works for the platform user.
    const platform = await api.post('/agg-web/user/loginByPhone', {
      mobile: platformUser,
      mobileCode: '+86',
      password: await hashPassword('Platform123'),
      passwordVersion: 2,
      loginType: 101,
      captchaType: 3,
    });
    expect((await api.json(platform)).code).toBe('0');
  });

  it('needs a passed slider bound to this phone, used once', async () => {
    const mobile = api.mobile('136');
    const other = api.mobile('136');
    await api.seed({ phone: { callingCode: '+86', mobile }, password: 'Partner123', isPartner: true });
    const forOther = await passSlider(`+86${other}`);
    expect((await api.json(await partnerLogin(mobile, 'Partner123', { sliderCheck: forOther }))).code).toBe('CP0003');
    const smsScene = await passSlider(`+86${mobile}`, 'sms');
    expect((await api.json(await partnerLogin(mobile, 'Partner123', { sliderCheck: smsScene }))).code).toBe('CP0003');
    const check = await passSlider(`+86${mobile}`);
    expect((await api.json(await partnerLogin(mobile, 'Partner123', { sliderCheck: check }))).code).toBe('0');
    expect((await api.json(await partnerLogin(mobile, 'Partner123', { sliderCheck: check }))).code).toBe('CP0003');
    const missing = await api.post('/agg-web/partner/v2/passwordLogin', { phone: mobile, phoneCode: '+86', password: await hashPassword('x'), captchaType: 2, passwordVersion: 2 });
    expect((await api.json(missing)).code).toBe('GW0400');
    const wrongType = await partnerLogin(mobile, 'Partner123', { extra: { captchaType: 3 } });
    expect((await api.json(wrongType)).code).toBe('GW0400');
  });

  it('replaces an insecure password with newPassword: the old one stops working', async () => {
    const mobile = api.mobile('136');
    await api.seed({ phone: { callingCode: '+86', mobile }, password: 'abc', insecurePassword: true, isPartner: true, originalFlag: true });
    const res = await partnerLogin(mobile, 'abc', { extra: { newPassword: await hashPassword('Better2024') } });
    const body = await api.json<{ originalFlag: boolean }>(res);
    expect(body.code).toBe('0');
    expect(body.data.originalFlag).toBe(false);
    expect((await api.json(await partnerLogin(mobile, 'abc'))).code).toBe('US0010');
    expect((await api.json(await partnerLogin(mobile, 'Better2024'))).code).toBe('0');
  });

  it('answers SY9990 for a legacy partner record and accepts the salted hash', async () => {
    const mobile = api.mobile('136');
    await api.seed({ phone: { callingCode: '+86', mobile }, password: 'Legacy123', legacySalt: 'salt42', isPartner: true });
    expect((await api.json(await partnerLogin(mobile, 'Legacy123'))).code).toBe('SY9990');
    const salted = await api.post('/agg-web/partner/v2/passwordLogin', {
      phone: mobile,
      phoneCode: '+86',
      password: await hashPassword('Legacy123', 'salt42'),
      captchaType: 2,
      passwordVersion: 1,
      sliderCheck: await passSlider(`+86${mobile}`),
    });
    expect((await api.json(salted)).code).toBe('0');
  });
});
