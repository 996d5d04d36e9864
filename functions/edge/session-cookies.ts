import { requestUrl } from './request-url';
import type { Context } from 'hono';
import type { StatusCode } from 'hono/utils/http-status';
import type { EdgeBindings } from '../env';
import { deleteCookie, setCookie } from 'hono/cookie';
import { requestCookie } from './request-cookies';
import type { CookieOptions, CookiePrefixOptions } from 'hono/utils/cookie';
import { SESSION_MARKER_COOKIE, SESSION_MAX_AGE, SUPPORT_MARKER_COOKIE } from '../../src/lib/session-marker';
import { configOf } from '../config';
import { isNavigatorHost } from './lang';
import { ERR } from '../../src/schemas/error-codes';

/**
 * HttpOnly cookies that hold the session token. The partner host keeps its own name so a platform
 * session and a partner session never mix.
 *
 * On https the token cookie takes the `__Host-` prefix: the browser then accepts it only with Secure, Path=/
 * and no Domain, so a sibling subdomain (or a man in the middle on http) cannot plant or overwrite it. Plain
 * http on localhost cannot carry a Secure cookie, so a local run uses the plain name.
 *
 * The edge turns a gateway answer carrying `data.oauthVO` into these cookies and removes `oauthVO` before
 * the answer reaches the browser, whose JavaScript therefore never sees a token. Beside the token cookie it
 * sets SESSION_MARKER_COOKIE, a readable '1' that only says a session exists (the logout icon; it proves
 * nothing, so it keeps its plain name for the page's script). TK00001, HTTP 401 and a POSTed logout clear
 * both. Every cookie is written with hono/cookie.
 */
export const PLATFORM_TOKEN_COOKIE = 'portal_token';
export const PARTNER_TOKEN_COOKIE = 'navigator_token';

export interface TokenCookie {
  /** The name without prefix (`portal_token`). */
  name: string;
  /** 'host' on https: the browser sees `__Host-<name>`. */
  prefix: CookiePrefixOptions | undefined;
  secure: boolean;
}

