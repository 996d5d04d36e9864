/**
 * The value of the cookie `name` (a plain token, as every cookie name of this site is) in a `document.cookie`
 * string, URL-decoded as js-cookie writes it, or undefined when there is none. Reading needs no library: a page
 * that only reads a cookie (the session marker) leaves js-cookie out of its JavaScript, and only the code that
 * writes cookies loads it (keeps /login's first load small).
 */
export function readCookie(cookies: string, name: string): string | undefined {
  const pair = cookies.split('; ').find((entry) => entry.startsWith(`${name}=`));
  if (pair === undefined) return undefined;
  const value = pair.slice(name.length + 1);
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
