/**
 * The audit trail (table audit_log): who did what to whom, when, why and from which client network. Every
 * operator action and every security-relevant event of a person (sign-in, password change, two-step change,
 * membership decision) writes one row. Rows are append-only: triggers in the migration refuse UPDATE and
 * DELETE, and the application has no call that tries.
 *
 * `auditStatement` returns the INSERT rather than running it, so a caller puts it in the same `db.batch`
 * as the change it records: the change and its row land together or not at all.
 */

export type AuditActorKind = 'operator' | 'user' | 'system';

export interface AuditEntry {
  at: number;
  actor: { kind: AuditActorKind; id: string | null };
  /** Dotted, past tense, stable: 'company.verified', 'user.unlocked', 'member.approved', 'sign_in.succeeded'. */
  action: string;
  target?: { kind: string; id: string };
  /** The reason given by an operator or administrator, as they wrote it. */
  reason?: string | null;
  /** The client network (clientIp of the call), not the full address. */
  network?: string | null;
  /** What changed, for the reader of the trail; never a password, code, token or secret. */
  detail?: Record<string, unknown>;
}

export interface AuditRow {
  id: number;
  created_at: number;
  actor_kind: AuditActorKind;
  actor_id: string | null;
  action: string;
  target_kind: string | null;
  target_id: string | null;
  reason: string | null;
  network: string | null;
  detail: string | null;
}

const AUDIT_COLUMNS = 'created_at, actor_kind, actor_id, action, target_kind, target_id, reason, network, detail';

const auditValues = (entry: AuditEntry): unknown[] => [
  entry.at,
  entry.actor.kind,
  entry.actor.id,
  entry.action,
  entry.target?.kind ?? null,
  entry.target?.id ?? null,
  entry.reason ?? null,
  entry.network ?? null,
  entry.detail ? JSON.stringify(entry.detail) : null,
];

/** The INSERT of one audit row, to batch with the change it records. */
export function auditStatement(db: D1Database, entry: AuditEntry): D1PreparedStatement {
  return db.prepare(`INSERT INTO audit_log (${AUDIT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`).bind(...auditValues(entry));
}

/**
 * The same INSERT, written only if `condition` (SQL with plain `?` placeholders for `binds`) holds when it
 * runs: for a change guarded by a condition of its own, so a batch whose change did nothing records nothing.
 */
export function auditStatementIf(db: D1Database, entry: AuditEntry, condition: string, ...binds: unknown[]): D1PreparedStatement {
  return db
    .prepare(`INSERT INTO audit_log (${AUDIT_COLUMNS}) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE ${condition}`)
    .bind(...auditValues(entry), ...binds);
}

/** Writes one row on its own, for an event with no other write to share a batch with. */
export async function audit(db: D1Database, entry: AuditEntry): Promise<void> {
  await auditStatement(db, entry).run();
}

export interface AuditQuery {
  targetKind?: string;
  targetId?: string;
  actorKind?: AuditActorKind;
  actorId?: string;
  action?: string;
  /** Rows older than this id (the next page of a newest-first list). */
  before?: number;
  limit: number;
}

/** Newest first, filtered by whichever of the query's fields are set. */
export async function listAudit(db: D1Database, query: AuditQuery): Promise<AuditRow[]> {
  const where: string[] = [];
  const values: unknown[] = [];
  const add = (clause: string, value: unknown) => {
    where.push(clause);
    values.push(value);
  };
  if (query.targetKind) add('target_kind = ?', query.targetKind);
  if (query.targetId) add('target_id = ?', query.targetId);
  if (query.actorKind) add('actor_kind = ?', query.actorKind);
  if (query.actorId) add('actor_id = ?', query.actorId);
  if (query.action) add('action = ?', query.action);
  if (query.before) add('id < ?', query.before);
  const sql = `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`;
  const { results } = await db.prepare(sql).bind(...values, query.limit).all<AuditRow>();
  return results;
}
