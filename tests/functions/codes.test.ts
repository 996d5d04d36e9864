import { afterEach, describe, expect, it, vi } from 'vitest';
import app from '../../functions/worker';
import { createGateway } from '../../functions/gateway/app';
import { GatewayError } from '../../functions/gateway/errors';
import { checkCode, consumeCode, generateCode, issueCode, useCheckedCode, useCheckedCodeStatements, usedCodeRefusal, type ConsumeCodeArgs, type IssueCodeArgs } from '../../functions/gateway/codes/service';
import { insertUserStatement } from '../../functions/gateway/identity/db/people';
import { prepareSession } from '../../functions/gateway/sessions/service';
import { deliver } from '../../functions/gateway/delivery';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { useWorkerEnv } from './gateway-client';

// The dev outbox prints each message; keep the test output quiet.
const log = vi.spyOn(console, 'log').mockImplementation(() => {});
afterEach(() => log.mockClear());

let time = Date.UTC(2026, 5, 1, 8);
const clock = () => time;
const MIN = 60_000;
const gateway = createGateway({ clock });
// Calls the gateway as the edge proxy does, from one client network unless a test names another.
const { worker, api } = useWorkerEnv('codes', undefined, { gateway, network: '198.51.100.1' });

const freshEmail = () => `user.${api.unique()}@example.com`;

/** consumeCode from a fresh client network unless `ip` is given. */
const consume = (args: Omit<ConsumeCodeArgs, 'ip'> & { ip?: string }) => consumeCode(worker.env.DB, { ip: api.ip(), ...args });

const issue = (over: Partial<IssueCodeArgs> & { recipient: string }) =>
  issueCode(worker.env, { channel: 'email', purpose: 'login', ip: api.ip(), now: time, lang: 'en', ...over });

async function errorCode(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof GatewayError) return error.code;
    throw error;
  }
  return 'ok';
}

describe('generateCode', () => {
  it('makes codes of the asked length from digits only, spread over every digit', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const code = generateCode(6);
      expect(code).toMatch(/^\d{6}$/);
      for (const digit of code) seen.add(digit);
    }
    expect(seen.size).toBe(10);
    expect(generateCode(4)).toMatch(/^\d{4}$/);
    expect(generateCode(8)).toMatch(/^\d{8}$/);
  });

  // Outside 4..8 CODE_LENGTH is a configuration error naming it (tests/unit/config.test.ts), no longer a silent 6.
  it('follows CODE_LENGTH, 6 when unset', async () => {
    for (const [length, expected] of [['4', 4], ['8', 8], ['', 6], [undefined, 6]] as const) {
      const to = freshEmail();
      await issueCode({ ...worker.env, CODE_LENGTH: length } as typeof worker.env, { recipient: to, channel: 'email', purpose: 'login', ip: api.ip(), now: time, lang: 'en' });
      const res = await api.get(`/dev/outbox?to=${to}`);
      const text = ((await res.json()) as { data: { text: string }[] }).data[0]!.text;
      expect(text).toMatch(new RegExp(`\\b\\d{${expected}}\\b`));
      expect(text).not.toMatch(new RegExp(`\\d{${expected + 1}}`));
    }
  });
});

