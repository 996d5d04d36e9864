import type { Context } from 'hono';
import { isLang, type Lang } from '../../src/lib/lang';
import { legalDocForPath, legalShell, notFoundShell, shellForPath } from '../../src/lib/routes';
import type { EdgeBindings } from '../env';
import { allowFramingBySelf } from './headers';
import { isNavigatorHost, visitorLang } from './lang';

/** Request headers worth passing to the asset server: conditional GETs keep repeat visits cheap. */
const conditionalHeaders = ['if-none-match', 'if-modified-since'];

/**
 * `?lang=zh|en` on a legal page: the agreement modal frames one language whatever the visitor's cookie
 * (queryUserProtocol answers urlCn and urlEn that way). It does not change the LANG cookie.
 */
function explicitLang(url: URL): Lang | undefined {
  const lang = url.searchParams.get('lang');
  return isLang(lang) ? lang : undefined;
}

/**
 * Serves the pre-rendered shell of this route in the visitor's language at the exact path (built as
 * `/{lang}/{shell}.html`, legal pages `/{lang}/legal/{doc}.html`); any other path gets the localised 404
 * shell with status 404.
 */
export async function servePage(c: Context<EdgeBindings>): Promise<Response> {
  const url = new URL(c.req.url);
  const legalDoc = legalDocForPath(url.pathname);
  const lang = (legalDoc && explicitLang(url)) || visitorLang(c);
  let shell: string | undefined = legalDoc ? legalShell(legalDoc) : shellForPath(url.pathname);
  if (url.pathname === '/' && isNavigatorHost(url.hostname, c.env.NAVIGATOR_HOST_LABEL)) shell = 'navigator_login';
  // The sign-in screen's agreement modal frames the legal pages; no other site may.
  if (legalDoc) allowFramingBySelf(c);

  const headers = new Headers();
  if (shell) {
    for (const name of conditionalHeaders) {
      const value = c.req.header(name);
      if (value) headers.set(name, value);
    }
  }
  const asset = await c.env.ASSETS.fetch(new URL(`/${lang}/${shell ?? notFoundShell}`, url), { headers });
  const response = new Response(c.req.method === 'HEAD' ? null : asset.body, {
    status: shell ? asset.status : 404,
    headers: asset.headers,
  });
  // One URL, two languages: shared caches must not hand one visitor's language to another.
  response.headers.set('Vary', 'Cookie');
  response.headers.set('Cache-Control', 'private, no-cache');
  response.headers.set('Content-Language', lang === 'zh' ? 'zh-CN' : 'en');
  return response;
}
