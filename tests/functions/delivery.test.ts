import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { issueCode } from '../../functions/gateway/codes/service';
import type { WorkerEnv } from '../../functions/env';
import { gatewayClient } from './gateway-client';
import { STAND_IN_KEYS, startStandIn, type ProviderName, type StandIn, type StandInMode } from './provider-stand-ins';
import { startWorkerEnv } from './worker-env';

/**
 * Real SMS and e-mail delivery: each provider against its local stand-in, which checks the signature, the keys
 * and the template parameters and answers success, throttled, an invalid number, down, hang or close. A failed
 * send tells the person in their language, logs the trace id, and counts against no send cap.
 */
let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
let api: ReturnType<typeof gatewayClient>;
const standIns = {} as Record<ProviderName, StandIn>;
const PROVIDERS: ProviderName[] = ['aliyun', 'tencent', 'twilio', 'ses', 'webhook'];
const SMS: ProviderName[] = ['aliyun', 'tencent', 'twilio'];
/**
 * What the person is told when the one provider of the list does not take the message: an SMS that could not
 * go is DL0010 (no SMS provider can send, with the e-mail offer's ticket); an e-mail keeps DL0001 / DL0003.
 */
const answerOf = (provider: ProviderName, code: 'DL0001' | 'DL0002' | 'DL0003') => (SMS.includes(provider) && code !== 'DL0002' ? 'DL0010' : code);
const dataOf = (code: string) => (code === 'DL0010' ? { emailTicket: expect.any(String) } : null);

beforeAll(async () => {
  // The breakers stay shut here (breaker.ts has its own tests in delivery-failover.test.ts): every send reaches its stand-in.
  worker = await startWorkerEnv('delivery', { DELIVERY_BREAKER_FAILURES: '1000000' });
  api = gatewayClient(worker);
  for (const provider of PROVIDERS) standIns[provider] = await startStandIn(provider);
});
afterAll(async () => {
  await Promise.all(PROVIDERS.map((provider) => standIns[provider].close()));
  await worker.dispose();
});
const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
afterEach(() => {
  errors.mockClear();
  for (const provider of PROVIDERS) standIns[provider].mode = 'success';
});

const TEMPLATES = { SMS_SIGN_NAMES: 'zh=船运平台,en=ShipPortal', SMS_CODE_TEMPLATES: 'zh=SMS_100,en=SMS_200' };
/** The Worker's settings that send this provider's channel to its stand-in (the default 5 s delivery timeout). */
const varsFor = (provider: ProviderName): Record<string, string> => {
  const url = standIns[provider].url;
  const common = { ...STAND_IN_KEYS, ...TEMPLATES };
  switch (provider) {
    case 'aliyun':
      return { ...common, SMS_PROVIDER: 'aliyun', ALIYUN_SMS_ENDPOINT: url };
    case 'tencent':
      return { ...common, SMS_PROVIDER: 'tencent', TENCENT_SMS_ENDPOINT: url };
    case 'twilio':
      return { ...common, SMS_INTERNATIONAL_PROVIDER: 'twilio', TWILIO_API_URL: url };
    case 'ses':
      return { ...common, EMAIL_PROVIDER: 'ses', SES_ENDPOINT: url };
    case 'webhook':
      return { ...common, EMAIL_PROVIDER: 'webhook', DELIVERY_WEBHOOK_URL: `${url}/portal/messages` };
  }
};

let seq = 0;
/** A fresh recipient on the provider's channel: a mainland mobile, a UK mobile (Twilio), or an address. */
const recipientFor = (provider: ProviderName) => {
  const n = String(Date.now() % 1e4).padStart(4, '0') + String(seq++ % 1000).padStart(3, '0');
  if (provider === 'aliyun' || provider === 'tencent') return { phoneCodeValue: '+86', mobile: `1390${n}`, e164: `+861390${n}` };
  // UK mobiles under 07400, a range libphonenumber holds valid throughout (07911 is only partly assigned).
  if (provider === 'twilio') return { phoneCodeValue: '+44', mobile: `740${n}`, e164: `+44740${n}` };
  return { email: `delivery.${n}@example.com` };
};

