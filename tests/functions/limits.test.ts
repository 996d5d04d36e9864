import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import app, { createWorker } from '../../functions/worker';
import { createGateway } from '../../functions/gateway/app';
import { MAX_JSON_BYTES } from '../../functions/gateway/validate';
import { consumeSliderCheck, SLIDER } from '../../functions/gateway/captcha/service';
import { CODE_LIFETIME_MS, consumeCode, IP_CAP, MAX_TRIES } from '../../functions/gateway/codes/service';
import { ACCOUNT_SLIDER_AFTER, LOCK_BASE_MS, LOCK_EVERY, MAX_LOCK_MS, SLIDER_AFTER } from '../../functions/gateway/sign-in/risk';
import { createSession, SESSION_LIFETIME_S } from '../../functions/gateway/sessions/service';
import {
  DEV_HANDOFF_KEY,
  createHandoffBlob,
  handoffClaims,
  HANDOFF_MAX_TTL,
  importHandoffKey,
  type HandoffClaims,
} from '../../functions/gateway/handoff/blob';
import { encodeBase64Url } from '../../src/lib/base64';
import { sliderCheckSchema } from '../../src/schemas/auth';
import { readToEnd, useWorkerEnv, type Envelope } from './gateway-client';
import { CHEAP_POW } from './pow-solver';

/**
 * Limits of the security baseline at their boundary (issue 8): the last allowed attempt passes, the next one
 * fails with its code. Only the boundaries the other suites leave out are here (codes.test.ts, captcha.test.ts,
 * auth.test.ts and edge.test.ts hold the rest); time comes from injected clocks, nothing sleeps.
 */
// The dev outbox prints a line per code; keep the output quiet (again after each test's mocks are restored).
const quiet = () => vi.spyOn(console, 'log').mockImplementation(() => {});
quiet();
afterEach(() => {
  vi.restoreAllMocks();
  quiet();
});

const T0 = Date.UTC(2026, 5, 1, 8);
let time = T0;
const gateway = createGateway({ clock: () => time });
// Calls the gateway on the test clock as the edge proxy does, each from a fresh client network unless named.
const { worker, api } = useWorkerEnv('limits', CHEAP_POW, { gateway });
beforeAll(async () => {
  await worker.env.DB.prepare("INSERT INTO users (id, email, created_at) VALUES ('handoff-user', 'handoff@example.com', 0)").run();
});

const freshEmail = () => `limit.${api.unique()}@example.com`;

async function codeFor(email: string) {
  expect((await api.post('/agg-web/user/getRegVerificationCode', { emailAddress: email, type: 3 }).then(api.read)).body.code).toBe('0');
  const outbox = await api.get(`/dev/outbox?to=${encodeURIComponent(email)}`).then((res) => api.json<{ text: string }[]>(res));
  return /\b(\d{6})\b/.exec(outbox.data[0]!.text)![1]!;
}

/** A passed slider check, as the gateway's own contract reads it. */
const sliderCheck = async (scene: 'sms' | 'login', subject: string) => sliderCheckSchema.parse(await api.sliderCheck(scene, subject));

describe('JSON body cap (64 KB, counted while reading)', () => {
  it('reads a body of exactly 65,536 bytes and refuses 65,537 with GW0413', async () => {
    const sized = (bytes: number) => {
      const head = '{"eventId":"cap","pad":"';
      const tail = '"}';
      return head + 'x'.repeat(bytes - head.length - tail.length) + tail;
    };
    expect(new TextEncoder().encode(sized(MAX_JSON_BYTES)).byteLength).toBe(65_536);
    expect((await api.postRaw('/agg-web/buriedPoint/add', sized(MAX_JSON_BYTES)).then(api.read)).body.code).toBe('0');
    const over = await api.postRaw('/agg-web/buriedPoint/add', sized(MAX_JSON_BYTES + 1)).then(api.read);
    expect(over).toMatchObject({ status: 413, body: { code: 'GW0413' } });
    // Bytes, not characters: 21,846 three-byte characters are 65,538 bytes.
    expect((await api.postRaw('/agg-web/buriedPoint/add', `{"eventId":"${'中'.repeat(21_846)}"}`).then(api.read)).body.code).toBe('GW0413');
  });
});

