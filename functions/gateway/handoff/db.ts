/** The DELETE of handoff_jtis rows whose blob expired before `before` (epoch seconds), to batch with a new one. */
export function pruneHandoffJtisStatement(db: D1Database, before: number): D1PreparedStatement {
  return db.prepare('DELETE FROM handoff_jtis WHERE expires_at < ?').bind(before);
}
