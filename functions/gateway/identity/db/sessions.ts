import type { UserRow } from './people';
import { PRINCIPALS, type PrincipalKind } from '../principals';
import { numbered, type Also } from './single-use';
import { newSecret, tokenHash } from '../tokens';

/**
 * Sessions of every kind of principal (principals.ts): created after a complete sign-in, found by the hash of
 * the token the edge keeps in an HttpOnly cookie, touched at most once a minute, revoked one by one or all of a
 * principal's at once, listed by principal. A session lives until the first of its absolute end (`expires_at`),
 * `idleMs` without a call (`last_seen_at`), or its revocation.
 */
export interface SessionCore {
  token_hash: string;
  created_at: number;
  expires_at: number;
  last_seen_at: number;
  revoked_at: number | null;
}

/** `last_seen_at` is rewritten only when it is older than this: a busy session costs no write per call. */
export const LAST_SEEN_RESOLUTION_MS = 60_000;

type Value = string | number | null;
const tableOf = (kind: PrincipalKind) => PRINCIPALS[kind].sessions.table;
const ownerOf = (kind: PrincipalKind) => PRINCIPALS[kind].sessions.owner;

/**
 * A new session: the token for the edge's cookie and the INSERT (to run alone or batched with the sign-in's
 * other writes). `unless` is a condition (SQL with `?` values) under which nothing is inserted, checked in the
 * same statement: a block that lands during a sign-in still wins.
 */
export async function prepareSession(
  db: D1Database,
  kind: PrincipalKind,
  { ownerId, at, lifetimeMs, fields = {}, unless }: { ownerId: string; at: number; lifetimeMs: number; fields?: Record<string, Value>; unless?: Also },
): Promise<{ token: string; expiresAt: number; statement: D1PreparedStatement }> {
  const { token, hash } = await newSecret();
  const expiresAt = at + lifetimeMs;
  const row: Record<string, Value> = { token_hash: hash, [ownerOf(kind)]: ownerId, created_at: at, expires_at: expiresAt, last_seen_at: at, ...fields };
  const columns = Object.keys(row);
  const values = columns.map((_, i) => `?${i + 1}`).join(', ');
  const binds = Object.values(row);
  const guard = unless ? ` WHERE NOT EXISTS (${numbered(unless, binds)})` : '';
  const statement = db.prepare(`INSERT INTO ${tableOf(kind)} (${columns.join(', ')}) SELECT ${values}${guard}`).bind(...binds);
  return { token, expiresAt, statement };
}

/** The live session a token names (unrevoked, before its absolute end, used within `idleMs`), or null. */
export async function findSession<T extends SessionCore>(db: D1Database, kind: PrincipalKind, token: string, at: number, idleMs: number): Promise<T | null> {
  return findSessionStatement(db, kind, await tokenHash(token), at, idleMs).first<T>();
}

/**
 * The SELECT of findSession by the token's hash, to batch with what the call reads with it (the person, their
 * companies): one round trip to D1 for a signed-in call. Whatever is batched with it is used only when it finds
 * a live session.
 */
export function findSessionStatement(db: D1Database, kind: PrincipalKind, hash: string, at: number, idleMs: number): D1PreparedStatement {
  return db
    .prepare(`SELECT * FROM ${tableOf(kind)} WHERE token_hash = ?1 AND revoked_at IS NULL AND expires_at > ?2 AND last_seen_at > ?2 - ?3`)
    .bind(hash, at, idleMs);
}

/**
 * The column names of the last joined row, kept while D1 answers the same ones. D1's names are fresh strings on
 * every call, and V8 looked each one up in its string table when it became a property name: half of building the
 * two rows (issue 46). Names it has seen as properties before cost nothing to look up.
 */
let keptColumns: string[] = [];
function keptColumnNames(columns: string[]): string[] {
  const kept = keptColumns;
  if (kept.length === columns.length && columns.every((name, i) => name === kept[i])) return kept;
  keptColumns = columns;
  return columns;
}

/** The column that separates a session's columns from its owner's in findSessionWithOwner's row. */
const OWNER_MARK = '~owner';

