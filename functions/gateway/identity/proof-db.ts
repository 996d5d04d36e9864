/**
 * The statements of a session's proof (rules in identity/proof.ts): `sessions.proved_at` / `proved_with`
 * (migrations/0210_session_proofs.sql). A sign-in writes them with the session's INSERT (services/sessions.ts).
 */

/** Records a proof of the person on a live session: one UPDATE that names the session by its token's hash. */
export function recordProofStatement(db: D1Database, { sessionHash, at, provedWith }: { sessionHash: string; at: number; provedWith: string }): D1PreparedStatement {
  return db
    .prepare('UPDATE sessions SET proved_at = ?2, proved_with = ?3 WHERE token_hash = ?1 AND revoked_at IS NULL')
    .bind(sessionHash, at, provedWith);
}
