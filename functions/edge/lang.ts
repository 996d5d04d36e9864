import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { chooseLang, LANG_COOKIE, type Lang } from '../../src/lib/lang';
import type { EdgeBindings } from '../env';

/** The visitor's interface language: the LANG cookie, else the host's default (DEFAULT_LANG, ZH_HOST_SUFFIXES). */
export function visitorLang(c: Context<EdgeBindings>): Lang {
  return chooseLang(getCookie(c, LANG_COOKIE), new URL(c.req.url).hostname, c.get('config').lang);
}

/** Any host whose name contains the configured label is the partner (navigator) site. */
export function isNavigatorHost(hostname: string, label: string | undefined): boolean {
  return Boolean(label) && hostname.toLowerCase().includes(label!.toLowerCase());
}
