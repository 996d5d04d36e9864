// The one rule for an OpenID client's redirect, post-logout and back-channel logout URIs, in plain JavaScript so
// that the gateway and the islands (through src/schemas/oidc.ts) and `npm run operator -- client add`
// (scripts/operator-sql.mjs, run by Node without a TypeScript step) share it.

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * What is wrong with a URI a client may register (RFC 9700 §4.1), or null: absolute, https (http only for a
 * loopback host, as native apps use), no fragment, no wildcard, no user info. It is then matched exactly.
 * @param {string} value
 * @returns {string | null}
 */
export function redirectUriProblem(value) {
  if (value.length > 512) return 'is longer than 512 characters';
  if (!URL.canParse(value)) return 'is not an absolute URL';
  const url = new URL(value);
  if (url.hash || value.includes('#')) return 'has a fragment';
  if (value.includes('*')) return 'has a wildcard';
  if (url.username || url.password) return 'has user info';
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) return 'uses http for a host that is not a loopback address';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'is not an http(s) URL';
  return null;
}
