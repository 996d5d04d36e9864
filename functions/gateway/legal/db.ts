import type { LegalDoc } from '../../../src/lib/legal';

/**
 * One INSERT for all documents (one statement instead of one per document, in the batch of a registration or a
 * sign-in); agreeing again to a version already recorded keeps the first time.
 */
export function consentInsertStatements(
  db: D1Database,
  userId: string,
  agreed: readonly { document: LegalDoc; version: string }[],
  now: number,
): D1PreparedStatement[] {
  if (!agreed.length) return [];
  const rows = agreed.map(() => '(?, ?, ?, ?)').join(', ');
  const values = agreed.flatMap(({ document, version }) => [userId, document, version, now]);
  return [
    db
      .prepare(`INSERT INTO user_consents (user_id, document, version, agreed_at) VALUES ${rows} ON CONFLICT DO NOTHING`)
      .bind(...values),
  ];
}

/** The read of whether `userId` agreed to `version` of the terms: a row when they did. */
export function termsAgreedStatement(db: D1Database, userId: string, version: string): D1PreparedStatement {
  return db.prepare("SELECT 1 AS agreed FROM user_consents WHERE user_id = ?1 AND document = 'terms' AND version = ?2").bind(userId, version);
}
