import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import app from '../../functions/worker';
import { createGateway } from '../../functions/gateway/app';
import {
  CLIENT_ERROR_CAP,
  CLIENT_ERROR_GLOBAL_CAP,
  CLIENT_ERROR_WINDOW_MS,
  TRACKING_BATCH_MAX,
  TRACKING_GLOBAL_CAP,
  TRACKING_NETWORK_CAP,
  TRACKING_VERSION,
  TRACKING_WINDOW_MS,
} from '../../functions/gateway/tracking/routes';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { OPERATOR_SESSION_HEADER } from '../../functions/contract';
import { operatorInsert, startOperatorSession, type OperatorRole } from '../../functions/gateway/operators/service';
import { gatewayClient, statusOf } from './gateway-client';
import { startWorkerEnv } from './worker-env';

/** Observability calls (issue 8): tracking events, the operators' query, browser error reports. */
let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
let api: ReturnType<typeof gatewayClient>;
beforeAll(async () => {
  worker = await startWorkerEnv('tracking');
  // Calls the gateway on the test clock as the edge proxy does, from one client network unless a test names another.
  api = gatewayClient(worker, { gateway, network: '198.51.100.7', traceId: 'trace-test' });
  // Bursts of parallel calls: the bridge to the local D1 takes a few statements at a time (throttled-d1.ts).
});
afterAll(() => worker.dispose());
afterEach(() => vi.restoreAllMocks());

let time = Date.UTC(2026, 5, 1, 8);
const gateway = createGateway({ clock: () => time });

const count = async (table: string) => (await worker.env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())!.n;

const event = {
  bpSource: 'portal',
  bpType: 1,
  eventId: 'login_click',
  eventName: 'Sign-in button',
  eventType: 'click',
  keyList: [{ key: 'loginType', value: 'email' }],
  versionNumber: TRACKING_VERSION,
};

