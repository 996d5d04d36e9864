import type { Also } from '../identity/db/single-use';

/** A condition for consuming a link (identity/db/single-use.ts `also`): a decoy, recorded with no user, never signs in. */
export const LINK_OF_AN_ACCOUNT: Also = { sql: 'user_id IS NOT NULL', binds: [] };

/** 'email_pass': the pass link sent to an account's address; 'share': a signed-in person's link for another device. */
export type LinkKind = 'email_pass' | 'share';

export async function deleteLink(db: D1Database, tokenHash: string): Promise<void> {
  await db.prepare('DELETE FROM login_links WHERE token_hash = ?').bind(tokenHash).run();
}

/** A link as stored, whether or not it can still be used. */
export async function linkByHash(db: D1Database, tokenHash: string, kind: LinkKind) {
  return db
    .prepare('SELECT user_id, expires_at, used_at FROM login_links WHERE token_hash = ? AND kind = ?')
    .bind(tokenHash, kind)
    .first<{ user_id: string | null; expires_at: number; used_at: number | null }>();
}
