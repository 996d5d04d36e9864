import type { Context, MiddlewareHandler } from 'hono';
import { SESSION_MAX_AGE } from '../../../src/lib/session-marker';
import { primaryFirst } from '../identity/db/replicas';
import { GatewayError } from '../errors';
import { configOf, withBindings } from '../../config';
import { now } from '../../contract';
import { deviceKey, type ClientInfo } from './devices';
import { randomToken, tokenHash } from '../identity/tokens';
import {
  findSession as findSessionOf,
  findSessionWithOwner,
  liveSessionsOf,
  prepareSession as prepareSessionOf,
  revokeAllSessionsStatement,
  countOf,
  unrevokedSessionsStatement,
  revokeSessionOf,
  revokeSessionStatement,
  touchSession as touchSessionOf,
  type SessionKind,
  type SessionRow,
  type SessionVariables,
} from '../identity/db/sessions';
import type { UserRow } from '../identity/db/people';
import { ERR } from '../../../src/schemas/error-codes';
import { userBlocked } from './db';
import { forgetAllDevicesStatement } from '../identity/db/devices';
import { isSupportChange, supportViewRefusal } from '../support/guard';
import { auditStatement } from '../audit/db';
import { clientIp } from '../errors';

/**
 * Server-side sessions (security baseline "Sessions and cookies"). A token is 32 bytes from the CSPRNG,
 * base64url; D1 keeps only its SHA-256 hex, so a database leak yields no usable token.
 *
 * A session ends at the first of: its absolute end (`expires_at`, SESSION_ABSOLUTE_TIMEOUT after the sign-in,
 * the same Max-Age as the cookie the edge sets, so both end together), SESSION_IDLE_TIMEOUT after its last
 * call (`last_seen_at`), or its revocation (sign-out, "sign out this device" in the user center, a password
 * change). `last_seen_at` is written at most once a minute per session, by one conditional UPDATE, so a busy
 * session costs no write per call. The person's session list and sign-out name a session by `public_id`, a
 * random id unrelated to the token.
 *
 * The login answer's refresh_token is a second random token hashed into the same row (refresh_hash). No
 * call redeems it yet: the edge holds only the access token, and signing in again is the way to renew.
 * Revoking the row ends both.
 */
export const SESSION_LIFETIME_S = SESSION_MAX_AGE;
export { LAST_SEEN_RESOLUTION_MS } from '../identity/db/sessions';
/** The default idle timeout (SESSION_IDLE_TIMEOUT), for callers without a configuration. */
const DEFAULT_IDLE_MS = 7 * 24 * 60 * 60 * 1000;

export interface NewSession {
  token: string;
  /** What the person's list and the trail name the session by. */
  publicId: string;
  refreshToken: string;
  expiresAt: number;
  statement: D1PreparedStatement;
}

export interface SessionOptions {
  userId: string;
  kind: SessionKind;
  now: number;
  companyId?: string | null;
  /** Where the sign-in came from; unknown when not given. */
  client?: ClientInfo;
  /** SESSION_ABSOLUTE_TIMEOUT of the configuration. */
  lifetimeS?: number;
  /** What the sign-in passed, recorded as the session's first proof (identity/proof.ts); null: no proof. */
  proof?: string | null;
  /** How the session was signed in, method and second step ('code+totp'); kept as it was (OpenID amr). */
  signedInWith?: string | null;
  /** A support "view as" (support/service.ts): the operator viewing and their reason. */
  support?: { operatorId: string; reason: string } | null;
  /** The company whose own provider signed the person in with a second factor (company-sso/federation.ts). */
  providerMfaCompanyId?: string | null;
}

/**
 * The INSERT for a new session, to run alone or in a batch with the user it belongs to. It inserts nothing
 * for a blocked account (in the same statement, so a block that lands during a sign-in still wins).
 */
