import type { LegalDoc } from '../../../src/lib/legal';

/** One INSERT per document; agreeing again to a version already recorded keeps the first time. */
export function consentInsertStatements(
  db: D1Database,
  userId: string,
  agreed: readonly { document: LegalDoc; version: string }[],
  now: number,
): D1PreparedStatement[] {
  const insert = db.prepare(
    'INSERT INTO user_consents (user_id, document, version, agreed_at) VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING',
  );
  return agreed.map(({ document, version }) => insert.bind(userId, document, version, now));
}

/** True when `userId` agreed to `version` of the terms. */
export async function agreedToTerms(db: D1Database, userId: string, version: string): Promise<boolean> {
  const row = await db
    .prepare("SELECT 1 AS agreed FROM user_consents WHERE user_id = ?1 AND document = 'terms' AND version = ?2")
    .bind(userId, version)
    .first<{ agreed: number }>();
  return row !== null;
}
