/**
 * D1 read replication for signed-in calls (issue 31), through D1's Sessions API.
 *
 * A signed-in call runs its statements in one D1 session that starts on the primary ('first-primary'): the
 * first read, the session with its person, always sees the newest state, so a session revoked a moment ago
 * from another device is refused on its very next call, and the person's own writes of earlier calls are
 * there (read-your-writes needs no bookmark). Every later read of the call may be served by a read replica
 * that has caught up with that first read (D1 keeps a session sequentially consistent), and a write goes to
 * the primary as always. Where read replication is off (and in local D1) every statement goes to the primary,
 * as before.
 *
 * Only a deployed Worker opens the D1 session: a local D1 (wrangler dev, the tests) has no replicas, and its
 * Sessions API costs a signed-in call about a millisecond of CPU for nothing (issue 31's profile, README
 * "Beside the fastest peer").
 *
 * Why not a bookmark cookie as the first constraint: a replica at least as new as this browser's last write
 * may still be older than a revocation made from another device, and a revoked session must never pass.
 */

/**
 * `db` as a session whose first statement goes to the primary, typed as the D1 binding so that every capability
 * takes it unchanged. Calls within it that ask for a session of their own stay in this one. `deployed` false (a
 * local run): `db` itself, which is the primary.
 */
export function primaryFirst(db: D1Database, deployed: boolean): D1Database {
  if (!deployed || typeof db.withSession !== 'function') return db;
  const session = db.withSession('first-primary');
  const inSession: D1Database = {
    prepare: (query: string) => session.prepare(query),
    batch: <T = unknown>(statements: D1PreparedStatement[]) => session.batch<T>(statements),
    exec: (query: string) => db.exec(query),
    withSession: () => session,
    dump: () => db.dump(),
  };
  return inSession;
}