/** Secure everywhere except plain http on localhost, where browsers would drop a Secure cookie. */
export function cookiesAreSecure(url: URL): boolean {
  return !(url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1'));
}

/** The session cookie of this request's host: its name by site, `__Host-` where the scheme allows it. */
export function tokenCookie(url: URL, navigatorLabel: string | undefined): TokenCookie {
  return {
    name: isNavigatorHost(url.hostname, navigatorLabel) ? PARTNER_TOKEN_COOKIE : PLATFORM_TOKEN_COOKIE,
    prefix: url.protocol === 'https:' ? 'host' : undefined,
    secure: cookiesAreSecure(url),
  };
}

/** The cookie as the browser names it (`__Host-portal_token` on https). */
export const cookieHeaderName = (cookie: TokenCookie) => (cookie.prefix === 'host' ? `__Host-${cookie.name}` : cookie.name);

/** The session cookie of this request, for the request's own host (the one reader of the token). */
export function sessionTokenOf(c: Context<EdgeBindings>): string | undefined {
  const cookie = tokenCookie(requestUrl(c), c.get('config').navigatorHostLabel);
  return requestCookie(c, cookie.name, cookie.prefix) || undefined;
}

const options = (cookie: TokenCookie, httpOnly: boolean, maxAge = SESSION_MAX_AGE): CookieOptions => ({
  path: '/',
  httpOnly,
  secure: cookie.secure,
  sameSite: 'Lax',
  maxAge,
});

/**
 * Starts a session in the browser: the HttpOnly token and the readable marker. Both live as long as the
 * session can (SESSION_ABSOLUTE_TIMEOUT, by default the spec's 604,799 s); an earlier end (idle, sign-out)
 * answers TK00001, which clears them.
 */
export function setSessionCookies(c: Context, cookie: TokenCookie, token: string): void {
  const maxAge = configOf(c.env as object).sessionAbsoluteTimeout;
  setCookie(c, cookie.name, token, { ...options(cookie, true, maxAge), prefix: cookie.prefix });
  setCookie(c, SESSION_MARKER_COOKIE, '1', options(cookie, false, maxAge));
}

/** Ends a session in the browser (and the support marker of a view, if any). */
export function clearSessionCookies(c: Context, cookie: TokenCookie): void {
  deleteCookie(c, cookie.name, { ...options(cookie, true), prefix: cookie.prefix });
  deleteCookie(c, SESSION_MARKER_COOKIE, options(cookie, false));
  if (requestCookie(c, SUPPORT_MARKER_COOKIE) !== undefined) deleteCookie(c, SUPPORT_MARKER_COOKIE, options(cookie, false));
}

/**
 * The support marker (SUPPORT_MARKER_COOKIE): a view's start answers `data.supportBanner { operator, until }` beside
 * its oauthVO; the edge writes it readable, for the view's lifetime at most, and takes it out of the answer. Any other
 * session start clears a marker left behind. Returns the answer without `supportBanner`.
 */
function supportMarker(c: Context, cookie: TokenCookie, body: Json, lifetimeS: number): Json {
  // The name is cut by characters, not UTF-16 units: half an emoji cannot be written into a cookie.
  const banner = isObject(body.data) ? body.data.supportBanner : undefined;
  if (isObject(banner) && typeof banner.operator === 'string' && typeof banner.until === 'number' && lifetimeS > 0) {
    setCookie(c, SUPPORT_MARKER_COOKIE, `${banner.until}~${Array.from(banner.operator).slice(0, 80).join('')}`, options(cookie, false, Math.min(lifetimeS, SUPPORT_MARKER_MAX_S)));
    return withoutKey(body, 'supportBanner');
  }
  if (requestCookie(c, SUPPORT_MARKER_COOKIE) !== undefined) deleteCookie(c, SUPPORT_MARKER_COOKIE, options(cookie, false));
  return body;
}
/** A view lasts 30 minutes (gateway support/service.ts VIEW_MS); no marker outlives that. */
const SUPPORT_MARKER_MAX_S = 30 * 60;

/**
 * The second-step cookie: a first factor of a person with two-step on answers `data.secondStep.challenge`
 * instead of oauthVO; the edge moves the challenge into this HttpOnly cookie (no script of the page ever
 * reads it), removes it from the answer, and forwards it to the gateway as SECOND_STEP_HEADER. It lives as
 * long as the challenge (5 minutes), is SameSite=Strict, and is cleared when a session starts. It is not a
 * session: every session-only call still answers TK00001.
 */
export const PLATFORM_SECOND_STEP_COOKIE = 'portal_second_step';
export const PARTNER_SECOND_STEP_COOKIE = 'navigator_second_step';

/** The second-step cookie of this request's host, named and prefixed like its session cookie. */
export function secondStepCookie(url: URL, navigatorLabel: string | undefined): TokenCookie {
  const cookie = tokenCookie(url, navigatorLabel);
  return { ...cookie, name: cookie.name === PARTNER_TOKEN_COOKIE ? PARTNER_SECOND_STEP_COOKIE : PLATFORM_SECOND_STEP_COOKIE };
}

/** The second-step challenge of this request, if any. */
export function secondStepTokenOf(c: Context<EdgeBindings>): string | undefined {
  const cookie = secondStepCookie(requestUrl(c), c.get('config').navigatorHostLabel);
  return requestCookie(c, cookie.name, cookie.prefix) || undefined;
}

const secondStepOptions = (cookie: TokenCookie, maxAge: number): CookieOptions & { prefix?: CookiePrefixOptions } => ({
  path: '/',
  httpOnly: true,
  secure: cookie.secure,
  sameSite: 'Strict',
  maxAge,
  prefix: cookie.prefix,
});

export function setSecondStepCookie(c: Context, cookie: TokenCookie, challenge: string, maxAge: number): void {
  setCookie(c, cookie.name, challenge, secondStepOptions(cookie, maxAge));
}

export function clearSecondStepCookie(c: Context, cookie: TokenCookie): void {
  deleteCookie(c, cookie.name, secondStepOptions(cookie, 0));
}

/**
 * A secret the gateway hands the edge in `data[key] = { [field]: secret, expiresIn }`: returns the secret, its
 * lifetime in seconds and the answer with only `{ expiresIn }` left under `key`; otherwise null.
 */
function takeSecret(body: unknown, key: string, field: string): { secret: string; expiresIn: number; body: Json } | null {
  if (!isObject(body) || !isObject(body.data) || !isObject(body.data[key])) return null;
  const { [field]: secret, ...rest } = body.data[key];
  const expiresIn = rest.expiresIn;
  if (typeof secret !== 'string' || !/^[A-Za-z0-9_-]{16,256}$/.test(secret) || typeof expiresIn !== 'number') return null;
  // Everything but the secret stays (the new-device challenge says where its code went).
  return { secret, expiresIn, body: { ...body, data: { ...body.data, [key]: rest } } };
}

/**
 * The device cookie (issue 44): the random token a session's start names this browser by for the person
 * (devices/service.ts); the gateway answers it as `data.device.token`, the edge moves it into this HttpOnly,
 * SameSite=Lax cookie (removed from the answer) and forwards it only as DEVICE_HEADER. It outlives sessions (a sign-out
 * keeps it): it lives NEW_DEVICE_DAYS from the last sign-in. One name for both hosts' sign-ins.
 */
export const DEVICE_COOKIE = 'portal_device';

function deviceCookie(url: URL): TokenCookie {
  return { name: DEVICE_COOKIE, prefix: url.protocol === 'https:' ? 'host' : undefined, secure: cookiesAreSecure(url) };
}

/** The device token of this request, if any. */
export function deviceTokenOf(c: Context): string | undefined {
  const cookie = deviceCookie(requestUrl(c));
  return requestCookie(c, cookie.name, cookie.prefix) || undefined;
}

function setDeviceCookie(c: Context, url: URL, token: string, maxAge: number): void {
  const cookie = deviceCookie(url);
  setCookie(c, cookie.name, token, { path: '/', httpOnly: true, secure: cookie.secure, sameSite: 'Lax', maxAge, prefix: cookie.prefix });
}

const withoutKey = (body: Json, key: string): Json => {
  if (!isObject(body) || !isObject(body.data)) return body;
  const { [key]: _dropped, ...data } = body.data;
  return { ...body, data };
};

/** When a gateway answer owes the second step (`data.secondStep.challenge`), the challenge; otherwise null. */
export function takeSecondStep(body: unknown): { challenge: string; expiresIn: number; body: Json } | null {
  const taken = takeSecret(body, 'secondStep', 'challenge');
  return taken && { challenge: taken.secret, expiresIn: taken.expiresIn, body: taken.body };
}

/**
 * The operator cookie: an operator sign-in that passed both steps answers `data.operatorSession.token`;
 * the edge moves it into this HttpOnly, SameSite=Strict cookie (removed from the answer) and forwards it
 * only as OPERATOR_SESSION_HEADER. It has its own name, so it is never a platform session and the platform
 * cookie is never an operator one. OP0001 (no live operator session) and a POSTed operator logout clear it.
 */
export const OPERATOR_TOKEN_COOKIE = 'portal_operator';
export const OPERATOR_SESSION_ENDED_CODE = ERR.OPERATOR_SIGN_IN_REQUIRED;
export const OPERATOR_LOGOUT_PATH = '/ops/v1/logout';

export function operatorCookie(url: URL): TokenCookie {
  return { name: OPERATOR_TOKEN_COOKIE, prefix: url.protocol === 'https:' ? 'host' : undefined, secure: cookiesAreSecure(url) };
}

/** The operator session token of this request, if any. */
export function operatorTokenOf(c: Context): string | undefined {
  const cookie = operatorCookie(requestUrl(c));
  return requestCookie(c, cookie.name, cookie.prefix) || undefined;
}

/** HttpOnly and SameSite=Strict, like the second-step cookie. */
const operatorOptions = secondStepOptions;

/** When a gateway answer starts an operator session (`data.operatorSession.token`), the token; otherwise null. */
export function takeOperatorSession(body: unknown): { token: string; expiresIn: number; body: Json } | null {
  const taken = takeSecret(body, 'operatorSession', 'token');
  return taken && { token: taken.secret, expiresIn: taken.expiresIn, body: taken.body };
}

/**
 * The WeChat cookie: a WeChat or WeCom sign-in (or binding) answers `data.wechatFlow.secret`, the browser's half
 * of its `state` (and, after the callback of a person the portal does not know, the binding ticket). The edge
 * moves it into this HttpOnly cookie and forwards it only as WECHAT_FLOW_HEADER, so a callback is accepted only
 * in the browser that started it. SameSite=Lax: WeChat's redirect back is a top-level navigation from its site.
 * It lives as long as the flow (10 minutes) and is cleared when a session starts.
 */
export const WECHAT_FLOW_COOKIE = 'portal_wechat';

export function wechatFlowCookie(url: URL): TokenCookie {
  return { name: WECHAT_FLOW_COOKIE, prefix: url.protocol === 'https:' ? 'host' : undefined, secure: cookiesAreSecure(url) };
}

/** The WeChat flow secret of this request, if any. */
export function wechatFlowOf(c: Context): string | undefined {
  const cookie = wechatFlowCookie(requestUrl(c));
  return requestCookie(c, cookie.name, cookie.prefix) || undefined;
}

const wechatFlowOptions = (cookie: TokenCookie, maxAge: number): CookieOptions & { prefix?: CookiePrefixOptions } => ({
  path: '/',
  httpOnly: true,
  secure: cookie.secure,
  sameSite: 'Lax',
  maxAge,
  prefix: cookie.prefix,
});

/** When a gateway answer hands over a WeChat flow secret (`data.wechatFlow.secret`), the secret; otherwise null. */
export function takeWechatFlow(body: unknown): { secret: string; expiresIn: number; body: Json } | null {
  return takeSecret(body, 'wechatFlow', 'secret');
}

/** The gateway call that ends a session; only its POST clears the cookies (a GET is no logout). */
export const LOGOUT_PATH = '/c/user/v2/loginout';
/** The End of a support "view as", called in the view's own session (gateway support/routes.ts). */
const SUPPORT_END_PATH = '/agg-web/user/support/end';
/** The session-expired code. */
export const SESSION_ENDED_CODE = ERR.SESSION_ENDED;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * When a gateway answer carries a session (`data.oauthVO.access_token`), returns the token and the answer
 * without `oauthVO`; otherwise null.
 */
export function takeSession(body: unknown): { token: string; expiresIn: number | undefined; body: Json } | null {
  if (!isObject(body) || !isObject(body.data) || !isObject(body.data.oauthVO)) return null;
  const token = body.data.oauthVO.access_token;
  if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{16,256}$/.test(token)) return null;
  const expiresIn = typeof body.data.oauthVO.expires_in === 'number' ? body.data.oauthVO.expires_in : undefined;
  const { oauthVO: _removed, ...data } = body.data;
  return { token, expiresIn, body: { ...body, data } };
}

