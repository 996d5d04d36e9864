import type { Also } from '../identity/db/single-use';

/** A condition for consuming a link (identity/db/single-use.ts `also`): a decoy, recorded with no user, never signs in. */
export const LINK_OF_AN_ACCOUNT: Also = { sql: 'user_id IS NOT NULL', binds: [] };

/** 'email_pass': the pass link sent to an account's address; 'share': a signed-in person's link for another device. */
export type LinkKind = 'email_pass' | 'share';

/**
 * The INSERT of a new link that happens only within the limits: none for `recipient` and `kind` after
 * `resendAfter`, fewer than `subjectCap` for them and `ipCap` from `ip` after `windowStart`. The checks and the
 * INSERT are one statement, so parallel requests cannot slip past them. False when a limit refused it.
 */
export async function insertLinkWithinCaps(
  db: D1Database,
  link: {
    tokenHash: string;
    kind: LinkKind;
    userId: string | null;
    recipient: string;
    ip: string;
    now: number;
    expiresAt: number;
    resendAfter: number;
    windowStart: number;
    subjectCap: number;
    ipCap: number;
  },
): Promise<boolean> {
  const inserted = await db
    .prepare(
      `INSERT INTO login_links (token_hash, kind, user_id, recipient, ip, created_at, expires_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7
       WHERE NOT EXISTS (SELECT 1 FROM login_links WHERE recipient = ?4 AND kind = ?2 AND created_at > ?8)
         AND (SELECT COUNT(*) FROM login_links WHERE recipient = ?4 AND kind = ?2 AND created_at > ?9) < ?10
         AND (SELECT COUNT(*) FROM login_links WHERE ip = ?5 AND created_at > ?9) < ?11
       RETURNING token_hash`,
    )
    .bind(
      link.tokenHash,
      link.kind,
      link.userId,
      link.recipient,
      link.ip,
      link.now,
      link.expiresAt,
      link.resendAfter,
      link.windowStart,
      link.subjectCap,
      link.ipCap,
    )
    .first<{ token_hash: string }>();
  return inserted !== null;
}

/** True when `recipient` was given a link of `kind` after `since`. */
export async function hasLinkSince(db: D1Database, recipient: string, kind: LinkKind, since: number): Promise<boolean> {
  const recent = await db.prepare('SELECT 1 FROM login_links WHERE recipient = ? AND kind = ? AND created_at > ?').bind(recipient, kind, since).first();
  return recent !== null;
}

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
