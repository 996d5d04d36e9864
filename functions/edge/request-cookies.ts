import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';

const parsedCookies = new WeakMap<Request, Record<string, string>>();

/**
 * One cookie of the request, from its Cookie header parsed once per request: an /api call reads up to six (the
 * language, the session, second-step, device, operator and WeChat-flow tokens), and Hono's getCookie parses the
 * header again for each (about 5 % of a signed-in call's CPU in issue 46's profile). Same rules as getCookie: the
 * first valid value of a name wins; `prefix` names the `__Host-` / `__Secure-` form.
 */
export function requestCookie(c: Context, name: string, prefix?: 'host' | 'secure'): string | undefined {
  let cookies = parsedCookies.get(c.req.raw);
  if (!cookies) {
    cookies = getCookie(c);
    parsedCookies.set(c.req.raw, cookies);
  }
  return cookies[prefix === 'host' ? `__Host-${name}` : prefix === 'secure' ? `__Secure-${name}` : name];
}
