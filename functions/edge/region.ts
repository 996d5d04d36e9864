import type { MiddlewareHandler } from 'hono';
import type { EdgeBindings } from '../env';
import { isChinaRegion } from '../gateway/services/countries';
import { clientCountry } from './client-country';
import { isNavigatorHost } from './lang';

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
 * country stays, as does anything under /api (calls are never bounced between sites).
 */
export function regionRedirectTarget(
  url: URL,
  country: string | undefined,
  sites: { enabled: boolean; siteCn?: string; siteCom?: string },
): string | undefined {
  if (!sites.enabled || !country || /^\/api(\/|$)/.test(url.pathname)) return undefined;
  const site = siteOfHost(url.hostname);
  // The same rule the gateway's queryIPRegion answers with.
  const inChina = isChinaRegion(country);
  const other = site === 'cn' && !inChina ? sites.siteCom : site === 'com' && inChina ? sites.siteCn : undefined;
  if (!other) return undefined;
  let target: URL;
  try {
    target = new URL(url.pathname + url.search, other);
  } catch {
    return undefined;
  }
  // A misconfigured pair that points back at this host must not loop.
  return target.host === url.host ? undefined : target.href;
}

/** Region redirect (302) in front of everything else but the security headers. */
export const regionRedirect: MiddlewareHandler<EdgeBindings> = async (c, next) => {
  const config = c.var.config;
  // The pair is the portal's two sites; a partner on the navigator host would lose the partner login.
  if (!config.regionRedirect || isNavigatorHost(new URL(c.req.url).hostname, config.navigatorHostLabel)) return next();
  const target = regionRedirectTarget(new URL(c.req.url), clientCountry(c.req.raw, config), {
    enabled: true,
    siteCn: config.siteCn,
    siteCom: config.siteCom,
  });
  if (!target) return next();
  c.header('Cache-Control', 'private, no-store');
  return c.redirect(target, 302);
};
