import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { gatewayClient } from './gateway-client';
import { startWorkerEnv } from './worker-env';

/**
 * GATEWAY_URL pointing at a gateway that accepts the connection and never answers, or drops it: /api answers the
 * envelope within GATEWAY_TIMEOUT_MS (GW0504) or at once (GW0502), in the visitor's language, with the trace id
 * in the answer and in the log; a held start is waited for, and a held body is not cut off.
 *
 * No test measures time (issue 39). The stand-in gateway holds each request until the test releases it, and
 * the tests assert on what happened: the answer, the log line and its reason, and what the stand-in saw (the
 * request arrived; the Worker dropped it unanswered). A time limit that must run out is the smallest one
 * (100 ms); one that must not is the largest (60 s), far beyond any test's own limit.
 */
let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
let api: ReturnType<typeof gatewayClient>;
let gateway: Server;
let url = '';
const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
afterEach(() => errors.mockClear());

/** A request the stand-in holds: `release` answers it (or ends its body); `dropped` when the Worker gave up first. */
type Held = { path: string; release: () => void; answered: boolean; dropped: boolean };
const held: Held[] = [];
const arrivals: (() => void)[] = [];

/** Resolves once the stand-in holds `count` requests whose path contains `part`. */
async function holding(part: string, count = 1) {
  const matching = () => held.filter((h) => h.path.includes(part));
  while (matching().length < count) await new Promise<void>((resolve) => arrivals.push(resolve));
  return matching();
}

/** Resolves once the Worker has dropped every one of `requests`. */
async function droppedAll(requests: Held[]) {
  while (!requests.every((h) => h.dropped)) await new Promise<void>((resolve) => arrivals.push(resolve));
}

function hold(req: IncomingMessage, res: ServerResponse, release: (h: Held) => void) {
  const h: Held = { path: req.url ?? '', answered: false, dropped: false, release: () => !h.answered && !h.dropped && ((h.answered = true), release(h)) };
  res.on('close', () => {
    if (!res.writableFinished) h.dropped = true;
    for (const arrived of arrivals.splice(0)) arrived();
  });
  held.push(h);
  for (const arrived of arrivals.splice(0)) arrived();
}

const limits = { short: '100', long: '60000' };

beforeAll(async () => {
  worker = await startWorkerEnv('gateway-timeout');
  api = gatewayClient(worker);
  // The path picks the behaviour: /hang is held until released (or dropped), /close drops the connection,
  // /held-start answers only when released, /held-body starts at once and ends its body when released.
  gateway = createServer((req, res) => {
    const ok = '{"code":"0","message":"success","data":"answered"}';
    if (req.url?.includes('/close')) return void req.socket.destroy();
    if (req.url?.includes('/hang') || req.url?.includes('/held-start')) return hold(req, res, () => res.writeHead(200, { 'content-type': 'application/json' }).end(ok));
    if (req.url?.includes('/held-body')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"code":"0","message":"success",');
      return hold(req, res, () => res.end('"data":"whole"}'));
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(ok);
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const h of held) h.release();
  gateway.closeAllConnections();
  await new Promise((resolve) => gateway.close(resolve));
  await worker.dispose();
});

const vars = (limit: string) => ({ GATEWAY_URL: url, GATEWAY_TIMEOUT_MS: limit });
const logged = () => errors.mock.calls.map((call) => JSON.parse(String(call[0])) as { event: string; traceId: string; reason: string });

describe('/api with GATEWAY_URL', () => {
  it('answers GW0504 in the visitor\'s language when the gateway never answers, for 20 parallel calls', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api.post(`/hang/${i}/agg-web/user/v3/userLogin`, { n: i }, { env: vars(limits.short), lang: i % 2 ? 'zh' : 'en' })),
    );
    const traceIds = new Set<string>();
    for (const [i, res] of answers.entries()) {
      expect(res.status).toBe(504);
      expect(res.headers.get('cache-control')).toBe('no-store');
      traceIds.add(res.headers.get('x-trace-id')!);
      const lang = i % 2 ? 'zh' : 'en';
      expect(await res.json()).toEqual({ code: 'GW0504', message: errorCatalogue.GW0504[lang], data: null });
    }
    // Each call reached the gateway and was given up by the Worker, unanswered: it waited for the time limit
    // (the log says timeout), not for a failed connection.
    const hung = await holding('/hang/', 20);
    await droppedAll(hung);
    expect(hung.filter((h) => h.answered)).toEqual([]);
    expect(logged().filter((line) => line.event === 'gateway_unavailable' && line.reason === 'timeout').map((line) => line.traceId).sort()).toEqual([...traceIds].sort());
  });

  it('answers GW0502 at once when the gateway closes the connection', async () => {
    // The longest time limit: a dropped connection is answered when it drops, not when the time runs out.
    const res = await api.get('/close/agg-web/country/selectPhoneCode', { env: vars(limits.long), lang: 'zh' });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ code: 'GW0502', message: errorCatalogue.GW0502.zh, data: null });
    expect(logged()).toEqual([expect.objectContaining({ event: 'gateway_unavailable', reason: 'unreachable', traceId: res.headers.get('x-trace-id') })]);
  });

  it('waits for an answer that starts within the time limit, however late', async () => {
    const answer = api.get('/held-start/agg-web/country/selectPhoneCode', { env: vars(limits.long) });
    const [start] = await holding('/held-start/');
    start!.release();
    expect(await (await answer).json()).toEqual({ code: '0', message: 'success', data: 'answered' });
    expect(start!.dropped).toBe(false);
    expect(errors).not.toHaveBeenCalled();
  });

  it('lets a body that started in time finish after the time limit has run out', async () => {
    const answer = api.get('/held-body/agg-web/country/selectPhoneCode', { env: vars(limits.short) });
    const [body] = await holding('/held-body/');
    // A call that started after this body began has run out of the same time limit: so has this body's.
    const later = await api.get('/hang/later/agg-web/country/selectPhoneCode', { env: vars(limits.short) });
    expect((await api.json(later)).code).toBe('GW0504');
    errors.mockClear();
    body!.release();
    const res = await answer;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ code: '0', message: 'success', data: 'whole' });
    expect(body!.dropped).toBe(false);
    expect(errors).not.toHaveBeenCalled();
  });
});