/** Asks for a code on the provider's channel through the whole Worker (the slider passed first for an SMS). */
async function send(provider: ProviderName, { lang = 'en' as 'en' | 'zh', vars = {} as Record<string, string> } = {}) {
  const env = { ...varsFor(provider), ...vars };
  const to = recipientFor(provider);
  let res: Response;
  if ('email' in to) {
    res = await api.post('/agg-web/user/getRegVerificationCode', { emailAddress: to.email, type: 3 }, { lang, env });
  } else {
    const sliderCheck = await api.sliderCheck('sms', to.e164);
    res = await api.post('/agg-web/sms/send', { phoneCode: to.phoneCodeValue.slice(1), phoneCodeValue: to.phoneCodeValue, mobile: to.mobile, type: 3, sliderCheck }, { lang, env });
  }
  const traceId = res.headers.get('x-trace-id');
  return { ...(await api.readAll(res)), traceId, to, request: standIns[provider].received.at(-1)! };
}

/** The log lines of failed deliveries, parsed. */
const failureLogs = () =>
  errors.mock.calls
    .map((call) => String(call[0]))
    .filter((line) => line.includes('"delivery_failed"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe.each(PROVIDERS)('%s', (provider) => {
  it('takes a correctly signed request carrying the code, in the visitor\'s language', async () => {
    const sent = await send(provider, { lang: 'zh' });
    expect(sent.body).toEqual({ code: '0', message: 'success', data: null });
    const { request, to } = sent;
    expect(request.problems).toEqual([]);
    if (provider === 'aliyun') {
      // Mainland numbers go as their 11 digits; the template by language, its variables by name.
      expect(request.query.get('PhoneNumbers')).toBe(to.mobile);
      expect(request.query.get('SignName')).toBe('船运平台');
      expect(request.query.get('TemplateCode')).toBe('SMS_100');
      expect(JSON.parse(request.query.get('TemplateParam')!)).toEqual({ code: expect.stringMatching(/^\d{6}$/), minutes: '5' });
    } else if (provider === 'tencent') {
      expect(JSON.parse(request.body)).toEqual({
        PhoneNumberSet: [to.e164],
        SmsSdkAppId: STAND_IN_KEYS.TENCENT_SMS_APP_ID,
        SignName: '船运平台',
        TemplateId: 'SMS_100',
        TemplateParamSet: [expect.stringMatching(/^\d{6}$/), '5'],
      });
    } else if (provider === 'twilio') {
      const form = new URLSearchParams(request.body);
      expect(form.get('To')).toBe(to.e164);
      expect(form.get('Body')).toMatch(/^您的验证码是 \d{6}，5 分钟内有效。/);
    } else if (provider === 'ses') {
      const body = JSON.parse(request.body);
      expect(body.Destination).toEqual({ ToAddresses: [to.email] });
      expect(body.Content.Simple.Subject.Data).toBe('您的验证码');
      expect(body.Content.Simple.Body.Text.Data).toMatch(/您的验证码是 \d{6}/);
    } else {
      expect(JSON.parse(request.body)).toMatchObject({ channel: 'email', to: to.email, subject: '您的验证码', lang: 'zh' });
    }
    expect(failureLogs()).toEqual([]);
  });

  it('is refused by the stand-in when our key is wrong, and the person gets DL0001 (DL0010 for an SMS)', async () => {
    const secret = { aliyun: 'ALIYUN_ACCESS_KEY_SECRET', tencent: 'TENCENT_SECRET_KEY', twilio: 'TWILIO_AUTH_TOKEN', ses: 'AWS_SECRET_ACCESS_KEY', webhook: 'DELIVERY_WEBHOOK_SECRET' }[provider];
    const sent = await send(provider, { vars: { [secret]: 'not-the-key' } });
    const code = answerOf(provider, 'DL0001');
    expect(sent.body).toEqual({ code, message: errorCatalogue[code].en, data: dataOf(code) });
  });

  const failures: [StandInMode, 'DL0001' | 'DL0002' | 'DL0003'][] = [
    ['throttled', 'DL0003'],
    ['invalid', 'DL0002'],
    ['down', 'DL0001'],
    ['hang', 'DL0001'],
    ['close', 'DL0001'],
  ];
  it.each(failures)('answers %s with %s (DL0010 for an SMS) in the visitor\'s language, logged with the trace id and never the code', async (mode, kindCode) => {
    const code = answerOf(provider, kindCode);
    standIns[provider].mode = mode;
    const started = performance.now();
    // A short timeout where the stand-in hangs, so the test waits a moment rather than the default 5 s.
    const sent = await send(provider, { lang: 'zh', vars: mode === 'hang' ? { DELIVERY_TIMEOUT_MS: '300' } : {} });
    const elapsed = performance.now() - started;
    expect(sent.status).toBe(errorCatalogue[code].status);
    expect(sent.body).toEqual({ code, message: errorCatalogue[code].zh, data: dataOf(code) });
    // The stand-in was asked (the failure is the provider's answer, not ours).
    expect(sent.request.problems).toEqual([]);
    if (mode === 'hang') expect(elapsed).toBeGreaterThanOrEqual(290);
    const [logged, ...more] = failureLogs();
    expect(more).toEqual([]);
    expect(logged).toMatchObject({ event: 'delivery_failed', traceId: sent.traceId, provider, kind: { DL0001: 'unavailable', DL0002: 'invalid-recipient', DL0003: 'throttled' }[kindCode] });
    const everything = errors.mock.calls.flat().map(String).join('\n');
    const sentCode = /\b\d{6}\b/.exec(sent.request.query.get('TemplateParam') ?? sent.request.body)?.[0];
    if (sentCode) expect(everything).not.toContain(sentCode);
    expect(everything).not.toContain('email' in sent.to ? sent.to.email : sent.to.mobile);
    // The failed code was withdrawn: the person may ask again at once, and this time it goes.
    standIns[provider].mode = 'success';
    const again = 'email' in sent.to ? sent.to.email : sent.to.e164;
    const count = await worker.env.DB.prepare('SELECT COUNT(*) AS n FROM codes WHERE recipient = ?').bind(again).first<{ n: number }>();
    expect(count?.n).toBe(0);
  });
});

