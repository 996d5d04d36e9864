import { requestUrl } from './request-url';
import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';
import type { StatusCode } from 'hono/utils/http-status';
import { isLang, LANG_COOKIE, LANG_COOKIE_MAX_AGE, type Lang } from '../../src/lib/lang';
import { legalDocForPath, legalShell } from '../../src/lib/legal';
import { isOpsShell, notFoundShell, shellForPath } from '../../src/lib/routes';
import type { EdgeBindings } from '../env';
import { allowFramingBySelf } from './headers';
import { isNavigatorHost, visitorLang } from './lang';

/**
 * Where a shell comes from: the built site's asset server (dist/, what ships), or under `npm run dev` Astro's
 * dev renderer (functions/dev-entry.ts). Either answers `/{lang}/{shell}` with the page of that route.
 */
export type ShellSource = (url: URL, init: RequestInit, c: Context<EdgeBindings>) => Promise<Response>;

export const builtShells: ShellSource = (url, init, c) => c.env.ASSETS.fetch(url, init);

declare module 'hono' {
  interface ContextVariableMap {
    /** Set once per request by the composition root (createWorker); the built shells when unset. */
    shellSource: ShellSource;
  }
}

/** Request headers worth passing to the asset server: conditional GETs keep repeat visits cheap. */
const conditionalHeaders = ['if-none-match', 'if-modified-since'];

/**
 * `?lang=zh|en` on a legal page: the agreement modal frames one language whatever the visitor's cookie
 * (queryUserProtocol answers urlCn and urlEn that way). A sign-in link carries the language it was asked in
 * the same way (those pages have no language toggle). It does not change the LANG cookie.
 */
function explicitLang(url: URL): Lang | undefined {
  const lang = url.searchParams.get('lang');
  return isLang(lang) ? lang : undefined;
}

/** Shells whose language the link may fix with `?lang=`. */
const linkShells = new Set(['pass_email_login', 'share_login']);

/**
 * A mobile user agent gets the mobile variant of /pass_email_login (a pass link is mostly opened
 * from a phone's mail app). Either signal counts: the User-Agent Client Hint (Chromium) or the usual UA
 * tokens (Safari, Firefox and in-app browsers send no hint).
 */
export function isMobileUserAgent(headers: Headers): boolean {
  if (headers.get('sec-ch-ua-mobile')?.trim() === '?1') return true;
  return /Mobi|Android|iPhone|iPad|iPod|HarmonyOS|MicroMessenger/i.test(headers.get('user-agent') ?? '');
}

/** Adds `data-<name>` to the page's <html> element, which the page's CSS keys on. */
function withHtmlFlag(html: string, name: string): string {
  return html.replace(/<html\b/, `<html data-${name}`);
}

/**
 * Serves the pre-rendered shell of this route in the visitor's language at the exact path (built as
 * `/{lang}/{shell}.html`, legal pages `/{lang}/legal/{doc}.html`); any other path gets the localised 404
 * shell with status 404.
 */
export async function servePage(c: Context<EdgeBindings>): Promise<Response> {
  const url = requestUrl(c);
  const legalDoc = legalDocForPath(url.pathname);
  let shell: string | undefined = legalDoc ? legalShell(legalDoc) : shellForPath(url.pathname);
  // Another host's WeChat button sends the person to PORTAL_ORIGIN's /login?wechat=…&lang=… (src/lib/wechat-start.ts):
  // the language goes with them, as with a sign-in link. A bare /login?lang= still does not change it.
  const wechatHandOver = shell === 'login' && url.searchParams.has('wechat');
  const linkLang = shell && (linkShells.has(shell) || wechatHandOver) ? explicitLang(url) : undefined;
  const lang = (legalDoc && explicitLang(url)) || linkLang || visitorLang(c);
  // A sign-in link's language becomes the visitor's, so the page's calls answer in it too (a framed legal
  // page, by contrast, never changes the visitor's choice).

  if (url.pathname === '/' && isNavigatorHost(url.hostname, c.get('config').navigatorHostLabel)) shell = 'navigator_login';
  // The sign-in screen's agreement modal frames the legal pages; no other site may.
  if (legalDoc) allowFramingBySelf(c);

  const headers = new Headers();
  if (shell) {
    for (const name of conditionalHeaders) {
      const value = c.req.header(name);
      if (value) headers.set(name, value);
    }
  }
  const shellSource = c.get('shellSource') ?? builtShells;
  const asset = await shellSource(new URL(`/${lang}/${shell ?? notFoundShell}`, url), { headers }, c);
  // The agreement modal frames a legal page with `?embed=1`: the page then drops the portal's header and
  // footer, which would repeat the modal's own frame. A pass link opened on a phone gets its mobile variant.
  const flags = [
    legalDoc && url.searchParams.get('embed') === '1' && 'embedded',
    shell === 'pass_email_login' && isMobileUserAgent(c.req.raw.headers) && 'mobile',
  ].filter((flag): flag is string => Boolean(flag));
  let body: string | ReadableStream | null = c.req.method === 'HEAD' ? null : asset.body;
  const assetHeaders = new Headers(asset.headers);
  if (flags.length > 0 && asset.status === 200 && body) {
    body = flags.reduce(withHtmlFlag, await asset.text());
    // The body changed: its length and validator are no longer the asset's.
    assetHeaders.delete('content-length');
    assetHeaders.delete('etag');
  }
  // A sign-in link's language becomes the visitor's, so the page's calls answer in it too (a framed legal
  // page, by contrast, never changes the visitor's choice).
  if (linkLang) setCookie(c, LANG_COOKIE, linkLang, { path: '/', maxAge: LANG_COOKIE_MAX_AGE, sameSite: 'Lax' });
  const response = c.newResponse(body, { status: (shell ? asset.status : 404) as StatusCode, headers: assetHeaders });
  // One URL, two languages: shared caches must not hand one visitor's language to another.
  response.headers.set('Vary', shell === 'pass_email_login' ? 'Cookie, User-Agent, Sec-CH-UA-Mobile' : 'Cookie');
  response.headers.set('Cache-Control', 'private, no-cache');
  response.headers.set('Content-Language', lang === 'zh' ? 'zh-CN' : 'en');
  // The operators' area is for staff: no search engine lists or follows it.
  if (isOpsShell(shell)) response.headers.set('X-Robots-Tag', 'noindex, nofollow');
  return response;
}

/** A pre-rendered page that has no route of its own (the OpenID error page), in the visitor's language, with `status`. */
export async function serveShell(c: Context<EdgeBindings>, shell: string, status: StatusCode): Promise<Response> {
  const lang = visitorLang(c);
  const shellSource = c.get('shellSource') ?? builtShells;
  const asset = await shellSource(new URL(`/${lang}/${shell}`, c.req.url), {}, c);
  const response = c.newResponse(asset.body, { status, headers: new Headers(asset.headers) });
  response.headers.set('Cache-Control', 'no-store');
  response.headers.set('Content-Language', lang === 'zh' ? 'zh-CN' : 'en');
  response.headers.delete('content-length');
  return response;
}
