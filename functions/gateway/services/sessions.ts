import type { Context, MiddlewareHandler } from 'hono';
import { SESSION_MAX_AGE } from '../../../src/lib/session-marker';
import { findUserById, type UserRow } from '../db/users';
import { GatewayError } from '../errors';
import { now } from './clock';
import { sha256Hex } from './passwords';

/**
 * Server-side sessions (security baseline "Sessions and cookies"). A token is 32 bytes from the CSPRNG,
 * base64url; D1 keeps only its SHA-256 hex, so a database leak yields no usable token. Lifetime 604,799 s
 * (one week less a second), the same as the cookie the edge sets, so both end together.
 *
 * The login answer's refresh_token is a second random token hashed into the same row (refresh_hash). No
 * call redeems it yet: the edge holds only the access token, and signing in again is the way to renew.
 * Revoking the row ends both.
 */
export const SESSION_LIFETIME_S = SESSION_MAX_AGE;

export type SessionKind = 'platform' | 'partner';

export interface SessionRow {
  token_hash: string;
  user_id: string;
  kind: SessionKind;
  refresh_hash: string | null;
  current_company_id: string | null;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** What requireSession puts on the context. */
export type SessionVariables = { user: UserRow; session: SessionRow };

export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export const tokenHash = (token: string) => sha256Hex(token);

export interface NewSession {
  token: string;
  refreshToken: string;
  expiresAt: number;
  statement: D1PreparedStatement;
}

/** The INSERT for a new session, to run alone or in a batch with the user it belongs to. */
export async function prepareSession(
  db: D1Database,
  { userId, kind, now, companyId = null }: { userId: string; kind: SessionKind; now: number; companyId?: string | null },
): Promise<NewSession> {
  const token = randomToken();
  const refreshToken = randomToken();
  const expiresAt = now + SESSION_LIFETIME_S * 1000;
  const statement = db
    .prepare(
      `INSERT INTO sessions (token_hash, user_id, kind, refresh_hash, current_company_id, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(await tokenHash(token), userId, kind, await tokenHash(refreshToken), companyId, now, expiresAt);
  return { token, refreshToken, expiresAt, statement };
}

/** Starts a session; `expiresAt` is epoch milliseconds. */
export async function createSession(
  db: D1Database,
  options: { userId: string; kind: SessionKind; now: number; companyId?: string | null },
): Promise<{ token: string; refreshToken: string; expiresAt: number }> {
  const { statement, ...session } = await prepareSession(db, options);
  await statement.run();
  return session;
}

/** The live (unrevoked, unexpired) session a token names, or null. */
export async function findSession(db: D1Database, token: string, now: number): Promise<SessionRow | null> {
  return db
    .prepare('SELECT * FROM sessions WHERE token_hash = ? AND revoked_at IS NULL AND expires_at > ?')
    .bind(await tokenHash(token), now)
    .first<SessionRow>();
}

export async function revokeSession(db: D1Database, hash: string, now: number): Promise<void> {
  await db.prepare('UPDATE sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL').bind(now, hash).run();
}

/** Ends every session of a user (password change or reset), except optionally the one making the change. */
export async function revokeAllSessionsOfUser(db: D1Database, userId: string, exceptTokenHash?: string, now = Date.now()): Promise<void> {
  await db
    .prepare('UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL AND token_hash IS NOT ?')
    .bind(now, userId, exceptTokenHash ?? null)
    .run();
}

export async function setSessionCompany(db: D1Database, hash: string, companyId: string): Promise<void> {
  await db.prepare('UPDATE sessions SET current_company_id = ? WHERE token_hash = ?').bind(companyId, hash).run();
}

/** The token of `Authorization: Bearer <token>`, which the edge adds from the HttpOnly cookie. */
export function bearerToken(c: Context): string | null {
  const match = /^Bearer\s+([A-Za-z0-9_-]{16,128})$/.exec(c.req.header('authorization') ?? '');
  return match?.[1] ?? null;
}

/** The live session and its user for this request, or null. */
export async function sessionFromRequest<E extends { Bindings: { DB: D1Database } }>(c: Context<E>): Promise<SessionVariables | null> {
  const token = bearerToken(c);
  if (!token) return null;
  const session = await findSession(c.env.DB, token, now(c));
  if (!session) return null;
  const user = await findUserById(c.env.DB, session.user_id);
  return user ? { session, user } : null;
}

/** Middleware for session-only calls: sets c.var.user and c.var.session, or answers TK00001 (401). */
export const requireSession: MiddlewareHandler<{ Bindings: { DB: D1Database }; Variables: SessionVariables }> = async (c, next) => {
  const found = await sessionFromRequest(c);
  if (!found) throw new GatewayError('TK00001');
  c.set('user', found.user);
  c.set('session', found.session);
  await next();
};
