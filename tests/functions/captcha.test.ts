import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decode } from 'fast-png';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGateway } from '../../functions/gateway/app';
import { CAPTCHA_LIMITS, consumeSliderCheck, HOLE_X, looksHuman, SLIDER } from '../../functions/gateway/captcha/service';
import { sliderChallengeSchema, sliderCheckSchema, type SliderChallenge, type SliderCheck } from '../../src/schemas/auth';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { CHEAP_POW, solvePow } from './pow-solver';
import { useWorkerEnv, type CallOptions } from './gateway-client';

let time = Date.UTC(2026, 5, 1, 8);
const gateway = createGateway({ clock: () => time });
// Calls the gateway on the test clock as the edge proxy does; each caller from its own network unless a
// test names one (the hourly caps are per network). Every answer is read whole (status, headers, text).
const { worker, api } = useWorkerEnv('captcha', CHEAP_POW, { gateway });
vi.spyOn(console, 'log').mockImplementation(() => {});

/** A person's drag: eased, so the speed falls off towards the end. */
const humanTrail = (to: number): [number, number][] =>
  Array.from({ length: 12 }, (_, i) => [i * 45 + (i % 3) * 7, Math.round(to * (1 - (1 - i / 11) ** 2))]);

const init = (scene: 'sms' | 'login', subject: string, ip?: string) =>
  api.post('/agg-web/captcha/slider/init', { scene, subject }, { from: ip }).then((res) => api.readAll<SliderChallenge>(res));

async function challenge(scene: 'sms' | 'login', subject: string, ip?: string) {
  const { body } = await init(scene, subject, ip);
  expect(body.code).toBe('0');
  const { data } = await api.get(`/dev/captcha/${body.data.sessionId}`).then((res) => api.json<{ x: number }>(res));
  return { sessionId: body.data.sessionId, x: data.x, pow: await solvePow(body.data.pow) };
}

const verify = (attempt: { sessionId: string; x: number; pow: unknown }, options: Pick<CallOptions, 'from' | 'lang'> = {}) =>
  api.post('/agg-web/captcha/slider/verify', { sessionId: attempt.sessionId, x: attempt.x, trail: humanTrail(attempt.x), pow: attempt.pow }, options).then((res) => api.readAll<SliderCheck>(res));

async function passSlider(scene: 'sms' | 'login', subject: string): Promise<SliderCheck> {
  const attempt = await challenge(scene, subject);
  const { body } = await verify({ ...attempt, x: attempt.x + 2 });
  expect(body.code).toBe('0');
  return sliderCheckSchema.parse(body.data);
}

/** Whether `n` appears as a number of its own in `text` (not as digits inside a hex or base64 run). */
const mentions = (text: string, n: number) => new RegExp(`(?<![0-9A-Za-z+/])${n}(?![0-9A-Za-z])`).test(text);

