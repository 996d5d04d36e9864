import type { Provider } from '../social/db';
import { cappedInsert } from '../identity/db/limits';
import { ERR } from '../../../src/schemas/error-codes';
import { consume, reserve, SINGLE_USE } from '../identity/db/single-use';

/**
 * The SQL of WeChat and WeCom sign-in (wechat/service.ts): bindings, the states and tickets of flows under way
 * (spent through the identity core's single-use mechanism), the codes seen, and the local stand-in's tables.
 */

export type Method = 'qr' | 'mp' | 'wecom';
export type Purpose = 'sign-in' | 'bind';

// ---------------------------------------------------------------------------------------------------------
// Flows under way: the state (browser-bound, single use) and the ticket of a person not yet known.
// ---------------------------------------------------------------------------------------------------------

export interface StateRow {
  method: Method;
  purpose: Purpose;
  user_id: string | null;
}

const HOUR_MS = 60 * 60_000;

/** A new flow, capped per client network in its own INSERT (`cap` an hour, WX0013): 50 parallel starts give at most `cap`. */
export async function insertState(
  db: D1Database,
  row: { stateHash: string; browserHash: string; method: Method; purpose: Purpose; userId: string | null; network: string | null; now: number; expiresAt: number },
  cap: number,
): Promise<void> {
  await cappedInsert(db, {
    table: 'oauth_states',
    row: { state_hash: row.stateHash, browser_hash: row.browserHash, method: row.method, purpose: row.purpose, user_id: row.userId, network: row.network, created_at: row.now, expires_at: row.expiresAt },
    caps: [{ where: { network: row.network }, since: row.now - HOUR_MS, max: cap, code: ERR.WECHAT_STARTS_CAPPED }],
    returning: 'state_hash',
  });
}

/** Spends the state of this browser: the row for the one caller that got it, null for a forged, swapped, spent or expired one. */
export const consumeState = (db: D1Database, stateHash: string, browserHash: string, at: number) =>
  consume<StateRow>(db, SINGLE_USE.oauthState, { state_hash: stateHash, browser_hash: browserHash }, at, { returning: 'method, purpose, user_id' });

export interface TicketRow {
  provider: Provider;
  subject: string;
  nickname: string;
  mp_openid: string | null;
}

export async function insertTicket(db: D1Database, row: TicketRow & { ticketHash: string; browserHash: string; now: number; expiresAt: number }): Promise<void> {
  await db
    .prepare(
      'INSERT INTO oauth_tickets (ticket_hash, browser_hash, provider, subject, nickname, mp_openid, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    )
    .bind(row.ticketHash, row.browserHash, row.provider, row.subject, row.nickname, row.mp_openid, row.now, row.expiresAt)
    .first();
}

/** A live ticket, read without spending it (the phone form checks what it can before the code is used). */
export function liveTicket(db: D1Database, ticketHash: string, at: number) {
  return db
    .prepare('SELECT provider, subject, nickname, mp_openid FROM oauth_tickets WHERE ticket_hash = ? AND used_at IS NULL AND expires_at > ?')
    .bind(ticketHash, at)
    .first<TicketRow>();
}

export const consumeTicket = (db: D1Database, ticketHash: string, at: number) =>
  consume<TicketRow>(db, SINGLE_USE.oauthTicket, { ticket_hash: ticketHash }, at, { returning: 'provider, subject, nickname, mp_openid' });

/** Records an authorization code as sent to WeChat: true the first time, false for a code seen before. */
export const firstUseOfCode = (db: D1Database, codeHash: string, at: number) => reserve(db, 'oauth_codes_seen', 'code_hash', { code_hash: codeHash, created_at: at });

// ---------------------------------------------------------------------------------------------------------
// The local stand-in of WeChat and WeCom (wechat/stand-in.ts), DEV_OUTBOX "true" only.
// ---------------------------------------------------------------------------------------------------------

export async function standInIssueCode(db: D1Database, row: { code: string; appId: string; person: string; scope: string; now: number }): Promise<void> {
  await db.prepare('INSERT INTO dev_wechat_codes (code, app_id, person, scope, created_at) VALUES (?, ?, ?, ?, ?)').bind(row.code, row.appId, row.person, row.scope, row.now).run();
  if (row.scope === 'snsapi_userinfo') {
    await db.prepare('INSERT OR IGNORE INTO dev_wechat_grants (app_id, person, created_at) VALUES (?, ?, ?)').bind(row.appId, row.person, row.now).run();
  }
}

/** Spends a stand-in code as WeChat does: the row when it was live, else what is wrong with it. */
export async function standInUseCode(db: D1Database, code: string, appId: string, at: number, lifetimeMs: number) {
  const used = await db
    .prepare('UPDATE dev_wechat_codes SET used_at = ?3 WHERE code = ?1 AND app_id = ?2 AND used_at IS NULL AND created_at > ?4 RETURNING person, scope')
    .bind(code, appId, at, at - lifetimeMs)
    .first<{ person: string; scope: string }>();
  if (used) return { ok: true as const, ...used };
  const row = await db.prepare('SELECT used_at FROM dev_wechat_codes WHERE code = ? AND app_id = ?').bind(code, appId).first<{ used_at: number | null }>();
  return { ok: false as const, reason: row?.used_at ? ('used' as const) : ('invalid' as const) };
}

export async function standInGranted(db: D1Database, appId: string, person: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 FROM dev_wechat_grants WHERE app_id = ? AND person = ?').bind(appId, person).first()) !== null;
}

export async function standInIssueToken(db: D1Database, row: { token: string; appId: string; person: string; scope: string; expiresAt: number }): Promise<void> {
  await db.prepare('INSERT INTO dev_wechat_tokens (token, app_id, person, scope, expires_at) VALUES (?, ?, ?, ?, ?)').bind(row.token, row.appId, row.person, row.scope, row.expiresAt).run();
}

export function standInToken(db: D1Database, token: string) {
  return db.prepare('SELECT app_id, person, scope, expires_at FROM dev_wechat_tokens WHERE token = ?').bind(token).first<{ app_id: string; person: string; scope: string; expires_at: number }>();
}

export async function standInFault(db: D1Database): Promise<'slow' | 'sluggish' | 'down' | null> {
  return (await db.prepare('SELECT mode FROM dev_wechat_faults WHERE id = 1').first<{ mode: 'slow' | 'sluggish' | 'down' }>())?.mode ?? null;
}

export async function setStandInFault(db: D1Database, mode: 'slow' | 'sluggish' | 'down' | null): Promise<void> {
  if (mode === null) await db.prepare('DELETE FROM dev_wechat_faults').run();
  else await db.prepare('INSERT INTO dev_wechat_faults (id, mode) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET mode = ?1').bind(mode).run();
}
