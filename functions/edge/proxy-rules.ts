import type { Lang } from '../../src/lib/lang';
import {
  CLIENT_COUNTRY_HEADER,
  CLIENT_IP_HEADER,
  LANGUAGE_HEADER,
  OPERATOR_SESSION_HEADER,
  SECOND_STEP_HEADER,
  DEVICE_HEADER,
  SITE_HEADER,
  WECHAT_FLOW_HEADER,
  REQUEST_TRACE_HEADER,
  type SiteName,
} from '../contract';

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

/** Headers a browser may pass through to the gateway; everything else (cookies first) stays at the edge. */
const passThrough = ['accept', 'content-type', 'user-agent'];

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
  /** The device token from the device cookie, if any (issue 44). */
  device?: string;
  /** The operator session token from the operator cookie, if any. */
  operatorSession?: string;
  /** The WeChat flow secret from its cookie, if any. */
  wechatFlow?: string;
}

/** The headers the gateway expects (language, random trace id, authorization) plus what the edge alone can know. */
export function gatewayRequestHeaders(incoming: Headers, context: ForwardContext): Headers {
  const headers = new Headers();
  for (const name of passThrough) {
    const value = incoming.get(name);
    if (value !== null) headers.set(name, value);
  }
  headers.set(LANGUAGE_HEADER, context.lang);
  headers.set(REQUEST_TRACE_HEADER, context.traceId);
  if (context.clientIp) headers.set(CLIENT_IP_HEADER, context.clientIp);
  headers.set(SITE_HEADER, context.site);
  if (context.token) headers.set('authorization', `Bearer ${context.token}`);
  if (context.country) headers.set(CLIENT_COUNTRY_HEADER, context.country);
  if (context.secondStep) headers.set(SECOND_STEP_HEADER, context.secondStep);
  if (context.device) headers.set(DEVICE_HEADER, context.device);
  if (context.operatorSession) headers.set(OPERATOR_SESSION_HEADER, context.operatorSession);
  if (context.wechatFlow) headers.set(WECHAT_FLOW_HEADER, context.wechatFlow);
  return headers;
}