describe('slider challenge: nothing a script reads gives the hole away', () => {
  it('answers PNG rasters, a proof-of-work challenge, and no number or markup that names the hole', async () => {
    for (let round = 0; round < 8; round++) {
      const answer = await init('sms', `+86 138 0013 81${String(round).padStart(2, '0')}`);
      const data = sliderChallengeSchema.parse(answer.body.data);
      const { data: target } = await api.get(`/dev/captcha/${data.sessionId}`).then((res) => api.json<{ x: number }>(res));
      expect(target.x).toBeGreaterThanOrEqual(HOLE_X.min);
      expect(target.x).toBeLessThanOrEqual(HOLE_X.max);
      expect(data).toMatchObject({ provider: 'slider', width: 380, height: SLIDER.height, pieceSize: SLIDER.pieceSize });
      expect(answer.body.data).not.toHaveProperty('pieceY');
      const [background, piece] = [data.background, data.piece].map((url) => {
        expect(url).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
        return decode(Buffer.from(url.split(',')[1]!, 'base64'));
      });
      // No text chunks in the PNGs; the background has no alpha channel to hide a mask in, and the piece is a
      // strip as tall as the background at x 0, so its size and alpha say nothing about x.
      expect(background!.text).toEqual({});
      expect(piece!.text).toEqual({});
      expect([background!.width, background!.height, background!.channels]).toEqual([380, SLIDER.height, 3]);
      expect([piece!.width, piece!.height]).toEqual([SLIDER.pieceSize, SLIDER.height]);
      // Everything else the server sent (headers and JSON without the two images) holds no number equal to x,
      // and the old attack (an SVG with the hole at translate(x,y)) finds no markup anywhere.
      // The layout numbers (width 380, height 160, piece 44) are the same in every challenge, so they say nothing
      // about x; they are taken out first, or an x that happens to equal the height would read as a leak.
      const rest = answer.text
        .replace(data.background, '')
        .replace(data.piece, '')
        .replace(/"(width|height|pieceSize)":\d+/g, '');
      for (const text of [rest, answer.headers, ...[data.background, data.piece].map((url) => Buffer.from(url.split(',')[1]!, 'base64').toString('latin1'))]) {
        expect(text).not.toMatch(/<svg|<path|translate\(/i);
      }
      expect(mentions(rest, target.x)).toBe(false);
      expect(mentions(answer.headers, target.x)).toBe(false);
    }
  });

  it('refuses an sms challenge for a number that is not a mainland mobile with PH0001', async () => {
    const { body } = await init('sms', '+8612345678901');
    expect(body.code).toBe('PH0001');
  });

  it('keeps blind guessing under 3 % a try: the tolerance against the hole positions', () => {
    expect((2 * SLIDER.tolerance + 1) / (HOLE_X.max - HOLE_X.min + 1)).toBeLessThan(0.03);
  });
});

describe('slider verify', () => {
  it('passes the right x with a human trail and a solved proof of work, and answers a signed single-use check', async () => {
    const check = await passSlider('sms', '+8613800138000');
    expect(check.scene).toBe('sms');
    expect(check.sign).toMatch(/^[0-9a-f]{64}$/);
    expect(check.token.length).toBeGreaterThanOrEqual(22);
    const row = await worker.env.DB.prepare('SELECT check_hash, outcome FROM slider_challenges WHERE session_id = ?')
      .bind(check.sessionId)
      .first<{ check_hash: string; outcome: string }>();
    expect(row?.check_hash).not.toContain(check.token);
    expect(row?.outcome).toBe('passed');
  });

  it('fails an x more than the tolerance off with CP0001 and kills the challenge (then CP0002)', async () => {
    const attempt = await challenge('sms', '+8613800138001');
    const first = await verify({ ...attempt, x: attempt.x + SLIDER.tolerance + 1 }, { lang: 'zh' });
    expect(first.status).toBe(400);
    expect(first.body).toEqual({ code: 'CP0001', message: errorCatalogue.CP0001.zh, data: null });
    expect((await verify(attempt)).body.code).toBe('CP0002');
  });

  it('fails a robotic drag at the right x', async () => {
    const { sessionId, x, pow } = await challenge('sms', '+8613800138002');
    const linear = Array.from({ length: 10 }, (_, i) => [i * 50, (x * i) / 9] as [number, number]);
    expect((await api.post('/agg-web/captcha/slider/verify', { sessionId, x, trail: linear, pow }).then(api.readAll)).body.code).toBe('CP0001');
  });

  it('answers CP0002 for an expired challenge', async () => {
    const attempt = await challenge('sms', '+8613800138003');
    time += SLIDER.challengeLifetimeMs;
    expect((await verify(attempt)).body.code).toBe('CP0002');
  });

  it('refuses a verify without a proof of work (GW0400), with one solved for another challenge or tampered (CP0004)', async () => {
    const attempt = await challenge('sms', '+8613800138005');
    const other = await challenge('sms', '+8613800138006');
    const trail = humanTrail(attempt.x);
    expect((await api.post('/agg-web/captcha/slider/verify', { sessionId: attempt.sessionId, x: attempt.x, trail }).then(api.readAll)).body.code).toBe('GW0400');
    expect((await verify({ ...attempt, pow: other.pow })).body).toEqual({ code: 'CP0004', message: errorCatalogue.CP0004.en, data: null });
    const key = attempt.pow.solution.derivedKey;
    const wrongKey = { ...attempt.pow, solution: { ...attempt.pow.solution, derivedKey: `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}` } };
    expect((await verify({ ...attempt, pow: wrongKey })).body.code).toBe('CP0004');
    // Renaming the challenge inside the proof breaks the server's signature.
    const renamed = { ...other.pow, challenge: { ...other.pow.challenge, parameters: { ...other.pow.challenge.parameters, data: { sessionId: attempt.sessionId } } } };
    expect((await verify({ ...attempt, pow: renamed })).body.code).toBe('CP0004');
    // An unsolved (made-up) answer.
    const unsolved = { ...attempt.pow, solution: { counter: 0, derivedKey: '00'.repeat(32) } };
    expect((await verify({ ...attempt, pow: unsolved })).body.code).toBe('CP0004');
    // None of those spent the challenge's one try.
    expect((await verify(attempt)).body.code).toBe('0');
  });

  it('yields exactly one check from 20 parallel verifies of one solution; a replay of the pass is CP0002', async () => {
    const attempt = await challenge('sms', '+8613800138004');
    const answers = await Promise.all(Array.from({ length: 20 }, () => verify(attempt)));
    expect(answers.filter((a) => a.body.code === '0')).toHaveLength(1);
    expect(answers.filter((a) => a.body.code !== '0').every((a) => a.body.code === 'CP0002')).toBe(true);
    expect((await verify(attempt)).body.code).toBe('CP0002');
  });
});

// Fifty challenges each draw two PNGs on the server (~35 ms CPU apiece): give the bursts room on a loaded machine.
describe('hourly caps on the human check', { timeout: 90_000 }, () => {
  it('issues 30 of 50 parallel challenges from one network and refuses the rest with CP0005', async () => {
    const ip = '203.0.113.50';
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => init('login', `burst-${i}@example.com`, ip)));
    const codes = answers.map((a) => a.body.code);
    expect(codes.filter((c) => c === '0')).toHaveLength(CAPTCHA_LIMITS.issuedPerNetwork);
    expect(codes.filter((c) => c !== '0').every((c) => c === 'CP0005')).toBe(true);
    const refused = answers.find((a) => a.body.code === 'CP0005')!;
    expect(refused.status).toBe(429);
    // Another network is not affected, and the same one is again an hour later.
    expect((await init('login', 'burst-other@example.com', '203.0.113.51')).body.code).toBe('0');
    time += CAPTCHA_LIMITS.windowMs;
    expect((await init('login', 'burst-later@example.com', ip)).body.code).toBe('0');
  });

  it('issues 30 of 50 parallel challenges for one subject from many networks, then CP0006', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => init('sms', '+8613800138030')));
    const codes = answers.map((a) => a.body.code);
    expect(codes.filter((c) => c === '0')).toHaveLength(CAPTCHA_LIMITS.issuedPerSubject);
    expect(codes.filter((c) => c !== '0').every((c) => c === 'CP0006')).toBe(true);
  });

  it('stops issuing to a subject after 5 failed verifies (CP0008) and to a network after 15 (CP0007)', async () => {
    time += CAPTCHA_LIMITS.windowMs;
    const subject = '+8613800138031';
    const misses = await Promise.all(Array.from({ length: CAPTCHA_LIMITS.failedPerSubject }, () => challenge('sms', subject)));
    const failed = await Promise.all(misses.map((a) => verify({ ...a, x: a.x + 40 })));
    expect(failed.every((a) => a.body.code === 'CP0001')).toBe(true);
    expect((await init('sms', subject)).body).toEqual({ code: 'CP0008', message: errorCatalogue.CP0008.en, data: null });

    const ip = '203.0.113.77';
    const fromNetwork = await Promise.all(Array.from({ length: CAPTCHA_LIMITS.failedPerNetwork }, (_, i) => challenge('login', `miss-${i}@example.com`, ip)));
    await Promise.all(fromNetwork.map((a) => verify({ ...a, x: a.x - 30 }, { from: ip })));
    const refused = await init('login', 'fresh@example.com', ip);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('CP0007');
  });
});

