import { requestUrl } from './request-url';
import type { MiddlewareHandler } from 'hono';
import { requestCookie } from './request-cookies';
import type { Lang } from '../../src/lib/lang';
import { isOpsShell, opsPublicShells, opsSignInPathFrom, sessionShells, shellForPath, signInPathFrom, signInShells } from '../../src/lib/routes';
import { SOURCE_COOKIE, ZHOUSHAN_SOURCE, parseSourceCookie, sourceFromQuery, type SourceOrigin } from '../../src/lib/source-origin';
import type { EdgeBindings } from '../env';
import type { Config } from '../config';
import { isNavigatorHost, visitorLang } from './lang';
import { safeRedirect } from './redirect-target';
import { isPageRequest } from './source-origin';
import { operatorTokenOf, sessionTokenOf } from './session-cookies';

/** `source` values naming the invitation-letter-online page and the portal (compared without case, - or _). */
const INVITATION_LETTER_SOURCE = 'invitationletteronline';
const PORTAL_SOURCE = 'portal';

export interface SessionRedirectInput {
  pathname: string;
  navigatorHost: boolean;
  hasSession: boolean;
  /** This request's whitelisted query, else the SOURCE_FROM cookie. */
  source: SourceOrigin;
  lang: Lang;
  config: Pick<Config, 'portalUrl' | 'zhoushanUrl' | 'invitationLetterUrl' | 'redirect'>;
}

/**
 * Where a visitor with a session who opens a sign-in page goes (portal-spec.md §2 "Page-load behaviour": the origin recorded for the visit wins over the portal), or undefined
 * to show the page. By source: zhoushan → ZHOUSHAN_URL (+ `page`); invitation letter → INVITATION_LETTER_URL
 * (`/zh` path prefix in Chinese); portal → PORTAL_URL (+ `address`); otherwise the `redirect` parameter, and
 * by default PORTAL_URL (+ `address`). Every target passes safeRedirect, whose fallback is PORTAL_URL.
 * The login page itself (`/login`, and `/` off the navigator host) with no recorded origin is shown: its script
 * routes by login case without showing the form.
 */
export function sessionRedirectTarget(input: SessionRedirectInput): string | undefined {
  if (!input.hasSession) return undefined;
  const shell = input.pathname === '/' && input.navigatorHost ? 'navigator_login' : shellForPath(input.pathname);
  // `join` is not a sign-in page: a signed-in person joins a company there.
  if (!shell || !signInShells.includes(shell)) return undefined;

  const { source, config } = input;
  // Without a recorded origin the login page routes the person by their login case itself (the page's script
  // asks the gateway before any form shows), so someone half-way through onboarding goes back to their step.
  if (shell === 'login' && !Object.values(source).some(Boolean)) return undefined;
  const kind = source.source?.toLowerCase().replace(/[-_]/g, '');
  const portal = () => withPath(config.portalUrl, source.address);
  let target: string | undefined;
  if (kind === ZHOUSHAN_SOURCE && config.zhoushanUrl) target = withPath(config.zhoushanUrl, source.page);
  else if (kind === INVITATION_LETTER_SOURCE && config.invitationLetterUrl) {
    target = input.lang === 'zh' ? withZhPrefix(config.invitationLetterUrl) : config.invitationLetterUrl;
  } else if (kind === PORTAL_SOURCE) target = portal();
  else target = source.redirect ?? portal();
  return safeRedirect(target, config.redirect);
}

/** `base` with `path` appended as a path below it (`https://a.example/x` + `y/z` → `https://a.example/x/y/z`). */
function withPath(base: string, path: string | undefined): string {
  if (!path) return base;
  // Leading slashes are dropped so the result can only be a deeper path of `base`, never a new host.
  return `${base.replace(/\/+$/, '')}/${path.replace(/^[/\\]+/, '')}`;
}

/** `https://a.example/invitation` → `https://a.example/zh/invitation`. */
function withZhPrefix(target: string): string {
  if (target.startsWith('/')) return `/zh${target}`;
  try {
    const url = new URL(target);
    url.pathname = `/zh${url.pathname === '/' ? '' : url.pathname}`;
    return url.href;
  } catch {
    return target;
  }
}

/**
 * Where a visitor without a session who opens a page that needs one goes: the sign-in page (the partner
 * login at "/" on the navigator host) with this page as the return path; undefined to show the page.
 */
export function signedOutRedirectTarget(input: { pathname: string; search: string; navigatorHost: boolean; hasSession: boolean }) {
  const shell = shellForPath(input.pathname);
  if (input.hasSession || !shell || !sessionShells.includes(shell)) return undefined;
  return signInPathFrom(input.pathname, input.search, input.navigatorHost ? '/' : '/login');
}

/**
 * Where a visitor without the operator cookie who opens an operator page goes: /ops/login, with the page as
 * the return path. The platform cookie counts for nothing here, as the operator cookie counts for nothing on
 * the platform's pages (signedOutRedirectTarget reads only the platform cookie).
 */
export function opsRedirectTarget(input: { pathname: string; search: string; hasOperatorSession: boolean }) {
  const shell = shellForPath(input.pathname);
  if (input.hasOperatorSession || !shell || !isOpsShell(shell) || opsPublicShells.includes(shell)) return undefined;
  return opsSignInPathFrom(input.pathname, input.search);
}

/**
 * Page requests: a signed-in visitor on a sign-in page goes on to the recorded origin
 * (sessionRedirectTarget); a signed-out visitor on a page that needs a session goes to sign-in
 * (signedOutRedirectTarget). Both 302, never cached.
 */
export const sessionRedirect: MiddlewareHandler<EdgeBindings> = async (c, next) => {
  const url = requestUrl(c);
  if (!isPageRequest(c.req.method, url.pathname)) return next();
  const navigatorHost = isNavigatorHost(url.hostname, c.get('config').navigatorHostLabel);
  const hasSession = sessionTokenOf(c) !== undefined;
  const target =
    opsRedirectTarget({ pathname: url.pathname, search: url.search, hasOperatorSession: operatorTokenOf(c) !== undefined }) ??
    signedOutRedirectTarget({ pathname: url.pathname, search: url.search, navigatorHost, hasSession }) ??
    sessionRedirectTarget({
      pathname: url.pathname,
      navigatorHost,
      hasSession,
      source: sourceFromQuery(url.searchParams) ?? parseSourceCookie(requestCookie(c, SOURCE_COOKIE)),
      lang: visitorLang(c),
      config: c.get('config'),
    });
  if (!target) return next();
  c.header('Cache-Control', 'no-store');
  return c.redirect(target, 302);
};
