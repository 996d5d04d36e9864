import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { EdgeBindings } from '../../env';
import { readJson } from '../body';
import { clientIp, fail, ok } from '../errors';
import { now } from '../services/clock';
import { constantTimeEqual, sha256Hex } from '../services/passwords';

/**
 * Observability calls:
 * - POST /agg-web/buriedPoint/add stores one tracking event (tracking version 9.3.11);
 * - GET /agg-web/buriedPoint/list?eventId=&limit= lets an operator read them back, with the OPERATOR_TOKEN secret
 *   in `x-operator-token` (`Bearer <token>` or the bare token); anyone else gets the ordinary 404 envelope;
 * - POST /agg-web/client/error stores a browser error report and logs it with the edge's trace id, at most
 *   CLIENT_ERROR_CAP reports per IP per CLIENT_ERROR_WINDOW_MS (over the cap the report is dropped, answered
 *   `{ stored: false }`: the page has nothing to do about it, and a flood costs one D1 statement per call).
 */

/** The tracking version the portal's pages send: the platform's tracking contract (portal-spec.md §7). */
export const TRACKING_VERSION = '9.3.11';
export const CLIENT_ERROR_CAP = 10;
export const CLIENT_ERROR_WINDOW_MS = 60 * 1000;
const KEY_LIST_MAX_CHARS = 4096;
const MESSAGE_MAX = 1000;
const STACK_MAX = 8000;

/** A short text field that the legacy client may send as a number. */
const label = (max: number) => z.union([z.string(), z.number()]).transform(String).pipe(z.string().trim().max(max));

export const buriedPointRequest = z.object({
  bpSource: label(64).optional(),
  bpType: label(32).optional(),
  eventId: label(128).pipe(z.string().min(1)),
  eventName: label(128).optional(),
  eventType: label(64).optional(),
  keyList: z
    .array(z.unknown())
    .max(100)
    .refine((list) => JSON.stringify(list).length <= KEY_LIST_MAX_CHARS, { message: `at most ${KEY_LIST_MAX_CHARS} characters` })
    .optional(),
  versionNumber: z.string().trim().max(32).optional(),
});

export const buriedPointListQuery = z.object({
  eventId: z.string().trim().min(1).max(128).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** Drops query and fragment from every URL in a text: they may carry codes, hand-off blobs or tokens. */
export const withoutQueries = (text: string) => text.replace(/(\bhttps?:\/\/[^\s?#)'"]+)[?#][^\s)'"]*/gi, '$1');

/** origin + path of a URL (query and fragment dropped); null when it is not an http(s) URL. */
function pageOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return /^https?:$/.test(parsed.protocol) ? parsed.origin + parsed.pathname : null;
  } catch {
    return null;
  }
}

export const clientErrorRequest = z.object({
  message: z.string().min(1).transform((s) => withoutQueries(s.slice(0, MESSAGE_MAX))),
  stack: z
    .string()
    .optional()
    .transform((s) => (s === undefined ? null : withoutQueries(s.slice(0, STACK_MAX)))),
  url: z
    .string()
    .max(4096)
    .transform((s, ctx) => pageOf(s) ?? (ctx.addIssue({ code: 'custom', message: 'an http(s) URL' }), z.NEVER)),
  traceId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .optional(),
});

/** The edge's trace id of this call (proxy.ts sets `traceid` on every gateway call). */
const traceIdOf = (c: Context) => {
  const value = c.req.header('traceid') ?? '';
  return /^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : null;
};

async function isOperator(c: Context<EdgeBindings>): Promise<boolean> {
  // Without the OPERATOR_TOKEN secret nobody is an operator, so the query answers 404 to everyone.
  const secret = c.var.config.operatorToken;
  const given = (c.req.header('x-operator-token') ?? '').replace(/^Bearer\s+/i, '');
  if (!secret || !given) return false;
  // Equal-length digests, compared without an early exit.
  const encoder = new TextEncoder();
  return constantTimeEqual(encoder.encode(await sha256Hex(given)), encoder.encode(await sha256Hex(secret)));
}

interface TrackingRow {
  id: number;
  event_id: string;
  event_name: string;
  event_type: string;
  bp_source: string;
  bp_type: string;
  key_list: string;
  version_number: string;
  trace_id: string | null;
  created_at: number;
}

export const trackingRoutes = new Hono<EdgeBindings>()
  .post('/agg-web/buriedPoint/add', async (c) => {
    const body = await readJson(c, buriedPointRequest);
    await c.env.DB.prepare(
      `INSERT INTO tracking_events (event_id, event_name, event_type, bp_source, bp_type, key_list, version_number, trace_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
      .bind(
        body.eventId,
        body.eventName ?? '',
        body.eventType ?? '',
        body.bpSource ?? '',
        body.bpType ?? '',
        JSON.stringify(body.keyList ?? []),
        body.versionNumber || TRACKING_VERSION,
        traceIdOf(c),
        now(c),
      )
      .run();
    return ok(c, null);
  })

  .get('/agg-web/buriedPoint/list', async (c) => {
    if (!(await isOperator(c))) return fail(c, 'GW0404');
    const query = buriedPointListQuery.safeParse(c.req.query());
    if (!query.success) return fail(c, 'GW0400', query.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
    const { eventId, limit } = query.data;
    const statement = eventId
      ? c.env.DB.prepare('SELECT * FROM tracking_events WHERE event_id = ? ORDER BY id DESC LIMIT ?').bind(eventId, limit)
      : c.env.DB.prepare('SELECT * FROM tracking_events ORDER BY id DESC LIMIT ?').bind(limit);
    const { results } = await statement.all<TrackingRow>();
    c.header('Cache-Control', 'no-store');
    return ok(
      c,
      results.map((row) => ({
        id: row.id,
        eventId: row.event_id,
        eventName: row.event_name,
        eventType: row.event_type,
        bpSource: row.bp_source,
        bpType: row.bp_type,
        keyList: JSON.parse(row.key_list) as unknown,
        versionNumber: row.version_number,
        traceId: row.trace_id,
        createdAt: row.created_at,
      })),
    );
  })

  .post('/agg-web/client/error', async (c) => {
    const body = await readJson(c, clientErrorRequest);
    const at = now(c);
    const ip = clientIp(c);
    const traceId = traceIdOf(c);
    // One statement checks the cap and inserts, so parallel reports cannot slip past it.
    const stored = await c.env.DB.prepare(
      `INSERT INTO client_errors (message, stack, url, trace_id, client_trace_id, ip, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7
       WHERE (SELECT COUNT(*) FROM client_errors WHERE ip = ?6 AND created_at > ?8) < ?9
       RETURNING id`,
    )
      .bind(body.message, body.stack, body.url, traceId, body.traceId ?? null, ip, at, at - CLIENT_ERROR_WINDOW_MS, CLIENT_ERROR_CAP)
      .first<{ id: number }>();
    if (!stored) return ok(c, { stored: false });
    console.error('client error', JSON.stringify({ traceId, clientTraceId: body.traceId ?? null, url: body.url, message: body.message }));
    return ok(c, { stored: true });
  });
