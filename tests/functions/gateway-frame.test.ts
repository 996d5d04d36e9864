import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app from '../../functions/worker';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { startWorkerEnv } from './worker-env';

let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
beforeAll(async () => {
  worker = await startWorkerEnv('gateway-frame');
});
afterAll(() => worker.dispose());

const call = (path: string, init: RequestInit = {}) => app.request(`http://portal.test${path}`, init, worker.env, worker.ctx);

describe('/api proxy to the embedded gateway', () => {
  it('answers selectPhoneCode with every country, mainland China first', async () => {
    const res = await call('/api/agg-web/country/selectPhoneCode');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { code: string; data: { id: string; name: string; nameCn: string; phoneCode: string }[] };
    expect(body.code).toBe('0');
    expect(body.data.length).toBeGreaterThan(200);
    expect(body.data[0]).toEqual({ id: 'CN', name: expect.stringContaining('China'), nameCn: '中国', phoneCode: '+86' });
    expect(body.data.find((c) => c.id === 'GB')?.phoneCode).toBe('+44');
    expect(new Set(body.data.map((c) => c.id)).size).toBe(body.data.length);
  });

  it('answers queryIPRegion 1 for a China visitor and 0 otherwise', async () => {
    const region = async (country?: string) => {
      const res = await call('/api/agg-web/ip/queryIPRegion', { headers: country ? { 'x-debug-country': country } : {} });
      return ((await res.json()) as { data: number }).data;
    };
    expect(await region('CN')).toBe(1);
    expect(await region('DE')).toBe(0);
    expect(await region()).toBe(0);
  });

  it('ignores a country a client sends in the header meant for the edge', async () => {
    const res = await call('/api/agg-web/ip/queryIPRegion', { headers: { 'x-client-country': 'CN' } });
    expect(((await res.json()) as { data: number }).data).toBe(0);
  });

  it('answers an unknown path with the 404 envelope in the visitor language', async () => {
    const res = await call('/api/agg-web/no/such/call', { headers: { cookie: 'LANG=zh' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual({ code: 'GW0404', message: errorCatalogue.GW0404.zh, data: null });
  });

  it('answers a wrong method on a known path with the 405 envelope', async () => {
    const res = await call('/api/agg-web/country/selectPhoneCode', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(await res.json()).toMatchObject({ code: 'GW0405', message: errorCatalogue.GW0405.en });
  });

  it('answers GW0502 in the envelope when GATEWAY_URL cannot be reached', async () => {
    const res = await app.request(
      'http://portal.test/api/agg-web/country/selectPhoneCode',
      {},
      { ...worker.env, GATEWAY_URL: 'http://127.0.0.1:9' },
      worker.ctx,
    );
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ code: 'GW0502' });
  });
});

/** A local HTTP server that answers every request with an empty success envelope and records what it got. */
async function recordingServer() {
  const seen: { url: string; authorization?: string }[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    seen.push({ url: request.url ?? '', authorization: request.headers.authorization });
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"code":"0","message":"","data":null}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { seen, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('/api proxy to a configured GATEWAY_URL', () => {
  it('never sends a call, or the session token with it, to a host the path names', async () => {
    const gateway = await recordingServer();
    const evil = await recordingServer();
    try {
      const env = { ...worker.env, GATEWAY_URL: `http://127.0.0.1:${gateway.port}/base` };
      for (const path of [`//localhost:${evil.port}/steal`, `/%2F%2Flocalhost:${evil.port}/steal`, `/\\localhost:${evil.port}/steal`]) {
        const res = await app.request(`http://portal.test/api${path}?x=1`, { headers: { cookie: 'portal_token=victim-session-token-0123456789' } }, env, worker.ctx);
        await res.body?.cancel();
      }
      expect(evil.seen).toEqual([]);
      expect(gateway.seen).toHaveLength(3);
      for (const request of gateway.seen) {
        expect(request.url.startsWith('/base/')).toBe(true);
        expect(request.authorization).toBe('Bearer victim-session-token-0123456789');
      }
    } finally {
      await Promise.all([gateway.close(), evil.close()]);
    }
  });
});