describe('a provider outage', () => {
  it('counts against no send cap: 40 sends from one network while SES is down, then that network and address still send', async () => {
    standIns.ses.mode = 'down';
    const network = '198.51.100.77';
    const email = `outage.${Date.now()}@example.com`;
    const env = varsFor('ses');
    const sameAddress = Array.from({ length: 20 }, () => api.post('/agg-web/user/getRegVerificationCode', { emailAddress: email, type: 3 }, { from: network, env }).then(api.read));
    const manyAddresses = Array.from({ length: 20 }, (_, i) =>
      api.post('/agg-web/user/getRegVerificationCode', { emailAddress: `outage.${Date.now()}.${i}@example.com`, type: 3 }, { from: network, env }).then(api.read),
    );
    const answers = await Promise.all([...sameAddress, ...manyAddresses]);
    // Each send either reached the provider and failed, or met the resend wait of a parallel one still in flight
    // (a send in flight counts, so a burst cannot overshoot a cap while the provider is up); never a cap, although
    // the network asked for more than its 30 an hour.
    for (const { body } of answers) expect(['DL0001', 'CD0001']).toContain(body.code);
    expect(answers.filter(({ body }) => body.code === 'DL0001').length).toBeGreaterThanOrEqual(21);
    // Counted, 40 sends would have spent the network's 30 an hour; withdrawn, none of them counts.
    const left = await worker.env.DB.prepare('SELECT COUNT(*) AS n FROM codes WHERE ip = ?').bind(network).first<{ n: number }>();
    expect(left?.n).toBe(0);
    standIns.ses.mode = 'success';
    const retry = await api.post('/agg-web/user/getRegVerificationCode', { emailAddress: email, type: 3 }, { from: network, env }).then(api.read);
    expect(retry.body.code).toBe('0');
    for (let i = 0; i < 29; i++) {
      const other = await api.post('/agg-web/user/getRegVerificationCode', { emailAddress: `after.${Date.now()}.${i}@example.com`, type: 3 }, { from: network, env }).then(api.read);
      expect(other.body.code, `send ${i + 2} after the outage`).toBe('0');
    }
  });

  it('does not spend the SMS budget: 20 parallel texts while Tencent is down, then the whole daily budget of 10 is there', async () => {
    standIns.tencent.mode = 'down';
    const env = { ...worker.env, ...varsFor('tencent'), SMS_DAILY_BUDGET: '10' } as WorkerEnv;
    const now = Date.now() + 400 * 24 * 3600_000;
    const numbers = Array.from({ length: 20 }, () => (recipientFor('tencent') as { e164: string }).e164);
    const outcomes = await Promise.all(
      numbers.map((recipient) =>
        issueCode(env, { recipient, channel: 'sms', purpose: 'login', ip: api.ip(), now, lang: 'en' }).then(
          () => 'sent',
          (error: { code?: string }) => error.code,
        ),
      ),
    );
    // Ten texts in flight at once spend the budget until they fail (so a burst cannot overshoot it while the
    // provider is up); the rest meet it, or, when the texts they met have failed and been withdrawn by the time
    // the refusal is explained, are asked to try again in a second (CD0001, retryAfter 1).
    for (const outcome of outcomes) expect(['DL0010', 'CD0005', 'CD0001']).toContain(outcome);
    expect(outcomes.filter((outcome) => outcome === 'DL0010').length).toBeGreaterThanOrEqual(10);
    const left = await worker.env.DB.prepare("SELECT COUNT(*) AS n FROM codes WHERE channel = 'sms' AND created_at = ?").bind(now).first<{ n: number }>();
    expect(left?.n).toBe(0);
    standIns.tencent.mode = 'success';
    const after = Array.from({ length: 10 }, () => (recipientFor('tencent') as { e164: string }).e164);
    for (const recipient of after) await issueCode(env, { recipient, channel: 'sms', purpose: 'login', ip: api.ip(), now: now + 1, lang: 'en' });
  });
});