describe('one-time codes', () => {
  it('signs in with a code 1 ms before its 5 minutes end, and answers CD0011 at 5 minutes', async () => {
    time = T0;
    const a = freshEmail();
    const codeA = await codeFor(a);
    time = T0 + CODE_LIFETIME_MS - 1;
    expect((await api.post('/agg-web/quick/user/login', { loginType: 2, loginEmail: a, code: codeA, agreed: true, userIdentity: 1, companyName: 'A' }).then(api.read)).body.code).toBe('0');

    time = T0;
    const b = freshEmail();
    const codeB = await codeFor(b);
    time = T0 + CODE_LIFETIME_MS;
    const late = await api.post('/agg-web/quick/user/login', { loginType: 2, loginEmail: b, code: codeB, agreed: true, userIdentity: 1, companyName: 'B' }).then(api.read);
    expect(late.body.code).toBe('CD0011');
    const users = await worker.env.DB.prepare('SELECT COUNT(*) AS n FROM users WHERE email = ?').bind(b).first<{ n: number }>();
    expect(users?.n).toBe(0);
    time = T0;
  });

  it('accepts the right code after 4 wrong tries (the 5th try)', async () => {
    const to = freshEmail();
    const code = await codeFor(to);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 1; i < MAX_TRIES; i++) {
      await expect(consumeCode(worker.env.DB, { recipient: to, purpose: 'login', ip: '192.0.2.250', code: wrong, now: time })).rejects.toMatchObject({ code: 'CD0010' });
    }
    await expect(consumeCode(worker.env.DB, { recipient: to, purpose: 'login', ip: '192.0.2.250', code, now: time })).resolves.toBeUndefined();
  });

  it('counts the per-IP cap by the address the edge saw: a forged x-client-ip does not reset it', async () => {
    const send = (i: number) =>
      Promise.resolve(app.request(
        'http://portal.test/api/agg-web/user/getRegVerificationCode',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'cf-connecting-ip': '203.0.113.99', 'x-client-ip': `10.0.0.${i}` },
          body: JSON.stringify({ emailAddress: `ipcap${i}@example.com`, type: 3 }),
        },
        worker.env,
        worker.ctx,
      )).then(async (res) => ((await res.json()) as Envelope).code);
    for (let i = 1; i <= IP_CAP; i++) expect(await send(i), `send ${i}`).toBe('0');
    expect(await send(IP_CAP + 1)).toBe('CD0003');
  });
});

describe('slider', () => {
  it('verifies a challenge 1 ms before its lifetime ends (captcha.test.ts has the expired side)', async () => {
    time = T0;
    const attempt = await api.sliderAnswer('sms', '+8613800138090');
    time = T0 + SLIDER.challengeLifetimeMs - 1;
    expect((await api.post('/agg-web/captcha/slider/verify', attempt).then(api.read)).body.code).toBe('0');
    time = T0;
  });

  it('accepts a passed check 1 ms before its lifetime ends and refuses it at the end', async () => {
    time = T0;
    const subject = 'slider-limit@example.com';
    const first = await sliderCheck('login', subject);
    const second = await sliderCheck('login', subject);
    const consume = (check: typeof first, now: number) =>
      consumeSliderCheck(worker.env, check, { scene: 'login', subject, now }).then(
        () => 'ok',
        (error: { code?: string }) => error.code,
      );
    expect(await consume(first, T0 + SLIDER.checkLifetimeMs - 1)).toBe('ok');
    expect(await consume(second, T0 + SLIDER.checkLifetimeMs)).toBe('CP0003');
  });
});

