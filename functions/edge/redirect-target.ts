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
const UNSAFE_DECODED = /[\u0000-\u001f\u007f-\u009f\\]/;
// `.` and `..` segments collapse on resolution (`/.//evil.example` becomes `//evil.example`); a path written
// out as given has none.
const DOT_SEGMENT = /(^|\/)\.{1,2}(\/|[?#]|$)/;
const SAME_SITE_BASE = 'https://same-site.invalid';

/** A redirect's parts: a configured origin (absent: this site), a path, and optionally query and fragment. */
export interface RedirectParts {
  origin?: string;
  path: string;
  /** `?a=1` as a parsed URL serialises it, or parameters to serialise. */
  query?: string | URLSearchParams;
  hash?: string;
}

/**
 * The one builder of every Location the edge sends (region, hand-off, session redirect, /go, sign-in routes):
 * `origin + path + query + hash`, written out from parts and never resolved against a base, so nothing in
 * the path can name another host. The origin must be one of `allow.origins` (configuration); the path must
 * be a plain path on that origin however often it is decoded (no `//`, `/\`, `/%2F/`, `/%5C`, whitespace
 * or control characters); anything else gives `allow.fallback`.
 */
export function buildRedirect(parts: RedirectParts, allow: RedirectAllowance): string {
  if (parts.origin !== undefined && !allowedOrigins(allow.origins).has(parts.origin)) return allow.fallback;
  const query = typeof parts.query === 'object' ? `?${parts.query.toString()}` : (parts.query ?? '');
  const hash = parts.hash ?? '';
  const path = plainPath(parts.path);
  if (path === undefined || !/^(\?[^#]*)?$/.test(query) || !/^(#.*)?$/.test(hash) || UNSAFE_CHARACTERS.test(query + hash)) {
    return allow.fallback;
  }
  const location = `${parts.origin ?? ''}${path}${query === '?' ? '' : query}${hash}`;
  return location.length > MAX_TARGET_LENGTH ? allow.fallback : location;
}

/**
 * The gate for a target named as one string (the `redirect` parameter and every configured destination).
 * Returns either the fallback, an absolute `http(s)` URL re-serialised from its parsed form whose origin is
 * exactly one of `allow.origins` (https only, http only for localhost when allowed, no credentials), or a
 * same-site path (`/user_center?x=1`) that no browser can read as protocol-relative. Both are written by
 * buildRedirect from the parsed parts.
 */
export function safeRedirect(raw: string | null | undefined, allow: RedirectAllowance): string {
  if (typeof raw !== 'string' || raw === '' || raw.length > MAX_TARGET_LENGTH || UNSAFE_CHARACTERS.test(raw)) {
    return allow.fallback;
  }
  const parts = raw.startsWith('/') ? sameSiteParts(raw) : allowedAbsolute(raw, allow);
  return parts ? buildRedirect(parts, allow) : allow.fallback;
}

/**
 * A path that stays a plain path on its origin however often it is decoded, with no `.` or `..` segment
 * (unless `dotSegments`, for a path about to be resolved); undefined otherwise.
 */
function plainPath(raw: string, dotSegments = false): string | undefined {
  // `//host` and `/\host` are protocol-relative to browsers; `/%2F%2Fhost` becomes that after one decode
  // by a careless hop, so every decoded form must stay a plain path too.
  // A decoded space is harmless; a decoded tab, newline or backslash is not (browsers drop or turn them
  // into slashes, so `/%09/evil.example` can end up as `//evil.example`).
  if (UNSAFE_CHARACTERS.test(raw)) return undefined;
  let form = raw;
  for (let round = 0; round < 4; round++) {
    if (!/^\/(?![/\\])/.test(form) || UNSAFE_DECODED.test(form) || (!dotSegments && DOT_SEGMENT.test(form))) return undefined;
    let decoded: string;
    try {
      decoded = decodeURIComponent(form);
    } catch {
      return undefined;
    }
    if (decoded === form) break;
    form = decoded;
  }
  return raw;
}

/**
 * `/path?query#hash` with dot segments resolved, as parts. The whole target must stay a plain path however
 * often it is decoded; it is parsed against a placeholder origin only to normalise it, and the placeholder
 * never reaches a Location (`/.//evil.example` collapses to `//evil.example`, which buildRedirect refuses).
 */
function sameSiteParts(raw: string): RedirectParts | undefined {
  // Dot segments are resolved below; buildRedirect then checks the resolved path again.
  if (plainPath(raw, true) === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw, SAME_SITE_BASE);
  } catch {
    return undefined;
  }
  if (url.origin !== SAME_SITE_BASE) return undefined;
  return { path: url.pathname, query: url.search, hash: url.hash };
}

/** An absolute URL written out with `scheme://`, on an allow-listed origin, as parts. */
function allowedAbsolute(raw: string, allow: RedirectAllowance): RedirectParts | undefined {
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
  return { origin: url.origin, path: url.pathname, query: url.search, hash: url.hash };
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