describe('a sign-in link whose e-mail failed', () => {
  it('is withdrawn after the answer: the person may ask again at once (no LK0010), and the second one is sent', async () => {
    const email = `link.${Date.now()}@example.com`;
    await api.seed({ email, password: 'Harbour2024' });
    const env = varsFor('ses');
    const network = '198.51.100.78';
    standIns.ses.mode = 'down';
    // The e-mail goes after the answer (so a known address answers as fast as an unknown one): the answer cannot tell.
    const failed = await api.post('/agg-web/user/passEmail/send', { loginEmail: email }, { env, from: network, lang: 'zh' }).then(api.read);
    expect(failed.body.code).toBe('0');
    expect(failureLogs()).toMatchObject([{ event: 'delivery_failed', provider: 'ses' }]);
    standIns.ses.mode = 'success';
    const sent = await api.post('/agg-web/user/passEmail/send', { loginEmail: email }, { env, from: network }).then(api.read);
    expect(sent.body.code).toBe('0');
    expect(JSON.parse(standIns.ses.received.at(-1)!.body).Content.Simple.Body.Text.Data).toContain('/pass_email_login?');
  });
});

describe('choosing the provider', () => {
  it('sends +86 numbers through SMS_PROVIDER and every other number through SMS_INTERNATIONAL_PROVIDER', async () => {
    const vars = { ...varsFor('aliyun'), ...varsFor('twilio') };
    const before = { aliyun: standIns.aliyun.received.length, twilio: standIns.twilio.received.length };
    expect((await send('aliyun', { vars })).body.code).toBe('0');
    expect((await send('twilio', { vars })).body.code).toBe('0');
    expect(standIns.aliyun.received.length - before.aliyun).toBe(1);
    expect(standIns.twilio.received.length - before.twilio).toBe(1);
  });
});
