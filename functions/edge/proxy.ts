import { Hono, type ExecutionContext } from 'hono';
import type { EdgeBindings } from '../env';
import { errorResponse } from '../gateway/errors';
import { fetchWithin, OutboundFailure } from '../outbound';
import { clientCountry } from './client-country';
import { clientNetwork } from './client-ip';
import { crossSiteGuard } from './cross-site';
import { isNavigatorHost, visitorLang } from './lang';
import { gatewayPath, gatewayRequestHeaders, gatewayTarget } from './proxy-rules';
import { TRACE_ID_HEADER } from '../../src/api/result';
import { operatorCookie, operatorTokenOf, secondStepCookie, secondStepTokenOf, sessionTokenOf, tokenCookie, withSessionCookies } from './session-cookies';

/** Origin used for requests handed to the embedded gateway; it never leaves the Worker. */
const EMBEDDED_ORIGIN = 'http://gateway.internal';

/** Answers a gateway call; the embedded gateway of this Worker or a fetch to GATEWAY_URL. */
export type GatewayFetch = (request: Request, env: EdgeBindings['Bindings'], ctx: ExecutionContext) => Response | Promise<Response>;

/**
 * `/api/*`: refuse a cross-site state change, strip `/api`, add the gateway headers and the session from the
 * HttpOnly cookie, and pass the call to GATEWAY_URL, or to the embedded gateway when that is unset. The
 * answer's session cookies follow the rules of session-cookies.ts.
 */
export function createApiProxy(embedded: GatewayFetch) {
  return new Hono<EdgeBindings>().use('*', crossSiteGuard).all('*', async (c) => {
    const url = new URL(c.req.url);
    const lang = visitorLang(c);
    const network = clientNetwork(c.req.raw.headers, c.var.config);
    // Cloudflare names every client of a deployed Worker; a call without a usable address is refused
    // rather than counted in one bucket shared by all such calls. A local run gives it a bucket of its own.
    if (!network && c.var.config.deployed) return errorResponse('GW0400', lang);
    // One id for this call in the gateway's log and in the answer (x-trace-id), which a person can quote.
    const traceId = crypto.randomUUID();
    const headers = gatewayRequestHeaders(c.req.raw.headers, {
      lang,
      traceId,
      token: sessionTokenOf(c),
      secondStep: secondStepTokenOf(c),
      operatorSession: operatorTokenOf(c),
      country: clientCountry(c.req.raw, c.var.config),
      clientIp: network,
      site: isNavigatorHost(url.hostname, c.var.config.navigatorHostLabel) ? 'navigator' : 'portal',
    });
    const hasBody = c.req.method !== 'GET' && c.req.method !== 'HEAD';
    // `duplex` is what the Fetch standard (and Node, which runs the function tests) asks of a streamed body.
    const init: RequestInit & { duplex?: 'half' } = {
      method: c.req.method,
      headers,
      body: hasBody ? c.req.raw.body : undefined,
      ...(hasBody ? { duplex: 'half' as const } : {}),
    };
    const path = gatewayPath(url.pathname);

    let answer: Response;
    if (c.var.config.gatewayUrl) {
      try {
        answer = await fetchWithin(gatewayTarget(c.var.config.gatewayUrl, path, url.search), init, c.var.config.gatewayTimeout);
      } catch (error) {
        if (!(error instanceof OutboundFailure)) throw error;
        // A gateway that never answers would leave the person before a spinner that never ends.
        console.error(JSON.stringify({ event: 'gateway_unavailable', traceId, reason: error.reason, detail: error.message }));
        const failed = errorResponse(error.reason === 'timeout' ? 'GW0504' : 'GW0502', lang);
        failed.headers.set('Cache-Control', 'no-store');
        failed.headers.set(TRACE_ID_HEADER, traceId);
        return failed;
      }
    } else {
      answer = await embedded(new Request(EMBEDDED_ORIGIN + path + url.search, init), c.env, c.executionCtx);
    }
    // A fresh Response (the fetched one has immutable headers): session cookies set from a login answer, whose
    // oauthVO never reaches the browser, or cleared on a POSTed logout, TK00001 and 401.
    const response = await withSessionCookies(c, answer, {
      path,
      method: c.req.method,
      cookie: tokenCookie(url, c.var.config.navigatorHostLabel),
      secondStepCookie: secondStepCookie(url, c.var.config.navigatorHostLabel),
      operatorCookie: operatorCookie(url),
    });
    response.headers.set('Cache-Control', response.headers.get('Cache-Control') ?? 'no-store');
    response.headers.set(TRACE_ID_HEADER, traceId);
    return response;
  });
}
