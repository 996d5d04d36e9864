import { Hono, type Context, type MiddlewareHandler } from 'hono';
import * as z from 'zod/mini';
import { clientIp, edgeCallsOnly, now, ok, requestLang } from '../../contract';
import type { EdgeBindings } from '../../env';
import { ERR } from '../../../src/schemas/error-codes';
import { ACR, connectDecision, logoutDecision, OIDC_SCOPES } from '../../../src/schemas/oidc';
import { runBatch } from '../identity/db/batch';
import { GatewayError } from '../errors';
import { bearerToken, requireSession } from '../sessions/service';
import { type SessionVariables } from '../identity/db/sessions';
import { validate } from '../validate';
import { beginAuthorization, decide, loginHintOf, releaseRequest, requestView } from './authorize';
import { authenticateClient, issuerOf, OAuthError, originsOf } from './clients';
import { connectedApps, disconnectStatements, publicClientRedirects, queueLogoutSendsStatement } from './db';
import { jwks, signingKey, SIGNING_ALGS } from './keys';
import { decideLogout, endSession, logoutRequestView, tellConnectedApps } from './logout';
import { introspect, revoke, SUPPORTED_GRANT_TYPES, tokenRequest, userinfo } from './token';

/**
 * The OpenID Provider's gateway routes. The edge serves them to the world at the issuer's standard paths
 * (edge/oidc.ts: /.well-known/openid-configuration, /oidc/authorize, /oidc/token …); the consent page and the
 * user center's "Connected apps" call the /oidc/v1/requests and /oidc/v1/connected routes through /api.
 * Token-endpoint style routes answer OAuth's own JSON errors, never the portal's envelope, and are never cached.
 */

type OidcEnv = EdgeBindings;
type SessionEnv = { Bindings: EdgeBindings['Bindings']; Variables: SessionVariables };

const FORM_LIMIT = 16 * 1024;

function oauthAnswer(c: Context, error: OAuthError): Response {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
  if (error.status === 401) headers['WWW-Authenticate'] = error.error === 'invalid_token' ? `Bearer error="invalid_token"` : 'Basic realm="oidc"';
  if (error.error === 'insufficient_scope') headers['WWW-Authenticate'] = 'Bearer error="insufficient_scope"';
  return c.json({ error: error.error, error_description: error.description }, error.status, headers);
}

/** A form-encoded body (RFC 6749 §3.2), at most 16 KB. */
async function formOf(c: Context): Promise<URLSearchParams> {
  if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    throw new OAuthError('invalid_request', 'send the request as application/x-www-form-urlencoded');
  }
  const text = await c.req.text();
  if (text.length > FORM_LIMIT) throw new OAuthError('invalid_request', 'the request body is too large');
  const form = new URLSearchParams(text);
  for (const name of new Set(form.keys())) if (form.getAll(name).length > 1) throw new OAuthError('invalid_request', `${name} is repeated`);
  return form;
}

/**
 * CORS for the discovery, token, userinfo, revocation and JWKS endpoints only, and only for the origins of public clients' registered
 * redirect URIs (single-page apps call them from the browser); everyone else gets no CORS header at all.
 */
const corsForPublicClients: MiddlewareHandler<OidcEnv> = async (c, next) => {
  const origin = c.req.header('origin');
  const allowed = origin ? originsOf(await publicClientRedirects(c.env.DB)).has(origin) : false;
  if (c.req.method === 'OPTIONS') {
    if (!allowed) return c.body(null, 204);
    return c.body(null, 204, {
      'Access-Control-Allow-Origin': origin!,
      'Access-Control-Allow-Methods': 'GET, POST',
      'Access-Control-Allow-Headers': 'authorization, content-type',
      'Access-Control-Max-Age': '600',
      Vary: 'Origin',
    });
  }
  await next();
  // Always: a shared cache must not hand one origin's answer (with or without the header) to another.
  c.res.headers.set('Vary', 'Origin');
  if (allowed) c.res.headers.set('Access-Control-Allow-Origin', origin!);
};

