import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { errorCatalogue, errorMessage, type ErrorCode } from '../../src/schemas/error-codes';
import { SUCCESS_CODE } from '../../src/schemas/envelope';
import { isLang, type Lang } from '../../src/lib/lang';

/** Thrown anywhere in the gateway; `onError` turns it into the envelope with its status. */
export class GatewayError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly data: unknown = null,
  ) {
    super(code);
  }
}

/** The language the proxy passed on (spec 7 header `language`); English when absent or unknown. */
export function requestLang(c: Context): Lang {
  const lang = c.req.header('language');
  return isLang(lang) ? lang : 'en';
}

/** The visitor's IP as the edge saw it (proxy-rules.ts sets it on every gateway call). */
export function clientIp(c: Context): string {
  return c.req.header('x-client-ip') ?? 'unknown';
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
