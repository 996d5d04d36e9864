import { PRINCIPALS, type PrincipalKind } from '../principals';
import { consume, countTry, SINGLE_USE, type Match } from './single-use';
import { newSecret, tokenHash } from '../tokens';

/**
 * Second-step challenges: the half-way point of a sign-in (the first factor passed, the second owed), for
 * every kind of principal. A challenge is a single-use secret (single-use.ts's race contract): random, stored
 * hashed, short-lived, a few tries, bound to its principal, and no session: it opens nothing but the second step.
 */
const KIND = { person: SINGLE_USE.secondStep, operator: SINGLE_USE.operatorSecondStep } as const;

/** A new challenge for `ownerId`: the token to hand out and the INSERT (to batch with the first factor's writes). */
export async function prepareChallenge(
  db: D1Database,
  kind: PrincipalKind,
  { ownerId, at, lifetimeMs, fields = {} }: { ownerId: string; at: number; lifetimeMs: number; fields?: Match },
): Promise<{ token: string; statement: D1PreparedStatement }> {
  const { token, hash } = await newSecret();
  const row: Match = { token_hash: hash, [PRINCIPALS[kind].challengeOwner]: ownerId, ...fields, created_at: at, expires_at: at + lifetimeMs };
  const columns = Object.keys(row);
  const statement = db
    .prepare(`INSERT INTO ${KIND[kind].table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `?${i + 1}`).join(', ')})`)
    .bind(...Object.values(row));
  return { token, statement };
}

/** The challenge `token` names while it can still be passed (unused, unexpired), with its hash; null otherwise. */
export async function liveChallenge<T>(db: D1Database, kind: PrincipalKind, token: string, at: number): Promise<(T & { hash: string }) | null> {
  const hash = await tokenHash(token);
  const row = await db
    .prepare(`SELECT * FROM ${KIND[kind].table} WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2`)
    .bind(hash, at)
    .first<T>();
  return row ? { ...row, hash } : null;
}

/** The challenge as stored, used or not (to tell why it could not be passed). */
export function challengeRow<T>(db: D1Database, kind: PrincipalKind, hash: string): Promise<T | null> {
  return db.prepare(`SELECT * FROM ${KIND[kind].table} WHERE token_hash = ?`).bind(hash).first<T>();
}

/** Counts a try before a factor is compared: the tries so far, or null when used, expired or out of tries. */
export function countChallengeTry(db: D1Database, kind: PrincipalKind, hash: string, at: number, maxTries: number) {
  return countTry(db, KIND[kind], { token_hash: hash }, at, maxTries);
}

/** Uses the challenge up: its row for the one caller that gets it, null for every other. */
export function claimChallenge<T>(db: D1Database, kind: PrincipalKind, hash: string, at: number): Promise<T | null> {
  return consume<T>(db, KIND[kind], { token_hash: hash }, at);
}
