import { PRINCIPALS, type PrincipalKind } from '../principals';

/**
 * Takes a TOTP step for a principal: one conditional UPDATE (`last step < step`), so of parallel uses of one
 * code exactly one wins and an older code can never follow a newer one. False when the step was taken already
 * (or the principal's second step is not live).
 */
export async function takeTotpStep(db: D1Database, kind: PrincipalKind, id: string, step: number): Promise<boolean> {
  const { table, key, step: column, live } = PRINCIPALS[kind].totp;
  const result = await db.prepare(`UPDATE ${table} SET ${column} = ?2 WHERE ${key} = ?1 AND ${column} < ?2 AND ${live}`).bind(id, step).run();
  return result.meta.changes === 1;
}
