/**
 * The statements of a session's proof (rules in identity/proof.ts): `sessions.proved_at` / `proved_with`
 * (migrations/0210_session_proofs.sql). A sign-in writes them with the session's INSERT (sessions/service.ts).
 */

/** Records a proof of the person on a live session: one UPDATE that names the session by its token's hash. */
export function recordProofStatement(db: D1Database, { sessionHash, at, provedWith }: { sessionHash: string; at: number; provedWith: string }): D1PreparedStatement {
  return db
    .prepare('UPDATE sessions SET proved_at = ?2, proved_with = ?3 WHERE token_hash = ?1 AND revoked_at IS NULL')
    .bind(sessionHash, at, provedWith);
}

/** After a password reset: the account's passkeys are to be reviewed, when it has any (one statement). */
export function askPasskeyReviewStatement(db: D1Database, userId: string, at: number): D1PreparedStatement {
  return db
    .prepare('UPDATE users SET passkeys_review_since = ?2 WHERE id = ?1 AND EXISTS (SELECT 1 FROM passkeys WHERE user_id = ?1)')
    .bind(userId, at);
}

/** Since when the account's passkeys are to be reviewed; null when not (or none is left). */
export async function passkeyReviewSince(db: D1Database, userId: string): Promise<number | null> {
  const row = await db
    .prepare('SELECT passkeys_review_since AS since FROM users WHERE id = ?1 AND EXISTS (SELECT 1 FROM passkeys WHERE user_id = ?1)')
    .bind(userId)
    .first<{ since: number | null }>();
  return row?.since ?? null;
}

/** The person reviewed them. */
export async function endPasskeyReview(db: D1Database, userId: string): Promise<void> {
  await db.prepare('UPDATE users SET passkeys_review_since = NULL WHERE id = ?').bind(userId).run();
}