/**
 * The live session a token's hash names together with its owner's row (`ownerTable`, joined by `id`) and `also`'s
 * values (SQL expressions of the owner's id, `s.<owner column>`, each one value: say a JSON array), in ONE
 * statement: a signed-in call's whole read. One statement, not a batch of several, because a D1 call's cost
 * grows with the statements and results it carries (issue 31's profile). No row: no live session, or no owner.
 */
export async function findSessionWithOwner<S extends SessionCore, O>(
  db: D1Database,
  kind: PrincipalKind,
  ownerTable: string,
  hash: string,
  at: number,
  idleMs: number,
  /** Given the SQL of the owner's id and the alias of the session's row (`s`), for a value that reads the session too. */
  also: (ownerIdSql: string, sessionAlias: string) => string[] = () => [],
): Promise<{ session: S; owner: O; also: unknown[] } | null> {
  const extras = also(`s.${ownerOf(kind)}`, 's');
  const extra = extras.map((sql, i) => `, (${sql}) AS "~also${i}"`).join('');
  const [columns = [], row] = await db
    .prepare(
      `SELECT s.*, NULL AS "${OWNER_MARK}", o.*${extra} FROM ${tableOf(kind)} s JOIN ${ownerTable} o ON o.id = s.${ownerOf(kind)}
       WHERE s.token_hash = ?1 AND s.revoked_at IS NULL AND s.expires_at > ?2 AND s.last_seen_at > ?2 - ?3`,
    )
    .bind(hash, at, idleMs)
    .raw<unknown[]>({ columnNames: true });
  if (!row) return null;
  // Both tables have columns of the same name (created_at): each row is built from its own side of the mark.
  const mark = columns.indexOf(OWNER_MARK);
  const ownerEnd = columns.length - extras.length;
  // A plain loop: Object.fromEntries over sliced and mapped arrays was 2.5-4 % of a signed-in call's CPU (issue 46).
  const keys = keptColumnNames(columns);
  const rowOf = (from: number, to: number) => {
    const built: Record<string, unknown> = {};
    for (let i = from; i < to; i++) built[keys[i]!] = row[i];
    return built;
  };
  return { session: rowOf(0, mark) as unknown as S, owner: rowOf(mark + 1, ownerEnd) as O, also: row.slice(ownerEnd) };
}

/**
 * Records a call of a session: one conditional UPDATE that writes only when the stored time is more than a
 * minute old, so parallel calls in the same minute write once and every other call writes nothing.
 */
export async function touchSession(db: D1Database, kind: PrincipalKind, session: SessionCore, at: number): Promise<void> {
  if (session.last_seen_at >= at - LAST_SEEN_RESOLUTION_MS) return;
  await db
    .prepare(`UPDATE ${tableOf(kind)} SET last_seen_at = ?1 WHERE token_hash = ?2 AND last_seen_at < ?1 - ?3`)
    .bind(at, session.token_hash, LAST_SEEN_RESOLUTION_MS)
    .run();
}

/** The live sessions of a principal, most recently used first. */
export async function liveSessionsOf<T extends SessionCore>(db: D1Database, kind: PrincipalKind, ownerId: string, at: number, idleMs: number): Promise<T[]> {
  const { results } = await db
    .prepare(
      `SELECT * FROM ${tableOf(kind)} WHERE ${ownerOf(kind)} = ?1 AND revoked_at IS NULL AND expires_at > ?2 AND last_seen_at > ?2 - ?3
       ORDER BY last_seen_at DESC, created_at DESC LIMIT 200`,
    )
    .bind(ownerId, at, idleMs)
    .all<T>();
  return results;
}

/** The UPDATE that ends one session by its token hash (to batch with an audit row). */
export function revokeSessionStatement(db: D1Database, kind: PrincipalKind, hash: string, at: number): D1PreparedStatement {
  return db.prepare(`UPDATE ${tableOf(kind)} SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL`).bind(at, hash);
}

