import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import * as z from 'zod/mini';
import type { EdgeBindings } from '../../env';
import { cappedInsert } from '../identity/db/limits';
import { clientIp, fail, GatewayError, ok, traceIdOf } from '../errors';
import { now } from '../../contract';
import { operatorOfRequest } from '../operators/service';
import { validate } from '../validate';
import { TRACKING_BATCH_MAX, TRACKING_VERSION } from '../../../src/schemas/tracking';
import { ERR } from '../../../src/schemas/error-codes';
import { latestEvents } from './db';
import { bearerToken, sessionFromRequest } from '../sessions/service';
import { trackingWithdrawn } from '../data-rights/service';

/**
 * Observability calls:
 * - POST /agg-web/buriedPoint/add stores one tracking event (tracking version 9.3.11), or a batch of up to
 *   TRACKING_BATCH_MAX as a JSON array (the portal's pages send theirs in one beacon when the page is hidden);
 * - GET /agg-web/buriedPoint/list?eventId=&limit= lets an operator read them back: a live operator session of
 *   the admin role (the operators' console cookie); anyone else gets the ordinary 404 envelope, so the query's
 *   existence does not show;
 * - POST /agg-web/client/error stores a browser error report and logs it with the edge's trace id.
 *
 * Both writes need no session, so a script could fill the one D1 database with them: each is capped per client
 * network and globally within a minute, checked and inserted in one statement (cappedInsert). An event over a
 * cap is TR0001; a report over a cap is dropped and answered `{ stored: false }` (the page has nothing to do
 * about it). Old rows are pruned on a schedule (maintenance/prune.ts).
 */

/** The tracking version the portal's pages send (the platform's tracking contract), and their batch size. */
export { TRACKING_BATCH_MAX, TRACKING_VERSION } from '../../../src/schemas/tracking';
/** Tracking events per client network and in all within TRACKING_WINDOW_MS. */
export const TRACKING_WINDOW_MS = 60 * 1000;
/** The deployed default of TRACKING_NETWORK_CAP (config.ts), events a minute per client network. */
export const TRACKING_NETWORK_CAP = 60;
export const TRACKING_GLOBAL_CAP = 3000;
/** Error reports per client network and in all within CLIENT_ERROR_WINDOW_MS. */
export const CLIENT_ERROR_CAP = 10;
export const CLIENT_ERROR_GLOBAL_CAP = 300;
export const CLIENT_ERROR_WINDOW_MS = 60 * 1000;
const KEY_LIST_MAX_CHARS = 4096;
const MESSAGE_MAX = 1000;
const STACK_MAX = 8000;

/** A short text field that the legacy client may send as a number. */
const label = (max: number) => z.pipe(z.pipe(z.union([z.string(), z.number()]), z.transform(String)), z.string().check(z.trim(), z.maxLength(max)));

export const buriedPointRequest = z.object({
  bpSource: z.optional(label(64)),
  bpType: z.optional(label(32)),
  eventId: z.pipe(label(128), z.string().check(z.minLength(1))),
  eventName: z.optional(label(128)),
  eventType: z.optional(label(64)),
  keyList: z.optional(
    z
      .array(z.unknown())
      .check(
        z.maxLength(100),
        z.refine((list) => JSON.stringify(list).length <= KEY_LIST_MAX_CHARS, { message: `at most ${KEY_LIST_MAX_CHARS} characters` }),
      ),
  ),
  versionNumber: z.optional(z.string().check(z.trim(), z.maxLength(32))),
});

type BuriedPointRequest = z.infer<typeof buriedPointRequest>;
/** One event, or a batch of up to TRACKING_BATCH_MAX as a JSON array. */
export const buriedPointAddRequest = z.union([buriedPointRequest, z.array(buriedPointRequest).check(z.minLength(1), z.maxLength(TRACKING_BATCH_MAX))]);

export const buriedPointListQuery = z.object({
  eventId: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(128))),
  limit: z._default(z.pipe(z.coerce.number(), z.int().check(z.minimum(1), z.maximum(500))), 100),
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
  message: z.pipe(
    z.string().check(z.minLength(1)),
    z.transform((s: string) => withoutQueries(s.slice(0, MESSAGE_MAX))),
  ),
  stack: z.pipe(
    z.optional(z.string()),
    z.transform((s: string | undefined) => (s === undefined ? null : withoutQueries(s.slice(0, STACK_MAX)))),
  ),
  url: z.pipe(
    z.string().check(z.maxLength(4096)),
    // zod/mini's transform has no addIssue: the issue goes straight into the parse's list.
    z.transform((s: string, ctx) => pageOf(s) ?? (ctx.issues.push({ code: 'custom', message: 'an http(s) URL', input: s }), z.NEVER)),
  ),
  traceId: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/))),
});


