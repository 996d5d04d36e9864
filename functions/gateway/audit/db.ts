import type { AuditedAction } from '../../../src/schemas/ops-people';

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
  /** Dotted, past tense, stable: one of AUDITED_ACTIONS (src/schemas/ops-people.ts). */
  action: AuditedAction;
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

/** Operators' names by id. */
async function operatorNames(db: D1Database, ids: readonly string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const { results } = await db
    .prepare(`SELECT id, name FROM operators WHERE id IN (${ids.map(() => '?').join(', ')})`)
    .bind(...ids)
    .all<{ id: string; name: string }>();
  return new Map(results.map((row) => [row.id, row.name]));
}

/** The name of the operator behind each audit row of `rows` (null for a person's or the system's row), read at once. */
export async function operatorNamesOf(db: D1Database, rows: readonly AuditRow[]): Promise<(row: AuditRow) => string | null> {
  const byOperator = (row: AuditRow) => (row.actor_kind === 'operator' ? row.actor_id : null);
  const names = await operatorNames(db, [...new Set(rows.map(byOperator).filter((id) => id !== null))]);
  return (row) => names.get(byOperator(row) ?? '') ?? null;
}

const AUDIT_COLUMNS = 'created_at, actor_kind, actor_id, action, target_kind, target_id, reason, network, detail';

