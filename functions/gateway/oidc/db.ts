// The OpenID Provider's SQL (rules in oidc/service.ts). Single-use rows (requests, codes, refresh tokens) are
// spent through identity/db/single-use.ts, never here.

export interface ClientRow {
  id: string;
  name: string;
  secret_hash: string | null;
  public: 0 | 1;
  trusted: 0 | 1;
  redirect_uris: string;
  post_logout_uris: string;
  backchannel_logout_uri: string | null;
  grant_types: string;
  scopes: string;
  created_at: number;
  updated_at: number;
  disabled_at: number | null;
  /** A company's API client (migration 0301, company-clients.ts); null for the platform's clients. */
  company_id?: string | null;
  expires_at?: number | null;
  revoked_at?: number | null;
  /** Migration 0430: the ID token's algorithm, and whether the code flow requires PKCE (a confidential client's may be off, with a reason). */
  id_token_alg?: 'ES256' | 'RS256';
  pkce_required?: 0 | 1;
  pkce_off_reason?: string | null;
}

export interface KeyRow {
  kid: string;
  /** ES256 or RS256 (migration 0430); rows made before it are ES256. */
  alg?: 'ES256' | 'RS256';
  public_jwk: string;
  sealed_private_jwk: string;
  created_at: number;
  signs_from: number;
  signs_until: number;
  published_until: number;
}

export interface RequestRow {
  id: string;
  client_id: string;
  params: string;
  created_at: number;
  expires_at: number;
  session_hash: string | null;
  used_at: number | null;
}

