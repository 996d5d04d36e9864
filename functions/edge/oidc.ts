import { requestUrl } from './request-url';
import { Hono, type Context } from 'hono';
import { setCookie } from 'hono/cookie';
import { LANG_COOKIE, LANG_COOKIE_MAX_AGE, type Lang } from '../../src/lib/lang';
import type { EdgeBindings } from '../env';
import { callGateway, type GatewayFetch } from './gateway-call';
import { isNavigatorHost } from './lang';
import { clearSecondStepCookie, clearSessionCookies, secondStepCookie, tokenCookie } from './session-cookies';
import { serveShell } from './shells';

/**
 * The OpenID Provider at the issuer's standard paths (the gateway's oidc/ capability does the work; README
 * "OpenID Connect"). Discovery, JWKS, token, userinfo, introspection and revocation pass through with the
 * client's own Authorization and Origin headers and the gateway's answer as it is (OAuth's JSON, CORS for public
 * clients). The authorization and logout endpoints are the edge's own calls: their answer becomes a redirect
 * (and, for a logout, the session cookies are cleared) or the portal's error page. Only the portal host is the
 * issuer: the navigator host answers 404 here.
 */

type AuthorizeAnswer = { code: string; data: { kind: 'error-page'; reason: string } | { kind: 'redirect'; to: string; lang?: Lang } };
type LogoutAnswer = { code: string; data: { redirect: string; signedOut: boolean } };

/** Paths of the world → the gateway's paths. */
const PASSED_THROUGH: Record<string, string> = {
  '/.well-known/openid-configuration': '/oidc/v1/discovery',
  '/oidc/jwks': '/oidc/v1/jwks',
  '/oidc/token': '/oidc/v1/token',
  '/oidc/userinfo': '/oidc/v1/userinfo',
  '/oidc/introspect': '/oidc/v1/introspect',
  '/oidc/revoke': '/oidc/v1/revoke',
};

const notOnNavigatorHost = (c: Context<EdgeBindings>) => isNavigatorHost(requestUrl(c).hostname, c.get('config').navigatorHostLabel);

export function oidcRoutes(toGateway: GatewayFetch) {
  const app = new Hono<EdgeBindings>();
  // Scoped to the OpenID paths (a `use('*')` here would run for every path of the Worker).
  for (const path of [...Object.keys(PASSED_THROUGH), '/oidc/authorize', '/oidc/logout']) {
    app.use(path, async (c, next) => (notOnNavigatorHost(c) ? c.text('Not Found', 404) : next()));
  }

  for (const [publicPath, gatewayPath] of Object.entries(PASSED_THROUGH)) {
    app.on(['GET', 'POST', 'OPTIONS'], publicPath, async (c) => {
      const hasBody = c.req.method === 'POST';
      const { answer } = await callGateway(c, toGateway, {
        path: gatewayPath,
        method: c.req.method,
        body: hasBody ? c.req.raw.body : undefined,
        forward: ['authorization', 'origin'],
      });
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    });
  }

  // GET, or POST with the same parameters as a form (OIDC Core §3.1.2.1).
  app.on(['GET', 'POST'], '/oidc/authorize', async (c) => {
    const form = c.req.method === 'POST' && (c.req.header('content-type') ?? '').startsWith('application/x-www-form-urlencoded');
    const query = (form ? await c.req.text() : requestUrl(c).search.slice(1)).slice(0, 8192);
    const { answer } = await callGateway(c, toGateway, { path: '/oidc/v1/authorize', method: 'POST', body: JSON.stringify({ query }), contentType: 'application/json', edgeCall: true });
    const { code, data } = (await answer.json()) as AuthorizeAnswer;
    // An unknown client or an unregistered redirect_uri: the portal's own error page, never a redirect.
    if (code !== '0' || data.kind === 'error-page') return serveShell(c, 'oidc_error', 400);
    if (data.lang) setCookie(c, LANG_COOKIE, data.lang, { path: '/', maxAge: LANG_COOKIE_MAX_AGE, sameSite: 'Lax' });
    c.header('Cache-Control', 'no-store');
    return c.redirect(data.to, 302);
  });

  app.on(['GET', 'POST'], '/oidc/logout', async (c) => {
    const url = requestUrl(c);
    const query = c.req.method === 'POST' && (c.req.header('content-type') ?? '').startsWith('application/x-www-form-urlencoded') ? await c.req.text() : url.search.slice(1);
    const { answer } = await callGateway(c, toGateway, { path: '/oidc/v1/logout', method: 'POST', body: JSON.stringify({ query: query.slice(0, 8192) }), contentType: 'application/json', edgeCall: true });
    const { code, data } = (await answer.json()) as LogoutAnswer;
    if (code === '0' && data.signedOut) {
      clearSessionCookies(c, tokenCookie(url, c.get('config').navigatorHostLabel));
      clearSecondStepCookie(c, secondStepCookie(url, c.get('config').navigatorHostLabel));
    }
    c.header('Cache-Control', 'no-store');
    return c.redirect(code === '0' ? data.redirect : '/login', 302);
  });
  return app;
}