export async function prepareSession(
  db: D1Database,
  { userId, kind, now, companyId = null, client, lifetimeS = SESSION_LIFETIME_S, proof = null, signedInWith = null, support = null, providerMfaCompanyId = null }: SessionOptions,
): Promise<NewSession> {
  const refreshToken = randomToken();
  const userAgent = client?.userAgent ?? null;
  const publicId = randomToken().slice(0, 22);
  const { token, expiresAt, statement } = await prepareSessionOf(db, 'person', {
    ownerId: userId,
    at: now,
    lifetimeMs: lifetimeS * 1000,
    fields: {
      kind,
      refresh_hash: await tokenHash(refreshToken),
      current_company_id: companyId,
      public_id: publicId,
      user_agent: userAgent,
      device: deviceKey(userAgent),
      country: client?.country ?? null,
      network: client?.network ?? null,
      // The sign-in itself is the session's first proof (identity/proof.ts), when it passed one.
      proved_at: proof === null ? null : now,
      proved_with: proof,
      signed_in_with: signedInWith,
      ...(providerMfaCompanyId ? { provider_mfa_company_id: providerMfaCompanyId } : {}),
      ...(support ? { support_operator_id: support.operatorId, support_reason: support.reason } : {}),
    },
    unless: userBlocked(userId),
  });
  return { token, publicId, refreshToken, expiresAt, statement };
}

/** Starts a session; `expiresAt` is epoch milliseconds. */
export async function createSession(db: D1Database, options: SessionOptions): Promise<{ token: string; publicId: string; refreshToken: string; expiresAt: number }> {
  const { statement, ...session } = await prepareSession(db, options);
  await statement.run();
  return session;
}

/** The milliseconds of SESSION_IDLE_TIMEOUT. */
export const idleTimeoutMs = (env: object) => configOf(env).sessionIdleTimeout * 1000;

/** The live session a token names (unrevoked, before its absolute end, used within `idleMs`), or null. */
export function findSession(db: D1Database, token: string, now: number, idleMs = DEFAULT_IDLE_MS): Promise<SessionRow | null> {
  return findSessionOf<SessionRow>(db, 'person', token, now, idleMs);
}

/** Records a call of a session (at most one write a minute: identity/db/sessions.ts). */
export const touchSession = (db: D1Database, session: SessionRow, now: number) => touchSessionOf(db, 'person', session, now);

/** The live sessions of a user, most recently used first. */
export const liveSessionsOfUser = (db: D1Database, userId: string, now: number, idleMs: number) => liveSessionsOf<SessionRow>(db, 'person', userId, now, idleMs);

/** Ends the session `publicId` names if it belongs to `userId` and is not ended yet; false otherwise. */
export const revokeSessionOfUser = (db: D1Database, userId: string, publicId: string, now: number) =>
  revokeSessionOf(db, 'person', userId, { column: 'public_id', value: publicId }, now);

/**
 * Ends a person's session (sign-out). The companies the person is a member of hear user.signed_out: the
 * `sessions_signed_out` trigger (migration 0600) writes it in the statement that ends any person's session, on
 * this path and every other (sign out everywhere, an operator's block, a password change, ...), once per session.
 */
export async function revokeSession(db: D1Database, session: { token_hash: string; user_id: string; public_id?: string | null }, now: number): Promise<void> {
  await revokeSessionStatement(db, 'person', session.token_hash, now).run();
}

/**
 * Ends every session of a user (password change or reset, "sign out everywhere"), except optionally the one making
 * the change, and forgets every device they signed in from (issue 44): the next password sign-in from any of them
 * owes the new-device code again.
 */
export async function revokeAllSessionsOfUser(db: D1Database, userId: string, exceptTokenHash?: string, now = Date.now()): Promise<number> {
  const [live] = await db.batch([
    unrevokedSessionsStatement(db, 'person', userId, exceptTokenHash),
    revokeAllSessionsStatement(db, 'person', userId, now, { except: exceptTokenHash }),
    forgetAllDevicesStatement(db, userId),
  ]);
  return countOf(live);
}

