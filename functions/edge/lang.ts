import { requestUrl } from './request-url';
import type { Context } from 'hono';
import { requestCookie } from './request-cookies';
import { chooseLang, LANG_COOKIE, type Lang } from '../../src/lib/lang';
import type { EdgeBindings } from '../env';

/** Each request's language, worked out once (an /api call asks for it several times). */
const langOfRequest = new WeakMap<Request, Lang>();

/** The visitor's interface language: the LANG cookie, else the host's default (DEFAULT_LANG, ZH_HOST_SUFFIXES). */
export function visitorLang(c: Context<EdgeBindings>): Lang {
  let lang = langOfRequest.get(c.req.raw);
  if (lang === undefined) {
    lang = chooseLang(requestCookie(c, LANG_COOKIE), requestUrl(c).hostname, c.get('config').lang);
    langOfRequest.set(c.req.raw, lang);
  }
  return lang;
}

/** Any host whose name contains the configured label is the partner (navigator) site. */
export function isNavigatorHost(hostname: string, label: string | undefined): boolean {
  return Boolean(label) && hostname.toLowerCase().includes(label!.toLowerCase());
}
