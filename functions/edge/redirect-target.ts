/** What a redirect may point at (security baseline, "Redirects and the hand-off between sites"). */
export interface RedirectAllowance {
  /** Exact origins (`https://portal.example.com`); a target must have one of these origins. */
  origins: readonly string[];
  /** Answer for anything that is not allowed; trusted configuration, returned as it is. */
  fallback: string;
  /** Local development: `http:` is accepted for `localhost` and `127.0.0.1` (still only allow-listed origins). */
  allowHttpLocalhost: boolean;
}

/** Longer targets are never legitimate here, and a cap keeps parsing cheap. */
const MAX_TARGET_LENGTH = 2048;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);
// Any whitespace, control character or backslash: URL parsers drop or rewrite these, so the string a
// browser acts on would differ from the one checked.
const UNSAFE_CHARACTERS = /[\s\u0000-\u001f\u007f-\u009f\\]/;
const SAME_SITE_BASE = 'https://same-site.invalid';

/**
 * The one gate for every redirect target (the `redirect` parameter and every configured destination).
 * Returns either the fallback, an absolute `http(s)` URL re-serialised from its parsed form whose origin is
 * exactly one of `allow.origins` (https only, http only for localhost when allowed, no credentials), or a
 * same-site path (`/user_center?x=1`) that no browser can read as protocol-relative.
 */
export function safeRedirect(raw: string | null | undefined, allow: RedirectAllowance): string {
  if (typeof raw !== 'string' || raw === '' || raw.length > MAX_TARGET_LENGTH || UNSAFE_CHARACTERS.test(raw)) {
    return allow.fallback;
  }
  const target = raw.startsWith('/') ? sameSitePath(raw) : allowedAbsolute(raw, allow);
  return target ?? allow.fallback;
}

/** `/path?query#hash` that stays on this site however often it is decoded. */
function sameSitePath(raw: string): string | undefined {
  // `//host` and `/\host` are protocol-relative to browsers; `/%2F%2Fhost` becomes that after one decode
  // by a careless hop, so every decoded form must stay a plain path too.
  let form = raw;
  for (let round = 0; round < 4; round++) {
    if (!/^\/(?![/\\])/.test(form) || UNSAFE_CHARACTERS.test(form)) return undefined;
    let decoded: string;
    try {
      decoded = decodeURIComponent(form);
    } catch {
      return undefined;
    }
    if (decoded === form) break;
    form = decoded;
  }
  let url: URL;
  try {
    url = new URL(raw, SAME_SITE_BASE);
  } catch {
    return undefined;
  }
  if (url.origin !== SAME_SITE_BASE) return undefined;
  const serialised = url.pathname + url.search + url.hash;
  // Dot segments collapse on parsing (`/.//evil.example` → `//evil.example`): the answer itself must stay a plain path.
  return /^\/(?![/\\])/.test(serialised) ? serialised : undefined;
}

/** An absolute URL written out with `scheme://`, on an allow-listed origin, re-serialised. */
function allowedAbsolute(raw: string, allow: RedirectAllowance): string | undefined {
  // The literal `https://` form only: `https:evil.example` parses as `https://evil.example/`.
  const written = /^(https?):\/\/([^/?#]*)/i.exec(raw);
  if (!written) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.username || url.password || written[2]!.includes('@')) return undefined;
  // The host as written must be the host as parsed: `http://2130706433` is 127.0.0.1 to a parser.
  const writtenHost = written[2]!.toLowerCase().replace(/:\d*$/, '');
  if (writtenHost !== url.hostname) return undefined;
  if (url.protocol === 'http:') {
    if (!allow.allowHttpLocalhost || !LOCAL_HOSTS.has(url.hostname)) return undefined;
  } else if (url.protocol !== 'https:') {
    return undefined;
  }
  if (!allowedOrigins(allow.origins).has(url.origin)) return undefined;
  return url.href;
}

/** Configured origins in their serialised form (`https://a.example:443/` → `https://a.example`). */
function allowedOrigins(origins: readonly string[]): Set<string> {
  const set = new Set<string>();
  for (const origin of origins) {
    try {
      const url = new URL(origin);
      if (url.protocol === 'https:' || url.protocol === 'http:') set.add(url.origin);
    } catch {
      // A malformed entry allows nothing.
    }
  }
  return set;
}