describe('POST /agg-web/buriedPoint/add', () => {
  it('stores the event of spec 7 with the edge trace id', async () => {
    const res = await api.post('/agg-web/buriedPoint/add', event);
    expect(await api.json(res)).toEqual({ code: '0', message: 'success', data: null });
    const row = await worker.env.DB.prepare("SELECT * FROM tracking_events WHERE event_id = 'login_click'").first();
    expect(row).toMatchObject({
      bp_source: 'portal',
      bp_type: '1',
      event_name: 'Sign-in button',
      event_type: 'click',
      key_list: JSON.stringify(event.keyList),
      version_number: '9.3.11',
      trace_id: 'trace-test',
      created_at: time,
    });
  });

  it('defaults the tracking version and refuses an event without id or with an oversized key list', async () => {
    expect((await api.json(await api.post('/agg-web/buriedPoint/add', { eventId: 'no_version' }))).code).toBe('0');
    const row = await worker.env.DB.prepare("SELECT version_number FROM tracking_events WHERE event_id = 'no_version'").first();
    expect(row).toEqual({ version_number: TRACKING_VERSION });
    const before = await count('tracking_events');
    for (const body of [{ eventName: 'x' }, { eventId: '' }, { eventId: 'big', keyList: ['x'.repeat(5000)] }, { eventId: 'x', keyList: 'nope' }]) {
      const res = await api.post('/agg-web/buriedPoint/add', body);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect((await api.json(res)).code).toBe('GW0400');
    }
    expect(await count('tracking_events')).toBe(before);
  });

  it('is reachable through the Worker at /api', async () => {
    const res = await app.request(
      'http://portal.test/api/agg-web/buriedPoint/add',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...event, eventId: 'via_worker' }) },
      worker.env,
      worker.ctx,
    );
    expect((await api.json(res)).code).toBe('0');
    const row = await worker.env.DB.prepare("SELECT trace_id FROM tracking_events WHERE event_id = 'via_worker'").first<{ trace_id: string }>();
    // The edge's random trace id (a UUID), not anything the browser sent.
    expect(row?.trace_id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

/** A live operator session of `role`, as the edge forwards it from the console's cookie. */
async function operatorSession(role: OperatorRole, options: { removed?: boolean } = {}): Promise<string> {
  const { id, statement } = await operatorInsert(worker.env.DB, worker.env, { login: `${role}.${crypto.randomUUID()}@ops.example.com`, name: role, role, clientHash: 'a'.repeat(64) }, time);
  await statement.run();
  const { token } = await startOperatorSession(worker.env.DB, id, time);
  if (options.removed) await worker.env.DB.prepare('UPDATE operators SET removed_at = ? WHERE id = ?').bind(time, id).run();
  return token;
}

describe('GET /agg-web/buriedPoint/list', () => {
  it('answers an admin operator with the newest events, filtered by event id and limited', async () => {
    for (let i = 0; i < 3; i++) expect((await api.json(await api.post('/agg-web/buriedPoint/add', { ...event, eventId: 'listed', eventName: `n${i}` }))).code).toBe('0');
    const headers = { [OPERATOR_SESSION_HEADER]: await operatorSession('admin') };
    const res = await api.get('/agg-web/buriedPoint/list?eventId=listed&limit=2', { headers });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await api.json<{ eventId: string; eventName: string; keyList: unknown; versionNumber: string }[]>(res);
    expect(body.data.map((e) => e.eventName)).toEqual(['n2', 'n1']);
    expect(body.data[0]).toMatchObject({ eventId: 'listed', keyList: event.keyList, versionNumber: '9.3.11' });
    // Without a filter every event counts.
    const all = await api.json<unknown[]>(await api.get('/agg-web/buriedPoint/list', { headers }));
    expect(all.data.length).toBe(await count('tracking_events'));
    expect((await api.json(await api.get('/agg-web/buriedPoint/list?limit=0', { headers }))).code).toBe('GW0400');
    expect((await api.json(await api.get('/agg-web/buriedPoint/list?limit=501', { headers }))).code).toBe('GW0400');
  });

  it('refuses anyone without a live admin operator session with the ordinary 404 envelope', async () => {
    const admin = await operatorSession('admin');
    const cases: Record<string, string>[] = [
      {},
      { [OPERATOR_SESSION_HEADER]: 'a'.repeat(43) },
      { [OPERATOR_SESSION_HEADER]: `${admin}x` },
      // The operator token in the person's header, and the retired shared secret's header, open nothing.
      { authorization: `Bearer ${admin}` },
      { 'x-operator-token': `Bearer ${admin}` },
      // Operators of other roles, and a removed admin, are not let in.
      { [OPERATOR_SESSION_HEADER]: await operatorSession('reviewer') },
      { [OPERATOR_SESSION_HEADER]: await operatorSession('support') },
      { [OPERATOR_SESSION_HEADER]: await operatorSession('admin', { removed: true }) },
    ];
    for (const headers of cases) {
      const res = await gateway.request('http://gateway.internal/agg-web/buriedPoint/list', { headers: { language: 'en', ...headers } }, worker.env, worker.ctx);
      expect(res.status, JSON.stringify(headers)).toBe(404);
      expect(await res.json()).toEqual({ code: 'GW0404', message: errorCatalogue.GW0404.en, data: null });
    }
  });
});

describe('POST /agg-web/client/error', () => {
  it('stores the report without the URL query and logs it with the trace id', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await api.post(
      '/agg-web/client/error',
      {
        message: 'TypeError: x is undefined at https://portal.example.com/login?token=SECRETBLOB#frag',
        stack: 'at f (https://portal.example.com/_astro/a.js?v=1:1:2)',
        url: 'https://portal.example.com/login?userNameAndPwd=SECRETBLOB&x=1#top',
        traceId: 'client-trace-1',
      },
      { from: '203.0.113.50', headers: { traceid: 'edge-trace-1' } },
    );
    expect(await api.json(res)).toEqual({ code: '0', message: 'success', data: { stored: true } });
    const row = await worker.env.DB.prepare("SELECT * FROM client_errors WHERE trace_id = 'edge-trace-1'").first<Record<string, unknown>>();
    expect(row).toMatchObject({
      url: 'https://portal.example.com/login',
      message: 'TypeError: x is undefined at https://portal.example.com/login',
      stack: 'at f (https://portal.example.com/_astro/a.js)',
      client_trace_id: 'client-trace-1',
      ip: '203.0.113.50',
    });
    expect(logged).toHaveBeenCalledTimes(1);
    const line = logged.mock.calls[0]!.join(' ');
    expect(line).toContain('edge-trace-1');
    expect(line).toContain('client-trace-1');
    expect(line).not.toContain('SECRETBLOB');
  });

  it('logs the trace id the edge gave the report when it comes through the Worker', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await app.request(
      'http://portal.test/api/agg-web/client/error',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceid: 'forged', 'cf-connecting-ip': '203.0.113.60' },
        body: JSON.stringify({ message: 'boom', url: 'http://portal.test/register' }),
      },
      worker.env,
      worker.ctx,
    );
    expect((await api.json(res)).data).toEqual({ stored: true });
    const row = await worker.env.DB.prepare("SELECT trace_id, ip FROM client_errors WHERE ip = '203.0.113.60'").first<{ trace_id: string }>();
    expect(row?.trace_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(logged.mock.calls[0]!.join(' ')).toContain(row!.trace_id);
  });

  it('keeps at most 10 reports per IP per minute: the 10th is stored, the 11th dropped, then again after the window', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const ip = '203.0.113.70';
    const report = () => api.post('/agg-web/client/error', { message: 'flood', url: 'https://portal.example.com/' }, { from: ip });
    const start = time;
    for (let i = 0; i < CLIENT_ERROR_CAP; i++) expect((await api.json(await report())).data, `report ${i + 1}`).toEqual({ stored: true });
    expect((await api.json(await report())).data).toEqual({ stored: false });
    // Another address is not affected.
    expect((await api.json(await api.post('/agg-web/client/error', { message: 'm', url: 'https://a.example/' }, { from: '203.0.113.71' }))).data).toEqual({ stored: true });
    time = start + CLIENT_ERROR_WINDOW_MS - 1;
    expect((await api.json(await report())).data).toEqual({ stored: false });
    time = start + CLIENT_ERROR_WINDOW_MS;
    expect((await api.json(await report())).data).toEqual({ stored: true });
    const n = (await worker.env.DB.prepare('SELECT COUNT(*) AS n FROM client_errors WHERE ip = ?').bind(ip).first<{ n: number }>())!.n;
    expect(n).toBe(CLIENT_ERROR_CAP + 1);
  });

  it('holds the cap under 20 parallel reports', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const ip = '203.0.113.80';
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api.post('/agg-web/client/error', { message: 'p', url: 'https://a.example/' }, { from: ip }).then(api.json)),
    );
    expect(answers.filter((a) => (a.data as { stored: boolean }).stored)).toHaveLength(CLIENT_ERROR_CAP);
  });

  it('caps the sizes: long texts are cut, bodies over 64 KB and bad URLs refused', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await api.post('/agg-web/client/error', { message: 'm'.repeat(5000), stack: 's'.repeat(20_000), url: 'https://portal.example.com/x' }, { from: '203.0.113.90' });
    expect((await api.json(res)).data).toEqual({ stored: true });
    const row = await worker.env.DB.prepare("SELECT length(message) AS m, length(stack) AS s FROM client_errors WHERE ip = '203.0.113.90'").first();
    expect(row).toEqual({ m: 1000, s: 8000 });
    const before = await count('client_errors');
    expect(await statusOf(api.post('/agg-web/client/error', { message: 'm', stack: 's'.repeat(70_000), url: 'https://a.example/' }))).toBe(413);
    for (const url of ['javascript:alert(1)', 'not a url', '']) {
      expect((await api.json(await api.post('/agg-web/client/error', { message: 'm', url }))).code).toBe('GW0400');
    }
    expect((await api.json(await api.post('/agg-web/client/error', { message: 'm', url: 'https://a.example/', traceId: 'bad id!' }))).code).toBe('GW0400');
    expect(await count('client_errors')).toBe(before);
  });
});

