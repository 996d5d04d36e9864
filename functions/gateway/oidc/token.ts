import { type Asker } from '../authority/db';
import { ERR } from '../../../src/schemas/error-codes';
import type { Lang } from '../../../src/lib/lang';
import { configOf } from '../../config';
import { findUserById } from '../identity/db/people';
import { runBatch } from '../identity/db/batch';
import { companyById } from '../companies/db';
import { standingIn } from '../authority/service';
import { GatewayError } from '../errors';
import { consume, SINGLE_USE } from '../identity/db/single-use';
import { newSecret, randomToken, tokenHash } from '../identity/tokens';
import { cappedInsert } from '../identity/db/limits';
import { grantsOf } from '../companies/members-db';
import { modulesOfMember } from '../companies/modules';
import { idleTimeoutMs } from '../sessions/service';
import { type SessionRow } from '../identity/db/sessions';
import {
  accessTokenRevoked,
  codeByHash,
  grantClient,
  grantSession,
  insertGrantStatement,
  insertRefreshTokenStatement,
  liveGrant,
  refreshTokenByHash,
  revokeAccessTokenStatement,
  revokeGrantStatement,
  touchGrantStatement,
  type ClientRow,
  type GrantRow,
} from './db';
import { authenticateClient, idTokenAlgOf, issuerOf, OAuthError, parseList, pkceRequired } from './clients';
import { companySuspended, companyTokenUse } from './company-clients';
import { actingNow, onBehalfOf } from '../grants/service';
import { actingAuthority } from '../authority/service';
import type { ActingChoice } from '../../../src/schemas/grants';
import { refreshLifetimeMs } from './authorize';
import { accessToken, ACCESS_TOKEN_TTL_S, idToken, verifiedAccessToken, type AccessClaims, type Authentication } from './tokens';

/**
 * The token endpoint (RFC 6749 §3.2, OIDC Core §3.1.3) and the endpoints that read tokens back: userinfo
 * (OIDC Core §5.3), introspection (RFC 7662) and revocation (RFC 7009).
 *
 * - An authorization code is spent by ONE statement (identity/db/single-use.ts) matched on its client: of 20
 *   parallel redemptions one gets tokens. Any later redemption of a spent code revokes the grant it made (RFC
 *   9700 §4.5), and with it every token issued from it. Its redirect_uri and PKCE verifier must match.
 * - A refresh token is rotated on every use, spent the same way; a spent one presented again revokes the grant.
 * - Every token is checked against its grant on use (db.ts liveGrant): a revoked grant, an ended session, a
 *   blocked person or a disabled client ends access at once, whatever the token's expiry says.
 */

type Env = { DB: D1Database };

/** The resource access tokens are for (RFC 9068 `aud`): the platform's APIs at the issuer, userinfo among them. */
export const accessAudience = (env: object) => issuerOf(env);

export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  id_token?: string;
  refresh_token?: string;
}

/** One call of the token endpoint, counted against the caps first (per network always, per client once it is known). */
export async function tokenRequest(env: Env, request: { authorization: string | undefined; form: URLSearchParams; network: string; at: number; lang: Lang }): Promise<TokenAnswer> {
  const { form, at } = request;
  const { client, problem } = await authenticateClient(env.DB, request.authorization, form, at);
  const config = configOf(env);
  try {
    await cappedInsert(env.DB, {
      table: 'oidc_token_calls',
      // A public client authenticates with its id alone, so anyone could spend its cap: it is counted per network.
      row: { client_id: client ? (client.public === 1 ? `${client.id}@${request.network}` : client.id) : '', network: request.network, created_at: at },
      caps: [
        { where: { network: request.network }, since: at - 60_000, max: config.oidcTokenNetworkCap, code: ERR.OIDC_TOKEN_CALLS_CAPPED },
        ...(client ? [{ where: { client_id: client.public === 1 ? `${client.id}@${request.network}` : client.id }, since: at - 60_000, max: config.oidcTokenClientCap, code: ERR.OIDC_TOKEN_CALLS_CAPPED }] : []),
      ],
    });
  } catch (error) {
    if (error instanceof GatewayError) throw new OAuthError('slow_down', 'too many token requests; wait a minute', 429);
    throw error;
  }
  if (!client) throw problem!;
  const grantType = form.get('grant_type');
  if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required');
  // RFC 6749 §5.2: a grant type this server does not know is unsupported_grant_type, whoever asks; one it knows but
  // this client may not use is unauthorized_client.
  if (!(SUPPORTED_GRANT_TYPES as readonly string[]).includes(grantType)) throw new OAuthError('unsupported_grant_type', `${grantType.slice(0, 60)} is not supported`);
  if (!parseList(client.grant_types).includes(grantType)) throw new OAuthError('unauthorized_client', `this client may not use ${grantType}`);
  if (grantType === 'authorization_code') return redeemCode(env, client, form, at);
  if (grantType === 'refresh_token') return rotateRefreshToken(env, client, form, at);
  return clientCredentials(env, client, form, at, request.network);
}

