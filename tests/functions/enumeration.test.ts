import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/lib/password-hash';
import { SLIDER_AFTER } from '../../functions/gateway/sign-in/risk';
import { useWorkerEnv } from './gateway-client';
import { STAND_IN_KEYS } from './provider-stand-ins';

/**
 * Enumeration by answers and by time (issue 30, part 2), tested the way a script attacks: many parallel
 * probes from one network, and answer times compared over many runs against a deliberately slow provider
 * (a webhook that answers after DELAY_MS). Medians and a generous margin: the machine is shared and slow.
 */
const { worker, api } = useWorkerEnv('enumeration');

const DELAY_MS = 300;
/** A known address may answer at most this much later than an unknown one (the delivery alone takes DELAY_MS). */
const MARGIN_MS = 150;
const RUNS = 7;

let server: Server;
let hookUrl = '';
const received: { to: string; subject: string }[] = [];

beforeAll(async () => {
  // The webhook provider, slow: it takes every message and answers 200 after DELAY_MS.
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      setTimeout(() => {
        const message = JSON.parse(body) as { to: string; subject: string };
        received.push({ to: message.to, subject: message.subject });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      }, DELAY_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/portal/messages`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const slowMail = () => ({ EMAIL_PROVIDER: 'webhook', DELIVERY_WEBHOOK_URL: hookUrl, DELIVERY_WEBHOOK_SECRET: STAND_IN_KEYS.DELIVERY_WEBHOOK_SECRET, PORTAL_ORIGIN: 'https://portal.example.com' });
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Answer times of `send` for fresh known and unknown addresses, alternating, each from a fresh network. */
async function timings(send: (email: string) => Promise<string>) {
  const known: number[] = [];
  const unknown: number[] = [];
  const knownAddresses: string[] = [];
  const unknownAddresses: string[] = [];
  for (let run = 0; run < RUNS; run++) {
    for (const isKnown of run % 2 ? [true, false] : [false, true]) {
      const email = `probe.${api.unique()}@example.com`;
      if (isKnown) await api.seed({ email, password: 'Harbour2024' });
      const started = performance.now();
      expect(await send(email)).toBe('0');
      (isKnown ? known : unknown).push(performance.now() - started);
      (isKnown ? knownAddresses : unknownAddresses).push(email);
      // The delivery runs after the answer: let it finish outside the timed window.
      await worker.settle();
    }
  }
  return { known: median(known), unknown: median(unknown), knownAddresses, unknownAddresses };
}

describe('the reset code and the sign-in link answer as fast for a known address as for an unknown one', () => {
  it('password/reset/sendCode: same answer, same time, and the code still reaches the known address', async () => {
    const env = slowMail();
    const result = await timings(async (email) =>
      (await api.json(await api.post('/agg-web/user/password/reset/sendCode', { loginType: 2, loginEmail: email }, { env, early: true }))).code,
    );
    expect(result.known, `median known ${result.known} ms vs unknown ${result.unknown} ms`).toBeLessThan(result.unknown + MARGIN_MS);
    for (const email of result.knownAddresses) expect(received.filter((m) => m.to === email)).toHaveLength(1);
    for (const email of result.unknownAddresses) expect(received.filter((m) => m.to === email)).toHaveLength(0);
  }, 120_000);

  it('passEmail/send: same answer, same time, and the link still reaches the known address', async () => {
    const env = slowMail();
    const result = await timings(async (email) => (await api.json(await api.post('/agg-web/user/passEmail/send', { loginEmail: email }, { env, early: true }))).code);
    expect(result.known, `median known ${result.known} ms vs unknown ${result.unknown} ms`).toBeLessThan(result.unknown + MARGIN_MS);
    for (const email of result.knownAddresses) expect(received.filter((m) => m.to === email && /sign-in link/.test(m.subject))).toHaveLength(1);
    for (const email of result.unknownAddresses) expect(received.filter((m) => m.to === email)).toHaveLength(0);
  }, 120_000);

  it('a failed delivery after the answer is withdrawn: the person may ask again at once', async () => {
    const email = `probe.${api.unique()}@example.com`;
    await api.seed({ email, password: 'Harbour2024' });
    const down = { ...slowMail(), DELIVERY_WEBHOOK_URL: 'http://127.0.0.1:9/nowhere', DELIVERY_TIMEOUT_MS: '300' };
    const from = api.ip();
    const first = await api.json(await api.post('/agg-web/user/password/reset/sendCode', { loginType: 2, loginEmail: email }, { env: down, from }));
    expect(first.code).toBe('0');
    const left = await worker.env.DB.prepare('SELECT COUNT(*) AS n FROM codes WHERE recipient = ?').bind(email).first<{ n: number }>();
    expect(left?.n).toBe(0);
    // No resend wait (CD0001): the failed code counted against nothing.
    expect((await api.json(await api.post('/agg-web/user/password/reset/sendCode', { loginType: 2, loginEmail: email }, { env: slowMail(), from }))).code).toBe('0');
    expect(received.filter((m) => m.to === email)).toHaveLength(1);
  }, 60_000);
});

describe('a legacy (salted) account under password probing', () => {
  const probe = (mobile: string, from: string) =>
    api
      .post('/agg-web/user/loginByPhone', { mobile, mobileCode: '+86', password: 'f'.repeat(64), passwordVersion: 2, loginType: 101, captchaType: 3 }, { from })
      .then((res) => api.json<{ tracelessCheckResult?: number }>(res));

  it('is counted and throttled exactly like an unknown name: 12 parallel probes each, the same number get through before the human check', async () => {
    const legacy = api.mobile('137');
    const unknown = api.mobile('137');
    await api.seed({ phone: { callingCode: '+86', mobile: legacy }, password: 'Legacy123', legacySalt: 'a1b2c3d4e5f60718293a4b5c6d7e8f90' });
    const from = api.ip();
    const burst = (mobile: string) => Promise.all(Array.from({ length: 12 }, () => probe(mobile, from)));
    const [legacyAnswers, unknownAnswers] = await Promise.all([burst(legacy), burst(unknown)]);
    const through = (answers: Awaited<ReturnType<typeof burst>>) => answers.filter((a) => a.data?.tracelessCheckResult !== 400);
    // Before the fix a legacy name answered SY9990 to all 12, uncounted; now only the attempts the throttle lets through answer at all.
    expect(through(legacyAnswers)).toHaveLength(SLIDER_AFTER);
    expect(through(unknownAnswers)).toHaveLength(SLIDER_AFTER);
    const failures = async (mobile: string) =>
      (await worker.env.DB.prepare('SELECT failures FROM password_failures WHERE subject = ? AND network = ?').bind(`+86${mobile}`, from).first<{ failures: number }>())?.failures;
    expect(await failures(legacy)).toBe(await failures(unknown));
    expect(await failures(legacy)).toBe(SLIDER_AFTER);
  }, 60_000);

  it('still lets the owner through the salt round trip (and clears the count)', async () => {
    const mobile = api.mobile('137');
    const legacySalt = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';
    await api.seed({ phone: { callingCode: '+86', mobile }, password: 'Legacy123', legacySalt });
    const from = api.ip();
    const login = async (password: string, passwordVersion: 1 | 2) =>
      api.json(await api.post('/agg-web/user/loginByPhone', { mobile, mobileCode: '+86', password, passwordVersion, loginType: 101, captchaType: 3 }, { from }));
    expect((await login(await hashPassword('Legacy123'), 2)).code).toBe('SY9990');
    const salt = (await api.json<{ salt: string }>(await api.post('/agg-web/user/getUserSalt', { type: 1, phone: mobile, phoneCode: '+86' }))).data.salt;
    expect((await login(await hashPassword('Legacy123', salt), 1)).code).toBe('0');
    const left = await worker.env.DB.prepare('SELECT failures FROM password_failures WHERE subject = ? AND network = ?').bind(`+86${mobile}`, from).first();
    expect(left).toBeNull();
  }, 60_000);
});

describe('a wrong password', () => {
  it('writes the known account\'s sign-in history after the answer (no extra write before it)', async () => {
    const email = `probe.${api.unique()}@example.com`;
    const userId = await api.seed({ email, password: 'Harbour2024' });
    expect((await api.json(await api.emailLogin(email, 'wrong-one', {}, { early: true }))).code).toBe('US0010');
    await worker.settle();
    const rows = await worker.env.DB.prepare('SELECT success FROM sign_ins WHERE user_id = ?').bind(userId).all();
    expect(rows.results).toEqual([{ success: 0 }]);
  }, 60_000);
});
