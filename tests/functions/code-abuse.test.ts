import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGateway } from '../../functions/gateway/app';
import { IP_GUESS_CAP, MAX_TRIES, RECIPIENT_GUESS_CAP, RESEND_WAIT_MS } from '../../functions/gateway/codes/service';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { gatewayClient, useWorkerEnv, type Envelope } from './gateway-client';
import { startWorkerEnv } from './worker-env';
import { CHEAP_POW } from './pow-solver';

/**
 * One-time codes attacked the way a script would: parallel bursts of guesses and sends through the whole
 * Worker, each request from its own forged client address, every answer read. SMS limits run with small
 * values set for this file: +44 may take 3 SMS an hour, any other code but +86 2.
 */
// Bursts of 60 requests through the whole Worker take seconds on a loaded machine.
const BURST_TIMEOUT = 120_000;
const { worker, api: client } = useWorkerEnv('code-abuse', { ...CHEAP_POW, SMS_HOURLY_CAPS: '+86=1000,+44=3,*=2', SMS_DAILY_BUDGET: '1000' });
// The dev outbox prints a line per code; the SMS alert lines are read through `warn`.
const log = vi.spyOn(console, 'log').mockImplementation(() => {});
const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
afterEach(() => {
  log.mockClear();
  warn.mockClear();
});

