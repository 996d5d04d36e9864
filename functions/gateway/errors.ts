import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { errorCatalogue, errorMessage, type ErrorCode } from '../../src/schemas/error-codes';
import { SUCCESS_CODE } from '../../src/schemas/envelope';
import { isLang, type Lang } from '../../src/lib/lang';
import { networkBucket } from './services/client-network';

/** Thrown anywhere in the gateway; `onError` turns it into the envelope with its status. */
export class GatewayError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly data: unknown = null,
  ) {
    super(code);
  }
}

/** The language the proxy passed on in the `language` header; English when absent or unknown. */
export function requestLang(c: Context): Lang {
  const lang = c.req.header('language');
  return isLang(lang) ? lang : 'en';
}

/** Set by the edge on every gateway call (functions/edge/proxy-rules.ts): the client network it saw. */
export const CLIENT_IP_HEADER = 'x-client-ip';

const unnamedClients = new WeakMap<Request, string>();

/**
 * The client network every per-IP limit counts by: an IPv4 address, or an IPv6 /64 such as
 * `2001:db8:1:2::/64` (functions/gateway/services/client-network.ts). A call that names no network gets a
 * bucket of its own for this request, never one shared by every such call (a deployed edge refuses those
 * before they get here).
 */
export function clientIp(c: Context): string {
  const bucket = networkBucket(c.req.header(CLIENT_IP_HEADER));
  if (bucket) return bucket;
  let unnamed = unnamedClients.get(c.req.raw);
  if (!unnamed) {
    unnamed = `unknown:${crypto.randomUUID()}`;
    unnamedClients.set(c.req.raw, unnamed);
  }
  return unnamed;
}

/** The edge's trace id of this call (proxy.ts sets `traceid` on every gateway call); null when absent or malformed. */
export function traceIdOf(c: Context): string | null {
  const value = c.req.header('traceid') ?? '';
  return /^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : null;
}

export function ok<T>(c: Context, data: T) {
  return c.json({ code: SUCCESS_CODE, message: 'success', data });
}

/** The error envelope as a plain Response, for callers outside a gateway route (the edge proxy). */
export function errorResponse(code: ErrorCode, lang: Lang, data: unknown = null): Response {
  return Response.json({ code, message: errorMessage(code, lang), data }, { status: errorCatalogue[code].status });
}

export function fail(c: Context, code: ErrorCode, data: unknown = null) {
  const status = errorCatalogue[code].status as ContentfulStatusCode;
  return c.json({ code, message: errorMessage(code, requestLang(c)), data }, status);
}
