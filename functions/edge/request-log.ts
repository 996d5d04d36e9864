import type { MiddlewareHandler } from 'hono';
import type { EdgeBindings } from '../env';
import { now } from '../contract';

/** Query parameters that carry a live secret: sign-in links, hand-off blobs. Their values never reach a log. */
// OpenID Connect: an ID token given back at logout, a person's e-mail or phone as a login hint, and anything a
// client might put in a query by mistake (codes, refresh and logout tokens).
export const SECRET_PARAMS = ['pass', 'share', 'token', 'userToken', 'userNameAndPwd', 'id_token_hint', 'login_hint', 'code', 'refresh_token', 'logout_token'] as const;
const secret = new Set<string>(SECRET_PARAMS.map((name) => name.toLowerCase()));

/** Path and query of a URL as a log may show them: every secret parameter's value is replaced by `redacted`. */
export function loggableUrl(url: URL): string {
  const query = new URLSearchParams(url.search);
  for (const name of new Set(query.keys())) {
    if (secret.has(name.toLowerCase())) query.set(name, 'redacted');
  }
  const search = query.toString();
  return url.pathname + (search ? `?${search}` : '');
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
      request: `${c.req.method} ${loggableUrl(new URL(c.req.url))}`,
      status: c.res.status,
      ms: now(c) - started,
      ray: c.req.header('cf-ray') ?? null,
    }),
  );
};