/** The token of `Authorization: Bearer <token>`, which the edge adds from the HttpOnly cookie. */
export function bearerToken(c: Context): string | null {
  const match = /^Bearer\s+([A-Za-z0-9_-]{16,128})$/.exec(c.req.header('authorization') ?? '');
  return match?.[1] ?? null;
}

/**
 * The live session and its user for this request, or null, read in ONE statement: the session joined with its
 * person (and `alsoSelect`'s values, say the person's companies as JSON) by the token's hash. It runs in a D1
 * session that starts on the primary (identity/db/replicas.ts), so a revocation is seen on the very next call;
 * `db` is that session, for the rest of the call's reads. `last_seen_at` is written at most once a minute.
 */
export async function sessionFromRequest<E extends { Bindings: { DB: D1Database } }>(
  c: Context<E>,
  alsoSelect?: (userIdSql: string, sessionAlias: string) => string[],
): Promise<(SessionVariables & { db: D1Database; also: unknown[] }) | null> {
  const token = bearerToken(c);
  if (!token) return null;
  const at = now(c);
  const db = primaryFirst(c.env.DB, configOf(c.env).deployed);
  const found = await findSessionWithOwner<SessionRow, UserRow>(db, 'person', 'users', await tokenHash(token), at, idleTimeoutMs(c.env), alsoSelect);
  if (!found) return null;
  const { session, owner: user, also } = found;
  // A block ends the account's sessions in its own batch; this also refuses any that slipped past it.
  // An erased account has no sessions left (data-rights/); this refuses any that slipped past the erasure.
  if (user.blocked_at !== null || user.erased_at !== null) return null;
  // A support "view as" (issue 44): what it may not call is refused here, for every call that reads a session.
  const refusal = supportViewRefusal(session, c.req.method, c.req.path);
  if (refusal) throw new GatewayError(refusal);
  // At most one write a minute per session; a call within the minute writes nothing.
  await touchSession(c.env.DB, session, at);
  return { session, user, db, also };
}

/**
 * Middleware for session-only calls: sets c.get('user') and c.get('session'), or answers TK00001 (401). The rest of
 * the call reads through the same D1 session (c.env.DB), so its reads may come from a read replica.
 */
export const requireSession: MiddlewareHandler<{ Bindings: { DB: D1Database }; Variables: SessionVariables }> = requireSessionReading(() => []);

/**
 * requireSession that selects `alsoSelect`'s values in the same statement as the session (in c.get('alsoRead'),
 * in order); see sessionFromRequest.
 */
export function requireSessionReading(
  alsoSelect: (userIdSql: string, sessionAlias: string) => string[],
): MiddlewareHandler<{ Bindings: { DB: D1Database }; Variables: SessionVariables }> {
  return async (c, next) => {
    const found = await sessionFromRequest(c, alsoSelect);
    if (!found) throw new GatewayError(ERR.SESSION_ENDED);
    c.set('user', found.user);
    c.set('session', found.session);
    c.set('alsoRead', found.also);
    // The rest of the call reads through the D1 session (a deployed Worker's; a local run's is the binding itself).
    if (found.db !== c.env.DB) c.env = withBindings(c.env, { DB: found.db });
    await next();
    // Every change support makes while viewing as the person (allowed by an administrator) is a row of the trail,
    // with the operator as its actor and their reason.
    const { session } = found;
    if (session.support_operator_id && isSupportChange(c.req.method, c.req.path) && c.res.ok) {
      await auditStatement(c.env.DB, {
        at: now(c),
        actor: { kind: 'operator', id: session.support_operator_id },
        action: 'user.support_write',
        target: { kind: 'user', id: session.user_id },
        reason: session.support_reason ?? null,
        network: clientIp(c),
        detail: { method: c.req.method, path: c.req.path, sessionId: session.public_id },
      }).run();
    }
  };
}
