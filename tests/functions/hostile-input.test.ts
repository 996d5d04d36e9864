import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import app from '../../functions/worker';
import { createGateway } from '../../functions/gateway/app';
import { MAX_JSON_BYTES } from '../../functions/gateway/validate';
import { createSession } from '../../functions/gateway/sessions/service';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { gatewayClient } from './gateway-client';
import { startWorkerEnv } from './worker-env';

/**
 * Hostile input (issue 8, security baseline "Every gateway route"): every POST JSON route of the embedded
 * gateway, found in its own route table (so routes added later are fuzzed too), gets arbitrary JSON, wrong
 * types, huge strings, unicode, missing and extra fields, malformed JSON, wrong content types and oversized
 * bodies (with and without a length). The answer is always the envelope, never a 5xx, and a refused call
 * leaves every table with as many rows as before.
 */
let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
let api: ReturnType<typeof gatewayClient>;
const gateway = createGateway();
/** Tables whose rows are refusals themselves: each wrong invitation code is recorded so guessing can be throttled. */
const RECORDS_REFUSALS = ['invitation_attempts'];
let tables: string[] = [];
let userId = '';

beforeAll(async () => {
  worker = await startWorkerEnv('hostile-input');
  // Requests go to the gateway itself with exactly the headers each case sets (api.call adds none).
  api = gatewayClient(worker, { gateway });
  const { results } = await worker.env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name",
  ).all<{ name: string }>();
  tables = results.map((r) => r.name).filter((name) => !RECORDS_REFUSALS.includes(name));
  userId = crypto.randomUUID();
  await worker.env.DB.prepare("INSERT INTO users (id, email, created_at) VALUES (?, 'fuzz@example.com', 0)").bind(userId).run();
});
afterAll(() => worker.dispose());
// The dev outbox and the gateway's fault handler print; the assertions below read the answers instead.
vi.spyOn(console, 'log').mockImplementation(() => {});
const faults = vi.spyOn(console, 'error').mockImplementation(() => {});

/** Multipart routes have their own suite (uploads); /dev/* exists only in development. */
const isMultipart = (path: string) => /upload/i.test(path);
/**
 * The OpenID Provider's protocol endpoints answer OAuth's own errors (RFC 6749 §5.2: `{ error, error_description }`),
 * which relying-party libraries expect, never the envelope; tests/functions/oidc.test.ts holds them to that.
 */
const OAUTH_PROTOCOL_ROUTES = ['/oidc/v1/token', '/oidc/v1/introspect', '/oidc/v1/revoke', '/oidc/v1/userinfo'];
const postRoutes = () =>
  [
    ...new Set(
      gateway.routes
        .filter((r) => r.method === 'POST' && !r.path.startsWith('/dev/') && !isMultipart(r.path) && !OAUTH_PROTOCOL_ROUTES.includes(r.path))
        .map((r) => r.path),
    ),
  ].sort();

/** Field names of every request schema in src/schemas, so objects look like real requests (and then some). */
const schemaModules = import.meta.glob('../../src/schemas/*.ts', { eager: true }) as Record<string, Record<string, unknown>>;
const knownFields = [
  ...new Set(
    Object.values(schemaModules)
      .flatMap((module) => Object.values(module))
      // $ZodObject: the shared contracts are zod/mini objects, which are not classic ZodObjects.
      .flatMap((value) => (value instanceof z.core.$ZodObject ? Object.keys(value._zod.def.shape) : [])),
  ),
].sort();

/** Ready-made nasty values: injection strings, control and direction characters, prototype keys, extremes. */
const nasty = fc.constantFrom<unknown>(
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '\u0000',
  '\u202e\u0644\u0627',
  '\ud800',
  '😀'.repeat(100),
  '中文字符',
  ' ',
  '',
  '1e309',
  -0,
  Number.MAX_SAFE_INTEGER + 2,
  -1,
  true,
  null,
  [],
  {},
  { __proto__: { admin: true } },
  '__proto__',
  'javascript:alert(1)',
  '+86 138 0013 8000',
  'a@b.c',
  'f'.repeat(64),
);

/** Strings up to ~100 KB, from repeated (possibly multi-byte or broken) units. */
const hugeString = fc
  .tuple(fc.constantFrom('a', 'é', '中', '😀', '\u0000', '"\\', '<a>', '\ud83d'), fc.integer({ min: 1_000, max: 100_000 }))
  .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 3, arbitrary: nasty },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 80 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }) },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: fc.double() },
);

/** An object with some of the route's (or any schema's) fields, wrong or right-ish, plus extra fields. */
const requestLike = (fields: readonly string[]) =>
  fc
    .tuple(
      fc.subarray([...fields]).chain((keys) => fc.tuple(...keys.map((key) => fc.tuple(fc.constant(key), hostileValue)))),
      fc.dictionary(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'prototype')), hostileValue, { maxKeys: 4 }),
    )
    .map(([pairs, extra]) => {
      const body: Record<string, unknown> = {};
      for (const [key, value] of [...Object.entries(extra), ...pairs]) Object.defineProperty(body, key, { value, enumerable: true });
      return body;
    });