describe('looksHuman', () => {
  it('wants at least 5 samples over at least 250 ms, moving right, at a varying speed', () => {
    expect(looksHuman(humanTrail(200))).toBe(true);
    expect(looksHuman(humanTrail(200).slice(0, 4))).toBe(false);
    expect(looksHuman(humanTrail(200).map(([t, x]) => [t / 10, x]))).toBe(false);
    expect(looksHuman(humanTrail(200).map(([t, x]) => [t, 200 - x]))).toBe(false);
    expect(looksHuman(Array.from({ length: 8 }, (_, i) => [i * 60, i * 25]))).toBe(false);
    expect(looksHuman([[0, 0], [100, 20], [50, 40], [200, 90], [300, 150], [400, 160]])).toBe(false);
  });
});

const smsSend = (mobile: string, sliderCheck: SliderCheck, lang: 'en' | 'zh' = 'en') =>
  api.post('/agg-web/sms/send', { phoneCode: 'CN', phoneCodeValue: '+86', mobile, type: 3, sliderCheck }, { lang }).then(api.readAll);

describe('POST /agg-web/sms/send', () => {
  it('sends a code to the outbox after a slider check bound to that phone', async () => {
    const check = await passSlider('sms', '+8613800138010');
    const { body } = await smsSend('138 0013 8010', check, 'zh');
    expect(body).toEqual({ code: '0', message: 'success', data: null });
    const outbox = await api.get('/dev/outbox?to=%2B8613800138010').then((res) => api.json<{ channel: string; text: string }[]>(res));
    expect(outbox.data[0]).toMatchObject({ channel: 'sms', to: '+8613800138010' });
    expect(outbox.data[0]?.text).toMatch(/您的验证码是 \d{6}/);
  });

  it('refuses a missing or forged slider check with CP0003', async () => {
    const { body } = await smsSend('13800138011', { scene: 'sms', sessionId: 'x', sign: 'y', token: 'z' });
    expect(body).toEqual({ code: 'CP0003', message: errorCatalogue.CP0003.en, data: null });
    const check = await passSlider('sms', '+8613800138011');
    expect((await smsSend('13800138011', { ...check, token: `${check.token}x` })).body.code).toBe('CP0003');
    expect((await smsSend('13800138011', { ...check, sign: '0'.repeat(64) })).body.code).toBe('CP0003');
  });

  it('refuses a reused slider check with CP0003', async () => {
    const check = await passSlider('sms', '+8613800138012');
    expect((await smsSend('13800138012', check)).body.code).toBe('0');
    time += 61_000;
    expect((await smsSend('13800138012', check)).body.code).toBe('CP0003');
  });

  it('refuses a check bound to another phone, or to the login scene, with CP0003', async () => {
    const other = await passSlider('sms', '+8613800138013');
    expect((await smsSend('13800138014', other)).body.code).toBe('CP0003');
    const login = await passSlider('login', '+8613800138014');
    expect((await smsSend('13800138014', login)).body.code).toBe('CP0003');
  });

  it('refuses an expired check with CP0003', async () => {
    const check = await passSlider('sms', '+8613800138015');
    time += SLIDER.checkLifetimeMs;
    expect((await smsSend('13800138015', check)).body.code).toBe('CP0003');
  });

  it('answers PH0001 for an invalid mainland mobile without spending the check', async () => {
    const check = await passSlider('sms', '+8613800138016');
    const { status, body } = await smsSend('12345678901', check, 'zh');
    expect(status).toBe(400);
    expect(body).toEqual({ code: 'PH0001', message: errorCatalogue.PH0001.zh, data: null });
    expect((await smsSend('1234x', check)).body.code).toBe('PH0001');
    expect((await smsSend('13800138016', check)).body.code).toBe('0');
  });

  it('lets exactly one of 20 parallel uses of one check through', async () => {
    const check = await passSlider('login', 'Ada@Example.com');
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () =>
        consumeSliderCheck(worker.env, check, { scene: 'login', subject: 'ada@example.com', now: time }).then(
          () => 'ok',
          (error: { code?: string }) => error.code,
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== 'ok').every((o) => o === 'CP0003')).toBe(true);
  });
});

