import { createLocalJWKSet, compactVerify, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { ACR } from '../../../src/schemas/oidc';
import { randomToken } from '../identity/tokens';
import { jwks, signingKey, SIGNING_ALGS, type SigningAlg } from './keys';

/**
 * The JWTs of the OpenID Provider, ES256 with the current signing key (keys.ts), ID and logout tokens RS256 for a
 * client that named it: ID tokens (OIDC Core §2),
 * access tokens (RFC 9068, `at+jwt`) and back-channel logout tokens (`logout+jwt`). Refresh tokens are not JWTs:
 * they are random secrets kept hashed (service.ts).
 */

/** Lifetimes (security baseline: ID and access tokens at most 10 minutes). */
export const ID_TOKEN_TTL_S = 600;
export const ACCESS_TOKEN_TTL_S = 600;
export const LOGOUT_TOKEN_TTL_S = 120;

type Env = { DB: D1Database };

async function sign(env: Env, typ: string, payload: JWTPayload, at: number, ttlS: number, alg: SigningAlg = 'ES256'): Promise<string> {
  const { kid, key } = await signingKey(env, at, alg);
  const iat = Math.floor(at / 1000);
  return new SignJWT(payload).setProtectedHeader({ alg, kid, typ }).setIssuedAt(iat).setExpirationTime(iat + ttlS).sign(key);
}

export interface Authentication {
  /** Epoch ms of the last authentication. */
  authTime: number | null;
  amr: string[];
  acr: string;
}

/** RFC 8176 method references of what a session passed ('password+totp' → pwd, otp, mfa). */
export function authenticationOf(methods: string | null, authTime: number | null): Authentication {
  const parts = (methods ?? '').split('+').filter(Boolean);
  const amr = new Set<string>();
  for (const part of parts) {
    if (part === 'password') amr.add('pwd');
    else if (part === 'code' || part === 'link' || part === 'totp' || part === 'recovery') amr.add('otp');
    else if (part === 'passkey') amr.add('hwk');
  }
  // A passkey is two factors by itself (a device and its unlock); so is any first factor with a second step.
  const twoFactors = parts.length >= 2 || parts.includes('passkey');
  if (twoFactors) amr.add('mfa');
  return { authTime, amr: [...amr], acr: twoFactors ? ACR.twoFactors : ACR.oneFactor };
}

/** `alg`: the client's id_token_signed_response_alg (migration 0430), ES256 unless it named RS256. */
export function idToken(
  env: Env,
  at: number,
  claims: { issuer: string; clientId: string; subject: string; nonce: string | null; sid: string | null; auth: Authentication; profile: Record<string, unknown> },
  alg: SigningAlg = 'ES256',
): Promise<string> {
  const { issuer, clientId, subject, nonce, sid, auth, profile } = claims;
  return sign(
    env,
    'JWT',
    {
      ...profile,
      iss: issuer,
      sub: subject,
      aud: clientId,
      azp: clientId,
      ...(nonce ? { nonce } : {}),
      ...(sid ? { sid } : {}),
      ...(auth.authTime !== null ? { auth_time: Math.floor(auth.authTime / 1000) } : {}),
      acr: auth.acr,
      ...(auth.amr.length ? { amr: auth.amr } : {}),
    },
    at,
    ID_TOKEN_TTL_S,
    alg,
  );
}

export interface AccessClaims extends JWTPayload {
  client_id: string;
  scope: string;
  /** The grant the token belongs to: revoking the grant ends the token on its next use. */
  gid: string;
  sid?: string;
  /** While the person acts for another company (issue 41): the grant between companies, checked live on every use. */
  on_behalf_of?: { company_id: string; grant_id: string };
  /** Made in a support "view as" (issue 44): the operator acting, `op:<id>` (RFC 8693 §4.1). */
  act?: { sub: string };
}

export function accessToken(
  env: Env,
  at: number,
  claims: { issuer: string; audience: string; clientId: string; subject: string; scope: string; grantId: string; sid: string | null; auth?: Authentication; extra?: Record<string, unknown> },
): Promise<string> {
  const { issuer, audience, clientId, subject, scope, grantId, sid, auth, extra } = claims;
  // `extra`: a company API client's company_id (company-clients.ts), or a person's on_behalf_of; never overrides the claims above.
  const payload: AccessClaims = { ...extra, iss: issuer, aud: audience, sub: subject, client_id: clientId, scope, gid: grantId, jti: randomToken().slice(0, 22) };
  if (sid) payload.sid = sid;
  if (auth?.authTime) payload.auth_time = Math.floor(auth.authTime / 1000);
  if (auth) {
    payload.acr = auth.acr;
    if (auth.amr.length) payload.amr = auth.amr;
  }
  return sign(env, 'at+jwt', payload, at, ACCESS_TOKEN_TTL_S);
}

/** Signed like the client's ID tokens (Back-Channel Logout 1.0 §2.4: the same keys as for ID tokens). */
export function logoutToken(env: Env, at: number, claims: { issuer: string; clientId: string; subject: string; sid: string | null }, alg: SigningAlg = 'ES256'): Promise<string> {
  return sign(
    env,
    'logout+jwt',
    {
      iss: claims.issuer,
      aud: claims.clientId,
      sub: claims.subject,
      ...(claims.sid ? { sid: claims.sid } : {}),
      jti: randomToken().slice(0, 22),
      events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
    },
    at,
    LOGOUT_TOKEN_TTL_S,
    alg,
  );
}

/** An access token of this issuer, checked: signature with a published key, type, issuer, audience, expiry. Null when any fails. */
export async function verifiedAccessToken(db: D1Database, token: string, at: number, expect: { issuer: string; audience: string }): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify<AccessClaims>(token, createLocalJWKSet(await jwks(db, at)), {
      issuer: expect.issuer,
      audience: expect.audience,
      typ: 'at+jwt',
      algorithms: ['ES256'],
      currentDate: new Date(at),
    });
    return typeof payload.gid === 'string' && typeof payload.client_id === 'string' ? payload : null;
  } catch {
    return null;
  }
}

/**
 * An ID token this issuer signed, expired or not (an `id_token_hint` is often an old one): signature with a
 * published key and issuer checked; its claims, or null.
 */
export async function verifiedIdTokenHint(db: D1Database, token: string, at: number, issuer: string): Promise<JWTPayload | null> {
  try {
    const { payload, protectedHeader } = await compactVerify(token, createLocalJWKSet(await jwks(db, at)), { algorithms: [...SIGNING_ALGS] });
    if (protectedHeader.typ && protectedHeader.typ !== 'JWT') return null;
    const claims = JSON.parse(new TextDecoder().decode(payload)) as JWTPayload;
    return claims.iss === issuer ? claims : null;
  } catch {
    return null;
  }
}