describe('consumeCode', () => {
  it('accepts the code at 4:59 and refuses it with CD0011 at 5:01', async () => {
    const a = freshEmail();
    await issue({ recipient: a });
    const codeA = await api.latestCode(a);
    expect(await errorCode(consume({ recipient: a, purpose: 'login', code: codeA, now: time + 4 * MIN + 59_000 }))).toBe('ok');

    const b = freshEmail();
    await issue({ recipient: b });
    const codeB = await api.latestCode(b);
    expect(await errorCode(consume({ recipient: b, purpose: 'login', code: codeB, now: time + 5 * MIN + 1000 }))).toBe('CD0011');
  });

  it('counts wrong tries: after 5 the right code fails with CD0012', async () => {
    const to = freshEmail();
    await issue({ recipient: to });
    const code = await api.latestCode(to);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 5; i++) {
      await expect(consume({ recipient: to, purpose: 'login', code: wrong, now: time })).rejects.toMatchObject({
        code: 'CD0010',
        data: { triesLeft: 5 - i },
      });
    }
    expect(await errorCode(consume({ recipient: to, purpose: 'login', code, now: time }))).toBe('CD0012');
  });

  it('honours only the latest code, once', async () => {
    const to = freshEmail();
    await issue({ recipient: to });
    const first = await api.latestCode(to);
    time += MIN;
    await issue({ recipient: to });
    const second = await api.latestCode(to);
    if (first !== second) {
      expect(await errorCode(consume({ recipient: to, purpose: 'login', code: first, now: time }))).toBe('CD0010');
    }
    expect(await errorCode(consume({ recipient: to, purpose: 'login', code: second, now: time }))).toBe('ok');
    expect(await errorCode(consume({ recipient: to, purpose: 'login', code: second, now: time }))).toBe('CD0014');
  });

  it('keeps purposes apart and answers CD0013 when no code was asked for', async () => {
    const to = freshEmail();
    expect(await errorCode(consume({ recipient: to, purpose: 'login', code: '123456', now: time }))).toBe('CD0013');
    await issue({ recipient: to, purpose: 'verify' });
    const code = await api.latestCode(to);
    expect(await errorCode(consume({ recipient: to, purpose: 'login', code, now: time }))).toBe('CD0013');
    expect(await errorCode(consume({ recipient: to, purpose: 'verify', code, now: time }))).toBe('ok');
  });

  it('lets exactly one of 20 parallel uses of the right code win', async () => {
    const to = freshEmail();
    await issue({ recipient: to });
    const code = await api.latestCode(to);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => errorCode(consume({ recipient: to, purpose: 'login', code, now: time }))),
    );
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
    // Each guess is recorded under the wrong-guess cap and counted as a try before it is compared, so the others
    // are refused: as used (CD0014) once the winner has finished, as out of tries (CD0012) while it has not,
    // and past RECIPIENT_GUESS_CAP guesses in flight as too many for this address (CD0015).
    const refusals = new Set(outcomes.filter((o) => o !== 'ok'));
    expect([...refusals].every((o) => ['CD0014', 'CD0012', 'CD0015'].includes(o)), outcomes.join()).toBe(true);
  });

  it('stores codes hashed, never in clear', async () => {
    const to = freshEmail();
    await issue({ recipient: to });
    const code = await api.latestCode(to);
    const row = await worker.env.DB.prepare('SELECT * FROM codes WHERE recipient = ?').bind(to).first<Record<string, unknown>>();
    expect(JSON.stringify(row)).not.toContain(code);
    expect(row?.code_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('a code used in the batch that needs it (a new person, code sign-in)', () => {
  it('writes the person and the session only for the call that used the code; a call that lost it writes nothing (CD0014)', async () => {
    const to = freshEmail();
    await issue({ recipient: to });
    const code = /\b(\d{6})\b/.exec(((await (await api.get(`/dev/outbox?to=${to}`)).json()) as { data: { text: string }[] }).data[0]!.text)![1]!;
    const args = { recipient: to, purpose: 'login' as const, code, now: time };
    // Two right guesses both pass the check; the first one's own use wins, the second's batch then loses.
    const [first, second] = await Promise.all([checkCode(worker.env.DB, { ...args, ip: api.ip() }), checkCode(worker.env.DB, { ...args, ip: api.ip() })]);
    await useCheckedCode(worker.env.DB, first, time);
    const userId = crypto.randomUUID();
    const session = await prepareSession(worker.env.DB, { userId, kind: 'platform', now: time });
    const batch = [...useCheckedCodeStatements(worker.env.DB, second, time), insertUserStatement(worker.env.DB, { id: userId, email: to, now: time }, { onlyIfChanged: true }), session.statement];
    const refused = await worker.env.DB.batch(batch).then(() => null, (error: unknown) => usedCodeRefusal(error)?.code ?? error);
    expect(refused).toBe('CD0014');
    expect(await worker.env.DB.prepare('SELECT COUNT(*) AS n FROM users WHERE id = ?').bind(userId).first('n')).toBe(0);
    expect(await worker.env.DB.prepare('SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?').bind(userId).first('n')).toBe(0);
  });
});

describe('issueCode limits', () => {
  it('refuses a resend before 60 s with CD0001 and the seconds left, and allows it at 60 s', async () => {
    const to = freshEmail();
    await issue({ recipient: to });
    await expect(issue({ recipient: to, now: time + 45_000 })).rejects.toMatchObject({ code: 'CD0001', data: { retryAfter: 15 } });
    await expect(issue({ recipient: to, now: time + 59_999 })).rejects.toMatchObject({ code: 'CD0001', data: { retryAfter: 1 } });
    expect(await errorCode(issue({ recipient: to, now: time + 60_000 }))).toBe('ok');
  });

  it('sends at most 10 codes per recipient per hour (CD0002), then again after the hour', async () => {
    const to = freshEmail();
    const start = time;
    for (let i = 0; i < 10; i++) expect(await errorCode(issue({ recipient: to, now: start + i * MIN }))).toBe('ok');
    expect(await errorCode(issue({ recipient: to, now: start + 10 * MIN }))).toBe('CD0002');
    expect(await errorCode(issue({ recipient: to, now: start + 61 * MIN }))).toBe('ok');
  });

  it('sends at most 30 codes per IP per hour (CD0003)', async () => {
    const ip = '203.0.113.30';
    for (let i = 0; i < 30; i++) expect(await errorCode(issue({ recipient: freshEmail(), ip }))).toBe('ok');
    expect(await errorCode(issue({ recipient: freshEmail(), ip }))).toBe('CD0003');
    expect(await errorCode(issue({ recipient: freshEmail(), ip: '203.0.113.31' }))).toBe('ok');
  });

  it('holds the resend wait under 10 parallel requests: one code is sent', async () => {
    const to = freshEmail();
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => errorCode(issue({ recipient: to }))));
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
    const { results } = await worker.env.DB.prepare('SELECT id FROM codes WHERE recipient = ?').bind(to).all();
    expect(results).toHaveLength(1);
  });
});

describe('POST /agg-web/user/getRegVerificationCode', () => {
  it('sends an e-mail code to the outbox in the visitor language and answers code 0', async () => {
    const to = freshEmail();
    const res = await api.post('/agg-web/user/getRegVerificationCode', { emailAddress: ` ${to.toUpperCase()} `, type: 3 }, { lang: 'zh' });
    expect(await res.json()).toEqual({ code: '0', message: 'success', data: null });
    const outbox = await api.get(`/dev/outbox?to=${to}`);
    const [message] = ((await outbox.json()) as { data: { channel: string; to: string; subject: string; text: string; createdAt: number }[] }).data;
    expect(message).toMatchObject({ channel: 'email', to, subject: '您的验证码', createdAt: time });
    expect(message?.text).toMatch(/您的验证码是 \d{6}，5 分钟内有效/);
    // The outbox is read, not printed: the plain outbox writes no console line (4 ms each under wrangler dev).
    expect(log).not.toHaveBeenCalled();
    // Type 3 is a login code: the quick-login engineer consumes it with purpose 'login'.
    const code = /\d{6}/.exec(message!.text)![0];
    expect(await errorCode(consume({ recipient: to, purpose: 'login', code, now: time }))).toBe('ok');
  });

  it('answers PH0002 for a malformed address, in Chinese when the language is zh', async () => {
    const res = await api.post('/agg-web/user/getRegVerificationCode', { emailAddress: 'not-an-email', type: 3 }, { lang: 'zh' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 'PH0002', message: errorCatalogue.PH0002.zh, data: null });
  });

  it('answers CD0001 with retryAfter in the envelope for a resend within 60 s', async () => {
    const to = freshEmail();
    expect((await api.json(await api.post('/agg-web/user/getRegVerificationCode', { emailAddress: to, type: 1 }))).code).toBe('0');
    time += 20_000;
    const res = await api.post('/agg-web/user/getRegVerificationCode', { emailAddress: to, type: 1 });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ code: 'CD0001', message: errorCatalogue.CD0001.en, data: { retryAfter: 40 } });
  });

  // GET only: under Node (not workerd) the proxy's streamed POST body needs `duplex: 'half'` (proxy.ts).
  it('reads the outbox end to end through the Worker and its /api proxy, in the LANG cookie language', async () => {
    const to = freshEmail();
    expect((await api.json(await api.post('/agg-web/user/getRegVerificationCode', { emailAddress: to, type: 3 }))).code).toBe('0');
    const outbox = await app.request(`http://portal.test/api/dev/outbox?to=${to}`, {}, worker.env, worker.ctx);
    expect(((await outbox.json()) as { data: { text: string }[] }).data[0]?.text).toMatch(/Your verification code is \d{6}\. It expires in 5 minutes/);
    const unknown = await app.request('http://portal.test/api/dev/captcha/nope', { headers: { cookie: 'LANG=zh' } }, worker.env, worker.ctx);
    expect(await unknown.json()).toEqual({ code: 'CP0002', message: errorCatalogue.CP0002.zh, data: null });
  });
});

