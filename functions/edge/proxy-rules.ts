import type { Lang } from '../../src/lib/lang';
import { CLIENT_IP_HEADER } from '../gateway/errors';
import { CLIENT_COUNTRY_HEADER } from './client-country';

/** `/api/agg-web/x` → `/agg-web/x` (the gateway's paths have no /api/ prefix). */
export function gatewayPath(pathname: string): string {
  const stripped = pathname.replace(/^\/api(?=\/|$)/, '');
  return stripped === '' ? '/' : stripped;
}

/**
 * The configured gateway's URL for a call: its origin and base path, then the call's path and query, joined as
 * text. Never `new URL(path, base)`: `/api//evil.example/x` would resolve to another host and take the
 * person's Authorization header with it. The path comes from a request URL, so it starts with one `/`.
 */
export function gatewayTarget(gatewayUrl: string, path: string, search: string): string {
  const base = new URL(gatewayUrl);
  return `${base.origin}${base.pathname.replace(/\/+$/, '')}${path}${search}`;
}

/**
 * Set by the edge only (never passed through from the browser): which of this Worker's sites the call came
 * to, 'portal' or 'navigator'. The gateway builds sign-in links on that site's configured origin.
 */
export const SITE_HEADER = 'x-portal-site';
export type SiteName = 'portal' | 'navigator';

/** Headers a browser may pass through to the gateway; everything else (cookies first) stays at the edge. */
const passThrough = ['accept', 'content-type', 'user-agent'];

/**
 * Set by the edge only, from its HttpOnly second-step cookie (session-cookies.ts): the challenge a first
 * factor left, which the second-step call passes. A browser's own header of that name is never forwarded.
 */
export const SECOND_STEP_HEADER = 'x-second-step';

/**
 * Set by the edge only, from its HttpOnly operator cookie (session-cookies.ts): the operator session token.
 * A browser's own header of that name is never forwarded, and the platform cookie never becomes this header.
 */
export const OPERATOR_SESSION_HEADER = 'x-operator-session';

export interface ForwardContext {
  lang: Lang;
  traceId: string;
  token: string | undefined;
  country: string | undefined;
  /** The client network (clientNetwork); undefined gives the call a bucket of its own at the gateway. */
  clientIp: string | undefined;
  site: SiteName;
  /** The second-step challenge from its cookie, if any. */
  secondStep?: string;
  /** The operator session token from the operator cookie, if any. */
  operatorSession?: string;
}

/** The headers the gateway expects (language, random trace id, authorization) plus what the edge alone can know. */
export function gatewayRequestHeaders(incoming: Headers, context: ForwardContext): Headers {
  const headers = new Headers();
  for (const name of passThrough) {
    const value = incoming.get(name);
    if (value !== null) headers.set(name, value);
  }
  headers.set('language', context.lang);
  headers.set('traceid', context.traceId);
  if (context.clientIp) headers.set(CLIENT_IP_HEADER, context.clientIp);
  headers.set(SITE_HEADER, context.site);
  if (context.token) headers.set('authorization', `Bearer ${context.token}`);
  if (context.country) headers.set(CLIENT_COUNTRY_HEADER, context.country);
  if (context.secondStep) headers.set(SECOND_STEP_HEADER, context.secondStep);
  if (context.operatorSession) headers.set(OPERATOR_SESSION_HEADER, context.operatorSession);
  return headers;
}