const burst = <T>(count: number, make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: count }, (_, i) => make(i)));
const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)![1]!;
const wrongFor = (code: string, i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');

async function emailCode(email: string) {
  expect((await client.json(await client.post('/agg-web/user/getRegVerificationCode', { emailAddress: email, type: 3 }))).code).toBe('0');
  return codeIn((await client.outbox(email))[0]!.text);
}
const quickLogin = (email: string, code: string, from = client.ip()) =>
  client.post('/agg-web/quick/user/login', { loginType: 2, loginEmail: email, code, agreed: true }, { from }).then(client.read);
const triesOf = async (recipient: string) =>
  (await worker.env.DB.prepare('SELECT tries FROM codes WHERE recipient = ? ORDER BY id DESC').bind(recipient).first<{ tries: number }>())!.tries;

describe('guessing one code in parallel', () => {
  it(`compares at most ${MAX_TRIES} of 60 parallel wrong guesses; the right code is then dead`, async () => {
    const email = `burst.${client.unique()}@example.com`;
    await client.seed({ email });
    const code = await emailCode(email);
    const answers = await burst(60, (i) => quickLogin(email, wrongFor(code, i)));
    const compared = answers.filter((a) => a.body.code === 'CD0010');
    // Each compared guess counted its own try: the tries left are 4, 3, 2, 1, 0, once each.
    expect(compared.map((a) => (a.body.data as { triesLeft: number }).triesLeft).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(answers.every((a) => ['CD0010', 'CD0012', 'CD0015'].includes(a.body.code)), answers.map((a) => a.body.code).join()).toBe(true);
    expect(await triesOf(email)).toBe(MAX_TRIES);
    expect((await quickLogin(email, code)).body.code).toBe('CD0012');
  }, BURST_TIMEOUT);

  it('lets the right code sent last in a burst of 60 win only as one of the 5 tries counted', async () => {
    for (const right of [59, 44]) {
      const email = `mixed.${client.unique()}@example.com`;
      await client.seed({ email });
      const code = await emailCode(email);
      const answers = await burst(60, (i) => quickLogin(email, i === right ? code : wrongFor(code, i)));
      const outcomes = answers.map((a) => a.body.code);
      const wins = outcomes.filter((o) => o === '0').length;
      const wrongCompared = outcomes.filter((o) => o === 'CD0010').length;
      // Every guess that was compared took a try first, the winner included: tries = compared guesses <= 5.
      // (Compared first and counted after, as before, the right code won from any place in the burst untried.)
      expect(await triesOf(email), outcomes.join()).toBe(wrongCompared + wins);
      expect(wrongCompared + wins).toBeLessThanOrEqual(MAX_TRIES);
      expect(outcomes[right]).toMatch(wins ? /^0$/ : /^CD001[25]$/);
      expect(outcomes.every((o) => ['0', 'CD0010', 'CD0012', 'CD0014', 'CD0015'].includes(o)), outcomes.join()).toBe(true);
    }
  }, BURST_TIMEOUT);
});

describe('wrong guesses per hour', () => {
  let time = Date.now();
  const gateway = createGateway({ clock: () => time });
  /** As the edge calls the gateway: it sets x-client-ip from Cloudflare's address. */
  const direct = (path: string, body: unknown, ip: string, lang: 'en' | 'zh' = 'en') =>
    Promise.resolve(gateway
      .request(`http://gateway.internal${path}`, { method: 'POST', headers: { 'content-type': 'application/json', language: lang, traceid: 't', 'x-client-ip': ip }, body: JSON.stringify(body) }, worker.env, worker.ctx))
      .then(client.read);
  const newCode = async (email: string) => {
    time += RESEND_WAIT_MS;
    expect((await direct('/agg-web/user/getRegVerificationCode', { emailAddress: email, type: 3 }, client.ip())).body.code).toBe('0');
    return codeIn((await client.outbox(email))[0]!.text);
  };
  const guess = (email: string, code: string, ip = client.ip(), lang: 'en' | 'zh' = 'en') =>
    direct('/agg-web/quick/user/login', { loginType: 2, loginEmail: email, code, agreed: true, userIdentity: 1, companyName: 'Harbour Ltd' }, ip, lang);

  it(`allows ${RECIPIENT_GUESS_CAP} wrong guesses per address an hour however many new codes are asked for (CD0015)`, async () => {
    const email = `resend.${client.unique()}@example.com`;
    await client.seed({ email });
    for (let codes = 0; codes < RECIPIENT_GUESS_CAP / MAX_TRIES; codes++) {
      const code = await newCode(email);
      const answers = await burst(20, (i) => guess(email, wrongFor(code, i)));
      expect(answers.filter((a) => a.body.code === 'CD0010')).toHaveLength(MAX_TRIES);
    }
    // A fresh code, the right one, from a fresh network: the address has had its wrong guesses for the hour.
    const code = await newCode(email);
    const refused = await guess(email, code, client.ip(), 'zh');
    expect(refused).toEqual({ status: 429, body: { code: 'CD0015', message: errorCatalogue.CD0015.zh, data: null } });
    expect(await triesOf(email)).toBe(0);
    time += 60 * 60_000;
    expect((await guess(email, await newCode(email))).body.code).toBe('0');
  }, BURST_TIMEOUT);

  it(`allows ${IP_GUESS_CAP} wrong guesses per client network an hour, over any number of addresses (CD0016)`, async () => {
    const emails = Array.from({ length: IP_GUESS_CAP + 10 }, () => `net.${client.unique()}@example.com`);
    const codes = await burst(emails.length, async (i) => {
      expect((await direct('/agg-web/user/getRegVerificationCode', { emailAddress: emails[i], type: 3 }, client.ip())).body.code).toBe('0');
      return codeIn((await client.outbox(emails[i]!))[0]!.text);
    });
    const network = '203.0.113.66';
    const answers = await burst(emails.length, (i) => guess(emails[i]!, wrongFor(codes[i]!, 0), network));
    expect(answers.filter((a) => a.body.code === 'CD0010')).toHaveLength(IP_GUESS_CAP);
    expect(answers.filter((a) => a.body.code === 'CD0016')).toHaveLength(10);
    expect(answers.find((a) => a.body.code === 'CD0016')).toEqual({ status: 429, body: { code: 'CD0016', message: errorCatalogue.CD0016.en, data: null } });
    // Another network still guesses; the refused addresses' codes took no try.
    const refused = answers.findIndex((a) => a.body.code === 'CD0016');
    expect((await guess(emails[refused]!, codes[refused]!)).body.code).toBe('0');
  }, BURST_TIMEOUT);
});

describe('numbers an SMS may go to', () => {
  const fakeCheck = { scene: 'sms', sessionId: 'x'.repeat(22), sign: 'a'.repeat(64), token: 'y'.repeat(32) };
  const smsSend = (phoneCodeValue: string, mobile: string, sliderCheck: unknown = fakeCheck, lang?: 'zh' | 'en') =>
    client.post('/agg-web/sms/send', { phoneCode: phoneCodeValue.slice(1), phoneCodeValue, mobile, type: 3, sliderCheck }, { lang }).then(client.read);

  it('answers PH0001, before the slider is spent, for numbers invalid in their plan and lines that cannot take a text', async () => {
    const refused = [
      ['+999', '12345678'], // no country uses +999
      ['+44', '7700900123'], // Ofcom's drama range: plausible length, never assigned
      ['+852', '1234'],
      ['+44', '9098790000'], // premium rate
      ['+1', '8005551234'], // toll free
      ['+44', '2079460000'], // fixed line
    ];
    for (const [callingCode, mobile] of refused) {
      expect(await smsSend(callingCode!, mobile!, fakeCheck, 'zh'), `${callingCode} ${mobile}`).toEqual({
        status: 400,
        body: { code: 'PH0001', message: errorCatalogue.PH0001.zh, data: null },
      });
    }
  });

  it('answers an unknown calling code with the PH0001 envelope on every route that reads a phone, never a 500', async () => {
    const phone = { mobileCode: '+999', mobile: '12345678' };
    const calls: [string, unknown][] = [
      ['/agg-web/quick/user/checkIsNewUser', { loginType: 1, ...phone }],
      ['/agg-web/quick/user/login', { loginType: 1, ...phone, code: '123456', agreed: true }],
      ['/agg-web/user/password/reset/sendCode', { loginType: 1, ...phone, sliderCheck: fakeCheck }],
      ['/agg-web/captcha/slider/init', { scene: 'sms', subject: '+999 12345678' }],
    ];
    const answers = await burst(calls.length, (i) => client.post(calls[i]![0], calls[i]![1]).then(client.read));
    for (const [i, answer] of answers.entries()) {
      expect(answer, calls[i]![0]).toEqual({ status: 400, body: { code: 'PH0001', message: errorCatalogue.PH0001.en, data: null } });
    }
  });
});

describe('SMS per destination calling code', () => {
  const ukMobile = (i: number) => `79111234${String(i).padStart(2, '0')}`;
  const send = async (mobile: string, phoneCodeValue = '+44') => {
    const sliderCheck = await client.sliderCheck('sms', `${phoneCodeValue}${mobile}`);
    return () => client.post('/agg-web/sms/send', { phoneCode: phoneCodeValue.slice(1), phoneCodeValue, mobile, type: 3, sliderCheck }).then(client.read);
  };

  it('sends 3 SMS an hour to +44 of 8 parallel sends to different numbers, refuses the rest with CD0004 and logs the calling code only', async () => {
    const sends = await burst(8, (i) => send(ukMobile(i)));
    const answers = await burst(sends.length, (i) => sends[i]!());
    expect(answers.filter((a) => a.body.code === '0')).toHaveLength(3);
    const refused = answers.filter((a) => a.body.code !== '0');
    expect(refused).toHaveLength(5);
    for (const answer of refused) expect(answer).toEqual({ status: 429, body: { code: 'CD0004', message: errorCatalogue.CD0004.en, data: null } });
    const sent = await burst(8, (i) => client.outbox(`+44${ukMobile(i)}`));
    expect(sent.filter((messages) => messages.length === 1)).toHaveLength(3);

    const lines = warn.mock.calls.map((call) => String(call[0]));
    expect(lines).toHaveLength(5);
    for (const line of lines) {
      expect(line).toMatch(/^sms budget exhausted: calling code \+44 reached its cap of 3 per hour/);
      expect(line).not.toMatch(/7911/);
    }
    // Other calling codes keep their own budget.
    expect((await (await send('13912345001', '+86'))()).body.code).toBe('0');
  }, BURST_TIMEOUT);

  it('answers a reset code request for an unknown phone exactly like one for a known phone, under the cap too', async () => {
    // +81 falls under "*=2": the first known and unknown requests are sent (one really), the next two refused.
    const known = ['9012345001', '9012345002'];
    const unknown = ['9012345101', '9012345102'];
    for (const mobile of known) await client.seed({ phone: { callingCode: '+81', mobile }, password: 'Harbour2024' });
    const reset = async (mobile: string) => {
      const sliderCheck = await client.sliderCheck('sms', `+81${mobile}`);
      return client.read(await client.post('/agg-web/user/password/reset/sendCode', { loginType: 1, mobileCode: '+81', mobile, sliderCheck }));
    };
    const [knownSent, unknownSent] = [await reset(known[0]!), await reset(unknown[0]!)];
    expect(knownSent).toEqual({ status: 200, body: { code: '0', message: 'success', data: null } });
    expect(unknownSent).toEqual(knownSent);
    const [knownRefused, unknownRefused] = [await reset(known[1]!), await reset(unknown[1]!)];
    expect(knownRefused).toEqual({ status: 429, body: { code: 'CD0004', message: errorCatalogue.CD0004.en, data: null } });
    expect(unknownRefused).toEqual(knownRefused);
    expect(await client.outbox(`+81${known[0]}`)).toHaveLength(1);
    expect(await client.outbox(`+81${unknown[0]}`)).toEqual([]);

    // A guess at the decoy fails like a wrong guess at the real code.
    const guess = async (mobile: string) =>
      client.read(await client.post('/agg-web/user/password/reset', { loginType: 1, mobileCode: '+81', mobile, code: '000000', newPassword: 'a'.repeat(64), newPasswordSubmit: 'a'.repeat(64) }));
    expect(await guess(unknown[0]!)).toEqual(await guess(known[0]!));
  });
});

describe('the daily SMS budget', () => {
  let budgetWorker: Awaited<ReturnType<typeof startWorkerEnv>>;
  beforeAll(async () => {
    budgetWorker = await startWorkerEnv('code-budget', { ...CHEAP_POW, SMS_DAILY_BUDGET: '20', SMS_HOURLY_CAPS: '+86=1000,*=1000' });
  });
  afterAll(() => budgetWorker.dispose());

  it('holds under 50 parallel sends to 50 numbers from 50 networks: 20 are sent, 30 refused with CD0005 and logged', async () => {
    const budgetClient = gatewayClient(budgetWorker);
    const mobiles = Array.from({ length: 50 }, (_, i) => `1391234${String(i).padStart(4, '0')}`);
    const checks = await burst(mobiles.length, (i) => budgetClient.sliderCheck('sms', `+86${mobiles[i]}`));
    const answers = await burst(mobiles.length, (i) =>
      budgetClient
        .post('/agg-web/sms/send', { phoneCode: '86', phoneCodeValue: '+86', mobile: mobiles[i], type: 3, sliderCheck: checks[i] }, { lang: 'zh' })
        .then(async (res) => ({ status: res.status, body: (await res.json()) as Envelope })),
    );
    expect(answers.filter((a) => a.body.code === '0')).toHaveLength(20);
    const refused = answers.filter((a) => a.body.code !== '0');
    expect(refused).toHaveLength(30);
    for (const answer of refused) expect(answer).toEqual({ status: 429, body: { code: 'CD0005', message: errorCatalogue.CD0005.zh, data: null } });
    const sms = await budgetWorker.env.DB.prepare("SELECT COUNT(*) AS n FROM outbox WHERE channel = 'sms'").first<{ n: number }>();
    expect(sms?.n).toBe(20);
    const lines = warn.mock.calls.map((call) => String(call[0]));
    expect(lines).toHaveLength(30);
    expect(lines.every((line) => line === 'sms budget exhausted: the daily budget of 20 is spent (refused a send to calling code +86)')).toBe(true);
  }, BURST_TIMEOUT);
});