/** Ends one session of `ownerId` named by `column` = `value` (its public id); false when none was live. */
export async function revokeSessionOf(db: D1Database, kind: PrincipalKind, ownerId: string, match: { column: 'public_id'; value: string }, at: number): Promise<boolean> {
  const result = await db
    .prepare(`UPDATE ${tableOf(kind)} SET revoked_at = ? WHERE ${match.column} = ? AND ${ownerOf(kind)} = ? AND revoked_at IS NULL`)
    .bind(at, match.value, ownerId)
    .run();
  // More than one when a trigger wrote too (a person's session: user.signed_out, migration 0600); 0 when none was live.
  return result.meta.changes > 0;
}

/**
 * The UPDATE that ends every session of a principal, except optionally one (the session making a password
 * change). `onlyIfChanged`: only when the statement before it in a batch changed a row.
 */
export function revokeAllSessionsStatement(
  db: D1Database,
  kind: PrincipalKind,
  ownerId: string,
  at: number,
  { except, onlyIfChanged = false }: { except?: string; onlyIfChanged?: boolean } = {},
): D1PreparedStatement {
  return db
    .prepare(`UPDATE ${tableOf(kind)} SET revoked_at = ?1 WHERE ${ownerOf(kind)} = ?2 AND revoked_at IS NULL AND token_hash IS NOT ?3${onlyIfChanged ? ' AND changes() = 1' : ''}`)
    .bind(at, ownerId, except ?? null);
}

/**
 * How many sessions revokeAllSessionsStatement with the same owner and `except` would end: batched just before it,
 * this is the number it ends (D1's `meta.changes` also counts the rows a trigger writes, such as a person's
 * user.signed_out events of migration 0600).
 */
export function unrevokedSessionsStatement(db: D1Database, kind: PrincipalKind, ownerId: string, except?: string): D1PreparedStatement {
  return db.prepare(`SELECT count(*) AS n FROM ${tableOf(kind)} WHERE ${ownerOf(kind)} = ?1 AND revoked_at IS NULL AND token_hash IS NOT ?2`).bind(ownerId, except ?? null);
}
/** SQL (binds: owner) true while the owner has a session revokeAllSessionsStatement would end (an AuditCondition's part). */
export const hasUnrevokedSessionSql = (kind: PrincipalKind) => `EXISTS (SELECT 1 FROM ${tableOf(kind)} WHERE ${ownerOf(kind)} = ? AND revoked_at IS NULL)`;
export const countOf = (result: D1Result | undefined) => Number((result?.results?.[0] as { n?: number } | undefined)?.n ?? 0);

/** Ends every session of a principal (but `except`); how many ended. */
export async function revokeAllSessions(db: D1Database, kind: PrincipalKind, ownerId: string, at: number, except?: string): Promise<number> {
  return (await revokeAllSessionsStatement(db, kind, ownerId, at, { except }).run()).meta.changes;
}

export type SessionKind = 'platform' | 'partner';

export interface SessionRow {
  token_hash: string;
  user_id: string;
  kind: SessionKind;
  refresh_hash: string | null;
  current_company_id: string | null;
  /** The grant this session acts under (authority/service.ts actingAuthority), its current company then the agent. */
  acting_grant_id?: string | null;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  public_id: string;
  last_seen_at: number;
  user_agent: string | null;
  device: string | null;
  country: string | null;
  network: string | null;
  /** The last proof of the person in this session (a sign-in, or identity/proof.ts); null: never proved. */
  proved_at: number | null;
  proved_with: string | null;
  /** How the session was signed in ('password', 'code+totp', 'handoff' …), for OpenID's amr and acr. */
  signed_in_with: string | null;
  /** The company whose own provider signed this session in with a second factor (issue 43; authority/db.ts Asker). */
  provider_mfa_company_id?: string | null;
  /** A support "view as" (issue 44, support/): the operator viewing, their reason, and whether changes are allowed. */
  support_operator_id?: string | null;
  support_reason?: string | null;
  support_writable?: number;
  support_write_granted_by?: string | null;
}

/** What requireSession puts on the context: the person, the session, and what requireSessionReading read with them. */
export type SessionVariables = { user: UserRow; session: SessionRow; alsoRead?: unknown[] };

/** How a session was signed in, as its history and its `signed_in_with` name it. */
export type SignInMethod = 'code' | 'password' | 'link' | 'handoff' | 'passkey' | 'wechat' | 'wecom' | 'company-sso';