/**
 * True when the answer means the browser's session is over: TK00001 or 401, a POSTed logout or support view's End. A logout by
 * any other method is not one, so a cross-site `<img src=…/loginout>` signs nobody out.
 */
export function endsSession(call: { path: string; method: string }, status: number, body: unknown): boolean {
  return (
    (call.path === LOGOUT_PATH && call.method === 'POST') ||
    // A support view ended from inside (issue 44): that session is over too.
    (call.path === SUPPORT_END_PATH && call.method === 'POST' && isObject(body) && body.code === '0') ||
    status === 401 ||
    (isObject(body) && body.code === SESSION_ENDED_CODE) ||
    // The person confirmed an app's sign-out on /sign_out (gateway oidc/logout.ts decideLogout).
    (call.method === 'POST' && OIDC_SIGN_OUT_DECISION.test(call.path) && isObject(body) && isObject(body.data) && body.data.signedOut === true)
  );
}

/** The /sign_out page's answer (RP-initiated logout confirmed by the person). */
const OIDC_SIGN_OUT_DECISION = /^\/oidc\/v1\/logouts\/[A-Za-z0-9_-]{20,64}\/decision$/;

/**
 * The gateway's answer as the browser gets it: session cookies set (and oauthVO removed) or cleared by the
 * rules above; any answer that touches cookies is also marked no-store. Other answers pass through untouched.
 */
