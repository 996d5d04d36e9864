import type { Context, MiddlewareHandler } from 'hono';
import { OPERATOR_SESSION_HEADER } from '../../contract';
import type { WorkerEnv } from '../../env';
import { GatewayError } from '../errors';
import { auditStatement } from '../audit/db';
import { now } from '../../contract';
import { hashPassword, sha256Hex, type StoredPassword } from '../identity/passwords';
import { findSession, prepareSession, revokeAllSessions, revokeSessionStatement, touchSession } from '../identity/db/sessions';
import { ERR } from '../../../src/schemas/error-codes';
import { findOperatorById, findOperatorByLogin, insertOperatorStatement, type OperatorRole, type OperatorRow } from './db';

export type { OperatorRole } from './db';

/**
 * Operators: the platform's own staff. Their accounts, sessions and cookie are separate from platform
 * accounts, so a platform session never opens an operator call and an operator session never opens a
 * platform one (the edge forwards the operator cookie only as OPERATOR_SESSION_HEADER, the platform cookie only
 * as `Authorization`).
 *
 * Roles: 'reviewer' reviews companies, 'support' helps people, 'admin' does both and manages operators.
 * Operator sessions are short: OPERATOR_IDLE_MS after the last call, OPERATOR_ABSOLUTE_MS after the sign-in.
 */
export const OPERATOR_ROLES: readonly OperatorRole[] = ['reviewer', 'support', 'admin'];

export const OPERATOR_IDLE_MS = 30 * 60 * 1000;
export const OPERATOR_ABSOLUTE_MS = 12 * 60 * 60 * 1000;

/** What a signed-in operator call sees of its operator (never the password or secret columns). */
export interface Operator {
  id: string;
  login: string;
  name: string;
  role: OperatorRole;
  lang: 'zh' | 'en';
}

export interface OperatorSessionRow {
  token_hash: string;
  operator_id: string;
  created_at: number;
  expires_at: number;
  last_seen_at: number;
  revoked_at: number | null;
  network: string | null;
  user_agent: string | null;
}

export type OperatorVariables = { operator: Operator; operatorSession: OperatorSessionRow };

export const operatorView = ({ id, login, name, role, lang }: OperatorRow): Operator => ({ id, login, name, role, lang });

/** The operator's stored password, or null before enrolment (verifyPassword then does the same work, in vain). */
export const storedPasswordOf = (row: OperatorRow | null): StoredPassword | null =>
  row?.enrolled_at != null && row.password_hash && row.password_salt && row.password_algo && row.password_params
    ? { hash: row.password_hash, salt: row.password_salt, algo: row.password_algo, params: row.password_params }
    : null;

/** A role may do what it is named for; admin may do everything; no roles listed: any operator. */
export const roleAllows = (role: OperatorRole, needed: readonly OperatorRole[]) =>
  needed.length === 0 || role === 'admin' || needed.includes(role);

export interface NewOperator {
  login: string;
  name: string;
  role: OperatorRole;
  lang?: 'zh' | 'en';
  /** The client's SHA-256 hex of the password, as the browser sends it (identity/passwords.ts). */
  clientHash: string;
  /** AES-GCM encrypted TOTP secret, when set up at creation. */
  totpSecretEnc?: string | null;
}

/** The INSERT of a new operator (the command line runs the same SQL through wrangler). */
export async function operatorInsert(db: D1Database, env: WorkerEnv, operator: NewOperator, at: number): Promise<{ id: string; statement: D1PreparedStatement }> {
  const id = crypto.randomUUID();
  const password = await hashPassword(operator.clientHash, env);
  const statement = insertOperatorStatement(db, {
    id,
    login: operator.login.trim().toLowerCase(),
    name: operator.name,
    role: operator.role,
    lang: operator.lang ?? 'zh',
    password,
    totpSecretEnc: operator.totpSecretEnc ?? null,
    at,
  });
  return { id, statement };
}

/**
 * A new operator session (after both steps passed): the token the edge puts in the operator cookie (answered
 * as `data.operatorSession.token`) and the INSERT, to batch with the sign-in's audit row.
 */
export async function prepareOperatorSession(
  db: D1Database,
  operatorId: string,
  at: number,
  client: { network?: string | null; userAgent?: string | null } = {},
): Promise<{ token: string; expiresAt: number; statement: D1PreparedStatement }> {
  return prepareSession(db, 'operator', {
    ownerId: operatorId,
    at,
    lifetimeMs: OPERATOR_ABSOLUTE_MS,
    fields: { network: client.network ?? null, user_agent: client.userAgent?.slice(0, 512) ?? null },
  });
}

