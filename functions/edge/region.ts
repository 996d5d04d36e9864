import { requestUrl } from './request-url';
import type { MiddlewareHandler } from 'hono';
import type { EdgeBindings } from '../env';
import { isChinaRegion } from '../../src/lib/region';
import { clientCountry } from './client-country';
import { isNavigatorHost } from './lang';
import { buildRedirect } from './redirect-target';

export type Site = 'cn' | 'com';

/**
 * Hosts ending `.cn` are the Chinese site and hosts ending `.com` the international one; any other host
 * (localhost, an IP, a preview host) belongs to neither and is never redirected.
 */
export function siteOfHost(hostname: string): Site | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host.endsWith('.cn') ? 'cn' : host.endsWith('.com') ? 'com' : undefined;
}

/**
 * Where the region rule sends this request, or undefined to stay: a visitor outside the China region on the
 * .cn site, or inside it on the .com site, goes to the other site with path and query kept. An unknown
 * country stays, as does anything under /api (calls are never bounced between sites) and the OpenID endpoints.
 */
export function regionRedirectTarget(
  url: URL,
  country: string | undefined,
  sites: { enabled: boolean; siteCn?: string; siteCom?: string },
): string | undefined {
  // The OpenID Provider's endpoints are called by apps' servers as well as browsers: one issuer, never bounced.
  if (!sites.enabled || !country || /^\/(api|oidc)(\/|$)|^\/\.well-known\//.test(url.pathname)) return undefined;
  const site = siteOfHost(url.hostname);
  // The same rule the gateway's queryIPRegion answers with.
  const inChina = isChinaRegion(country);
  const other = site === 'cn' && !inChina ? sites.siteCom : site === 'com' && inChina ? sites.siteCn : undefined;
  if (!other) return undefined;
  let origin: string;
  try {
    origin = new URL(other).origin;
  } catch {
    return undefined;
  }
  // A misconfigured pair that points back at this host must not loop.
  if (origin === url.origin) return undefined;
  // The path is the visitor's own; written after the configured origin, never resolved against it, and a
  // path that a browser could read as another host (`//evil.example`) goes to the other site's home.
  const home = `${origin}/`;
  return buildRedirect({ origin, path: url.pathname, query: url.search }, { origins: [origin], fallback: home, allowHttpLocalhost: false });
}

/** Region redirect (302) in front of everything else but the security headers. */
export const regionRedirect: MiddlewareHandler<EdgeBindings> = async (c, next) => {
  const config = c.get('config');
  // The pair is the portal's two sites; a partner on the navigator host would lose the partner login.
  if (!config.regionRedirect || isNavigatorHost(requestUrl(c).hostname, config.navigatorHostLabel)) return next();
  const target = regionRedirectTarget(requestUrl(c), clientCountry(c.req.raw, config), {
    enabled: true,
    siteCn: config.siteCn,
    siteCom: config.siteCom,
  });
  if (!target) return next();
  c.header('Cache-Control', 'private, no-store');
  return c.redirect(target, 302);
};
