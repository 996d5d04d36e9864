import { describe, expect, it } from 'vitest';
import { useWorkerEnv } from './gateway-client';

/**
 * Two parallel WeChat bindings that cannot both hold (one WeChat to two accounts, or two WeChats to one account):
 * one binds, the other gets a clear answer in its language, and nothing of the losing one is written. The flows
 * go through the WeChat stand-in, as tests/functions/wechat.test.ts drives it.
 */
const ISSUER = 'http://localhost';
const { worker: env, api } = useWorkerEnv('wechat-bind-race', { PORTAL_ORIGIN: ISSUER });

type Flow = { cookie: string; code: string; state: string };
const flowCookieOf = (res: Response) => {
  const match = /(?:^|\n)(portal_wechat)=([^;]*)/.exec(res.headers.getSetCookie().join('\n'));
  return match ? `${match[1]}=${match[2]}` : '';
};

/** Starts a QR flow (a binding one with `session`) and confirms it as `who` on the stand-in's page. */
async function scan(who: string, session?: string): Promise<Flow> {
  const start = await api.post(session ? '/agg-web/user/wechat/bind' : '/agg-web/wechat/start', { method: 'qr' }, { cookie: session });
  const started = await api.json<{ authorizeUrl: string }>(start);
  expect(started.code, JSON.stringify(started)).toBe('0');
  const url = new URL(started.data.authorizeUrl, ISSUER);
  const html = await (await api.get(url.pathname.replace(/^\/api/, '') + url.search)).text();
  const form = new URLSearchParams([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))]));
  form.set('person', who);
  form.set('answer', 'confirm');
  const back = new URL((await api.postRaw('/dev/wechat/confirm', form.toString(), { headers: { 'content-type': 'application/x-www-form-urlencoded' } })).headers.get('location')!);
  return { cookie: flowCookieOf(start), code: back.searchParams.get('code')!, state: back.searchParams.get('state')! };
}

const callback = (flow: Flow, cookie = flow.cookie, lang?: 'zh' | 'en') => api.post('/agg-web/wechat/callback', { code: flow.code, state: flow.state }, { cookie, lang });

async function phoneCode(mobile: string) {
  const sliderCheck = await api.sliderCheck('sms', `+86${mobile}`);
  expect((await api.json(await api.post('/agg-web/sms/send', { phoneCode: 'CN', mobile, type: 3, phoneCodeValue: '+86', sliderCheck }))).code).toBe('0');
  return api.latestCode(`+86${mobile}`);
}

/** The binding ticket of a first scan of `who` (an unknown WeChat): the cookie the phone form sends. */
const ticketOf = async (who: string) => flowCookieOf(await callback(await scan(who)));

describe('WeChat bind race', () => {
  it('two parallel phone forms binding one WeChat: one binds, the other hears WX0007 in its language, and nothing of it is written', async () => {
    const who = `race${api.unique()}`;
    const [a, b] = [await ticketOf(who), await ticketOf(who)];
    const [mobileA, mobileB] = [api.mobile(), api.mobile()];
    const [codeA, codeB] = [await phoneCode(mobileA), await phoneCode(mobileB)];
    const answers = await Promise.all([
      api.post('/agg-web/wechat/bindPhone', { mobileCode: '+86', mobile: mobileA, code: codeA, agreed: true }, { cookie: a, lang: 'zh' }),
      api.post('/agg-web/wechat/bindPhone', { mobileCode: '+86', mobile: mobileB, code: codeB, agreed: true }, { cookie: b, lang: 'zh' }),
    ]);
    const bodies = await Promise.all(answers.map((res) => api.json<{ userId: string }>(res)));
    expect(bodies.map((body) => body.code).sort()).toEqual(['0', 'WX0007']);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
    const loser = bodies.find((body) => body.code === 'WX0007')!;
    expect(loser.message).toMatch(/微信/);
    // One account, one binding: the loser's phone registered nothing and has no session.
    const loserMobile = bodies[0]!.code === 'WX0007' ? mobileA : mobileB;
    const db = env.env.DB;
    expect(await db.prepare('SELECT COUNT(*) AS n FROM users WHERE phone_e164 = ?').bind(`+86${loserMobile}`).first('n')).toBe(0);
    const winner = bodies.find((body) => body.code === '0')!;
    expect(await db.prepare("SELECT user_id FROM social_bindings WHERE provider = 'wechat' AND user_id = ?").bind(winner.data.userId).first('user_id')).toBe(winner.data.userId);
  });

  it("two parallel user-center bindings of one WeChat to two accounts: one binds, the other hears WX0007", async () => {
    const who = `race${api.unique()}`;
    const [me, you] = [await api.person(), await api.person()];
    const [mine, yours] = [await scan(who, me.cookie), await scan(who, you.cookie)];
    const answers = await Promise.all([callback(mine, `${mine.cookie}; ${me.cookie}`, 'en'), callback(yours, `${yours.cookie}; ${you.cookie}`, 'en')]);
    const bodies = await Promise.all(answers.map((res) => api.json(res)));
    expect(bodies.map((body) => body.code).sort()).toEqual(['0', 'WX0007']);
    expect(bodies.find((body) => body.code === 'WX0007')!.message).toMatch(/WeChat/);
    // The WeChat is tied to one account only, the winner's.
    const winner = bodies[0]!.code === '0' ? me : you;
    const tied = await env.env.DB.prepare("SELECT user_id FROM social_bindings WHERE provider = 'wechat' AND user_id IN (?, ?)").bind(me.userId, you.userId).all();
    expect(tied.results).toEqual([{ user_id: winner.userId }]);
  });

  it('two parallel user-center bindings of two WeChats to one account: one binds, the other hears WX0008', async () => {
    const me = await api.person();
    const [first, second] = [await scan(`race${api.unique()}`, me.cookie), await scan(`race${api.unique()}`, me.cookie)];
    const answers = await Promise.all([callback(first, `${first.cookie}; ${me.cookie}`), callback(second, `${second.cookie}; ${me.cookie}`)]);
    const bodies = await Promise.all(answers.map((res) => api.json(res)));
    expect(bodies.map((body) => body.code).sort()).toEqual(['0', 'WX0008']);
    const audit = await env.env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'user.social_bound' AND actor_id = ?").bind(me.userId).first('n');
    expect(audit).toBe(1);
  });
});