/** The discovery document (OpenID Connect Discovery 1.0 §3). */
function discovery(env: object) {
  const issuer = issuerOf(env);
  return {
    issuer,
    authorization_endpoint: `${issuer}/oidc/authorize`,
    token_endpoint: `${issuer}/oidc/token`,
    userinfo_endpoint: `${issuer}/oidc/userinfo`,
    jwks_uri: `${issuer}/oidc/jwks`,
    end_session_endpoint: `${issuer}/oidc/logout`,
    revocation_endpoint: `${issuer}/oidc/revoke`,
    introspection_endpoint: `${issuer}/oidc/introspect`,
    scopes_supported: [...OIDC_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...SUPPORTED_GRANT_TYPES],
    subject_types_supported: ['public'],
    // Discovery 1.0 §3: MUST include RS256. A client names its own (id_token_signed_response_alg, migration 0430).
    id_token_signing_alg_values_supported: [...SIGNING_ALGS],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    code_challenge_methods_supported: ['S256'],
    claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'acr', 'amr', 'sid', 'azp', 'name', 'locale', 'email', 'email_verified', 'phone_number', 'phone_number_verified', 'company'],
    acr_values_supported: [ACR.oneFactor, ACR.twoFactors],
    prompt_values_supported: ['none', 'login', 'consent'],
    ui_locales_supported: ['zh-CN', 'en'],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    authorization_response_iss_parameter_supported: true,
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
  };
}

/** The edge's calls pass the page request's query string. */
const edgeQuery = z.object({ query: z.string().check(z.maxLength(8 * 1024)) });