/** Starts an operator session on its own (tests and dev helpers; a sign-in batches prepareOperatorSession). */
export async function startOperatorSession(
  db: D1Database,
  operatorId: string,
  at: number,
  client: { network?: string | null; userAgent?: string | null } = {},
): Promise<{ token: string; expiresAt: number }> {
  const { token, expiresAt, statement } = await prepareOperatorSession(db, operatorId, at, client);
  await statement.run();
  return { token, expiresAt };
}

/** The live session a token names (unrevoked, before its absolute end, used within the idle time), with its operator. */
async function findOperatorSession(db: D1Database, token: string, at: number): Promise<{ session: OperatorSessionRow; operator: OperatorRow } | null> {
  const session = await findSession<OperatorSessionRow>(db, 'operator', token, at, OPERATOR_IDLE_MS);
  if (!session) return null;
  const operator = await findOperatorById(db, session.operator_id);
  return operator ? { session, operator } : null;
}

/** The UPDATE that ends one operator session, to batch with its audit row. */
export function endOperatorSession(db: D1Database, tokenHashHex: string, at: number): D1PreparedStatement {
  return revokeSessionStatement(db, 'operator', tokenHashHex, at);
}

/** Ends every session of an operator (removal, role change). */
export async function endAllOperatorSessions(db: D1Database, operatorId: string, at: number): Promise<number> {
  return revokeAllSessions(db, 'operator', operatorId, at);
}

/** The token the edge forwarded from the operator cookie, if it has the shape of one. */
export function operatorTokenOf(c: Context): string | null {
  const match = /^[A-Za-z0-9_-]{16,128}$/.exec(c.req.header(OPERATOR_SESSION_HEADER) ?? '');
  return match?.[0] ?? null;
}

/**
 * The live operator session of this call and its operator, when its role allows `roles` (none listed: any
 * operator); null otherwise. Touches the session as requireOperator does.
 */
export async function operatorOfRequest<E extends { Bindings: WorkerEnv }>(
  c: Context<E>,
  roles: readonly OperatorRole[] = [],
): Promise<{ found: { session: OperatorSessionRow; operator: OperatorRow } | null; allowed: boolean }> {
  const token = operatorTokenOf(c);
  const at = now(c);
  const found = token ? await findOperatorSession(c.env.DB, token, at) : null;
  if (!found) return { found: null, allowed: false };
  await touchSession(c.env.DB, 'operator', found.session, at);
  return { found, allowed: roleAllows(found.operator.role, roles) };
}

/**
 * Middleware for operator calls: sets c.get('operator') and c.get('operatorSession'), or answers OP0001 (no live
 * operator session: a platform session does not count) or OP0003 (the operator's role does not allow it).
 * `roles` lists the roles the call is for (none: any operator); admin is always allowed.
 */
export function requireOperator(...roles: OperatorRole[]): MiddlewareHandler<{ Bindings: WorkerEnv; Variables: OperatorVariables }> {
  return async (c, next) => {
    const { found, allowed } = await operatorOfRequest(c, roles);
    if (!found) throw new GatewayError(ERR.OPERATOR_SIGN_IN_REQUIRED);
    if (!allowed) throw new GatewayError(ERR.OPERATOR_ROLE_REFUSED);
    c.set('operator', operatorView(found.operator));
    c.set('operatorSession', found.session);
    await next();
  };
}

/** Ends this operator session, with its audit row, in one batch (the edge clears the cookie). */
export async function signOutOperator(db: D1Database, session: { tokenHash: string; operatorId: string }, at: number, network: string): Promise<void> {
  await db.batch([
    endOperatorSession(db, session.tokenHash, at),
    auditStatement(db, { at, actor: { kind: 'operator', id: session.operatorId }, action: 'operator.signed_out', network }),
  ]);
}

/**
 * Local runs only (dev/routes.ts): a session of the operator with this login, made first with a random password
 * when there is none, for end-to-end tests of something else than the operator sign-in.
 */
export async function devOperatorSession(env: WorkerEnv, wanted: { login: string; name: string; role: OperatorRole }, at: number, network: string) {
  let operator = await findOperatorByLogin(env.DB, wanted.login);
  if (!operator) {
    const { statement } = await operatorInsert(env.DB, env, { ...wanted, clientHash: await sha256Hex(crypto.randomUUID()) }, at);
    await statement.run();
    operator = await findOperatorByLogin(env.DB, wanted.login);
  }
  const { token } = await startOperatorSession(env.DB, operator!.id, at, { network });
  return { operatorId: operator!.id, role: operator!.role, operatorSession: { token, expiresIn: OPERATOR_ABSOLUTE_MS / 1000 } };
}