describe('password lockout (per sign-in name and client network)', () => {
  const password = 'Harbour2024';
  const NETWORK = '198.51.100.7';
  async function seed() {
    const email = freshEmail();
    const seeded = await api.post('/dev/users', { email, password }).then((res) => api.read<{ userId: string }>(res));
    expect(seeded.body.code).toBe('0');
    return email;
  }
  const setRisk = (email: string, failures: number, lockCount = 0, network = NETWORK) =>
    worker.env.DB.prepare(
      `INSERT INTO password_failures (subject, network, failures, locked_until, lock_count, updated_at) VALUES (?, ?, ?, NULL, ?, ?)
       ON CONFLICT (subject, network) DO UPDATE SET failures = excluded.failures, lock_count = excluded.lock_count, locked_until = NULL, updated_at = excluded.updated_at`,
    )
      .bind(email, network, failures, lockCount, time)
      .run();
  const risk = (email: string, network = NETWORK) =>
    worker.env.DB.prepare('SELECT failures, locked_until, lock_count FROM password_failures WHERE subject = ? AND network = ?')
      .bind(email, network)
      .first<{ failures: number; locked_until: number | null; lock_count: number }>();
  async function login(email: string, plain: string, withSlider: boolean, network = NETWORK) {
    const extra = withSlider ? { nvcvalStr: JSON.stringify(await sliderCheck('login', email)) } : {};
    const res = await api.emailLogin(email, plain, extra, { from: network }).then((answer) => api.read<{ tracelessCheckResult?: number }>(answer));
    return { code: res.body.code, traceless: res.body.data?.tracelessCheckResult };
  }

  it(`needs no slider after ${SLIDER_AFTER - 1} failures from a network (auth.test.ts has the slider at ${SLIDER_AFTER})`, async () => {
    time = T0;
    const email = await seed();
    await setRisk(email, SLIDER_AFTER - 1);
    expect(await login(email, password, false)).toEqual({ code: '0', traceless: 100 });
  });

  it(`asks every network for the slider once the name has ${ACCOUNT_SLIDER_AFTER} failures in all, not at ${ACCOUNT_SLIDER_AFTER - 1}`, async () => {
    time = T0;
    const email = await seed();
    for (let i = 0; i < ACCOUNT_SLIDER_AFTER - 1; i++) await setRisk(email, 1, 0, `203.0.113.${i + 1}`);
    expect(await login(email, password, false)).toEqual({ code: '0', traceless: 100 });
    for (let i = 0; i < ACCOUNT_SLIDER_AFTER; i++) await setRisk(email, 1, 0, `203.0.113.${i + 1}`);
    expect(await login(email, password, false)).toEqual({ code: '0', traceless: 400 });
    expect(await login(email, password, true)).toEqual({ code: '0', traceless: 100 });
  });

  it(`signs in after ${LOCK_EVERY - 1} failures; the ${LOCK_EVERY}th locks that network for exactly 15 minutes`, async () => {
    time = T0;
    const open = await seed();
    await setRisk(open, LOCK_EVERY - 1);
    expect(await login(open, password, true)).toEqual({ code: '0', traceless: 100 });

    const email = await seed();
    await setRisk(email, LOCK_EVERY - 1);
    expect((await login(email, 'wrong-one', true)).code).toBe('US0010');
    expect(await risk(email)).toEqual({ failures: LOCK_EVERY, locked_until: T0 + LOCK_BASE_MS, lock_count: 1 });
    time = T0 + LOCK_BASE_MS - 1;
    expect((await login(email, password, true)).code).toBe('US0010');
    time = T0 + LOCK_BASE_MS;
    expect(await login(email, password, true)).toEqual({ code: '0', traceless: 100 });
    expect(await risk(email)).toBeNull();
    time = T0;
  });

  it('doubles the lock up to 24 hours and no further', async () => {
    time = T0;
    const email = await seed();
    // After 6 locks the 7th lasts 15 min × 2^6 = 16 h, under the cap; after 7 the 8th (32 h) stops at 24 h.
    await setRisk(email, LOCK_EVERY - 1, 6);
    expect((await login(email, 'wrong-one', true)).code).toBe('US0010');
    expect((await risk(email))?.locked_until).toBe(T0 + LOCK_BASE_MS * 2 ** 6);
    await setRisk(email, LOCK_EVERY - 1, 7);
    expect((await login(email, 'wrong-one', true)).code).toBe('US0010');
    expect((await risk(email))?.locked_until).toBe(T0 + MAX_LOCK_MS);
    await setRisk(email, LOCK_EVERY - 1, 40);
    expect((await login(email, 'wrong-one', true)).code).toBe('US0010');
    expect((await risk(email))?.locked_until).toBe(T0 + MAX_LOCK_MS);
  });
});

