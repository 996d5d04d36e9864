import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import type { EdgeBindings } from '../env';
import { gateway } from '../gateway/app';
import { errorResponse } from '../gateway/errors';
import { clientCountry } from './client-country';
import { visitorLang } from './lang';
import { gatewayPath, gatewayRequestHeaders } from './proxy-rules';
import { cookiesAreSecure, tokenCookieName, withSessionCookies } from './session-cookies';

/** Origin used for requests handed to the embedded gateway; it never leaves the Worker. */
const EMBEDDED_ORIGIN = 'http://gateway.internal';

/**
 * `/api/*`: strip `/api`, add the headers every gateway call carries (language, trace id, client IP and
 * country) and the session from the HttpOnly cookie, and pass the call to GATEWAY_URL, or to the embedded
 * gateway in this Worker when that is unset. The answer's session cookies follow the rules of session-cookies.ts.
 */
export const apiProxy = new Hono<EdgeBindings>().all('*', async (c) => {
  const url = new URL(c.req.url);
  const config = c.var.config;
  const lang = visitorLang(c);
  const cookieName = tokenCookieName(url.hostname, config.navigatorHostLabel);
  const headers = gatewayRequestHeaders(c.req.raw.headers, {
    lang,
    traceId: crypto.randomUUID(),
    token: getCookie(c, cookieName),
    country: clientCountry(c.req.raw, config),
    clientIp: c.req.header('cf-connecting-ip') ?? '127.0.0.1',
    portalOrigin: url.origin,
  });
  const hasBody = c.req.method !== 'GET' && c.req.method !== 'HEAD';
  // `duplex` is what the Fetch standard (and Node, which runs the function tests) asks of a streamed body.
  const init: RequestInit & { duplex?: 'half' } = {
    method: c.req.method,
    headers,
    body: hasBody ? c.req.raw.body : undefined,
    ...(hasBody ? { duplex: 'half' as const } : {}),
  };
  const target = gatewayPath(url.pathname) + url.search;

  let answer: Response;
  if (config.gatewayUrl) {
    try {
      answer = await fetch(new URL(target, config.gatewayUrl), init);
    } catch {
      return errorResponse('GW0502', lang);
    }
  } else {
    answer = await gateway.fetch(new Request(EMBEDDED_ORIGIN + target, init), c.env, c.executionCtx);
  }
  // A fresh Response (the fetched one has immutable headers): session cookies set from a login answer, whose
  // oauthVO never reaches the browser, or cleared on logout, TK00001 and 401.
  const response = await withSessionCookies(answer, {
    path: gatewayPath(url.pathname),
    cookieName,
    secure: cookiesAreSecure(url),
  });
  response.headers.set('Cache-Control', response.headers.get('Cache-Control') ?? 'no-store');
  return response;
});
