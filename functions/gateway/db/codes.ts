/**
 * The statements of one-time codes (rules in services/codes.ts). Only the newest code of a recipient + purpose
 * can be used; each statement that changes a code re-checks what makes it usable, so parallel calls cannot
 * both act on one state.
 */

const LATEST = 'SELECT MAX(id) FROM codes WHERE recipient = ?1 AND purpose = ?2';

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
  return db
    .prepare(
      `UPDATE codes SET tries = tries + 1
       WHERE id = (${LATEST}) AND consumed_at IS NULL AND tries < ?4 AND expires_at > ?3
       RETURNING id, code_hash, tries`,
    )
    .bind(key.recipient, key.purpose, now, maxTries)
    .first<CountedTry>();
}

/**
 * Marks a counted code used and drops the guess that used it (a right guess is not a wrong one), in one
 * transaction. False when a parallel call used it first: of any number of right guesses exactly one wins.
 */
export async function useCode(db: D1Database, codeId: number, guessId: number, now: number): Promise<boolean> {
  const [used] = await db.batch([
    db.prepare('UPDATE codes SET consumed_at = ?2 WHERE id = ?1 AND consumed_at IS NULL RETURNING id').bind(codeId, now),
    db.prepare('DELETE FROM code_guesses WHERE id = ?').bind(guessId),
  ]);
  return (used?.results.length ?? 0) > 0;
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

/** Removes a guess that was never compared (no usable code), so it does not count as a wrong one. */
export async function withdrawGuess(db: D1Database, id: number): Promise<void> {
  await db.prepare('DELETE FROM code_guesses WHERE id = ?').bind(id).run();
}
