import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGateway } from '../../functions/gateway/app';
import { consumeSliderCheck, looksHuman, SLIDER } from '../../functions/gateway/services/captcha';
import { sliderChallengeSchema, sliderCheckSchema, type SliderCheck } from '../../src/schemas/auth';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { startWorkerEnv } from './worker-env';

let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
beforeAll(async () => {
  worker = await startWorkerEnv('captcha');
});
afterAll(() => worker.dispose());
vi.spyOn(console, 'log').mockImplementation(() => {});

let time = Date.UTC(2026, 5, 1, 8);
const gateway = createGateway({ clock: () => time });

type Answer<T = unknown> = { code: string; message: string; data: T };

/** Calls the gateway as the edge proxy does: language, trace id and client IP headers. */
async function post<T = unknown>(path: string, body: unknown, lang: 'en' | 'zh' = 'en') {
  const res = await gateway.request(
    `http://gateway.internal${path}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', language: lang, traceid: 'test', 'x-client-ip': '198.51.100.9' },
      body: JSON.stringify(body),
    },
    worker.env,
    worker.ctx,
  );
  return { status: res.status, body: (await res.json()) as Answer<T> };
}

async function get<T = unknown>(path: string) {
  const res = await gateway.request(`http://gateway.internal${path}`, { headers: { language: 'en' } }, worker.env, worker.ctx);
  return (await res.json()) as Answer<T>;
}

/** A person's drag: eased, so the speed falls off towards the end. */
const humanTrail = (to: number): [number, number][] =>
  Array.from({ length: 12 }, (_, i) => [i * 45 + (i % 3) * 7, Math.round(to * (1 - (1 - i / 11) ** 2))]);

async function challenge(scene: 'sms' | 'login', subject: string) {
  const { body } = await post<{ sessionId: string }>('/agg-web/captcha/slider/init', { scene, subject });
  expect(body.code).toBe('0');
  const { data } = await get<{ x: number }>(`/dev/captcha/${body.data.sessionId}`);
  return { sessionId: body.data.sessionId, x: data.x };
}

async function passSlider(scene: 'sms' | 'login', subject: string): Promise<SliderCheck> {
  const { sessionId, x } = await challenge(scene, subject);
  const { body } = await post<SliderCheck>('/agg-web/captcha/slider/verify', { sessionId, x: x + 2, trail: humanTrail(x + 2) });
  expect(body.code).toBe('0');
  return sliderCheckSchema.parse(body.data);
}

const smsSend = (mobile: string, sliderCheck: SliderCheck, lang: 'en' | 'zh' = 'en') =>
  post('/agg-web/sms/send', { phoneCode: 'CN', phoneCodeValue: '+86', mobile, type: 3, sliderCheck }, lang);

describe('slider challenge', () => {
  it('answers a 380-wide challenge with SVG images that do not give away the target x', async () => {
    const { body } = await post('/agg-web/captcha/slider/init', { scene: 'sms', subject: '+86 138 0013 8000' });
    const data = sliderChallengeSchema.parse(body.data);
    expect(data).toMatchObject({ width: 380, height: SLIDER.height, pieceSize: SLIDER.pieceSize });
    expect(data.background).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(data.piece).toMatch(/^data:image\/svg\+xml;base64,/);
    const piece = atob(data.piece.split(',')[1]!);
    const { data: target } = await get<{ x: number }>(`/dev/captcha/${data.sessionId}`);
    expect(target.x).toBeGreaterThan(SLIDER.pieceSize);
    expect(target.x).toBeLessThanOrEqual(380 - SLIDER.pieceSize);
    // Colours aside (a hue may equal x by chance), nothing in the piece depends on where the hole is.
    expect(piece.replace(/hsl\([^)]*\)/g, '')).not.toContain(String(target.x));
    const row = await worker.env.DB.prepare('SELECT subject, scene FROM slider_challenges WHERE session_id = ?').bind(data.sessionId).first();
    expect(row).toEqual({ subject: '+8613800138000', scene: 'sms' });
  });

  it('refuses an sms challenge for a number that is not a mainland mobile with PH0001', async () => {
    const { body } = await post('/agg-web/captcha/slider/init', { scene: 'sms', subject: '+8612345678901' });
    expect(body.code).toBe('PH0001');
  });
});

describe('slider verify', () => {
  it('passes the right x with a human trail and answers a signed single-use check', async () => {
    const check = await passSlider('sms', '+8613800138000');
    expect(check.scene).toBe('sms');
    expect(check.sign).toMatch(/^[0-9a-f]{64}$/);
    expect(check.token.length).toBeGreaterThanOrEqual(22);
    const row = await worker.env.DB.prepare('SELECT check_hash FROM slider_challenges WHERE session_id = ?').bind(check.sessionId).first<{ check_hash: string }>();
    expect(row?.check_hash).not.toContain(check.token);
  });

  it('fails a wrong x with CP0001 and kills the challenge (then CP0002)', async () => {
    const { sessionId, x } = await challenge('sms', '+8613800138001');
    const wrong = x > 200 ? x - 40 : x + 40;
    const first = await post('/agg-web/captcha/slider/verify', { sessionId, x: wrong, trail: humanTrail(wrong) }, 'zh');
    expect(first).toEqual({ status: 400, body: { code: 'CP0001', message: errorCatalogue.CP0001.zh, data: null } });
    const again = await post('/agg-web/captcha/slider/verify', { sessionId, x, trail: humanTrail(x) });
    expect(again.body.code).toBe('CP0002');
  });

  it('fails a robotic drag at the right x', async () => {
    const { sessionId, x } = await challenge('sms', '+8613800138002');
    const linear = Array.from({ length: 10 }, (_, i) => [i * 50, (x * i) / 9] as [number, number]);
    expect((await post('/agg-web/captcha/slider/verify', { sessionId, x, trail: linear })).body.code).toBe('CP0001');
  });

  it('answers CP0002 for an unknown or expired challenge', async () => {
    expect((await post('/agg-web/captcha/slider/verify', { sessionId: 'nope', x: 100, trail: humanTrail(100) })).body.code).toBe('CP0002');
    const { sessionId, x } = await challenge('sms', '+8613800138003');
    time += SLIDER.challengeLifetimeMs;
    expect((await post('/agg-web/captcha/slider/verify', { sessionId, x, trail: humanTrail(x) })).body.code).toBe('CP0002');
  });

  it('yields at most one check from parallel verifies of one challenge', async () => {
    const { sessionId, x } = await challenge('sms', '+8613800138004');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => post('/agg-web/captcha/slider/verify', { sessionId, x, trail: humanTrail(x) })),
    );
    expect(answers.filter((a) => a.body.code === '0')).toHaveLength(1);
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

describe('POST /agg-web/sms/send', () => {
  it('sends a code to the outbox after a slider check bound to that phone', async () => {
    const check = await passSlider('sms', '+8613800138010');
    const { body } = await smsSend('138 0013 8010', check, 'zh');
    expect(body).toEqual({ code: '0', message: 'success', data: null });
    const outbox = await get<{ channel: string; text: string }[]>('/dev/outbox?to=%2B8613800138010');
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
