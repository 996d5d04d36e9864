import { LANG_COOKIE, LANG_COOKIE_MAX_AGE, type Lang } from './lang';

/**
 * Writes the LANG cookie and resolves once the browser will send it. A `document.cookie` write (js-cookie) is
 * sent to Chromium's network service on its own channel, and a reload right after it may still carry the old
 * value: the language switch then reloads in the same language (seen in CI). The Cookie Store API resolves only
 * once the cookie is stored, so browsers that have it use it; the others write with js-cookie.
 */
export async function writeLangCookie(lang: Lang): Promise<void> {
  const expires = Date.now() + LANG_COOKIE_MAX_AGE * 1000;
  if (typeof cookieStore !== 'undefined') {
    try {
      await cookieStore.set({ name: LANG_COOKIE, value: lang, expires, path: '/', sameSite: 'lax' });
      return;
    } catch {
      // An insecure origin or a refused write: js-cookie below.
    }
  }
  const { default: Cookies } = await import('js-cookie');
  Cookies.set(LANG_COOKIE, lang, { expires: LANG_COOKIE_MAX_AGE / 86_400, path: '/', sameSite: 'Lax', secure: location.protocol === 'https:' });
}
