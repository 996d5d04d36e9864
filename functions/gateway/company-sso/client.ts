import * as oauth from 'oauth4webapi';
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JWK, type JWTPayload } from 'jose';
import { ERR } from '../../../src/schemas/error-codes';
import { encodeBase64Url } from '../../../src/lib/base64';
import { GatewayError } from '../errors';
import { endpointAddressProblem } from '../webhooks/address';

/**
 * The portal as a relying party of a company's own OpenID provider (issue 43), on `oauth4webapi`: discovery from
 * the issuer (its `issuer` must equal the one configured), the authorization code flow with PKCE (S256), `state`,
 * `nonce`, and the authorization response's `iss` (RFC 9207) checked whenever the provider sends it or says it
 * does. The ID token's `iss`, `aud` (our client id), `azp`, `exp`, `iat` and `nonce` are checked by oauth4webapi;
 * its signature by the provider's JWKS here (jose), since oauth4webapi leaves that to TLS for a token endpoint answer.
 *
 * Every address the portal fetches (the discovery document, the token endpoint, the JWKS) passes the webhooks'
 * SSRF guard (webhooks/address.ts): public https only, plain http to loopback only in a local run (DEV_OUTBOX);
 * redirects are not followed; each call has a time limit.
 *
 * The discovery document and the JWKS are kept in the isolate's memory for PROVIDER_CACHE_TTL_MS, keyed by issuer (at
 * most PROVIDER_CACHE_MAX issuers, the oldest dropped first), so a sign-in costs the provider one round trip (its
 * token endpoint). An ID token whose `kid` is not in the kept JWKS (the provider rotated its key) fetches the JWKS
 * again once, at most once per KEY_REFETCH_COOLDOWN_MS per issuer: tokens with made-up `kid`s cannot make the portal
 * fetch in a loop (the time of that read is kept before it is made, so a failing one waits its turn too). Only
 * answers are kept, never a fetch in flight: on Workers a promise of one request's I/O must not be awaited by another
 * (it never settles once the first request is cancelled), so parallel sign-ins on a cold cache each read. Saving a
 * connection reads the discovery afresh.
 */
export const PROVIDER_TIMEOUT_MS = 8_000;
export const PROVIDER_CACHE_TTL_MS = 5 * 60_000;
export const KEY_REFETCH_COOLDOWN_MS = 30_000;
const PROVIDER_CACHE_MAX = 200;

interface Kept<T> {
  value: T;
  until: number;
}
const discoveries = new Map<string, Kept<oauth.AuthorizationServer>>();
const keySets = new Map<string, Kept<JWK[]>>();
/** When each JWKS was last read again after a token named a key not kept (KEY_REFETCH_COOLDOWN_MS). */
const keyRefetchedAt = new Map<string, number>();

/** Keeps `value` as the newest of `map`, dropping the oldest beyond the bound. */
function keep<T>(map: Map<string, T>, key: string, value: T): T {
  map.delete(key);
  map.set(key, value);
  if (map.size > PROVIDER_CACHE_MAX) map.delete(map.keys().next().value!);
  return value;
}