/** A raw body: arbitrary JSON of any type, or an object shaped like a request. */
const hostileBody = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  requestLike(knownFields).map((value) => JSON.stringify(value)),
);

/** Rows of every table, in one statement (a batch of COUNTs costs a round trip more under miniflare). */
async function rowCounts(): Promise<Record<string, number>> {
  const columns = tables.map((t, i) => `(SELECT COUNT(*) FROM "${t}") AS c${i}`).join(', ');
  const row = (await worker.env.DB.prepare(`SELECT ${columns}`).first<Record<string, number>>())!;
  return Object.fromEntries(tables.map((t, i) => [t, row[`c${i}`]!]));
}

/** The counts after the last probe: a refused probe must leave them as they were (plus its own session). */
let last: Record<string, number> | null = null;

let ipSeq = 0;
/** The session of authorized probes; a new one after any success, which might have ended it (logout). */
let session: string | null = null;
async function headersFor(authorized: boolean, contentType: string | null = 'application/json') {
  const headers: Record<string, string> = { language: 'en', traceid: 'fuzz', 'x-client-ip': `198.18.${(ipSeq >> 8) & 255}.${ipSeq++ & 255}` };
  if (contentType) headers['content-type'] = contentType;
  let created = false;
  if (authorized) {
    if (!session) {
      session = (await createSession(worker.env.DB, { userId, kind: 'platform', now: Date.now() })).token;
      created = true;
    }
    headers.authorization = `Bearer ${session}`;
  }
  return { headers, created };
}

type Envelope = { code: string; message: string; data: unknown };

/** The answer is the envelope with a known code, never a 5xx; a refusal is a 4xx. */
async function expectEnvelope(res: Response, context: string): Promise<Envelope> {
  expect(res.status, context).toBeLessThan(500);
  expect(res.headers.get('content-type'), context).toContain('application/json');
  const body = (await res.json()) as Envelope;
  expect(Object.keys(body).sort(), context).toEqual(['code', 'data', 'message']);
  expect(body.code === '0' || body.code in errorCatalogue, `${context}: unknown code ${body.code}`).toBe(true);
  expect(typeof body.message, context).toBe('string');
  if (body.code !== '0' && body.code !== 'SY9990') expect(res.status, `${context}: ${body.code}`).toBeGreaterThanOrEqual(400);
  return body;
}

/**
 * Posts `raw` and checks the envelope; with `countRows`, also that a refusal wrote nothing (the fixed cases
 * below count once per route instead, which is as strict for them and much faster). Answers the envelope.
 */
async function probe(
  path: string,
  raw: BodyInit,
  { authorized = true, contentType = 'application/json' as string | null, countRows = true } = {},
) {
  const before = countRows ? (last ?? (await rowCounts())) : null;
  const { headers, created } = await headersFor(authorized, contentType);
  const res = await api.call(path, { method: 'POST', headers, body: raw });
  const context = `${path} ← ${typeof raw === 'string' ? raw.slice(0, 120) : '(bytes)'}`;
  const body = await expectEnvelope(res, context);
  const refused = body.code !== '0' && body.code !== 'SY9990';
  if (!refused) session = null;
  if (before) {
    last = await rowCounts();
    const expected = { ...before, sessions: before.sessions! + (created ? 1 : 0) };
    if (refused) expect(last, `${context}: ${body.code} wrote rows`).toEqual(expected);
  } else {
    last = null;
  }
  return body;
}

/** Runs `check` for every JSON route and asserts that it left every table as it was. */
async function eachJsonRoute(check: (path: string) => Promise<void>) {
  for (const path of jsonRoutes) {
    await headersFor(true);
    const before = await rowCounts();
    await check(path);
    expect(await rowCounts(), `${path} wrote rows`).toEqual(before);
  }
  last = null;
}

/** The POST routes that read a JSON body (they answer GW0401 to malformed JSON). */
let jsonRoutes: string[] = [];

describe('the route table', () => {
  it('has the POST JSON routes of spec 7 that exist now, and each refuses malformed JSON with GW0401', async () => {
    const routes = postRoutes();
    for (const path of routes) {
      const body = await probe(path, '{"unterminated":', { countRows: false });
      if (body.code === 'GW0401') jsonRoutes.push(path);
    }
    expect(jsonRoutes).toEqual(
      expect.arrayContaining([
        '/agg-web/quick/user/checkIsNewUser',
        '/agg-web/quick/user/login',
        '/agg-web/user/v3/userLogin',
        '/agg-web/user/loginByPhone',
        '/agg-web/user/v2/yunLianLogin',
        '/agg-web/user/getUserSalt',
        '/agg-web/sms/send',
        '/agg-web/user/getRegVerificationCode',
        '/agg-web/captcha/slider/init',
        '/agg-web/captcha/slider/verify',
        '/agg-web/user/chooseAccount',
        '/agg-web/quick/user/anonymity/account/login',
        '/agg-web/buriedPoint/add',
        '/agg-web/client/error',
      ]),
    );
    // The rest ignore the body (logout, login case, company list, agreeing again): they must still answer the envelope.
    expect(routes.length).toBeGreaterThanOrEqual(jsonRoutes.length);
  });
});

