/** The DELETE of at most `limit` rows of `table` that `old` (SQL over ?1) matches with ?1 = `cutoff`. */
export function pruneStatement(db: D1Database, { table, old }: { table: string; old: string }, cutoff: number, limit: number): D1PreparedStatement {
  return db.prepare(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE ${old} LIMIT ${limit})`).bind(cutoff);
}
