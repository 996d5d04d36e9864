import { requestUrl } from './request-url';
import { Hono } from 'hono';
import { errorResponse, RECEIPT_PATHS, TRACE_ID_HEADER } from '../contract';
import type { EdgeBindings } from '../env';
import { clientNetwork } from './client-ip';
import { crossSiteGuard } from './cross-site';
import { callGateway, type GatewayFetch } from './gateway-call';
import { visitorLang } from './lang';
import { gatewayPath } from './proxy-rules';
import { operatorCookie, secondStepCookie, tokenCookie, withSessionCookies } from './session-cookies';
import { ERR } from '../../src/schemas/error-codes';

export type { GatewayFetch } from './gateway-call';

/**
 * `/api/*`: refuse a cross-site state change, strip `/api`, add the gateway headers and the session from the
 * HttpOnly cookie, and pass the call to GATEWAY_URL, or to the embedded gateway when that is unset. The
 * answer's session cookies follow the rules of session-cookies.ts.
 */
export function createApiProxy(embedded: GatewayFetch) {
  return new Hono<EdgeBindings>().use('*', crossSiteGuard).all('*', async (c) => {
    const url = requestUrl(c);
    const lang = visitorLang(c);
    // Cloudflare names every client of a deployed Worker; a call without a usable address is refused
    // rather than counted in one bucket shared by all such calls. A local run gives it a bucket of its own.
    if (!clientNetwork(c.req.raw.headers, c.get('config')) && c.get('config').deployed) return errorResponse(ERR.REQUEST_INVALID, lang);
    const path = gatewayPath(url.pathname);
    const hasBody = c.req.method !== 'GET' && c.req.method !== 'HEAD';
    // A provider's status callback proves itself in a header of its own (delivery/receipts.ts).
    const receiptProof = path.startsWith(RECEIPT_PATHS) ? (c.req.header('x-twilio-signature') ?? c.req.header('authorization')) : undefined;
    const { answer, traceId } = await callGateway(c, embedded, {
      path,
      search: url.search,
      method: c.req.method,
      body: hasBody ? c.req.raw.body : undefined,
      receiptProof,
    });
    // A fresh Response (the fetched one has immutable headers): session cookies set from a login answer, whose
    // oauthVO never reaches the browser, or cleared on a POSTed logout, TK00001 and 401.
    const response = await withSessionCookies(c, answer, {
      path,
      method: c.req.method,
      cookie: tokenCookie(url, c.get('config').navigatorHostLabel),
      secondStepCookie: secondStepCookie(url, c.get('config').navigatorHostLabel),
      operatorCookie: operatorCookie(url),
    });
    response.headers.set('Cache-Control', response.headers.get('Cache-Control') ?? 'no-store');
    response.headers.set(TRACE_ID_HEADER, traceId);
    return response;
  });
}