export interface GrantRow {
  id: string;
  client_id: string;
  user_id: string | null;
  session_hash: string | null;
  sid: string | null;
  scope: string;
  auth_time: number | null;
  amr: string | null;
  acr: string | null;
  locale: string | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface CodeRow {
  code_hash: string;
  grant_id: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  nonce: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export const clientById = (db: D1Database, id: string) => db.prepare('SELECT * FROM oidc_clients WHERE id = ?').bind(id).first<ClientRow>();

export function insertClient(db: D1Database, row: Omit<ClientRow, 'disabled_at'>): Promise<D1Result> {
  return db
    .prepare(
      `INSERT INTO oidc_clients (id, name, secret_hash, public, trusted, redirect_uris, post_logout_uris, backchannel_logout_uri, grant_types, scopes, created_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)`,
    )
    .bind(row.id, row.name, row.secret_hash, row.public, row.trusted, row.redirect_uris, row.post_logout_uris, row.backchannel_logout_uri, row.grant_types, row.scopes, row.created_at, row.updated_at)
    .run();
}

/** Origins of the enabled public clients' redirect URIs: the only origins allowed to call the token, userinfo and JWKS endpoints from a browser. */
export async function publicClientRedirects(db: D1Database): Promise<string[]> {
  const { results } = await db.prepare('SELECT redirect_uris FROM oidc_clients WHERE public = 1 AND disabled_at IS NULL').all<{ redirect_uris: string }>();
  return results.flatMap((row) => JSON.parse(row.redirect_uris) as string[]);
}

// Keys -------------------------------------------------------------------------------------------------------

export async function publishedKeys(db: D1Database, at: number): Promise<KeyRow[]> {
  const { results } = await db.prepare('SELECT * FROM oidc_keys WHERE created_at <= ?1 AND published_until > ?1 ORDER BY signs_from').bind(at).all<KeyRow>();
  return results;
}

export function insertKey(db: D1Database, row: KeyRow): Promise<D1Result> {
  return db
    .prepare('INSERT INTO oidc_keys (kid, alg, public_jwk, sealed_private_jwk, created_at, signs_from, signs_until, published_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    .bind(row.kid, row.alg ?? 'ES256', row.public_jwk, row.sealed_private_jwk, row.created_at, row.signs_from, row.signs_until, row.published_until)
    .run();
}

export async function pruneKeys(db: D1Database, at: number): Promise<number> {
  return (await db.prepare('DELETE FROM oidc_keys WHERE published_until <= ?').bind(at).run()).meta.changes;
}

// Authorization requests and consent ----------------------------------------------------------------------------

export function insertRequest(db: D1Database, row: Omit<RequestRow, 'session_hash' | 'used_at'>): Promise<D1Result> {
  return db
    .prepare('INSERT INTO oidc_requests (id, client_id, params, created_at, expires_at) VALUES (?, ?, ?, ?, ?)')
    .bind(row.id, row.client_id, row.params, row.created_at, row.expires_at)
    .run();
}

/**
 * The live request `id`, claimed by this session if no session has opened it yet, in one statement: a request
 * belongs to the first session that opens it, and no other session can decide it.
 */
export function claimRequest(db: D1Database, id: string, sessionHash: string, at: number): Promise<RequestRow | null> {
  return db
    .prepare(
      `UPDATE oidc_requests SET session_hash = ?2 WHERE id = ?1 AND used_at IS NULL AND expires_at > ?3 AND (session_hash IS NULL OR session_hash = ?2)
       RETURNING *`,
    )
    .bind(id, sessionHash, at)
    .first<RequestRow>();
}

/** Lets go of a request this session opened and has not decided: the next session to open it claims it. */
export const releaseRequestStatement = (db: D1Database, id: string, sessionHash: string) =>
  db.prepare('UPDATE oidc_requests SET session_hash = NULL WHERE id = ?1 AND session_hash = ?2 AND used_at IS NULL').bind(id, sessionHash);

// Sign-outs waiting for the person (RP-initiated logout without a hint of this session, logout.ts) -------------------

export interface LogoutRequestRow {
  id: string;
  session_hash: string;
  client_id: string | null;
  redirect_uri: string | null;
  state: string | null;
  created_at: number;
  expires_at: number;
}

export function insertLogoutRequest(db: D1Database, row: LogoutRequestRow): Promise<D1Result> {
  return db
    .prepare('INSERT INTO oidc_logout_requests (id, session_hash, client_id, redirect_uri, state, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .bind(row.id, row.session_hash, row.client_id, row.redirect_uri, row.state, row.created_at, row.expires_at)
    .run();
}

/** The live sign-out `id` of this session and the name of the app that asked (null when none is known). */
export function liveLogoutRequest(db: D1Database, id: string, sessionHash: string, at: number) {
  return db
    .prepare(
      `SELECT c.name AS client_name FROM oidc_logout_requests r LEFT JOIN oidc_clients c ON c.id = r.client_id AND c.disabled_at IS NULL
       WHERE r.id = ? AND r.session_hash = ? AND r.used_at IS NULL AND r.expires_at > ?`,
    )
    .bind(id, sessionHash, at)
    .first<{ client_name: string | null }>();
}

/** The params of request `id` while it waits for a sign-in: live and not yet opened by any session. */
export function waitingRequestParams(db: D1Database, id: string, at: number) {
  return db.prepare('SELECT params FROM oidc_requests WHERE id = ? AND used_at IS NULL AND expires_at > ? AND session_hash IS NULL').bind(id, at).first<{ params: string }>();
}

export const consentOf = (db: D1Database, userId: string, clientId: string) =>
  db.prepare('SELECT scope FROM oidc_consents WHERE user_id = ? AND client_id = ?').bind(userId, clientId).first<{ scope: string }>();

/** Remembers the scopes a person allowed a client (added to what they allowed before). */
export function rememberConsentStatement(db: D1Database, userId: string, clientId: string, scope: string, at: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO oidc_consents (user_id, client_id, scope, granted_at) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT (user_id, client_id) DO UPDATE SET scope = ?3, granted_at = ?4`,
    )
    .bind(userId, clientId, scope, at);
}

// Grants, codes and tokens ----------------------------------------------------------------------------------------

export function insertGrantStatement(db: D1Database, row: Omit<GrantRow, 'last_used_at' | 'revoked_at'>): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO oidc_grants (id, client_id, user_id, session_hash, sid, scope, auth_time, amr, acr, locale, created_at, last_used_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11)`,
    )
    .bind(row.id, row.client_id, row.user_id, row.session_hash, row.sid, row.scope, row.auth_time, row.amr, row.acr, row.locale, row.created_at);
}

export function insertCodeStatement(db: D1Database, row: Omit<CodeRow, 'used_at'>): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO oidc_codes (code_hash, grant_id, client_id, redirect_uri, code_challenge, nonce, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(row.code_hash, row.grant_id, row.client_id, row.redirect_uri, row.code_challenge, row.nonce, row.created_at, row.expires_at);
}

export const codeByHash = (db: D1Database, hash: string) => db.prepare('SELECT * FROM oidc_codes WHERE code_hash = ?').bind(hash).first<CodeRow>();

/**
 * The grant, only while it is live: not revoked, its client live and (for a company's API client) its company
 * neither blocked nor expired, and (for a person's grant) its session not ended and its person not blocked. Read in
 * one statement, so a sign-out or a company's block ends the grant's tokens on their very next use: refresh,
 * introspection, userinfo and the claims all ask here.
 */
export function liveGrant(db: D1Database, id: string, at: number, idleMs: number): Promise<GrantRow | null> {
  return db
    .prepare(
      `SELECT g.* FROM oidc_grants g
       JOIN oidc_clients c ON c.id = g.client_id AND c.disabled_at IS NULL AND c.revoked_at IS NULL AND (c.expires_at IS NULL OR c.expires_at > ?2)
         AND (c.company_id IS NULL OR EXISTS (SELECT 1 FROM companies co WHERE co.id = c.company_id AND co.status NOT IN ('blocked', 'expired')))
       LEFT JOIN sessions s ON s.token_hash = g.session_hash
       LEFT JOIN users u ON u.id = g.user_id
       WHERE g.id = ?1 AND g.revoked_at IS NULL
         AND (g.user_id IS NULL OR (s.revoked_at IS NULL AND s.expires_at > ?2 AND s.last_seen_at > ?2 - ?3 AND u.blocked_at IS NULL))`,
    )
    .bind(id, at, idleMs)
    .first<GrantRow>();
}

export function revokeGrantStatement(db: D1Database, id: string, at: number): D1PreparedStatement {
  return db.prepare('UPDATE oidc_grants SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL').bind(id, at);
}

export function touchGrantStatement(db: D1Database, id: string, at: number): D1PreparedStatement {
  return db.prepare('UPDATE oidc_grants SET last_used_at = ?2 WHERE id = ?1').bind(id, at);
}

export function insertRefreshTokenStatement(db: D1Database, row: { token_hash: string; grant_id: string; created_at: number; expires_at: number }): D1PreparedStatement {
  return db
    .prepare('INSERT INTO oidc_refresh_tokens (token_hash, grant_id, created_at, expires_at) VALUES (?, ?, ?, ?)')
    .bind(row.token_hash, row.grant_id, row.created_at, row.expires_at);
}

export const refreshTokenByHash = (db: D1Database, hash: string) =>
  db.prepare('SELECT * FROM oidc_refresh_tokens WHERE token_hash = ?').bind(hash).first<{ grant_id: string; used_at: number | null; expires_at: number }>();

export function revokeAccessTokenStatement(db: D1Database, jti: string, expiresAt: number): D1PreparedStatement {
  return db.prepare('INSERT INTO oidc_revoked_tokens (jti, expires_at) VALUES (?, ?) ON CONFLICT (jti) DO NOTHING').bind(jti, expiresAt);
}

export async function accessTokenRevoked(db: D1Database, jti: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 AS revoked FROM oidc_revoked_tokens WHERE jti = ?').bind(jti).first()) !== null;
}

// Connected apps ------------------------------------------------------------------------------------------------

export interface ConnectedAppRow {
  client_id: string;
  name: string;
  scope: string;
  granted_at: number;
  last_used_at: number | null;
}

/** The apps a person allowed (remembered consent) or used without one (trusted apps), most recently used first. */
export async function connectedApps(db: D1Database, userId: string): Promise<ConnectedAppRow[]> {
  const { results } = await db
    .prepare(
      `SELECT c.id AS client_id, c.name AS name,
              COALESCE(k.scope, (SELECT g.scope FROM oidc_grants g WHERE g.client_id = c.id AND g.user_id = ?1 ORDER BY g.created_at DESC LIMIT 1)) AS scope,
              COALESCE(k.granted_at, (SELECT MIN(g.created_at) FROM oidc_grants g WHERE g.client_id = c.id AND g.user_id = ?1)) AS granted_at,
              (SELECT MAX(g.last_used_at) FROM oidc_grants g WHERE g.client_id = c.id AND g.user_id = ?1) AS last_used_at
       FROM oidc_clients c LEFT JOIN oidc_consents k ON k.client_id = c.id AND k.user_id = ?1
       WHERE k.user_id IS NOT NULL OR EXISTS (SELECT 1 FROM oidc_grants g WHERE g.client_id = c.id AND g.user_id = ?1 AND g.revoked_at IS NULL)
       ORDER BY last_used_at DESC LIMIT 100`,
    )
    .bind(userId)
    .all<ConnectedAppRow>();
  return results;
}

/** Disconnects an app: its remembered consent goes and every live grant of the person with it ends (batch). */
export function disconnectStatements(db: D1Database, userId: string, clientId: string, at: number): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM oidc_consents WHERE user_id = ? AND client_id = ?').bind(userId, clientId),
    db.prepare('UPDATE oidc_grants SET revoked_at = ?3 WHERE user_id = ?1 AND client_id = ?2 AND revoked_at IS NULL').bind(userId, clientId, at),
  ];
}

// Back-channel logout --------------------------------------------------------------------------------------------

/**
 * One logout token per app and session (issue 47): a person who signed in to an app twice in one session has two
 * grants with the same sid, and the app is told of the session's end once. Of the grants `set` (an SQL list of
 * grant ids) ends together, only the first of each client and sid is queued.
 */
const firstOfSession = (set: string) => `AND g.id = (SELECT MIN(g2.id) FROM oidc_grants g2 WHERE g2.client_id = g.client_id AND g2.sid IS g.sid AND g2.id IN (${set}))`;

/**
 * Every person's grant whose session ended (signed out, revoked, password reset, blocked, expired, idle) is ended in
 * one batch, and a logout send is queued for it when its client takes back-channel logouts. Runs on the cron and
 * after sign-outs; what it ends once it never ends twice.
 */
export function endGrantsOfEndedSessions(db: D1Database, at: number, idleMs: number): D1PreparedStatement[] {
  const ended = `SELECT g.id FROM oidc_grants g LEFT JOIN sessions s ON s.token_hash = g.session_hash LEFT JOIN users u ON u.id = g.user_id
                 WHERE g.revoked_at IS NULL AND g.user_id IS NOT NULL
                   AND (s.token_hash IS NULL OR s.revoked_at IS NOT NULL OR s.expires_at <= ?1 OR s.last_seen_at <= ?1 - ?2 OR u.blocked_at IS NOT NULL)`;
  return [
    // Sends are queued for grants that are live now and whose session ended: the same set the UPDATE then ends.
    db
      .prepare(
        `INSERT INTO oidc_logout_sends (grant_id, client_id, created_at, next_at)
         SELECT g.id, g.client_id, ?1, ?1 FROM oidc_grants g JOIN oidc_clients c ON c.id = g.client_id
         WHERE c.backchannel_logout_uri IS NOT NULL AND g.id IN (${ended}) ${firstOfSession(ended)}
         ON CONFLICT (grant_id) DO NOTHING`,
      )
      .bind(at, idleMs),
    db.prepare(`UPDATE oidc_grants SET revoked_at = ?1 WHERE id IN (${ended})`).bind(at, idleMs),
  ];
}

/** Queues a logout send for grants just ended by other means (disconnecting an app): those still to be told. */
export function queueLogoutSendsStatement(db: D1Database, userId: string, clientId: string, at: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO oidc_logout_sends (grant_id, client_id, created_at, next_at)
       SELECT g.id, g.client_id, ?3, ?3 FROM oidc_grants g JOIN oidc_clients c ON c.id = g.client_id
       WHERE g.user_id = ?1 AND g.client_id = ?2 AND g.sid IS NOT NULL AND g.revoked_at IS NULL AND c.backchannel_logout_uri IS NOT NULL
         ${firstOfSession('SELECT id FROM oidc_grants WHERE user_id = ?1 AND client_id = ?2 AND sid IS NOT NULL AND revoked_at IS NULL')}
       ON CONFLICT (grant_id) DO NOTHING`,
    )
    .bind(userId, clientId, at);
}

export interface DueSend {
  grant_id: string;
  client_id: string;
  attempts: number;
  user_id: string;
  sid: string | null;
  uri: string;
  /** The client's ID token algorithm: its logout tokens are signed the same way. */
  alg: string | null;
}

/** Sends due now, claimed for this run by moving their next attempt ahead (so a parallel run skips them). */
export async function claimDueSends(db: D1Database, at: number, leaseMs: number, limit = 20): Promise<DueSend[]> {
  const { results } = await db
    .prepare(
      `UPDATE oidc_logout_sends SET next_at = ?1 + ?2
       WHERE grant_id IN (SELECT grant_id FROM oidc_logout_sends WHERE status = 'pending' AND next_at <= ?1 ORDER BY next_at LIMIT ?3)
       RETURNING grant_id, client_id, attempts,
         (SELECT user_id FROM oidc_grants g WHERE g.id = oidc_logout_sends.grant_id) AS user_id,
         (SELECT sid FROM oidc_grants g WHERE g.id = oidc_logout_sends.grant_id) AS sid,
         (SELECT backchannel_logout_uri FROM oidc_clients c WHERE c.id = oidc_logout_sends.client_id) AS uri,
         (SELECT id_token_alg FROM oidc_clients c WHERE c.id = oidc_logout_sends.client_id) AS alg`,
    )
    .bind(at, leaseMs, limit)
    .all<DueSend>();
  return results;
}

export function recordSendStatement(
  db: D1Database,
  grantId: string,
  outcome: { status: 'pending' | 'sent' | 'failed'; attempts: number; nextAt: number; result: string; at: number },
): D1PreparedStatement {
  return db
    .prepare('UPDATE oidc_logout_sends SET status = ?2, attempts = ?3, next_at = ?4, last_result = ?5, sent_at = CASE WHEN ?2 = \'sent\' THEN ?6 ELSE sent_at END WHERE grant_id = ?1')
    .bind(grantId, outcome.status, outcome.attempts, outcome.nextAt, outcome.result, outcome.at);
}

/**
 * Ends every grant of a person (account erasure): a logout send queued for each live grant of a client that takes
 * back-channel logouts, then the grants revoked, their refresh tokens and the person's consents deleted.
 */
export function endAllGrantsOfStatements(db: D1Database, userId: string, at: number): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `INSERT INTO oidc_logout_sends (grant_id, client_id, created_at, next_at)
         SELECT g.id, g.client_id, ?2, ?2 FROM oidc_grants g JOIN oidc_clients c ON c.id = g.client_id
         WHERE g.user_id = ?1 AND g.sid IS NOT NULL AND g.revoked_at IS NULL AND c.backchannel_logout_uri IS NOT NULL
           ${firstOfSession('SELECT id FROM oidc_grants WHERE user_id = ?1 AND sid IS NOT NULL AND revoked_at IS NULL')}
         ON CONFLICT (grant_id) DO NOTHING`,
      )
      .bind(userId, at),
    db.prepare('UPDATE oidc_grants SET revoked_at = ?2 WHERE user_id = ?1 AND revoked_at IS NULL').bind(userId, at),
    db.prepare('DELETE FROM oidc_refresh_tokens WHERE grant_id IN (SELECT id FROM oidc_grants WHERE user_id = ?1)').bind(userId),
    db.prepare('DELETE FROM oidc_consents WHERE user_id = ?1').bind(userId),
  ];
}

/** The session a grant was made in: its end, its account in use and its support operator (refresh token's end, company and act claims). */
export const grantSession = (db: D1Database, sessionHash: string) =>
  db
    .prepare('SELECT expires_at, current_company_id, acting_grant_id, support_operator_id, provider_mfa_company_id FROM sessions WHERE token_hash = ?')
    .bind(sessionHash)
    .first<{ expires_at: number; current_company_id: string | null; acting_grant_id: string | null; support_operator_id: string | null; provider_mfa_company_id: string | null }>();

/** The client a grant belongs to. */
export const grantClient = (db: D1Database, grantId: string) => db.prepare('SELECT client_id FROM oidc_grants WHERE id = ?').bind(grantId).first<{ client_id: string }>();
