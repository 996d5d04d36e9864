import { isNavigatorHost } from './lang';

/**
 * HttpOnly cookies that hold the session token. The partner host keeps its own name so a platform
 * session and a partner session never mix (spec 7).
 */
export const PLATFORM_TOKEN_COOKIE = 'portal_token';
export const PARTNER_TOKEN_COOKIE = 'navigator_token';

export function tokenCookieName(hostname: string, navigatorLabel: string | undefined): string {
  return isNavigatorHost(hostname, navigatorLabel) ? PARTNER_TOKEN_COOKIE : PLATFORM_TOKEN_COOKIE;
}
