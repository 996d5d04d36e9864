import { ERR, type ErrorCode } from '../../../../src/schemas/error-codes';
import { GatewayError } from '../../errors';

/**
 * Rate limits that hold under parallel requests: the checks and the INSERT are one SQL statement, so fifty
 * requests at once cannot all read "under the cap" before any of them writes. Every per-recipient,
 * per-subject and per-network limit of the gateway is written with `cappedInsert`.
 */

/** Rows matching every `where` pair, created after `since`, count towards `max`; at `max` the insert is refused with `code`. */
export interface Cap {
  where: Record<string, string | number | null>;
  /** Rows whose column holds this value do not count (NULL counts): "challenges not passed", say. */
  except?: Record<string, string | number>;
  since: number;
  max: number;
  code: ErrorCode;
  /** The refusal carries data { retryAfter }: seconds until the oldest counted row leaves the window. */
  tellWait?: boolean;
}

/** No row matching `where` may be newer than `since` (a resend wait); refused with `code` and data { retryAfter } in seconds. */
export interface Wait {
  where: Record<string, string | number | null>;
  since: number;
  code: ErrorCode;
}

export interface CappedInsert {
  table: string;
  /** Column → value of the new row. */
  row: Record<string, string | number | null>;
  /** The row's creation-time column, which the caps and the wait count by. */
  timeColumn?: string;
  wait?: Wait;
  caps: Cap[];
  /** The column the insert returns (to withdraw the row later, say). */
  returning?: string;
  /**
   * Statements of the same batch, run after the insert: its audit row, written only if the insert was
   * (auditStatement with ifChanged), lands with it or not at all.
   */
  alongside?: D1PreparedStatement[];
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

function identifier(name: string): string {
  // Table and column names come from code, never from a request; this keeps it that way.
  if (!IDENTIFIER.test(name)) throw new Error(`not an SQL identifier: ${name}`);
  return name;
}

/** Builds `col1 = ?n AND col2 = ?m` (and `(col3 IS NULL OR col3 <> ?k)` for `except`), appending the values to `binds`. */
function matches(where: Record<string, string | number | null>, binds: unknown[], except: Record<string, string | number> = {}): string {
  const parts = Object.entries(where).map(([column, value]) => {
    binds.push(value);
    return `${identifier(column)} = ?${binds.length}`;
  });
  for (const [column, value] of Object.entries(except)) {
    binds.push(value);
    parts.push(`(${identifier(column)} IS NULL OR ${identifier(column)} <> ?${binds.length})`);
  }
  return parts.length ? parts.join(' AND ') : '1 = 1';
}

function conditions(spec: CappedInsert, binds: unknown[]): string[] {
  const table = identifier(spec.table);
  const time = identifier(spec.timeColumn ?? 'created_at');
  const checks: string[] = [];
  if (spec.wait) {
    const where = matches(spec.wait.where, binds);
    binds.push(spec.wait.since);
    checks.push(`NOT EXISTS (SELECT 1 FROM ${table} WHERE ${where} AND ${time} > ?${binds.length})`);
  }
  for (const cap of spec.caps) {
    const where = matches(cap.where, binds, cap.except);
    binds.push(cap.since, cap.max);
    checks.push(`(SELECT COUNT(*) FROM ${table} WHERE ${where} AND ${time} > ?${binds.length - 1}) < ?${binds.length}`);
  }
  return checks;
}

/**
 * Inserts `row` when the wait and every cap allow it, in one statement, and returns the `returning` column
 * of the new row. Otherwise throws the GatewayError of the limit that refused it: the caps in the order
 * given (waiting a minute would not help), then the wait.
 */
export async function cappedInsert(db: D1Database, spec: CappedInsert): Promise<string | number> {
  const insert = cappedInsertStatement(db, spec);
  const inserted = spec.alongside?.length
    ? ((await db.batch([insert, ...spec.alongside]))[0]?.results[0] as { value: string | number } | undefined)
    : await insert.first<{ value: string | number }>();
  if (inserted) return inserted.value;
  throw await whyRefused(db, spec);
}

/**
 * The one INSERT of cappedInsert (its new row's `returning` column as `value`, no row when a limit refused it),
 * to batch with the statements that go with it; `refusal` then says which limit it was.
 */
export function cappedInsertStatement(db: D1Database, spec: CappedInsert): D1PreparedStatement {
  const binds: unknown[] = [];
  const columns = Object.keys(spec.row).map(identifier);
  const values = columns.map((column) => {
    binds.push(spec.row[column]);
    return `?${binds.length}`;
  });
  const checks = conditions(spec, binds);
  const returning = identifier(spec.returning ?? 'id');
  return db
    .prepare(
      `INSERT INTO ${identifier(spec.table)} (${columns.join(', ')})
       SELECT ${values.join(', ')}
       ${checks.length ? `WHERE ${checks.join(' AND ')}` : ''}
       RETURNING ${returning} AS value`,
    )
    .bind(...binds);
}

/** Which limit refused the insert, read after the fact (it is only an explanation; the statement decided). */
export async function whyRefused(db: D1Database, spec: CappedInsert): Promise<GatewayError> {
  const table = identifier(spec.table);
  const time = identifier(spec.timeColumn ?? 'created_at');
  for (const cap of spec.caps) {
    const binds: unknown[] = [];
    const where = matches(cap.where, binds, cap.except);
    binds.push(cap.since);
    const count = await db
      .prepare(`SELECT COUNT(*) AS value, MIN(${time}) AS oldest FROM ${table} WHERE ${where} AND ${time} > ?${binds.length}`)
      .bind(...binds)
      .first<{ value: number; oldest: number | null }>();
    if ((count?.value ?? 0) < cap.max) continue;
    if (!cap.tellWait || count?.oldest == null) return new GatewayError(cap.code);
    // The window frees a place when its oldest counted row leaves it.
    return new GatewayError(cap.code, { retryAfter: Math.max(1, Math.ceil((count.oldest - cap.since) / 1000)) });
  }
  if (spec.wait) {
    const binds: unknown[] = [];
    const where = matches(spec.wait.where, binds);
    const last = await db
      .prepare(`SELECT MAX(${time}) AS value FROM ${table} WHERE ${where}`)
      .bind(...binds)
      .first<{ value: number | null }>();
    if (last?.value != null && last.value > spec.wait.since) {
      const waitMs = last.value - spec.wait.since;
      return new GatewayError(spec.wait.code, { retryAfter: Math.max(1, Math.ceil(waitMs / 1000)) });
    }
  }
  // What refused the insert is gone by now: a row it counted was withdrawn in between (a code whose delivery
  // failed, a guess that was never compared). With a wait, that row was most likely the one it waited for, so
  // the answer is "try again in a moment", which is now true; blaming a cap would send a person away for an hour.
  if (spec.wait) return new GatewayError(spec.wait.code, { retryAfter: 1 });
  return new GatewayError(spec.caps.at(-1)?.code ?? ERR.REQUEST_INVALID);
}