export interface Provider {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export interface ProviderOptions {
  /** A local run (DEV_OUTBOX): plain http to 127.0.0.1 or localhost is allowed for stand-in providers. */
  loopbackHttp: boolean;
}

/** Why the issuer cannot be used at all (ID0611), before anything is fetched. */
export function issuerProblem(issuer: string, { loopbackHttp }: ProviderOptions): boolean {
  return endpointAddressProblem(issuer, { loopbackHttp }) !== null;
}

function guardedFetch(loopbackHttp: boolean) {
  return async (url: string, init: RequestInit): Promise<Response> => {
    if (endpointAddressProblem(url, { loopbackHttp })) throw new GatewayError(ERR.SSO_PROVIDER_REFUSED);
    try {
      return await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
    } catch {
      throw new GatewayError(ERR.SSO_UNAVAILABLE);
    }
  };
}

const options = ({ loopbackHttp }: ProviderOptions) => ({
  [oauth.customFetch]: guardedFetch(loopbackHttp),
  ...(loopbackHttp ? { [oauth.allowInsecureRequests]: true } : {}),
});

/** The provider's discovery document (kept a few minutes; `fresh` reads it again); ID0612 when it cannot be read or names another issuer. */
export async function discover(issuer: string, opts: ProviderOptions, { fresh = false }: { fresh?: boolean } = {}): Promise<oauth.AuthorizationServer> {
  if (issuerProblem(issuer, opts)) throw new GatewayError(ERR.SSO_ISSUER_REFUSED);
  const at = Date.now();
  const kept = discoveries.get(issuer);
  if (!fresh && kept && kept.until > at) return kept.value;
  const server = await readDiscovery(issuer, opts);
  return keep(discoveries, issuer, { value: server, until: Date.now() + PROVIDER_CACHE_TTL_MS }).value;
}

async function readDiscovery(issuer: string, opts: ProviderOptions): Promise<oauth.AuthorizationServer> {
  const issuerUrl = new URL(issuer);
  try {
    const answer = await oauth.discoveryRequest(issuerUrl, { algorithm: 'oidc', ...options(opts) });
    const server = await oauth.processDiscoveryResponse(issuerUrl, answer);
    if (!server.authorization_endpoint || !server.token_endpoint || !server.jwks_uri) throw new GatewayError(ERR.SSO_DISCOVERY_FAILED);
    return server;
  } catch (error) {
    if (error instanceof GatewayError && error.code !== ERR.SSO_PROVIDER_REFUSED) throw error;
    throw new GatewayError(ERR.SSO_DISCOVERY_FAILED);
  }
}

/** The PKCE verifier and the nonce of a flow, derived from the browser's half of it (kept only in its HttpOnly cookie). */
export async function flowSecrets(browserSecret: string): Promise<{ verifier: string; nonce: string }> {
  const derive = async (label: string) => encodeBase64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`company-sso:${label}:${browserSecret}`))));
  return { verifier: await derive('pkce'), nonce: await derive('nonce') };
}

