import { requestUrl } from './request-url';
import type { Context, ExecutionContext } from 'hono';
import { COUNTRY_READ_PATHS, EDGE_CALL_HEADER, errorResponse, RECEIPT_PROOF_HEADER, TRACE_ID_HEADER } from '../contract';
import type { EdgeBindings } from '../env';
import { fetchWithin, OutboundFailure } from '../outbound';
import { clientCountry } from './client-country';
import { clientNetwork } from './client-ip';
import { isNavigatorHost, visitorLang } from './lang';
import { gatewayRequestHeaders, gatewayTarget } from './proxy-rules';
import { deviceTokenOf, operatorTokenOf, secondStepTokenOf, sessionTokenOf, wechatFlowOf } from './session-cookies';
import { ERR } from '../../src/schemas/error-codes';

/** Origin used for requests handed to the embedded gateway; it never leaves the Worker. */
const EMBEDDED_ORIGIN = 'http://gateway.internal';

/** Answers a gateway call; the embedded gateway of this Worker or a fetch to GATEWAY_URL. */
export type GatewayFetch = (request: Request, env: EdgeBindings['Bindings'], ctx: ExecutionContext) => Response | Promise<Response>;

export interface GatewayCall {
  /** The gateway's own path (no /api prefix), starting with one `/`. */
  path: string;
  search?: string;
  method: string;
  body?: BodyInit | null;
  /** Overrides the browser's Content-Type, for a body the edge wrote itself. */
  contentType?: string;
  /** A delivery provider's proof on a receipt (RECEIPT_PROOF_HEADER). */
  receiptProof?: string;
  /** The edge's own call, not a browser's (EDGE_CALL_HEADER). */
  edgeCall?: boolean;
  /**
   * Request headers passed as the client sent them, in place of what the edge would set (the OpenID endpoints
   * take the client's own `authorization` and `origin`; the session cookie's token is then not sent).
   */
  forward?: readonly string[];
}

/**
 * Whether the gateway is told the visitor's country: calls that change something, and the region query
 * (CLIENT_COUNTRY_HEADER). The path is compared as the gateway's router reads it, percent-escapes decoded.
 */
export function needsCountry(call: Pick<GatewayCall, 'method' | 'path'>): boolean {
  if (call.method !== 'GET' && call.method !== 'HEAD') return true;
  let path = call.path;
  try {
    path = decodeURI(path);
  } catch {
    // A malformed escape: the gateway's router matches it as written.
  }
  return COUNTRY_READ_PATHS.has(path);
}

/**
 * One call to the gateway, for the /api proxy and for the edge's own calls alike: the contract's headers
 * (language, trace id, client network and country, site, the session, second-step and operator tokens from
 * their HttpOnly cookies), then GATEWAY_URL within GATEWAY_TIMEOUT_MS when it is set, else `embedded`. A
 * gateway that fails or never answers becomes the GW0502/GW0504 envelope, logged with the trace id.
 */
export async function callGateway(c: Context<EdgeBindings>, embedded: GatewayFetch, call: GatewayCall): Promise<{ answer: Response; traceId: string }> {
  const config = c.get('config');
  const lang = visitorLang(c);
  // One id for this call in the gateway's log and in the answer (x-trace-id), which a person can quote.
  const traceId = crypto.randomUUID();
  const headers = gatewayRequestHeaders(c.req.raw.headers, {
    lang,
    traceId,
    token: sessionTokenOf(c),
    secondStep: secondStepTokenOf(c),
    device: deviceTokenOf(c),
    operatorSession: operatorTokenOf(c),
    wechatFlow: wechatFlowOf(c),
    country: needsCountry(call) ? clientCountry(c.req.raw, config) : undefined,
    clientIp: clientNetwork(c.req.raw.headers, config),
    site: isNavigatorHost(requestUrl(c).hostname, config.navigatorHostLabel) ? 'navigator' : 'portal',
  });
  if (call.contentType) headers.set('content-type', call.contentType);
  if (call.edgeCall) headers.set(EDGE_CALL_HEADER, '1');
  for (const name of call.forward ?? []) {
    const value = c.req.header(name);
    if (value === undefined) headers.delete(name);
    else headers.set(name, value);
  }
  if (call.receiptProof) headers.set(RECEIPT_PROOF_HEADER, call.receiptProof);
  const hasBody = call.body !== undefined && call.body !== null;
  // `duplex` is what the Fetch standard (and Node, which runs the function tests) asks of a streamed body.
  const init: RequestInit & { duplex?: 'half' } = {
    method: call.method,
    headers,
    body: hasBody ? call.body : undefined,
    ...(hasBody ? { duplex: 'half' as const } : {}),
  };
  const search = call.search ?? '';
  if (!config.gatewayUrl) {
    return { answer: await embedded(new Request(EMBEDDED_ORIGIN + call.path + search, init), c.env, c.executionCtx), traceId };
  }
  try {
    return { answer: await fetchWithin(gatewayTarget(config.gatewayUrl, call.path, search), init, config.gatewayTimeout), traceId };
  } catch (error) {
    if (!(error instanceof OutboundFailure)) throw error;
    // A gateway that never answers would leave the person before a spinner that never ends.
    console.error(JSON.stringify({ event: 'gateway_unavailable', traceId, reason: error.reason, detail: error.message }));
    const failed = errorResponse(error.reason === 'timeout' ? ERR.GATEWAY_TIMEOUT : ERR.GATEWAY_UNREACHABLE, lang);
    failed.headers.set('Cache-Control', 'no-store');
    failed.headers.set(TRACE_ID_HEADER, traceId);
    return { answer: failed, traceId };
  }
}