describe('delivery', () => {
  it('refuses the outbox outside development', async () => {
    await expect(
      deliver({ ...worker.env, DEV_OUTBOX: 'false' } as typeof worker.env, { kind: 'code', channel: 'sms', to: '+8613800138000', subject: 's', text: 't', lang: 'en' }, { now: time }),
    ).rejects.toThrow(/DEV_OUTBOX/);
  });

  it('posts signed JSON to the webhook, and a non-2xx answer is DL0001 with the code withdrawn', async () => {
    const seen: { body: string; signature: string | null }[] = [];
    let status = 200;
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async (_url, init) => {
      seen.push({ body: String(init?.body), signature: new Headers(init?.headers).get('x-signature') });
      return new Response('ok', { status });
    });
    try {
      const env = { ...worker.env, DELIVERY: 'webhook', DELIVERY_WEBHOOK_URL: 'https://sms.example/hook', DELIVERY_WEBHOOK_SECRET: 'hook-secret', DEV_OUTBOX: 'false' };
      const to = freshEmail();
      await issueCode(env, { recipient: to, channel: 'email', purpose: 'verify', ip: api.ip(), now: time, lang: 'en' });
      const sent = seen[0]!;
      expect(JSON.parse(sent.body)).toMatchObject({ channel: 'email', to, subject: 'Your verification code', sentAt: time });
      const key = await crypto.subtle.importKey('raw', new TextEncoder().encode('hook-secret'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      const expected = Buffer.from(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(sent.body))).toString('hex');
      expect(sent.signature).toBe(expected);
      expect(log).not.toHaveBeenCalled();

      status = 503;
      const other = freshEmail();
      expect(await errorCode(issueCode(env, { recipient: other, channel: 'email', purpose: 'verify', ip: api.ip(), now: time, lang: 'en' }))).toBe('DL0001');
      // Withdrawn, so the visitor may retry at once rather than wait out the resend timer.
      status = 200;
      expect(await errorCode(issueCode(env, { recipient: other, channel: 'email', purpose: 'verify', ip: api.ip(), now: time, lang: 'en' }))).toBe('ok');
    } finally {
      fetchMock.mockRestore();
    }
  });
});

describe('dev routes', () => {
  it('answer the ordinary 404 envelope unless DEV_OUTBOX is "true"', async () => {
    for (const path of ['/dev/outbox?to=a@example.com', '/dev/captcha/abc']) {
      const res = await api.get(path, { env: { DEV_OUTBOX: 'false' } });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ code: 'GW0404', message: errorCatalogue.GW0404.en, data: null });
    }
  });

  it('find a phone recipient whether or not the + was encoded', async () => {
    await worker.env.DB.prepare("INSERT INTO outbox (channel, recipient, subject, body, created_at) VALUES ('sms', '+8613900139000', 's', 'code 1', 1)").run();
    for (const to of ['%2B8613900139000', '+8613900139000', '8613900139000']) {
      const res = await api.get(`/dev/outbox?to=${to}`);
      expect(((await res.json()) as { data: unknown[] }).data, to).toHaveLength(1);
    }
  });
});
