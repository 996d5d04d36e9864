export type SliderScene = 'sms' | 'login';

/**
 * Claims a slider challenge's single try, judges the position and stores the check, in one statement: of
 * parallel verifies of one challenge at most one gets a row back. The piece passes when `moved` (the drag
 * looked human) and it lies within `tolerance` of the target; then the check's hash and expiry are stored.
 */
export async function claimSliderTry(
  db: D1Database,
  args: { moved: boolean; x: number; tolerance: number; checkHash: string; checkExpiresAt: number; sessionId: string; now: number },
): Promise<{ scene: SliderScene; outcome: string } | null> {
  return db
    .prepare(
      `UPDATE slider_challenges SET attempts = attempts + 1,
       outcome = CASE WHEN ?1 AND ABS(target_x - ?2) <= ?3 THEN 'passed' ELSE 'failed' END,
       check_hash = CASE WHEN ?1 AND ABS(target_x - ?2) <= ?3 THEN ?4 END,
       check_expires_at = CASE WHEN ?1 AND ABS(target_x - ?2) <= ?3 THEN ?5 END
     WHERE session_id = ?6 AND provider = 'slider' AND attempts = 0 AND expires_at > ?7
     RETURNING scene, outcome`,
    )
    .bind(args.moved ? 1 : 0, args.x, args.tolerance, args.checkHash, args.checkExpiresAt, args.sessionId, args.now)
    .first<{ scene: SliderScene; outcome: string }>();
}

/** Closes a Turnstile challenge row without a verdict (its one try is spent; no outcome, so no failure counts). */
export async function closeUnjudged(db: D1Database, sessionId: string): Promise<void> {
  await db.prepare('UPDATE slider_challenges SET attempts = 1 WHERE session_id = ?').bind(sessionId).run();
}

/** Stores Siteverify's verdict on a Turnstile challenge row, with the check's hash and expiry when it passed. */
export async function storeTurnstileVerdict(
  db: D1Database,
  args: { sessionId: string; outcome: 'passed' | 'failed'; checkHash: string | null; checkExpiresAt: number | null },
): Promise<void> {
  await db
    .prepare(`UPDATE slider_challenges SET attempts = 1, outcome = ?1, check_hash = ?2, check_expires_at = ?3 WHERE session_id = ?4`)
    .bind(args.outcome, args.checkHash, args.checkExpiresAt, args.sessionId)
    .run();
}

/** Development only (dev/routes.ts): the secret x of a live challenge, so browser tests can drag like a person. */
export async function revealTarget(db: D1Database, sessionId: string): Promise<number | null> {
  const row = await db.prepare('SELECT target_x FROM slider_challenges WHERE session_id = ?').bind(sessionId).first<{ target_x: number }>();
  return row?.target_x ?? null;
}