/** The grant types of the token endpoint (discovery's grant_types_supported). */
export const SUPPORTED_GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;

const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

async function pkceChallengeOf(verifier: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  return btoa(String.fromCharCode(...digest)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function redeemCode(env: Env, client: ClientRow, form: URLSearchParams, at: number): Promise<TokenAnswer> {
  const code = form.get('code');
  const verifier = form.get('code_verifier');
  if (!code || code.length > 128) throw new OAuthError('invalid_request', 'code is required');
  // PKCE is a per-client rule (migration 0430): required unless an operator turned it off for this confidential client.
  if (verifier === null && pkceRequired(client)) throw new OAuthError('invalid_request', 'code_verifier (PKCE) is required');
  if (verifier !== null && !PKCE_VERIFIER.test(verifier)) throw new OAuthError('invalid_request', 'code_verifier is malformed');
  const hash = await tokenHash(code);
  const row = await consume<{ grant_id: string; redirect_uri: string; code_challenge: string; nonce: string | null }>(env.DB, SINGLE_USE.oidcCode, { code_hash: hash, client_id: client.id }, at, {
    returning: 'grant_id, redirect_uri, code_challenge, nonce',
  });
  if (!row) {
    // Read only to say why, after the one statement decided (single-use.ts race contract).
    const spent = await codeByHash(env.DB, hash);
    if (spent && spent.client_id === client.id && spent.used_at !== null) {
      // A code redeemed twice was stolen: whatever the first redemption issued ends with its grant.
      await revokeGrantStatement(env.DB, spent.grant_id, at).run();
    }
    throw new OAuthError('invalid_grant', 'the code is not valid, expired or was already used');
  }
  // Required when the authorization request named it; a client with a single registered URI may leave it out of both.
  const redirectUri = form.get('redirect_uri') ?? (parseList(client.redirect_uris).length === 1 ? row.redirect_uri : null);
  // A code asked for without a challenge ('') takes no verifier, and one asked for with a challenge needs it (RFC 9700
  // §2.1.1: a verifier sent for a code without a challenge is a downgrade attempt).
  const pkceHolds = row.code_challenge === '' ? verifier === null : verifier !== null && (await pkceChallengeOf(verifier)) === row.code_challenge;
  if (redirectUri !== row.redirect_uri || !pkceHolds) {
    await revokeGrantStatement(env.DB, row.grant_id, at).run();
    throw new OAuthError('invalid_grant', 'redirect_uri or code_verifier does not match the authorization request');
  }
  const grant = await liveGrant(env.DB, row.grant_id, at, idleTimeoutMs(env));
  if (!grant) throw new OAuthError('invalid_grant', 'the authorization has ended');
  return tokensFor(env, client, grant, at, row.nonce);
}

async function rotateRefreshToken(env: Env, client: ClientRow, form: URLSearchParams, at: number): Promise<TokenAnswer> {
  const token = form.get('refresh_token');
  if (!token || token.length > 128) throw new OAuthError('invalid_request', 'refresh_token is required');
  const hash = await tokenHash(token);
  const row = await consume<{ grant_id: string }>(env.DB, SINGLE_USE.oidcRefreshToken, { token_hash: hash }, at, { returning: 'grant_id' });
  if (!row) {
    const spent = await refreshTokenByHash(env.DB, hash);
    // A rotated-away token presented again: someone holds a copy. The whole family ends with its grant.
    if (spent && spent.used_at !== null) await revokeGrantStatement(env.DB, spent.grant_id, at).run();
    throw new OAuthError('invalid_grant', 'the refresh token is not valid, expired or was already used');
  }
  const grant = await liveGrant(env.DB, row.grant_id, at, idleTimeoutMs(env));
  if (!grant || grant.client_id !== client.id) {
    if (grant) await revokeGrantStatement(env.DB, grant.id, at).run();
    throw new OAuthError('invalid_grant', 'the authorization has ended');
  }
  return tokensFor(env, client, grant, at, null);
}

async function clientCredentials(env: Env, client: ClientRow, form: URLSearchParams, at: number, network: string): Promise<TokenAnswer> {
  if (client.public === 1) throw new OAuthError('unauthorized_client', 'a public client has no credentials of its own');
  if (await companySuspended(env.DB, client)) throw new OAuthError('invalid_client', "the client's company is blocked or its verification expired", 401);
  const allowed = parseList(client.scopes).filter((scope) => !['openid', 'profile', 'email', 'phone', 'offline_access'].includes(scope));
  const requested = (form.get('scope') ?? '').split(' ').filter(Boolean);
  const scope = requested.length ? requested : allowed;
  const refused = scope.filter((item) => !allowed.includes(item));
  if (refused.length) throw new OAuthError('invalid_scope', `not allowed for this client: ${refused.join(' ')}`);
  const grantId = randomToken();
  // A company's API client: its tokens name the company, and each one is a row of the company's activity.
  const companyUse = companyTokenUse(env.DB, client, { at, network, scope: scope.join(' '), grantId });
  const grant = insertGrantStatement(env.DB, { id: grantId, client_id: client.id, user_id: null, session_hash: null, sid: null, scope: scope.join(' '), auth_time: null, amr: null, acr: null, locale: null, created_at: at });
  await env.DB.batch(companyUse ? [grant, companyUse.record] : [grant]);
  const token = await accessToken(env, at, { issuer: issuerOf(env), audience: accessAudience(env), clientId: client.id, subject: client.id, scope: scope.join(' '), grantId, sid: null, extra: companyUse?.claims });
  return { access_token: token, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_S, scope: scope.join(' ') };
}

const grantAuthentication = (grant: GrantRow): Authentication => ({
  authTime: grant.auth_time,
  amr: grant.amr ? grant.amr.split(' ').filter(Boolean) : [],
  acr: grant.acr ?? '',
});

/** Access token, ID token and a new refresh token of a person's grant (the refresh token's end is the session's). */
async function tokensFor(env: Env, client: ClientRow, grant: GrantRow, at: number, nonce: string | null): Promise<TokenAnswer> {
  const issuer = issuerOf(env);
  const auth = grantAuthentication(grant);
  const claims = await personClaims(env, grant, at);
  const scope = grant.scope;
  // A token made in a support "view as" (issue 44) names the operator as the actor (RFC 8693 §4.1), refreshed too:
  // the grant stays bound to that session.
  const actor = await supportActor(env.DB, grant);
  if (actor) claims.act = actor;
  // A token made while the person acts for another company says so, and lives only as long as that grant does.
  const extra = claims.on_behalf_of || actor ? { ...(claims.on_behalf_of ? { on_behalf_of: claims.on_behalf_of } : {}), ...(actor ? { act: actor } : {}) } : undefined;
  const answer: TokenAnswer = {
    access_token: await accessToken(env, at, { issuer, audience: accessAudience(env), clientId: client.id, subject: grant.user_id!, scope, grantId: grant.id, sid: grant.sid, auth, extra }),
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_S,
    scope,
    id_token: await idToken(env, at, { issuer, clientId: client.id, subject: grant.user_id!, nonce, sid: grant.sid, auth, profile: claims }, idTokenAlgOf(client)),
  };
  const writes: D1PreparedStatement[] = [touchGrantStatement(env.DB, grant.id, at)];
  // A refresh token only when the app asked for offline_access (and may have one); it still ends with the session.
  if (parseList(client.grant_types).includes('refresh_token') && scope.split(' ').includes('offline_access')) {
    const session = grant.session_hash ? await sessionEnd(env.DB, grant.session_hash) : null;
    const { token, hash } = await newSecret();
    const expiresAt = Math.min(session ?? at + refreshLifetimeMs(env), at + refreshLifetimeMs(env));
    writes.push(insertRefreshTokenStatement(env.DB, { token_hash: hash, grant_id: grant.id, created_at: at, expires_at: expiresAt }));
    answer.refresh_token = token;
  }
  await runBatch(env.DB, writes);
  return answer;
}

const sessionEnd = async (db: D1Database, hash: string) => (await grantSession(db, hash))?.expires_at ?? null;

/** `{ sub: "op:<id>" }` for a grant made in a support "view as" session; null otherwise. */
async function supportActor(db: D1Database, grant: GrantRow): Promise<{ sub: string } | null> {
  const session = grant.session_hash ? await grantSession(db, grant.session_hash) : null;
  return session?.support_operator_id ? { sub: `op:${session.support_operator_id}` } : null;
}

/**
 * The person's claims a grant's scopes allow, read now: profile (name, locale), email, phone, and the company in
 * use (company scope) only while authority/service.ts says the person acts in it — a member the company's
 * two-step rule keeps out gets no company.
 */
export async function personClaims(env: Env, grant: GrantRow, at: number): Promise<Record<string, unknown>> {
  const scopes = grant.scope.split(' ');
  const user = grant.user_id ? await findUserById(env.DB, grant.user_id) : null;
  if (!user) return {};
  const claims: Record<string, unknown> = {};
  // profile is the name and the language (what the consent page promises), never the sign-in name: that is the
  // e-mail address or the phone number, which OIDC Core §5.4 keeps under their own scopes (issue 43).
  if (scopes.includes('profile')) {
    if (user.real_name) claims.name = user.real_name;
    if (grant.locale) claims.locale = grant.locale === 'zh' ? 'zh-CN' : 'en';
  }
  // The portal stores an address only after a code sent to it came back: both are verified.
  if (scopes.includes('email') && user.email) Object.assign(claims, { email: user.email, email_verified: true });
  if (scopes.includes('phone') && user.phone_e164) Object.assign(claims, { phone_number: user.phone_e164, phone_number_verified: true });
  if (scopes.includes('company')) {
    const session = grant.session_hash ? await grantSession(env.DB, grant.session_hash) : null;
    const acting = await actingClaim(env, grant, session, at);
    claims.company = await companyClaim(env, grant, session, acting);
    if (acting) claims.on_behalf_of = onBehalfOf(acting);
  }
  return claims;
}

/**
 * The grant between companies the session acts under, live now (authority/ decides); null when it acts for no one
 * or may no longer. RFC 8693 §4.1 style: the acting person and their own company stay the subject and `company`;
 * the principal goes in `on_behalf_of`.
 */
/** The person of a grant as the company rules see them: with the session the grant was made in (authority/db.ts Asker). */
const askerOfGrant = (userId: string, session: { provider_mfa_company_id?: string | null } | null): Asker => ({ userId, mfaCompanyId: session?.provider_mfa_company_id ?? null });

async function actingClaim(env: Env, grant: GrantRow, session: { acting_grant_id: string | null; provider_mfa_company_id?: string | null } | null, at: number): Promise<ActingChoice | null> {
  if (!session?.acting_grant_id || !grant.user_id) return null;
  const lang: Lang = grant.locale === 'en' ? 'en' : 'zh';
  return actingNow(env.DB, askerOfGrant(grant.user_id, session), session.acting_grant_id, at, lang).catch((error: unknown) => {
    if (error instanceof GatewayError && error.code === ERR.ACTING_ENDED) return null;
    throw error;
  });
}

async function companyClaim(env: Env, grant: GrantRow, session: Pick<SessionRow, 'current_company_id' | 'provider_mfa_company_id'> | null, acting: ActingChoice | null): Promise<Record<string, unknown> | null> {
  const companyId = session?.current_company_id;
  if (!companyId || !grant.user_id) return null;
  const standing = await standingIn(env.DB, companyId, askerOfGrant(grant.user_id, session));
  if (!standing.inside) return null;
  const company = await companyById(env.DB, companyId);
  if (!company) return null;
  const lang: Lang = grant.locale === 'en' ? 'en' : 'zh';
  // While acting, the modules are the person's within the grant's (grants/service.ts).
  const modules = acting?.agentCompanyId === companyId ? acting.modules : modulesOfMember(company.type, standing.member, await grantsOf(env.DB, companyId, grant.user_id), lang);
  return {
    id: company.id,
    name_cn: company.name_cn,
    name_en: company.name_en,
    type: company.type,
    role: standing.member.role,
    modules: modules.map((module) => module.key),
    verification_status: company.status,
  };
}

/** The access token of a request, verified and live (not revoked, its grant live); null otherwise. */
export async function liveAccessToken(env: Env, token: string, at: number): Promise<{ claims: AccessClaims; grant: GrantRow } | null> {
  const claims = await verifiedAccessToken(env.DB, token, at, { issuer: issuerOf(env), audience: accessAudience(env) });
  if (!claims || (claims.jti && (await accessTokenRevoked(env.DB, claims.jti)))) return null;
  const grant = await liveGrant(env.DB, claims.gid, at, idleTimeoutMs(env));
  if (!grant) return null;
  // A token that acts for another company is live only while its grant between companies is (authority/ decides).
  if (claims.on_behalf_of) {
    const session = grant.session_hash ? await grantSession(env.DB, grant.session_hash) : null;
    const acting = await actingAuthority(env.DB, askerOfGrant(claims.sub ?? '', session), claims.on_behalf_of.grant_id, at).catch(() => null);
    if (!acting) return null;
  }
  return { claims, grant };
}

/** userinfo: the claims of the token's grant, for a person's token with the openid scope. */
export async function userinfo(env: Env, token: string | null, at: number): Promise<Record<string, unknown>> {
  const live = token ? await liveAccessToken(env, token, at) : null;
  if (!live || !live.grant.user_id) throw new OAuthError('invalid_token', 'the access token is not valid', 401);
  if (!live.grant.scope.split(' ').includes('openid')) throw new OAuthError('insufficient_scope', 'the openid scope is required', 403);
  return { sub: live.grant.user_id, ...(await personClaims(env, live.grant, at)) };
}

/** Introspection (RFC 7662), for the client the token was issued to; anything else is `{ active: false }`. */
export async function introspect(env: Env, client: ClientRow, token: string | null, at: number): Promise<Record<string, unknown>> {
  if (!token || token.length > 4096) return { active: false };
  if (!token.includes('.')) {
    const row = await refreshTokenByHash(env.DB, await tokenHash(token));
    const grant = row && row.used_at === null && row.expires_at > at ? await liveGrant(env.DB, row.grant_id, at, idleTimeoutMs(env)) : null;
    if (!grant || grant.client_id !== client.id) return { active: false };
    return { active: true, token_type: 'refresh_token', client_id: client.id, sub: grant.user_id ?? client.id, scope: grant.scope, exp: Math.floor(row!.expires_at / 1000), iss: issuerOf(env) };
  }
  const live = await liveAccessToken(env, token, at);
  if (!live || live.claims.client_id !== client.id) return { active: false };
  const { claims } = live;
  return {
    active: true,
    token_type: 'Bearer',
    client_id: claims.client_id,
    sub: claims.sub,
    scope: claims.scope,
    exp: claims.exp,
    iat: claims.iat,
    iss: claims.iss,
    aud: claims.aud,
    jti: claims.jti,
    ...(claims.sid ? { sid: claims.sid } : {}),
    ...(claims.on_behalf_of ? { on_behalf_of: claims.on_behalf_of } : {}),
    ...(claims.act ? { act: claims.act } : {}),
  };
}

/** Revocation (RFC 7009): a refresh token ends its whole grant; an access token is listed until it expires. Unknown tokens: nothing, and no error. */
export async function revoke(env: Env, client: ClientRow, token: string | null, at: number): Promise<void> {
  if (!token || token.length > 4096) return;
  if (!token.includes('.')) {
    const row = await refreshTokenByHash(env.DB, await tokenHash(token));
    const grant = row ? await grantClient(env.DB, row.grant_id) : null;
    if (row && grant?.client_id === client.id) await revokeGrantStatement(env.DB, row.grant_id, at).run();
    return;
  }
  const claims = await verifiedAccessToken(env.DB, token, at, { issuer: issuerOf(env), audience: accessAudience(env) });
  if (claims?.jti && claims.client_id === client.id) await revokeAccessTokenStatement(env.DB, claims.jti, (claims.exp ?? 0) * 1000).run();
}