describe('sessions', () => {
  it(`hold for ${SESSION_LIFETIME_S} s: valid 1 ms before, TK00001 at the end`, async () => {
    await worker.env.DB.prepare("INSERT INTO users (id, email, created_at) VALUES ('session-user', 'session@example.com', 0)").run();
    const { token } = await createSession(worker.env.DB, { userId: 'session-user', kind: 'platform', now: T0 });
    const loginCase = () => api.post('/agg-web/quick/user/findUserLoginCase', {}, { headers: { authorization: `Bearer ${token}` } }).then(api.read);
    time = T0 + SESSION_LIFETIME_S * 1000 - 1;
    expect((await loginCase()).body.code).toBe('0');
    time = T0 + SESSION_LIFETIME_S * 1000;
    expect(await loginCase()).toMatchObject({ status: 401, body: { code: 'TK00001' } });
    time = T0;
  });
});

describe('hand-off blobs', () => {
  const key = () => importHandoffKey(DEV_HANDOFF_KEY);
  // The Worker's one clock (edge and gateway), set per test.
  let handoffTime = T0;
  const clocked = createWorker({ clock: () => handoffTime });
  const intake = async (blob: string) => readToEnd(await clocked.request(`http://portal.test/login?token=${blob}`, { redirect: 'manual' }, worker.env, worker.ctx));
  const reason = async (res: Response) => /data-handoff-error="(\w+)"/.exec(await res.text())?.[1] ?? `status ${res.status}`;

  it(`works until ${HANDOFF_MAX_TTL} s after iat and is refused as expired at ${HANDOFF_MAX_TTL} s`, async () => {
    const issued = T0;
    const k = await key();
    const early = await createHandoffBlob(k, handoffClaims({ sub: 'handoff-user', aud: 'portal', purpose: 'session', now: issued }));
    const late = await createHandoffBlob(k, handoffClaims({ sub: 'handoff-user', aud: 'portal', purpose: 'session', now: issued }));
    handoffTime = issued + HANDOFF_MAX_TTL * 1000 - 1;
    expect((await intake(early)).status).toBe(303);
    handoffTime = issued + HANDOFF_MAX_TTL * 1000;
    expect(await reason(await intake(late))).toBe('expired');
  });

  /** Seals claims the way a sender would, without createHandoffBlob's own checks (a foreign or buggy sender). */
  async function sealRaw(claims: HandoffClaims) {
    const k = await key();
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const additionalData = new TextEncoder().encode(JSON.stringify(['portal-handoff', 1, claims.aud, claims.purpose]));
    const sealed = new Uint8Array(
      await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData, tagLength: 128 }, k.key, new TextEncoder().encode(JSON.stringify(claims))),
    );
    return encodeBase64Url(new Uint8Array([1, k.id, ...iv, ...sealed]));
  }

  it(`accepts a blob that claims ${HANDOFF_MAX_TTL} s of life and refuses one that claims ${HANDOFF_MAX_TTL + 1} s`, async () => {
    handoffTime = T0 + 1000;
    const claims = (ttl: number) => ({ ...handoffClaims({ sub: 'handoff-user', aud: 'portal', purpose: 'session', now: T0 }), exp: T0 / 1000 + ttl });
    expect((await intake(await sealRaw(claims(HANDOFF_MAX_TTL)))).status).toBe(303);
    expect(await reason(await intake(await sealRaw(claims(HANDOFF_MAX_TTL + 1))))).toBe('invalid');
  });

  it("allows a sender's clock 30 s ahead of ours, not 31 s", async () => {
    handoffTime = T0;
    const k = await key();
    const ahead = (s: number) => createHandoffBlob(k, handoffClaims({ sub: 'handoff-user', aud: 'portal', purpose: 'session', now: T0 + s * 1000 }));
    expect((await intake(await ahead(30))).status).toBe(303);
    expect(await reason(await intake(await ahead(31)))).toBe('invalid');
  });
});
