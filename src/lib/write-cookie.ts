/**
 * Writes a cookie of this site (path /, SameSite Lax, Secure on https) the way js-cookie does, encoding included,
 * so readers (read-cookie.ts, the platform's other apps) see the same bytes. The pages a sign-in lands on write
 * one or two such cookies and so need not load js-cookie for them (issue 31). `days` makes it last; without it,
 * it ends with the browser session.
 */

// The two browser globals it writes, declared for this module: src/lib is also type-checked for the Worker
// (functions/tsconfig.json), which has no DOM types; in the browser these are the page's own.
declare const document: { cookie: string };
declare const location: { protocol: string };

export function writeCookie(name: string, value: string, days?: number) {
  const encoded = encodeURIComponent(value).replace(/%(2[346BF]|3[AC-F]|40|5[BDE]|60|7[BCD])/g, decodeURIComponent);
  const expires = days === undefined ? '' : `; expires=${new Date(Date.now() + days * 864e5).toUTCString()}`;
  document.cookie = `${name}=${encoded}${expires}; path=/; SameSite=Lax${location.protocol === 'https:' ? '; Secure' : ''}`;
}

/** Removes a cookie that writeCookie wrote. */
export const removeCookie = (name: string) => {
  document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
};