export async function withSessionCookies(
  c: Context,
  answer: Response,
  call: { path: string; method: string; cookie: TokenCookie; secondStepCookie: TokenCookie; operatorCookie: TokenCookie },
): Promise<Response> {
  const isJson = /^application\/json\b/i.test(answer.headers.get('content-type') ?? '');
  const text = isJson ? await answer.text() : null;
  let body: unknown = null;
  try {
    body = text === null ? null : JSON.parse(text);
  } catch {
    // Not JSON after all: pass the text through as it came.
  }
  const headers = new Headers(answer.headers);
  const init = () => ({ status: answer.status as StatusCode, statusText: answer.statusText, headers });

  const session = takeSession(body);
  if (session) {
    headers.delete('content-length');
    headers.set('Cache-Control', 'no-store');
    setSessionCookies(c, call.cookie, session.token);
    session.body = supportMarker(c, call.cookie, session.body, session.expiresIn ?? 0);
    const device = takeSecret(session.body, 'device', 'token');
    if (device) {
      setDeviceCookie(c, requestUrl(c), device.secret, device.expiresIn);
      session.body = withoutKey(device.body, 'device');
    }
    clearSecondStepCookie(c, call.secondStepCookie);
    const flow = wechatFlowCookie(requestUrl(c));
    if (wechatFlowOf(c)) deleteCookie(c, flow.name, wechatFlowOptions(flow, 0));
    return c.newResponse(JSON.stringify(session.body), init());
  }
  const operatorSession = takeOperatorSession(body);
  if (operatorSession) {
    headers.delete('content-length');
    headers.set('Cache-Control', 'no-store');
    setCookie(c, call.operatorCookie.name, operatorSession.token, operatorOptions(call.operatorCookie, operatorSession.expiresIn));
    return c.newResponse(JSON.stringify(operatorSession.body), init());
  }
  const wechatFlow = takeWechatFlow(body);
  if (wechatFlow) {
    headers.delete('content-length');
    headers.set('Cache-Control', 'no-store');
    const flow = wechatFlowCookie(requestUrl(c));
    setCookie(c, flow.name, wechatFlow.secret, wechatFlowOptions(flow, wechatFlow.expiresIn));
    return c.newResponse(JSON.stringify(wechatFlow.body), init());
  }
  const owed = takeSecondStep(body);
  if (owed) {
    headers.delete('content-length');
    headers.set('Cache-Control', 'no-store');
    setSecondStepCookie(c, call.secondStepCookie, owed.challenge, owed.expiresIn);
    return c.newResponse(JSON.stringify(owed.body), init());
  }
  if ((isObject(body) && body.code === OPERATOR_SESSION_ENDED_CODE) || (call.path === OPERATOR_LOGOUT_PATH && call.method === 'POST')) {
    // The operator session is over; the platform session (a separate cookie) is untouched.
    headers.set('Cache-Control', 'no-store');
    deleteCookie(c, call.operatorCookie.name, operatorOptions(call.operatorCookie, 0));
  } else if (endsSession(call, answer.status, body)) {
    headers.set('Cache-Control', 'no-store');
    clearSessionCookies(c, call.cookie);
  }
  const nullBody = [101, 204, 205, 304].includes(answer.status);
  return c.newResponse(nullBody ? null : (text ?? answer.body), init());
}