describe('src/lib/error-reporting.ts', () => {
  const page = () => Object.assign(new EventTarget(), { location: { href: 'https://portal.example.com/login?token=SECRETBLOB#x' } });
  const fire = (target: EventTarget, type: string, props: Record<string, unknown>) => target.dispatchEvent(Object.assign(new Event(type), props));

  it('reports errors and rejections without the page query, once per message, at most 3 per page', async () => {
    const { installErrorReporting, MAX_REPORTS_PER_PAGE } = await import('../../src/lib/error-reporting');
    const target = page();
    const reports: unknown[] = [];
    const stop = installErrorReporting({ target, send: (r) => reports.push(r) });
    const failed = Object.assign(new TypeError('x is undefined'), { traceId: 'trace-42' });
    fire(target, 'error', { error: failed, message: 'Uncaught TypeError: x is undefined' });
    fire(target, 'error', { error: failed });
    fire(target, 'unhandledrejection', { reason: 'plain reason' });
    fire(target, 'error', { error: null, message: 'Script error.' });
    fire(target, 'error', { error: new Error('fourth') });
    expect(reports).toHaveLength(MAX_REPORTS_PER_PAGE);
    expect(reports[0]).toEqual({ message: 'TypeError: x is undefined', stack: failed.stack, url: 'https://portal.example.com/login', traceId: 'trace-42' });
    expect(reports[1]).toEqual({ message: 'plain reason', url: 'https://portal.example.com/login' });
    expect(reports[2]).toMatchObject({ message: 'Script error.' });
    stop();
  });

  it('sends what the Worker accepts', async () => {
    const { installErrorReporting } = await import('../../src/lib/error-reporting');
    const target = page();
    let sent: unknown;
    installErrorReporting({ target, send: (r) => (sent = r) });
    fire(target, 'error', { error: new RangeError('bad') });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await api.post('/agg-web/client/error', sent, { from: '203.0.113.120' });
    expect(await api.json(res)).toMatchObject({ code: '0', data: { stored: true } });
  });
});