const auditValues = (entry: AuditEntry) => [
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

/**
 * The INSERT of one audit row, to batch with the change it records. With `ifChanged` the row is written only
 * when the statement just before it in the batch changed a row (SQLite's changes()): a conditional change and
 * its record are one decision, so a change refused or lost to a parallel one leaves no record. With `when` (see
 * AuditCondition) the row is written when that condition holds.
 */
export function auditStatement(db: D1Database, entry: AuditEntry, { ifChanged = false, when }: { ifChanged?: boolean; when?: AuditCondition } = {}): D1PreparedStatement {
  const condition = when ? when.sql : ifChanged ? 'changes() > 0' : '1 = 1';
  return db
    .prepare(`INSERT INTO audit_log (${AUDIT_COLUMNS}) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE ${condition}`)
    .bind(...auditValues(entry), ...(when?.binds ?? []));
}

/**
 * A condition of the row, SQL with `?` binds, for a row that goes BEFORE the changes it records in one batch (when
 * several statements make one change and no single changes() can say whether any of them will change a row): the
 * row is written when the condition finds something to change, and the changes follow in the same transaction.
 */
export interface AuditCondition {
  sql: string;
  binds: unknown[];
}

/** Writes one row on its own, for an event with no other write to share a batch with. */
export async function audit(db: D1Database, entry: AuditEntry): Promise<void> {
  await auditStatement(db, entry).run();
}

export interface AuditQuery {
  targetKind?: string;
  targetId?: string;
  /** Any of these target ids (a name, phone or e-mail typed in the filter, resolved by `idsNamedBy`). */
  targetIds?: readonly string[];
  actorKind?: AuditActorKind;
  actorId?: string;
  actorIds?: readonly string[];
  action?: string;
  /** Rows at or after this time (epoch ms). */
  from?: number;
  /** Rows before this time (epoch ms). */
  to?: number;
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
  // An empty list matches nothing (a name nobody has), never everything.
  if (query.actorIds) add(`actor_id IN (SELECT value FROM json_each(?))`, JSON.stringify(query.actorIds));
  if (query.targetIds) add(`target_id IN (SELECT value FROM json_each(?))`, JSON.stringify(query.targetIds));
  if (query.action) add('action = ?', query.action);
  if (query.from !== undefined) add('created_at >= ?', query.from);
  if (query.to !== undefined) add('created_at < ?', query.to);
  if (query.before) add('id < ?', query.before);
  const sql = `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`;
  const { results } = await db.prepare(sql).bind(...values, query.limit).all<AuditRow>();
  return results;
}

/**
 * The audit row of a person's own security event (password changed, two-step on, passkey added, ...);
 * `onlyIfChanged`: written only when the statement before it changed a row (auditStatement's ifChanged).
 */
export function ownEventStatement(
  db: D1Database,
  event: { at: number; userId: string; action: AuditedAction; network: string | null; detail?: Record<string, unknown> },
  { onlyIfChanged = false } = {},
): D1PreparedStatement {
  const person = { kind: 'user' as const, id: event.userId };
  const entry: AuditEntry = { at: event.at, actor: person, action: event.action, target: person, network: event.network, detail: event.detail };
  return auditStatement(db, entry, { ifChanged: onlyIfChanged });
}

/** Who a row names, for an operator who reads names rather than ids: a person's or a company's name and contacts. */
export interface AuditParty {
  name: string | null;
  phone: string | null;
  email: string | null;
}

/** The people and companies the rows name (actors and targets), read in two statements. */
export async function partiesOf(db: D1Database, rows: readonly AuditRow[]): Promise<Map<string, AuditParty>> {
  const userIds = new Set<string>();
  const companyIds = new Set<string>();
  for (const row of rows) {
    if (row.actor_kind === 'user' && row.actor_id) userIds.add(row.actor_id);
    if (row.target_kind === 'user' && row.target_id) userIds.add(row.target_id);
    if (row.target_kind === 'company' && row.target_id) companyIds.add(row.target_id);
  }
  const parties = new Map<string, AuditParty>();
  if (userIds.size) {
    const { results } = await db
      .prepare(`SELECT id, NULLIF(real_name, '') AS name, phone_e164 AS phone, email FROM users WHERE id IN (SELECT value FROM json_each(?))`)
      .bind(JSON.stringify([...userIds]))
      .all<AuditParty & { id: string }>();
    for (const { id, ...party } of results) parties.set(id, party);
  }
  if (companyIds.size) {
    const { results } = await db
      .prepare(
        `SELECT id, COALESCE(NULLIF(name_cn, ''), name_en) AS name_cn, name_en, contact_phone AS phone, contact_email AS email FROM companies WHERE id IN (SELECT value FROM json_each(?))`,
      )
      .bind(JSON.stringify([...companyIds]))
      .all<{ id: string; name_cn: string; name_en: string; phone: string | null; email: string | null }>();
    for (const row of results) parties.set(row.id, { name: row.name_en === row.name_cn ? row.name_en : `${row.name_en} · ${row.name_cn}`, phone: row.phone, email: row.email });
  }
  return parties;
}

/**
 * The ids a filter's text names: itself (an id), and every person whose name, phone or e-mail and every company
 * and operator whose name matches it (names by substring, phone and e-mail exactly), at most 200.
 */
export async function idsNamedBy(db: D1Database, text: string): Promise<string[]> {
  const like = `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const digits = text.replace(/[^\d+]/g, '');
  const { results } = await db
    .prepare(
      `SELECT id FROM users WHERE real_name LIKE ?1 ESCAPE '\\' OR email = lower(?2) OR (length(?3) >= 5 AND (phone_e164 = ?3 OR phone_e164 LIKE '%' || ?3))
       UNION SELECT id FROM companies WHERE name_en LIKE ?1 ESCAPE '\\' OR name_cn LIKE ?1 ESCAPE '\\'
       UNION SELECT id FROM operators WHERE name LIKE ?1 ESCAPE '\\' OR login = ?2
       LIMIT 200`,
    )
    .bind(like, text, digits)
    .all<{ id: string }>();
  return [text, ...results.map((row) => row.id)];
}

/**
 * A company's own trail (issue 45), newest first: the rows whose target is the company, or whose detail names it
 * (a membership decision targets the person and names the company). `from`/`to` bound the time, `before` the id.
 */
export async function companyTrailRows(db: D1Database, companyId: string, query: { from?: number; to?: number; before?: number; limit: number }): Promise<AuditRow[]> {
  const { results } = await db
    .prepare(
      `SELECT * FROM (
         SELECT * FROM audit_log WHERE target_kind = 'company' AND target_id = ?1
         UNION SELECT * FROM audit_log WHERE detail IS NOT NULL AND json_extract(detail, '$.companyId') = ?1
       )
       WHERE (?2 IS NULL OR created_at >= ?2) AND (?3 IS NULL OR created_at < ?3) AND (?4 IS NULL OR id < ?4)
       ORDER BY id DESC LIMIT ?5`,
    )
    .bind(companyId, query.from ?? null, query.to ?? null, query.before ?? null, query.limit)
    .all<AuditRow>();
  return results;
}

/** One audit row by its id (an `audit.*` webhook event reads the row it streams). */
export const auditRowById = (db: D1Database, id: number) => db.prepare('SELECT * FROM audit_log WHERE id = ?').bind(id).first<AuditRow>();
