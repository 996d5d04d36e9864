import { configOf } from '../../config';
import { tokenHash } from '../identity/tokens';
import { clientById, type ClientRow } from './db';

/**
 * Clients of the OpenID Provider and how they prove who they are at the token, introspection and revocation
 * endpoints: `client_secret_basic` or `client_secret_post` for a confidential client (its secret is kept as a
 * SHA-256 hex: it is 32 random bytes, not a password), the client id alone for a public one (PKCE protects its
 * codes). Clients are registered by operators (`npm run operator -- client add`, scripts/operator-sql.mjs).
 */

/** The issuer: PORTAL_ORIGIN. The navigator host is not an issuer. */
export function issuerOf(env: object): string {
  const origin = configOf(env).portalOrigin;
  if (!origin) throw new Error('PORTAL_ORIGIN is not configured');
  return origin;
}

export const parseList = (json: string): string[] => {
  const value = JSON.parse(json) as unknown;
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
};

/** An OAuth error answer (RFC 6749 §5.2): `{ error, error_description }`, never the portal's envelope. */
/**
 * The error names an OAuth or OpenID endpoint answers: RFC 6749 §5.2 (token), §4.1.2.1 (authorize), RFC 6750 §3.1
 * (bearer: userinfo), RFC 7009 §2.2.1 (revocation), RFC 8628 §3.5 (slow_down) and OpenID Connect Core §3.1.2.6.
 * A name outside this list does not compile.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'server_error'
  | 'temporarily_unavailable'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'unsupported_token_type'
  | 'slow_down'
  | 'interaction_required'
  | 'login_required'
  | 'account_selection_required'
  | 'consent_required'
  | 'invalid_request_uri'
  | 'invalid_request_object'
  | 'request_not_supported'
  | 'request_uri_not_supported'
  | 'registration_not_supported';

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status: 400 | 401 | 403 | 429 = 400,
  ) {
    super(`${error}: ${description}`);
  }
}

function timingSafeEqualHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** `Authorization: Basic` credentials: client id and secret, each form-urlencoded (RFC 6749 §2.3.1). */
function basicCredentials(header: string | undefined): { id: string; secret: string } | null | 'malformed' {
  if (!header) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  if (!match) return 'malformed';
  let decoded: string;
  try {
    decoded = atob(match[1]!);
  } catch {
    return 'malformed';
  }
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  try {
    return { id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')), secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')) };
  } catch {
    return 'malformed';
  }
}

/** The client a token-endpoint call comes from, its credentials checked; the id it claimed, for the caps, either way. */
export async function authenticateClient(db: D1Database, authorization: string | undefined, form: URLSearchParams, at: number): Promise<{ claimed: string | null; client: ClientRow | null; problem?: OAuthError }> {
  const basic = basicCredentials(authorization);
  const formId = form.get('client_id');
  const formSecret = form.get('client_secret');
  const invalid = (claimed: string | null, description: string) => ({ claimed, client: null, problem: new OAuthError('invalid_client', description, 401) });
  if (basic === 'malformed') return invalid(null, 'the Authorization header is not valid Basic credentials');
  if (basic && formSecret !== null) return invalid(basic.id, 'use one client authentication method');
  if (basic && formId !== null && formId !== basic.id) return invalid(basic.id, 'client_id does not match the credentials');
  const id = basic?.id ?? formId;
  const secret = basic?.secret ?? formSecret;
  if (!id) return invalid(null, 'client authentication is required');
  const client = await clientById(db, id);
  if (!client || client.disabled_at !== null) return invalid(id, 'unknown client');
  // A company's API client (company-clients.ts) ends when it is revoked or reaches its end date.
  if (client.revoked_at != null || (client.expires_at != null && client.expires_at <= at)) return invalid(id, 'the client was revoked or has expired');
  if (client.public === 1) {
    // A public client has no secret to send; one that sends one anyway is confused or someone else.
    return secret === null ? { claimed: id, client } : invalid(id, 'a public client sends no secret');
  }
  if (secret === null || !client.secret_hash || !timingSafeEqualHex(await tokenHash(secret), client.secret_hash)) return invalid(id, 'wrong client credentials');
  return { claimed: id, client };
}

/** The algorithm of the client's ID tokens (its id_token_signed_response_alg): ES256 unless it named RS256. */
export const idTokenAlgOf = (client: Pick<ClientRow, 'id_token_alg'>): 'ES256' | 'RS256' => (client.id_token_alg === 'RS256' ? 'RS256' : 'ES256');

/** Whether the client's code flow needs PKCE: always for a public client; for a confidential one unless an operator turned it off. */
export const pkceRequired = (client: Pick<ClientRow, 'public' | 'pkce_required'>): boolean => client.public === 1 || client.pkce_required !== 0;

/** Origins allowed to call the token, userinfo and JWKS endpoints from a browser: those of public clients' redirect URIs. */
export function originsOf(redirectUris: readonly string[]): Set<string> {
  return new Set(redirectUris.filter((uri) => URL.canParse(uri)).map((uri) => new URL(uri).origin));
}
