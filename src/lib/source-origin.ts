/**
 * Where a visit came from. The edge keeps the whitelisted query parameters of
 * the arrival in the session cookie SOURCE_FROM (JSON, URL-encoded, readable by the islands, never a
 * secret); `source=zhoushan` also sets the port-type cookie.
 */
export const SOURCE_COOKIE = 'SOURCE_FROM';
export const PORT_TYPE_COOKIE = 'PORT_TYPE';
export const ZHOUSHAN_SOURCE = 'zhoushan';
/** The UN/LOCODE of the port a zhoushan visit services (the administrator form and registration start with it). */
export const ZHOUSHAN_PORT_ID = 'CNZOS';
/** The port-type cookie lives 863,999 s (ten days less a second), like the language cookie. */
export const PORT_TYPE_MAX_AGE = 863_999;

/**
 * The only keys kept, in order of importance: `source` names the origin, `redirect` a target URL, `page` a
 * path on the zhoushan site, `address` a path on the portal (appointment links). Tokens are never kept.
 */
export const sourceKeys = ['source', 'redirect', 'page', 'address'] as const;
export type SourceKey = (typeof sourceKeys)[number];
export type SourceOrigin = Partial<Record<SourceKey, string>>;

/** Longest value kept per key, and longest the URL-encoded cookie value may be. */
const MAX_VALUE_LENGTH = 512;
export const MAX_SOURCE_COOKIE_LENGTH = 1024;

/** The whitelisted parameters of a query, or undefined when it has none (an internal link keeps the origin). */
export function sourceFromQuery(params: URLSearchParams): SourceOrigin | undefined {
  const source: SourceOrigin = {};
  let found = false;
  for (const key of sourceKeys) {
    const value = params.get(key);
    if (value === null) continue;
    found = true;
    if (value !== '' && value.length <= MAX_VALUE_LENGTH) source[key] = value;
  }
  return found ? source : undefined;
}

/** The cookie's JSON text: the least important keys go first when it would be too long once URL-encoded. */
export function sourceCookieValue(source: SourceOrigin): string {
  const kept: SourceOrigin = { ...source };
  for (const key of [...sourceKeys].reverse()) {
    if (encodeURIComponent(JSON.stringify(kept)).length <= MAX_SOURCE_COOKIE_LENGTH) break;
    delete kept[key];
  }
  return JSON.stringify(kept);
}

/** Reads the cookie's JSON text (already URL-decoded); anything unexpected reads as no origin. */
export function parseSourceCookie(text: string | undefined): SourceOrigin {
  if (!text) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof value !== 'object' || value === null) return {};
  const source: SourceOrigin = {};
  for (const key of sourceKeys) {
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'string' && item !== '' && item.length <= MAX_VALUE_LENGTH) source[key] = item;
  }
  return source;
}
