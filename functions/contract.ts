import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ERR, errorCatalogue, errorMessage, type ErrorCode } from '../src/schemas/error-codes';
import { SUCCESS_CODE } from '../src/schemas/envelope';
import { isLang, type Lang } from '../src/lib/lang';
import { networkBucket } from '../src/lib/client-network';

/**
 * The wire contract between the edge and a gateway (the embedded one or GATEWAY_URL): the headers the edge
 * sets on every call, the `{ code, message, data }` envelope, and the readers of what the edge passed on.
 * Both sides import this module and never each other's.
 */

/** The visitor's language ('zh' | 'en'); gateway messages are written in it. */
export const LANGUAGE_HEADER = 'language';
/** The edge's id of one call, found in both logs; the answer carries it back as TRACE_ID_HEADER. */
export const REQUEST_TRACE_HEADER = 'traceid';
export { TRACE_ID_HEADER } from '../src/schemas/trace';
/** The client network the edge saw (an IPv4 address or an IPv6 /64); a client's own value is overwritten. */
export const CLIENT_IP_HEADER = 'x-client-ip';
/**
 * The visitor's ISO country as Cloudflare saw it; a client's own value is overwritten. Sent only with calls that
 * change something (a sign-in records it with the device and the history) and with the reads in
 * COUNTRY_READ_PATHS: the runtime parses the whole of Cloudflare's request data on its first read, 6 % of a
 * signed-in read's CPU profile (issue 46).
 */
export const CLIENT_COUNTRY_HEADER = 'x-client-country';
/** The gateway's GET paths that answer from the visitor's country. */
export const IP_REGION_PATH = '/agg-web/ip/queryIPRegion';
export const COUNTRY_READ_PATHS: ReadonlySet<string> = new Set([IP_REGION_PATH]);

/**
 * Which of the Worker's sites the call came to, 'portal' or 'navigator'. The gateway builds sign-in links on
 * that site's configured origin and starts partner sessions only for the navigator site.
 */
export const SITE_HEADER = 'x-portal-site';
export type SiteName = 'portal' | 'navigator';

/**
 * From the edge's HttpOnly second-step cookie: the challenge a first factor left, which the second-step call
 * passes. A browser's own header of that name is never forwarded.
 */
export const SECOND_STEP_HEADER = 'x-second-step';
/** The device token from the edge's HttpOnly device cookie (issue 44, the new-device challenge). */
export const DEVICE_HEADER = 'x-device';

/**
 * From the edge's HttpOnly operator cookie: the operator session token. A browser's own header of that name
 * is never forwarded, and the platform cookie never becomes this header.
 */
export const OPERATOR_SESSION_HEADER = 'x-operator-session';

/**
 * From the edge's HttpOnly WeChat cookie: the browser's half of a WeChat or WeCom sign-in under way (the state's
 * browser binding, then the binding ticket of an unknown person). A browser's own header of that name is never
 * forwarded.
 */
export const WECHAT_FLOW_HEADER = 'x-wechat-flow';

/**
 * Set by the edge on its own calls (the hand-off intake, the blob for /go), never on a call it proxies for a
 * browser: their answers (a session, a blob for another site) must reach the browser only as HttpOnly cookies
 * and redirects, never as a body a page's script could read. Without it those routes answer GW0404.
 */
export const EDGE_CALL_HEADER = 'x-edge-call';

/**
 * A delivery provider's own proof on its status callback (Twilio's X-Twilio-Signature, or the HTTP Basic
 * credentials of an SNS subscription), passed by the edge on the receipt paths only (RECEIPT_PATHS): the
 * gateway's `authorization` carries a person's session, and no other browser header reaches the gateway.
 */
export const RECEIPT_PROOF_HEADER = 'x-receipt-proof';
export const RECEIPT_PATHS = '/delivery/receipts/';

/** On the gateway's routes of the edge's own calls, after validation: anyone else is told there is no such API. */
export const edgeCallsOnly: MiddlewareHandler = async (c, next) => {
  if (c.req.header(EDGE_CALL_HEADER) !== '1') return fail(c, ERR.NO_SUCH_API);
  await next();
};

export function ok<T>(c: Context, data: T) {
  return c.json({ code: SUCCESS_CODE, message: 'success', data });
}

export function fail(c: Context, code: ErrorCode, data: unknown = null) {
  const status = errorCatalogue[code].status as ContentfulStatusCode;
  return c.json({ code, message: errorMessage(code, requestLang(c)), data }, status);
}

/** The error envelope as a plain Response, for answers written outside a gateway route (the edge proxy). */
export function errorResponse(code: ErrorCode, lang: Lang, data: unknown = null): Response {
  return Response.json({ code, message: errorMessage(code, lang), data }, { status: errorCatalogue[code].status });
}

/** The language the edge passed on; English when absent or unknown. */
export function requestLang(c: Context): Lang {
  const lang = c.req.header(LANGUAGE_HEADER);
  return isLang(lang) ? lang : 'en';
}

/** The edge's trace id of this call; null when absent or malformed. */
export function traceIdOf(c: Context): string | null {
  const value = c.req.header(REQUEST_TRACE_HEADER) ?? '';
  return /^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : null;
}

/** The client network the edge named, or undefined when it named none (src/lib/client-network.ts). */
export function namedClientNetwork(c: Context): string | undefined {
  return networkBucket(c.req.header(CLIENT_IP_HEADER));
}

const unnamedClients = new WeakMap<Request, string>();

/**
 * The client network every per-IP limit counts by. A call that names no network gets a bucket of its own for
 * this request, never one shared by every such call (a deployed edge refuses those before they get here).
 */
export function clientIp(c: Context): string {
  const bucket = namedClientNetwork(c);
  if (bucket) return bucket;
  let unnamed = unnamedClients.get(c.req.raw);
  if (!unnamed) {
    unnamed = `unknown:${crypto.randomUUID()}`;
    unnamedClients.set(c.req.raw, unnamed);
  }
  return unnamed;
}

/** Milliseconds since the epoch. Both sides read time only through a clock, so tests never sleep. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

declare module 'hono' {
  interface ContextVariableMap {
    /** Set once per request by the composition root or the gateway (createGateway); tests inject a fake clock. */
    now: Clock;
  }
}

/** The current time for this request; the system clock when no one set a clock. */
export function now(c: Context): number {
  return (c.get('now') ?? systemClock)();
}