/** Where the browser goes to sign in at the provider. */
export async function authorizationUrl(server: oauth.AuthorizationServer, clientId: string, flow: { state: string; verifier: string; nonce: string; redirectUri: string; loginHint: string }): Promise<string> {
  const url = new URL(server.authorization_endpoint!);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', clientId);
  url.searchParams.set('redirect_uri', flow.redirectUri);
  url.searchParams.set('scope', 'openid email profile');
  url.searchParams.set('state', flow.state);
  url.searchParams.set('nonce', flow.nonce);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(flow.verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('login_hint', flow.loginHint);
  return url.href;
}

/**
 * Redeems the code and verifies the ID token: its claims, or ID0615 for anything the provider or the token got
 * wrong (another client's token, another issuer, a wrong nonce, a bad signature, an `iss` of the response that is
 * not the issuer's). The state was spent by the caller before this runs, so it is passed as the one expected.
 */
export async function redeem(
  server: oauth.AuthorizationServer,
  provider: Provider,
  callback: { code: string; state: string; iss?: string },
  flow: { verifier: string; nonce: string; redirectUri: string },
  opts: ProviderOptions,
): Promise<JWTPayload> {
  const client: oauth.Client = { client_id: provider.clientId };
  const methods = server.token_endpoint_auth_methods_supported;
  const auth = methods && !methods.includes('client_secret_basic') && methods.includes('client_secret_post') ? oauth.ClientSecretPost(provider.clientSecret) : oauth.ClientSecretBasic(provider.clientSecret);
  const parameters = new URLSearchParams({ code: callback.code, state: callback.state, ...(callback.iss !== undefined ? { iss: callback.iss } : {}) });
  let idToken: string;
  let claims: oauth.IDToken;
  try {
    const checked = oauth.validateAuthResponse(server, client, parameters, callback.state);
    const answer = await oauth.authorizationCodeGrantRequest(server, client, auth, checked, flow.redirectUri, flow.verifier, options(opts));
    const result = await oauth.processAuthorizationCodeResponse(server, client, answer, { expectedNonce: flow.nonce, requireIdToken: true });
    idToken = result.id_token!;
    claims = oauth.getValidatedIdTokenClaims(result)!;
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    throw new GatewayError(ERR.SSO_PROVIDER_REFUSED);
  }
  const verify = async (keys: JWK[]) => {
    const { payload } = await jwtVerify(idToken, createLocalJWKSet({ keys }), {
      issuer: server.issuer,
      audience: provider.clientId,
      // Asymmetric algorithms only: the JWKS holds public keys, and `none` or an HMAC over a public key is no signature.
      algorithms: server.id_token_signing_alg_values_supported?.filter((alg) => /^(RS|PS|ES)(256|384|512)$|^EdDSA$|^Ed25519$/.test(alg)) ?? ['RS256'],
    });
    if (payload.sub !== claims.sub || payload.nonce !== flow.nonce) throw new GatewayError(ERR.SSO_PROVIDER_REFUSED);
    return payload;
  };
  // A JWKS that cannot be read is the provider being unavailable (ID0619 from fetchJwks), not a refusal.
  try {
    return await verify(await providerKeys(server, opts));
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    if (!(error instanceof joseErrors.JWKSNoMatchingKey)) throw new GatewayError(ERR.SSO_PROVIDER_REFUSED);
  }
  // No kept key has the token's `kid`: the provider may have rotated its key. Once, and not again for a while.
  try {
    return await verify(await keysAfterMiss(server, opts));
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    throw new GatewayError(ERR.SSO_PROVIDER_REFUSED);
  }
}

const keySetKey = (server: oauth.AuthorizationServer) => `${server.issuer} ${server.jwks_uri}`;

/** The provider's JWKS, kept PROVIDER_CACHE_TTL_MS. */
async function providerKeys(server: oauth.AuthorizationServer, opts: ProviderOptions): Promise<JWK[]> {
  const at = Date.now();
  const key = keySetKey(server);
  const kept = keySets.get(key);
  if (kept && kept.until > at) return kept.value;
  const keys = await fetchJwks(server.jwks_uri!, opts);
  return keep(keySets, key, { value: keys, until: Date.now() + PROVIDER_CACHE_TTL_MS }).value;
}

/**
 * The JWKS read again after a token named a key not kept. While the last such read is under KEY_REFETCH_COOLDOWN_MS
 * old, the kept keys (a parallel sign-in may just have read the rotated ones) and no fetch.
 */
async function keysAfterMiss(server: oauth.AuthorizationServer, opts: ProviderOptions): Promise<JWK[]> {
  const at = Date.now();
  const key = keySetKey(server);
  if (at - (keyRefetchedAt.get(key) ?? 0) < KEY_REFETCH_COOLDOWN_MS) {
    const kept = keySets.get(key);
    if (kept) return kept.value;
    throw new GatewayError(ERR.SSO_UNAVAILABLE);
  }
  keep(keyRefetchedAt, key, at);
  const keys = await fetchJwks(server.jwks_uri!, opts);
  return keep(keySets, key, { value: keys, until: Date.now() + PROVIDER_CACHE_TTL_MS }).value;
}

async function fetchJwks(uri: string, opts: ProviderOptions): Promise<JWK[]> {
  const answer = await guardedFetch(opts.loopbackHttp)(uri, { headers: { accept: 'application/json' } });
  if (!answer.ok) {
    await answer.body?.cancel();
    throw new GatewayError(ERR.SSO_UNAVAILABLE);
  }
  try {
    const body = (await answer.json()) as { keys?: unknown };
    if (!Array.isArray(body.keys)) throw new Error('no keys');
    return body.keys as JWK[];
  } catch {
    throw new GatewayError(ERR.SSO_PROVIDER_REFUSED);
  }
}
