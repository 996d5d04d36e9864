import type { Lang } from '../../src/lib/lang';
import { CLIENT_COUNTRY_HEADER } from './client-country';

/** `/api/agg-web/x` → `/agg-web/x` (spec 7: calls go to the gateway with /api/ removed). */
export function gatewayPath(pathname: string): string {
  const stripped = pathname.replace(/^\/api(?=\/|$)/, '');
  return stripped === '' ? '/' : stripped;
}

/** Set by the edge only (never passed through from the browser). */
export const PORTAL_ORIGIN_HEADER = 'x-portal-origin';

/** Headers a browser may pass through to the gateway; everything else (cookies first) stays at the edge. */
const passThrough = ['accept', 'content-type', 'user-agent', 'x-operator-token'];

export interface ForwardContext {
  lang: Lang;
  traceId: string;
  token: string | undefined;
  country: string | undefined;
  clientIp: string;
  /** This site's origin as the visitor sees it: the gateway builds sign-in links on it. */
  portalOrigin: string;
}

/** The headers of spec 7 (language, random trace id, authorization) plus what the edge alone can know. */
export function gatewayRequestHeaders(incoming: Headers, context: ForwardContext): Headers {
  const headers = new Headers();
  for (const name of passThrough) {
    const value = incoming.get(name);
    if (value !== null) headers.set(name, value);
  }
  headers.set('language', context.lang);
  headers.set('traceid', context.traceId);
  headers.set('x-client-ip', context.clientIp);
  headers.set(PORTAL_ORIGIN_HEADER, context.portalOrigin);
  if (context.token) headers.set('authorization', `Bearer ${context.token}`);
  if (context.country) headers.set(CLIENT_COUNTRY_HEADER, context.country);
  return headers;
}
