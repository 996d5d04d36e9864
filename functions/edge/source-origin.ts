import { requestUrl } from './request-url';
import type { MiddlewareHandler } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { requestCookie } from './request-cookies';
import { shellForPath } from '../../src/lib/routes';
import {
  PORT_TYPE_COOKIE,
  PORT_TYPE_MAX_AGE,
  SOURCE_COOKIE,
  ZHOUSHAN_SOURCE,
  sourceCookieValue,
  sourceFromQuery,
} from '../../src/lib/source-origin';
import type { EdgeBindings } from '../env';
import { cookiesAreSecure } from './session-cookies';

/** A request for one of the portal's pages (not /api, not a static file, not the 404 page). */
export function isPageRequest(method: string, pathname: string): boolean {
  return (method === 'GET' || method === 'HEAD') && shellForPath(pathname) !== undefined;
}

/**
 * Keeps the source-origin of this visit: a page request whose query has whitelisted keys replaces the
 * SOURCE_COOKIE (a session cookie the islands read), and sets PORT_TYPE=zhoushan for the zhoushan source or
 * removes it for any other. The cookies ride on whatever answer follows, a session redirect included.
 */
export const sourceOrigin: MiddlewareHandler<EdgeBindings> = async (c, next) => {
  await next();
  const url = requestUrl(c);
  if (!url.search || !isPageRequest(c.req.method, url.pathname)) return;
  const source = sourceFromQuery(url.searchParams);
  if (!source) return;
  const options = { path: '/', sameSite: 'Lax', secure: cookiesAreSecure(url), httpOnly: false } as const;
  setCookie(c, SOURCE_COOKIE, sourceCookieValue(source), options);
  if (source.source === ZHOUSHAN_SOURCE) {
    setCookie(c, PORT_TYPE_COOKIE, ZHOUSHAN_SOURCE, { ...options, maxAge: PORT_TYPE_MAX_AGE });
  } else if (requestCookie(c, PORT_TYPE_COOKIE) !== undefined) {
    deleteCookie(c, PORT_TYPE_COOKIE, options);
  }
};
