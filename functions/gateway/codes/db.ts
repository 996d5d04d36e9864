/**
 * The statements of one-time codes (rules in codes/service.ts). Only the newest code of a recipient + purpose
 * can be used; each statement that changes a code re-checks what makes it usable, so parallel calls cannot
 * both act on one state.
 */

import { withdrawGuessStatement } from '../identity/db/guesses';
import { consume, consumeStatement, countTryStatement as countSingleUseTryStatement, SINGLE_USE } from '../identity/db/single-use';

const LATEST = 'SELECT MAX(id) FROM codes WHERE recipient = ?1 AND purpose = ?2';
/** The newest code of a recipient and purpose, as a condition of the single-use core. */
const newest = (key: CodeKey) => ({ sql: 'id = (SELECT MAX(id) FROM codes WHERE recipient = ? AND purpose = ?)', binds: [key.recipient, key.purpose] });

export interface CodeKey {
  recipient: string;
  purpose: string;
}

export interface CountedTry {
  id: number;
  code_hash: string;
  /** Tries of the code including this one. */
  tries: number;
}

/**
 * Counts a try on the newest code while it is usable (not used, not expired, fewer than `maxTries` tries) and
 * returns what the caller compares against. The count comes before the comparison, so however many guesses
 * arrive at once, at most `maxTries` of them are ever compared. Null when no usable code was there.
 */
export function countTry(db: D1Database, key: CodeKey, now: number, maxTries: number): Promise<CountedTry | null> {
  return countTryStatement(db, key, now, maxTries).first<CountedTry>();
}

/**
 * countTry's UPDATE, to batch right after the guess it counts (codes/service.ts): with `onlyIfChanged` it counts
 * only when the statement before it, the guess log's capped INSERT, let the guess in.
 */
export function countTryStatement(db: D1Database, key: CodeKey, now: number, maxTries: number, { onlyIfChanged = false } = {}): D1PreparedStatement {
  return countSingleUseTryStatement(db, SINGLE_USE.code, {}, now, maxTries, { also: newest(key), returning: 'id, code_hash, tries', onlyIfChanged });
}

/**
 * Marks a counted code used and drops the guess that used it (a right guess is not a wrong one), in one
 * transaction. False when a parallel call used it first: of any number of right guesses exactly one wins.
 */
export async function useCode(db: D1Database, codeId: number, guessId: number, now: number): Promise<boolean> {
  const [, used] = await db.batch(useCodeStatements(db, codeId, guessId, now));
  return (used?.results.length ?? 0) > 0;
}

/**
 * useCode's two statements, for the head of a caller's own batch (a new person's registration with its session,
 * sign-in/routes.ts): the guess is dropped, then the code is marked used, so the statement right after them sees
 * changes() = 1 only when this call won the code. That statement must act only then, and a later one must fail
 * without it (a row that references it), so that a lost race rolls the whole batch back (codes/service.ts
 * usedCodeRefusal names it).
 */
export function useCodeStatements(db: D1Database, codeId: number, guessId: number, now: number): D1PreparedStatement[] {
  return [withdrawGuessStatement(db, 'code', guessId), consumeStatement(db, SINGLE_USE.code, { id: codeId }, now, { returning: 'id' })];
}

/** The newest code's state, to tell why it could not be used. */
export function latestCodeState(db: D1Database, key: CodeKey) {
  return db
    .prepare(`SELECT consumed_at, tries, expires_at FROM codes WHERE id = (${LATEST})`)
    .bind(key.recipient, key.purpose)
    .first<{ consumed_at: number | null; tries: number; expires_at: number }>();
}

/** Removes a code whose delivery failed, so the visitor may ask again at once. */
export async function withdrawCode(db: D1Database, id: number): Promise<void> {
  await db.prepare('DELETE FROM codes WHERE id = ?').bind(id).run();
}


/** Whether the client network `ip` has been sent a code for `recipient` since `since` (item 16's "different destination"). */
export async function sentFromNetwork(db: D1Database, ip: string, recipient: string, since: number): Promise<boolean> {
  const row = await db.prepare('SELECT 1 AS found FROM codes WHERE recipient = ? AND ip = ? AND created_at > ? LIMIT 1').bind(recipient, ip, since).first();
  return row !== null;
}

/** A ticket for "send the code by e-mail instead" (codes/fallback.ts), stored as its hash. */
export async function insertFallbackTicket(db: D1Database, row: { tokenHash: string; recipient: string; purpose: string; lang: string; at: number; expiresAt: number }) {
  await db
    .prepare('INSERT INTO delivery_fallbacks (token_hash, recipient, purpose, lang, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
    .bind(row.tokenHash, row.recipient, row.purpose, row.lang, row.at, row.expiresAt)
    .run();
}

/** Spends a live ticket (the identity core's single-use UPDATE): its row for the one caller that got it, else null. */
export function spendFallbackTicket(db: D1Database, tokenHash: string, at: number) {
  return consume<{ recipient: string; purpose: string; lang: string }>(db, SINGLE_USE.deliveryFallback, { token_hash: tokenHash }, at, { returning: 'recipient, purpose, lang' });
}

/**
 * The e-mail address of the account with this phone number, when it has one and is not blocked. An address is
 * on an account only once its owner proved it with a code (registration, or adding it in the user centre).
 */
export async function verifiedEmailOfPhone(db: D1Database, phone: string): Promise<string | null> {
  const row = await db.prepare('SELECT email FROM users WHERE phone_e164 = ? AND email IS NOT NULL AND blocked_at IS NULL').bind(phone).first<{ email: string }>();
  return row?.email ?? null;
}