describe('CAPTCHA_PROVIDER "turnstile" against a local stand-in of siteverify', () => {
  let standIn: Server;
  let hits: URLSearchParams[] = [];
  let vars: Record<string, string>;
  beforeAll(async () => {
    // Answers like Cloudflare: success for the token "pass" under the right secret; "hang" never answers.
    standIn = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        const form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
        const fields = new URLSearchParams([...form].map(([k, v]) => [k, String(v)]));
        hits.push(fields);
        if (fields.get('response') === 'hang') return;
        if (fields.get('response') === 'close') return void req.socket.destroy();
        if (fields.get('response') === 'broken') {
          res.writeHead(500).end('oops');
          return;
        }
        const success = fields.get('secret') === 'turnstile-test-secret' && fields.get('response') === 'pass';
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success, 'error-codes': success ? [] : ['invalid-input-response'] }));
      });
    });
    await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
    const { port } = standIn.address() as AddressInfo;
    vars = {
      CAPTCHA_PROVIDER: 'turnstile',
      TURNSTILE_SITE_KEY: '1x00000000000000000000AA',
      TURNSTILE_SECRET: 'turnstile-test-secret',
      TURNSTILE_VERIFY_URL: `http://127.0.0.1:${port}/turnstile/v0/siteverify`,
      // Short, so the hanging stand-in costs the test a moment (the default is 4 s).
      TURNSTILE_TIMEOUT_MS: '300',
    };
  });
  afterAll(() => {
    standIn.closeAllConnections();
    standIn.close();
  });

  const turnstile = (subject: string, token: string, ip?: string, lang: 'en' | 'zh' = 'en') =>
    api.post('/agg-web/captcha/turnstile/verify', { scene: 'sms', subject, token }, { env: vars, from: ip, lang }).then((res) => api.readAll<SliderCheck>(res));

  it('answers the site key instead of a slider, and closes the slider verify (GW0404)', async () => {
    const answer = await api.post('/agg-web/captcha/slider/init', { scene: 'sms', subject: '+8613800138040' }, { env: vars }).then(api.readAll);
    expect(answer.body).toEqual({ code: '0', message: 'success', data: { provider: 'turnstile', siteKey: vars.TURNSTILE_SITE_KEY } });
    const attempt = await challenge('sms', '+8613800138040');
    expect((await api.post('/agg-web/captcha/slider/verify', { sessionId: attempt.sessionId, x: attempt.x, trail: humanTrail(attempt.x), pow: attempt.pow }, { env: vars }).then(api.readAll)).body.code).toBe('GW0404');
    // And without Turnstile configured, its verify route does not exist.
    expect((await api.post('/agg-web/captcha/turnstile/verify', { scene: 'sms', subject: '+8613800138040', token: 'pass' }).then(api.readAll)).body.code).toBe('GW0404');
  });

  it('sends siteverify no remoteip for an IPv6 client, which the gateway knows only by its /64', async () => {
    hits = [];
    const { body } = await turnstile('+86 138 0013 8049', 'pass', '2001:db8:7:8:9::1');
    expect(body.code).toBe('0');
    expect(hits).toHaveLength(1);
    expect(Object.fromEntries(hits[0]!)).not.toHaveProperty('remoteip');
  });

  it('turns a token siteverify accepts into a single-use check that sends one SMS', async () => {
    hits = [];
    const ip = '203.0.113.140';
    const { body } = await turnstile('+86 138 0013 8041', 'pass', ip);
    expect(body.code).toBe('0');
    expect(hits).toHaveLength(1);
    expect(Object.fromEntries(hits[0]!)).toMatchObject({ secret: vars.TURNSTILE_SECRET, response: 'pass', remoteip: ip });
    const check = sliderCheckSchema.parse(body.data);
    expect((await smsSend('13800138041', check)).body.code).toBe('0');
    time += 61_000;
    expect((await smsSend('13800138041', check)).body.code).toBe('CP0003');
  });

  it('refuses a token siteverify refuses with CP0001, and counts it as a failed verify', async () => {
    const subject = '+8613800138042';
    for (let i = 0; i < CAPTCHA_LIMITS.failedPerSubject; i++) {
      expect((await turnstile(subject, 'forged')).body).toEqual({ code: 'CP0001', message: errorCatalogue.CP0001.en, data: null });
    }
    expect((await turnstile(subject, 'pass')).body.code).toBe('CP0008');
  });

  it('answers CP0009 when siteverify fails, is down, closes the connection, or hangs past the timeout', async () => {
    const broken = await turnstile('+8613800138043', 'broken');
    expect(broken.status).toBe(503);
    expect(broken.body).toEqual({ code: 'CP0009', message: errorCatalogue.CP0009.en, data: null });
    const down = await api.post('/agg-web/captcha/turnstile/verify', { scene: 'sms', subject: '+8613800138043', token: 'pass' }, { env: { ...vars, TURNSTILE_VERIFY_URL: 'http://127.0.0.1:9/siteverify' } }).then(api.readAll);
    expect(down.body.code).toBe('CP0009');
    const started = performance.now();
    const hung = await turnstile('+8613800138043', 'hang', undefined, 'zh');
    expect(hung.body).toEqual({ code: 'CP0009', message: errorCatalogue.CP0009.zh, data: null });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    // Well short of a hang (the stand-in never answers), with room for a busy machine.
    expect(performance.now() - started).toBeLessThan(5000);
    const closed = await turnstile('+8613800138043', 'close', undefined, 'zh');
    expect(closed.body).toEqual({ code: 'CP0009', message: errorCatalogue.CP0009.zh, data: null });
    // A service outage is nobody's failed check.
    const failed = await worker.env.DB.prepare("SELECT COUNT(*) AS n FROM slider_challenges WHERE subject = '+8613800138043' AND outcome = 'failed'").first<{ n: number }>();
    expect(failed?.n).toBe(0);
  });
});
