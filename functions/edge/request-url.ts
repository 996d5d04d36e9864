import type { Context } from 'hono';

const parsedUrls = new WeakMap<Request, URL>();

/**
 * The request's URL, parsed once per request: the edge's steps each read it (language, redirects, the proxy,
 * cookies' names, the request log), and parsing it every time was about 5 % of a signed-in call's CPU (issue 46's
 * profile). Shared by those steps: read it, never change it (copy it first: `new URL(requestUrl(c))`).
 */
export function requestUrl(c: Context): URL {
  let url = parsedUrls.get(c.req.raw);
  if (!url) {
    url = new URL(c.req.url);
    parsedUrls.set(c.req.raw, url);
  }
  return url;
}