describe('caps on anonymous writes', () => {
  // Later than the rows the tests above wrote through the Worker, which runs on the real clock.
  beforeAll(() => {
    time = Date.UTC(2030, 0, 1);
  });
  /** `n` rows in `table` at the current time from other networks, as a flood would have left them. */
  const flood = (table: 'tracking_events' | 'client_errors', n: number) =>
    worker.env.DB.prepare(
      table === 'tracking_events'
        ? "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1) INSERT INTO tracking_events (event_id, ip, created_at) SELECT 'flood', '192.0.2.' || (i % 250), ?2 FROM n"
        : "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1) INSERT INTO client_errors (message, url, ip, created_at) SELECT 'flood', 'https://a.example/', '192.0.2.' || (i % 250), ?2 FROM n",
    )
      .bind(n, time)
      .run();
  const stored = async (table: string, since: number) =>
    (await worker.env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE created_at >= ?`).bind(since).first<{ n: number }>())!.n;

  it(`stores ${TRACKING_NETWORK_CAP} of 80 parallel events from one client network and refuses the rest with TR0001`, async () => {
    time += 10 * TRACKING_WINDOW_MS;
    const start = time;
    const network = '198.51.100.200';
    const answers = await Promise.all(Array.from({ length: 80 }, () => api.post('/agg-web/buriedPoint/add', event, { from: network }).then(async (res) => ({ status: res.status, ...(await api.json(res)) }))));
    expect(answers.filter((a) => a.code === '0')).toHaveLength(TRACKING_NETWORK_CAP);
    const refused = answers.filter((a) => a.code === 'TR0001');
    expect(refused).toHaveLength(80 - TRACKING_NETWORK_CAP);
    expect(refused[0]).toMatchObject({ status: 429, message: errorCatalogue.TR0001.en });
    expect(await stored('tracking_events', start)).toBe(TRACKING_NETWORK_CAP);
    // Another network is not held back, and the first one gets in again after the window.
    expect((await api.json(await api.post('/agg-web/buriedPoint/add', event, { from: '198.51.100.201' }))).code).toBe('0');
    time += TRACKING_WINDOW_MS + 1;
    expect((await api.json(await api.post('/agg-web/buriedPoint/add', event, { from: network }))).code).toBe('0');
  });

  it('takes its per-network cap from TRACKING_NETWORK_CAP', async () => {
    time += 10 * TRACKING_WINDOW_MS;
    const network = '198.51.100.220';
    const env = { TRACKING_NETWORK_CAP: '5' };
    const answers = await Promise.all(Array.from({ length: 8 }, () => api.post('/agg-web/buriedPoint/add', event, { from: network, env }).then((res) => api.json(res))));
    expect(answers.map((a) => a.code).sort()).toEqual(['0', '0', '0', '0', '0', 'TR0001', 'TR0001', 'TR0001']);
  });

  it(`counts a batch event by event: 10 parallel batches of ${TRACKING_BATCH_MAX} from one network store ${TRACKING_NETWORK_CAP} in all`, async () => {
    time += 10 * TRACKING_WINDOW_MS;
    const start = time;
    const network = '198.51.100.210';
    const batch = Array.from({ length: TRACKING_BATCH_MAX }, (_, i) => ({ ...event, eventId: 'batched', eventName: `b${i}` }));
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => api.post('/agg-web/buriedPoint/add', batch, { from: network, headers: { host: 'evil.example' } }).then(api.json<{ stored: number } | null>)),
    );
    const stored = answers.filter((a) => a.code === '0').reduce((sum, a) => sum + a.data!.stored, 0);
    expect(stored).toBe(TRACKING_NETWORK_CAP);
    // The batches that found the cap already full are refused whole; none stores more than it was sent.
    expect(answers.every((a) => (a.code === '0' ? a.data!.stored <= TRACKING_BATCH_MAX : a.code === 'TR0001'))).toBe(true);
    expect(await worker.env.DB.prepare('SELECT COUNT(*) AS n FROM tracking_events WHERE created_at >= ? AND ip = ?').bind(start, network).first()).toEqual({ n: TRACKING_NETWORK_CAP });
  });

  it(`refuses a batch of more than ${TRACKING_BATCH_MAX}, an empty one, or one with a bad event, storing nothing`, async () => {
    time += 10 * TRACKING_WINDOW_MS;
    const before = await count('tracking_events');
    const bad = [[], Array.from({ length: TRACKING_BATCH_MAX + 1 }, () => event), [event, { eventName: 'no id' }], [event, { eventId: 'x', keyList: ['y'.repeat(5000)] }]];
    const answers = await Promise.all(bad.map((body) => api.post('/agg-web/buriedPoint/add', body, { from: '198.51.100.211' }).then(api.read)));
    for (const answer of answers) expect(answer).toMatchObject({ status: 400, body: { code: 'GW0400' } });
    expect(await count('tracking_events')).toBe(before);
  });

  it(`holds the global cap of ${TRACKING_GLOBAL_CAP} events a minute against parallel events from new networks`, async () => {
    time += 10 * TRACKING_WINDOW_MS;
    const start = time;
    await flood('tracking_events', TRACKING_GLOBAL_CAP - 10);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => api.post('/agg-web/buriedPoint/add', event, { headers: { 'x-client-ip': `198.51.101.${i}` } }).then(api.json)),
    );
    expect(answers.filter((a) => a.code === '0')).toHaveLength(10);
    expect(answers.filter((a) => a.code === 'TR0001')).toHaveLength(20);
    expect(await stored('tracking_events', start)).toBe(TRACKING_GLOBAL_CAP);
  });

  it(`drops error reports past the global cap of ${CLIENT_ERROR_GLOBAL_CAP} a minute, from any network`, async () => {
    time += 10 * CLIENT_ERROR_WINDOW_MS;
    const start = time;
    await flood('client_errors', CLIENT_ERROR_GLOBAL_CAP - 5);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.post('/agg-web/client/error', { message: 'p', url: 'https://a.example/' }, { from: `198.51.102.${i}` }).then(api.json),
      ),
    );
    expect(answers.filter((a) => (a.data as { stored: boolean }).stored)).toHaveLength(5);
    expect(await stored('client_errors', start)).toBe(CLIENT_ERROR_GLOBAL_CAP);
  });
});
