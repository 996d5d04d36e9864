import type { MiddlewareHandler } from 'hono';
import type { EdgeBindings } from '../env';
import { errorResponse } from '../contract';
import { visitorLang } from './lang';
import { ERR } from '../../src/schemas/error-codes';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * True when a browser says this state-changing request comes from another site: `Sec-Fetch-Site` other than
 * same-origin, or (browsers without Fetch Metadata) an `Origin` that is not one of `origins`. An origin in
 * `origins` is accepted either way (the .cn and .com sites call each other's /api). A request with neither
 * header comes from no browser, so no visitor's cookies can be abused through it, and it passes.
 *
 * Hono's `csrf` middleware holds the same rule but checks form bodies only and refuses one that names no
 * origin; a cross-site page can also post `text/plain` or JSON with `no-cors` (the gateway reads JSON
 * whatever the header says) and scripts upload multipart without an Origin, so /api needs the rule for every
 * content type and for browsers only. The hand-off form, which only a browser posts, uses Hono's `csrf`.
 */
export function isCrossSite(headers: Headers, origins: readonly string[]): boolean {
  const fetchSite = headers.get('sec-fetch-site');
  const origin = headers.get('origin');
  if (origin !== null && origins.includes(origin)) return false;
  if (fetchSite !== null) return fetchSite !== 'same-origin';
  return origin !== null;
}

/**
 * Refuses (GW0403) a state-changing /api call sent from another site. The allowed origins are configuration
 * (PORTAL_ORIGIN, NAVIGATOR_ORIGIN, SITE_CN, SITE_COM), never the request's own Host, which a client names.
 */
export const crossSiteGuard: MiddlewareHandler<EdgeBindings> = async (c, next) => {
  if (SAFE_METHODS.has(c.req.method) || !isCrossSite(c.req.raw.headers, c.get('config').siteOrigins)) return next();
  const res = errorResponse(ERR.CROSS_SITE_REFUSED, visitorLang(c));
  res.headers.set('Cache-Control', 'no-store');
  return res;
};
