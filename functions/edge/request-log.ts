import { requestUrl } from './request-url';
import type { MiddlewareHandler } from 'hono';
import type { EdgeBindings } from '../env';
import { now } from '../contract';

/** Query parameters that carry a live secret: sign-in links, hand-off blobs. Their values never reach a log. */
// OpenID Connect: an ID token given back at logout, a person's e-mail or phone as a login hint, and anything a
// client might put in a query by mistake (codes, refresh and logout tokens).
// A waiting authorization or sign-out request's id (`request`) reads its login hint for 10 minutes, so it is a
// secret too, in the query, inside a `next` return path, and as the last segment of the paths that take it.
export const SECRET_PARAMS = ['pass', 'share', 'token', 'userToken', 'userNameAndPwd', 'id_token_hint', 'login_hint', 'code', 'refresh_token', 'logout_token', 'request'] as const;
const secret = new Set<string>(SECRET_PARAMS.map((name) => name.toLowerCase()));
const SECRET_PATH = /^(\/api\/oidc\/v1\/(?:hints|logouts)\/)[^/]+/;

/** Path and query of a URL as a log may show them: every secret parameter's value is replaced by `redacted`. */
export function loggableUrl(url: URL): string {
  return redactedPathAndQuery(url.pathname, url.search);
}

function redactedPathAndQuery(path: string, search: string): string {
  const query = new URLSearchParams(search);
  for (const name of new Set(query.keys())) {
    if (secret.has(name.toLowerCase())) query.set(name, 'redacted');
    else if (name === 'next') query.set(name, query.getAll(name).map(redactedReturnPath).join(''));
  }
  const shown = query.toString();
  return path.replace(SECRET_PATH, '$1redacted') + (shown ? `?${shown}` : '');
}

/** A `next` return path (a path and query of this site) with its own secrets redacted. */
function redactedReturnPath(next: string): string {
  const at = next.indexOf('?');
  return at < 0 ? next : redactedPathAndQuery(next.slice(0, at), next.slice(at));
}

/**
 * One JSON line per request of a deployed Worker: method, path and query (secrets redacted), status and
 * duration. It replaces Workers' invocation logs (off in wrangler.toml), which record the full request URL and
 * so every sign-in link and hand-off blob that arrives. Local runs print wrangler's own request lines instead.
 */
export const requestLog: MiddlewareHandler<EdgeBindings> = async (c, next) => {
  if (!c.get('config').deployed) return next();
  const started = now(c);
  await next();
  console.log(
    JSON.stringify({
      request: `${c.req.method} ${loggableUrl(requestUrl(c))}`,
      status: c.res.status,
      ms: now(c) - started,
      ray: c.req.header('cf-ray') ?? null,
    }),
  );
};