describe('fuzzing every POST route', () => {
  it('answers arbitrary JSON, wrong types, huge strings, unicode, missing and extra fields with the envelope, writing nothing on refusal', async () => {
    const routes = postRoutes();
    for (const path of routes) {
      await fc.assert(
        fc.asyncProperty(hostileBody, fc.boolean(), async (raw, authorized) => {
          await probe(path, raw, { authorized });
        }),
        { numRuns: 25, seed: 8_2026, endOnFailure: true },
      );
    }
    // Nothing reached the gateway's fault handler (the 500 path logs 'gateway error').
    expect(faults.mock.calls.filter((call) => call[0] === 'gateway error')).toEqual([]);
    // No prototype was polluted by a "__proto__" field.
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  }, 120_000);
});

describe('refused bodies on every JSON route', () => {
  const malformed = ['{', '{"a":1,}', "{'a':1}", 'undefined', '[1,2', '"open', 'NaN', '{"a":01}', '\u0000'];

  it('refuses malformed JSON with GW0401', async () => {
    await eachJsonRoute(async (path) => {
      for (const raw of malformed) expect((await probe(path, raw, { countRows: false })).code, `${path} ← ${raw}`).toBe('GW0401');
      // Bytes that are not UTF-8 at all.
      expect((await probe(path, new Uint8Array([0xff, 0xfe, 0x7b, 0x80]), { countRows: false })).code, path).toBe('GW0401');
    });
  }, 60_000);

  it('refuses other content types with GW0415, even with a JSON body', async () => {
    const types = [null, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/json', 'application/jsonp', 'application/xml'];
    await eachJsonRoute(async (path) => {
      for (const contentType of types) {
        const body = await probe(path, '{"loginType":2,"loginEmail":"a@example.com"}', { contentType, countRows: false });
        expect(body.code, `${path} as ${contentType}`).toBe('GW0415');
      }
    });
  }, 60_000);

  it('refuses a body over 64 KB with GW0413, with or without a length', async () => {
    const oversized = JSON.stringify({ eventId: 'x', message: 'x'.repeat(MAX_JSON_BYTES) });
    await eachJsonRoute(async (path) => {
      expect((await probe(path, oversized, { countRows: false })).code, path).toBe('GW0413');
      // Chunked: a ReadableStream has no Content-Length, so only counting while reading can stop it.
      const chunk = new TextEncoder().encode('x'.repeat(8 * 1024));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"message":"'));
        },
        pull(controller) {
          // 10 MB if nobody stops reading.
          if (sent >= 10 * 1024 * 1024) return controller.close();
          sent += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      const { headers } = await headersFor(true);
      const res = await api.call(path, { method: 'POST', headers, body: stream, duplex: 'half' } as RequestInit);
      expect(res.status, `${path} (stream)`).toBe(413);
      expect((await expectEnvelope(res, `${path} (stream)`)).code).toBe('GW0413');
      // Reading stopped soon after the cap, far from the 10 MB on offer.
      expect(sent, path).toBeLessThan(MAX_JSON_BYTES + 4 * chunk.byteLength);
    });
  }, 60_000);
});

describe('through the Worker', () => {
  const viaWorker = async (path: string, init: RequestInit & { duplex?: 'half' }) => {
    const { token } = await createSession(worker.env.DB, { userId, kind: 'platform', now: Date.now() });
    const headers = new Headers(init.headers);
    headers.set('cookie', `portal_token=${token}`);
    return app.request(`http://portal.test/api${path}`, { ...init, headers }, worker.env, worker.ctx);
  };

  it('passes the same refusals on from every JSON route, in the visitor language', async () => {
    for (const path of jsonRoutes) {
      const bad = await viaWorker(path, { method: 'POST', headers: { 'content-type': 'application/json', cookie: '' }, body: '{' });
      expect(bad.status, path).toBe(400);
      expect(await bad.json()).toMatchObject({ code: 'GW0401' });
      const plain = await viaWorker(path, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
      expect(await plain.json(), path).toEqual({ code: 'GW0415', message: errorCatalogue.GW0415.en, data: null });
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          controller.enqueue(new TextEncoder().encode('x'.repeat(16 * 1024)));
        },
      });
      const big = await viaWorker(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' });
      expect(big.status, path).toBe(413);
      expect(await big.json()).toMatchObject({ code: 'GW0413' });
    }
  }, 60_000);
});
