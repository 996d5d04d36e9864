import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { gatewayClient } from './gateway-client';
import { startWorkerEnv } from './worker-env';

/**
 * GATEWAY_URL pointing at a gateway that accepts the connection and never answers, or drops it: /api answers the
 * envelope within GATEWAY_TIMEOUT_MS (GW0504) or at once (GW0502), in the visitor's language, with the trace id
 * in the answer and in the log; a slow start is waited for, and a slow body is not cut off.
 */
let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
let api: ReturnType<typeof gatewayClient>;
let gateway: Server;
let vars: Record<string, string>;
const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
afterEach(() => errors.mockClear());

beforeAll(async () => {
  worker = await startWorkerEnv('gateway-timeout');
  api = gatewayClient(worker);
  // The path picks the behaviour: /hang never answers, /close drops the connection, /slow-body starts at once
  // and finishes after 2.5 s, /slow-start answers after 150 ms.
  gateway = createServer((req, res) => {
    if (req.url?.includes('/hang')) return;
    if (req.url?.includes('/close')) return void req.socket.destroy();
    if (req.url?.includes('/slow-body')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"code":"0","message":"success",');
      setTimeout(() => res.end('"data":"whole"}'), 2500);
      return;
    }
    const delay = req.url?.includes('/slow-start') ? 150 : 0;
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"code":"0","message":"success","data":"answered"}'), delay);
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  vars = { GATEWAY_URL: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`, GATEWAY_TIMEOUT_MS: '300' };
});
afterAll(async () => {
  gateway.closeAllConnections();
  await new Promise((resolve) => gateway.close(resolve));
  await worker.dispose();
});

describe('/api with GATEWAY_URL', () => {
  it('answers GW0504 in the visitor\'s language when the gateway never answers, for 20 parallel calls', async () => {
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api.post('/hang/agg-web/user/v3/userLogin', { n: i }, { env: vars, lang: i % 2 ? 'zh' : 'en' })),
    );
    const elapsed = performance.now() - started;
    const traceIds = new Set<string>();
    for (const [i, res] of answers.entries()) {
      expect(res.status).toBe(504);
      expect(res.headers.get('cache-control')).toBe('no-store');
      traceIds.add(res.headers.get('x-trace-id')!);
      const lang = i % 2 ? 'zh' : 'en';
      expect(await res.json()).toEqual({ code: 'GW0504', message: errorCatalogue.GW0504[lang], data: null });
    }
    // They waited for the timeout (and without one they would wait until the test's own limit).
    expect(elapsed).toBeGreaterThanOrEqual(290);
    const logged = errors.mock.calls.map((call) => JSON.parse(String(call[0])) as { event: string; traceId: string; reason: string });
    expect(logged.filter((line) => line.event === 'gateway_unavailable' && line.reason === 'timeout').map((line) => line.traceId).sort()).toEqual([...traceIds].sort());
  });

  it('answers GW0502 at once when the gateway closes the connection', async () => {
    // A generous timeout: a dropped connection is answered when it drops, not when the time runs out.
    const res = await api.get('/close/agg-web/country/selectPhoneCode', { env: { ...vars, GATEWAY_TIMEOUT_MS: '5000' }, lang: 'zh' });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ code: 'GW0502', message: errorCatalogue.GW0502.zh, data: null });
    expect(String(errors.mock.calls[0]?.[0])).toContain(`"traceId":"${res.headers.get('x-trace-id')}"`);
  });

  it('waits for an answer that starts within the timeout, and lets a long body finish after it', async () => {
    // Two seconds, so a busy machine still sees the headers in time; the body ends half a second after it.
    const env = { ...vars, GATEWAY_TIMEOUT_MS: '2000' };
    const slowStart = await api.get('/slow-start/agg-web/country/selectPhoneCode', { env });
    expect(await slowStart.json()).toEqual({ code: '0', message: 'success', data: 'answered' });
    const slowBody = await api.get('/slow-body/agg-web/country/selectPhoneCode', { env });
    expect(await slowBody.json()).toEqual({ code: '0', message: 'success', data: 'whole' });
    expect(errors).not.toHaveBeenCalled();
  });
});