export const oidcRoutes = new Hono<OidcEnv>()
  .onError((error, c) => {
    if (error instanceof OAuthError) return oauthAnswer(c, error);
    throw error;
  })
  .use('/oidc/v1/discovery', corsForPublicClients)
  .get('/oidc/v1/discovery', (c) => c.json(discovery(c.env), 200, { 'Cache-Control': 'public, max-age=300' }))
  .use('/oidc/v1/jwks', corsForPublicClients)
  .get('/oidc/v1/jwks', async (c) => {
    // A fresh database has no key yet: the first of each algorithm is made here rather than on the first sign-in.
    for (const alg of SIGNING_ALGS) await signingKey(c.env, now(c), alg);
    return c.json(await jwks(c.env.DB, now(c)), 200, { 'Cache-Control': 'public, max-age=300' });
  })
  .post('/oidc/v1/authorize', edgeCallsOnly, validate('json', edgeQuery), async (c) =>
    ok(c, await beginAuthorization(c.env, new URLSearchParams(c.req.valid('json').query), bearerToken(c), now(c), requestLang(c))),
  )
  .post('/oidc/v1/logout', edgeCallsOnly, validate('json', edgeQuery), async (c) => {
    const answer = await endSession(c.env, new URLSearchParams(c.req.valid('json').query), bearerToken(c), now(c));
    if (answer.signedOut) c.executionCtx.waitUntil(tellConnectedApps(c.env, now(c)).catch(logSweepFailure));
    return ok(c, answer);
  })
  // The sign-in page's prefill from a waiting request's login_hint (no session yet: it is for signing in).
  .get('/oidc/v1/hints/:id', async (c) => {
    const id = c.req.param('id');
    c.header('Cache-Control', 'no-store');
    return ok(c, /^[A-Za-z0-9_-]{20,64}$/.test(id) ? await loginHintOf(c.env, id, now(c)) : null);
  })
  // The sign-out confirmation page's calls (through /api, so the edge's cross-site rule guards the POST).
  .get('/oidc/v1/logouts/:id', async (c) => ok(c, await logoutRequestView(c.env, logoutId(c.req.param('id')), bearerToken(c), now(c))))
  .post('/oidc/v1/logouts/:id/decision', validate('json', logoutDecision), async (c) => {
    const answer = await decideLogout(c.env, logoutId(c.req.param('id')), bearerToken(c), c.req.valid('json').signOut, now(c));
    if (answer.signedOut) c.executionCtx.waitUntil(tellConnectedApps(c.env, now(c)).catch(logSweepFailure));
    return ok(c, answer);
  })
  .use('/oidc/v1/token', corsForPublicClients)
  .post('/oidc/v1/token', async (c) => {
    const form = await formOf(c);
    const answer = await tokenRequest(c.env, { authorization: c.req.header('authorization'), form, network: clientIp(c), at: now(c), lang: requestLang(c) });
    return c.json(answer, 200, { 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  })
  .use('/oidc/v1/userinfo', corsForPublicClients)
  .on(['GET', 'POST'], '/oidc/v1/userinfo', async (c) => {
    const header = c.req.header('authorization');
    const match = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)$/i.exec(header ?? '');
    // RFC 6750 §2.2: a POST may carry the token in its form body instead (OpenID certification's userinfo-post-body);
    // one request uses one method.
    let token = match?.[1] ?? null;
    if (c.req.method === 'POST' && (c.req.header('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      const inBody = (await formOf(c)).get('access_token');
      if (inBody !== null && header) throw new OAuthError('invalid_request', 'send the access token one way only');
      token = inBody ?? token;
    }
    return c.json(await userinfo(c.env, token, now(c)), 200, { 'Cache-Control': 'no-store' });
  })
  .post('/oidc/v1/introspect', async (c) => {
    const form = await formOf(c);
    const { client, problem } = await authenticateClient(c.env.DB, c.req.header('authorization'), form, now(c));
    if (!client || client.public === 1) throw problem ?? new OAuthError('invalid_client', 'a public client cannot introspect', 401);
    return c.json(await introspect(c.env, client, form.get('token'), now(c)), 200, { 'Cache-Control': 'no-store' });
  })
  // Discovery offers revocation to public clients ('none'), so a single-page app calls it from the browser (issue 43).
  .use('/oidc/v1/revoke', corsForPublicClients)
  .post('/oidc/v1/revoke', async (c) => {
    const form = await formOf(c);
    const { client, problem } = await authenticateClient(c.env.DB, c.req.header('authorization'), form, now(c));
    if (!client) throw problem!;
    await revoke(c.env, client, form.get('token'), now(c));
    return c.body(null, 200, { 'Cache-Control': 'no-store' });
  });

/** The consent page's and the user center's calls (through /api, with the person's session). */
export const oidcPersonRoutes = new Hono<SessionEnv>()
  .use('/oidc/v1/requests/*', requireSession)
  .use('/oidc/v1/connected', requireSession)
  .use('/oidc/v1/connected/*', requireSession)
  .get('/oidc/v1/requests/:id', async (c) => ok(c, await requestView(c.env, requestId(c.req.param('id')), c.get('session'), now(c), requestLang(c))))
  .post('/oidc/v1/requests/:id/release', async (c) => ok(c, await releaseRequest(c.env, requestId(c.req.param('id')), c.get('session'), now(c))))
  .post('/oidc/v1/requests/:id/decision', validate('json', connectDecision), async (c) =>
    ok(c, await decide(c.env, requestId(c.req.param('id')), c.get('session'), c.req.valid('json').allow, now(c), requestLang(c))),
  )
  .get('/oidc/v1/connected', async (c) =>
    ok(
      c,
      (await connectedApps(c.env.DB, c.get('user').id)).map((app) => ({
        clientId: app.client_id,
        name: app.name,
        scopes: app.scope.split(' ').filter(Boolean),
        grantedAt: app.granted_at,
        lastUsedAt: app.last_used_at,
      })),
    ),
  )
  .post('/oidc/v1/connected/:clientId/disconnect', async (c) => {
    const clientId = c.req.param('clientId');
    const at = now(c);
    const userId = c.get('user').id;
    const results = await runBatch(c.env.DB, [queueLogoutSendsStatement(c.env.DB, userId, clientId, at), ...disconnectStatements(c.env.DB, userId, clientId, at)]);
    if ((results[1]?.meta.changes ?? 0) + (results[2]?.meta.changes ?? 0) === 0) throw new GatewayError(ERR.OIDC_APP_NOT_CONNECTED);
    c.executionCtx.waitUntil(tellConnectedApps(c.env, at).catch(logSweepFailure));
    return ok(c, { clientId });
  });

const requestId = (id: string) => {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(id)) throw new GatewayError(ERR.OIDC_REQUEST_GONE);
  return id;
};

const logoutId = (id: string) => {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(id)) throw new GatewayError(ERR.OIDC_LOGOUT_GONE);
  return id;
};

const logSweepFailure = (error: unknown) => console.error(JSON.stringify({ event: 'oidc_logout_sweep_failed', detail: String(error) }));

/**
 * After a call that can end sessions (sign-out, ending sessions, password change and reset, an operator's block),
 * the connected apps of those sessions are told (logout.ts), after the answer.
 */
export const tellsConnectedApps: MiddlewareHandler<OidcEnv> = async (c, next) => {
  await next();
  if (c.req.method !== 'GET' && c.res.status < 400) c.executionCtx.waitUntil(tellConnectedApps(c.env, now(c)).catch(logSweepFailure));
};