/** Operators only: anyone else gets the ordinary 404 envelope, as for a path that does not exist. */
const operatorOnly = createMiddleware<EdgeBindings>(async (c, next) => {
  if (!(await isOperator(c))) return fail(c, ERR.NO_SUCH_API);
  await next();
});

/** Reading the funnel is the admin role's (operators/service.ts roleAllows). */
async function isOperator(c: Context<EdgeBindings>): Promise<boolean> {
  return (await operatorOfRequest(c, ['admin'])).allowed;
}

export const trackingRoutes = new Hono<EdgeBindings>()
  .post('/agg-web/buriedPoint/add', validate('json', buriedPointAddRequest), async (c) => {
    const body = c.req.valid('json');
    // A signed-in person who withdrew their consent to funnel tracking (data-rights/) is not tracked on any
    // browser: their events are accepted and dropped, so the browser has nothing to retry.
    if (bearerToken(c)) {
      const found = await sessionFromRequest(c);
      if (found && (await trackingWithdrawn(c.env.DB, found.user.id))) return ok(c, Array.isArray(body) ? { stored: 0 } : null);
    }
    const at = now(c);
    const ip = clientIp(c);
    const since = at - TRACKING_WINDOW_MS;
    // Each event is capped and stored by its own statement, so a batch counts event by event towards the caps.
    const store = (event: BuriedPointRequest) =>
      cappedInsert(c.env.DB, {
        table: 'tracking_events',
        row: {
          event_id: event.eventId,
          event_name: event.eventName ?? '',
          event_type: event.eventType ?? '',
          bp_source: event.bpSource ?? '',
          bp_type: event.bpType ?? '',
          key_list: JSON.stringify(event.keyList ?? []),
          version_number: event.versionNumber || TRACKING_VERSION,
          trace_id: traceIdOf(c),
          ip,
          created_at: at,
        },
        caps: [
          { where: { ip }, since, max: c.get('config').trackingNetworkCap, code: ERR.EVENTS_CAPPED },
          { where: {}, since, max: TRACKING_GLOBAL_CAP, code: ERR.EVENTS_CAPPED },
        ],
      });
    if (!Array.isArray(body)) {
      await store(body);
      return ok(c, null);
    }
    // A batch stops at the first event over a cap: the rest would be refused alike.
    let stored = 0;
    for (const event of body) {
      try {
        await store(event);
        stored += 1;
      } catch (error) {
        if (stored > 0 && error instanceof GatewayError && error.code === ERR.EVENTS_CAPPED) break;
        throw error;
      }
    }
    return ok(c, { stored });
  })

  .get('/agg-web/buriedPoint/list', operatorOnly, validate('query', buriedPointListQuery), async (c) => {
    const { eventId, limit } = c.req.valid('query');
    const results = await latestEvents(c.env.DB, eventId, limit);
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

  .post('/agg-web/client/error', validate('json', clientErrorRequest), async (c) => {
    const body = c.req.valid('json');
    const at = now(c);
    const ip = clientIp(c);
    const traceId = traceIdOf(c);
    const since = at - CLIENT_ERROR_WINDOW_MS;
    try {
      await cappedInsert(c.env.DB, {
        table: 'client_errors',
        row: { message: body.message, stack: body.stack, url: body.url, trace_id: traceId, client_trace_id: body.traceId ?? null, ip, created_at: at },
        caps: [
          { where: { ip }, since, max: CLIENT_ERROR_CAP, code: ERR.EVENTS_CAPPED },
          { where: {}, since, max: CLIENT_ERROR_GLOBAL_CAP, code: ERR.EVENTS_CAPPED },
        ],
      });
    } catch (error) {
      if (error instanceof GatewayError && error.code === ERR.EVENTS_CAPPED) return ok(c, { stored: false });
      throw error;
    }
    console.error('client error', JSON.stringify({ traceId, clientTraceId: body.traceId ?? null, url: body.url, message: body.message }));
    return ok(c, { stored: true });
  });
