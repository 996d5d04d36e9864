import { SESSION_MARKER_COOKIE, SESSION_MAX_AGE } from '../../src/lib/session-marker';
import { isNavigatorHost } from './lang';

/**
 * HttpOnly cookies that hold the session token. The partner host keeps its own name so a platform
 * session and a partner session never mix (spec 7).
 *
 * The edge turns a gateway answer carrying `data.oauthVO` into these cookies and removes `oauthVO` before
 * the answer reaches the browser, whose JavaScript therefore never sees a token. Beside the token cookie it
 * sets SESSION_MARKER_COOKIE, a readable '1' that only says a session exists (the logout icon).
 * TK00001, HTTP 401 and logout clear both.
 */
export const PLATFORM_TOKEN_COOKIE = 'portal_token';
export const PARTNER_TOKEN_COOKIE = 'navigator_token';

export function tokenCookieName(hostname: string, navigatorLabel: string | undefined): string {
  return isNavigatorHost(hostname, navigatorLabel) ? PARTNER_TOKEN_COOKIE : PLATFORM_TOKEN_COOKIE;
}

/** The gateway call that ends a session (spec 7); its answer clears the cookies whatever it says. */
export const LOGOUT_PATH = '/c/user/v2/loginout';
/** The session-expired code of spec 8. */
export const SESSION_ENDED_CODE = 'TK00001';

/** Secure everywhere except plain http on localhost, where browsers would drop a Secure cookie. */
export function cookiesAreSecure(url: URL): boolean {
  return !(url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1'));
}

function cookie(name: string, value: string, maxAge: number, { httpOnly, secure }: { httpOnly: boolean; secure: boolean }): string {
  return [`${name}=${value}`, `Max-Age=${maxAge}`, 'Path=/', httpOnly && 'HttpOnly', secure && 'Secure', 'SameSite=Lax']
    .filter(Boolean)
    .join('; ');
}

/** Set-Cookie values that start a session: the HttpOnly token and the readable marker. */
export function sessionCookies(name: string, token: string, secure: boolean): string[] {
  return [
    cookie(name, token, SESSION_MAX_AGE, { httpOnly: true, secure }),
    cookie(SESSION_MARKER_COOKIE, '1', SESSION_MAX_AGE, { httpOnly: false, secure }),
  ];
}

/** Set-Cookie values that end a session in the browser. */
export function clearedSessionCookies(name: string, secure: boolean): string[] {
  return [cookie(name, '', 0, { httpOnly: true, secure }), cookie(SESSION_MARKER_COOKIE, '', 0, { httpOnly: false, secure })];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * When a gateway answer carries a session (`data.oauthVO.access_token`), returns the token and the answer
 * without `oauthVO`; otherwise null.
 */
export function takeSession(body: unknown): { token: string; body: Json } | null {
  if (!isObject(body) || !isObject(body.data) || !isObject(body.data.oauthVO)) return null;
  const token = body.data.oauthVO.access_token;
  if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{16,256}$/.test(token)) return null;
  const { oauthVO: _removed, ...data } = body.data;
  return { token, body: { ...body, data } };
}

/** True when the answer means the browser's session is over (spec 8: TK00001 or 401; and logout). */
export function endsSession(gatewayPathname: string, status: number, body: unknown): boolean {
  return gatewayPathname === LOGOUT_PATH || status === 401 || (isObject(body) && body.code === SESSION_ENDED_CODE);
}

export interface SessionCookieContext {
  /** The gateway path that was called (after /api was stripped). */
  path: string;
  cookieName: string;
  secure: boolean;
}

/**
 * The gateway's answer as the browser gets it: session cookies set (and oauthVO removed) or cleared by the
 * rules above; any answer that touches cookies is also marked no-store. Other answers pass through untouched.
 */
export async function withSessionCookies(answer: Response, context: SessionCookieContext): Promise<Response> {
  const isJson = /^application\/json\b/i.test(answer.headers.get('content-type') ?? '');
  const text = isJson ? await answer.text() : null;
  let body: unknown = null;
  try {
    body = text === null ? null : JSON.parse(text);
  } catch {
    // Not JSON after all: pass the text through as it came.
  }
  const headers = new Headers(answer.headers);
  const init = () => ({ status: answer.status, statusText: answer.statusText, headers });

  const session = takeSession(body);
  if (session) {
    headers.delete('content-length');
    headers.set('Cache-Control', 'no-store');
    for (const value of sessionCookies(context.cookieName, session.token, context.secure)) headers.append('Set-Cookie', value);
    return new Response(JSON.stringify(session.body), init());
  }
  if (endsSession(context.path, answer.status, body)) {
    headers.set('Cache-Control', 'no-store');
    for (const value of clearedSessionCookies(context.cookieName, context.secure)) headers.append('Set-Cookie', value);
  }
  const nullBody = [101, 204, 205, 304].includes(answer.status);
  return new Response(nullBody ? null : (text ?? answer.body), init());
}
