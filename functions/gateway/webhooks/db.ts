import { ENDPOINTS_MAX } from '../../../src/schemas/webhooks';

/** The endpoints, deliveries and attempts of event webhooks (migration 0450); the outbox itself is events-db.ts. */

export interface EndpointRow {
  id: string;
  company_id: string | null;
  client_id: string | null;
  url: string;
  description: string;
  event_types: string;
  personal_fields: 'masked' | 'hashed' | 'clear';
  sealed_secret: string;
  previous_sealed_secret: string | null;
  previous_secret_until: number | null;
  created_at: number;
  disabled_at: number | null;
  disabled_reason: string | null;
  failing_since: number | null;
}

/** SQL: the endpoints of one owner (?1: a company id, or NULL for the platform's). */
const OWNED_BY = '(company_id = ?1 OR (?1 IS NULL AND company_id IS NULL)) AND removed_at IS NULL';

/**
 * Adds an endpoint while its owner has fewer than ENDPOINTS_MAX, checked in the INSERT itself (parallel adds
 * cannot pass it together). `mayAdd` is SQL the same statement checks too (a company administrator still).
 */
export function insertEndpointStatement(
  db: D1Database,
  row: Omit<EndpointRow, 'previous_sealed_secret' | 'previous_secret_until' | 'disabled_at' | 'disabled_reason' | 'failing_since'> & { created_by_kind: 'user' | 'operator'; created_by: string },
  mayAdd: { sql: string; binds: unknown[] } = { sql: '1 = 1', binds: [] },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO webhook_endpoints (id, company_id, client_id, url, description, event_types, personal_fields, sealed_secret, created_by_kind, created_by, created_at)
       SELECT ?2, ?1, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11
       WHERE (SELECT count(*) FROM webhook_endpoints WHERE ${OWNED_BY}) < ${ENDPOINTS_MAX} AND ${mayAdd.sql}`,
    )
    .bind(row.company_id, row.id, row.client_id, row.url, row.description, row.event_types, row.personal_fields, row.sealed_secret, row.created_by_kind, row.created_by, row.created_at, ...mayAdd.binds);
}

export const endpointsOf = async (db: D1Database, companyId: string | null) =>
  (await db.prepare(`SELECT * FROM webhook_endpoints WHERE ${OWNED_BY} ORDER BY created_at`).bind(companyId).all<EndpointRow>()).results;

export const endpointOf = (db: D1Database, companyId: string | null, id: string) =>
  db.prepare(`SELECT * FROM webhook_endpoints WHERE id = ?2 AND ${OWNED_BY}`).bind(companyId, id).first<EndpointRow>();

export const removeEndpointStatement = (db: D1Database, companyId: string | null, id: string, at: number) =>
  db.prepare(`UPDATE webhook_endpoints SET removed_at = ?3 WHERE id = ?2 AND ${OWNED_BY}`).bind(companyId, id, at);

/** Turns a stopped endpoint on again: it hears new events from now; its dead letters may be sent again. */
export const enableEndpointStatement = (db: D1Database, companyId: string | null, id: string) =>
  db
    .prepare(`UPDATE webhook_endpoints SET disabled_at = NULL, disabled_reason = NULL, failing_since = NULL WHERE id = ?2 AND disabled_at IS NOT NULL AND ${OWNED_BY}`)
    .bind(companyId, id);

/** A new secret; the one it replaces keeps signing until `keepUntil`. */
export const rotateSecretStatement = (db: D1Database, companyId: string | null, id: string, sealed: string, keepUntil: number) =>
  db
    .prepare(
      `UPDATE webhook_endpoints SET previous_sealed_secret = sealed_secret, previous_secret_until = ?4, sealed_secret = ?3
       WHERE id = ?2 AND ${OWNED_BY}`,
    )
    .bind(companyId, id, sealed, keepUntil);

export interface DeliveryRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  status: 'pending' | 'delivered' | 'dead';
  attempts: number;
  next_at: number | null;
  last_at: number | null;
  last_code: number | null;
  last_result: string | null;
  created_at: number;
  type: string;
}

/** The newest deliveries of the owner's endpoints (every status), with each one's attempts. */
export async function deliveriesOf(db: D1Database, companyId: string | null, limit: number) {
  const { results } = await db
    .prepare(
      `SELECT d.id, d.event_id, d.endpoint_id, d.status, d.attempts, d.next_at, d.last_at, d.last_code, d.last_result, d.created_at, ev.type
       FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE (e.company_id = ?1 OR (?1 IS NULL AND e.company_id IS NULL)) AND e.removed_at IS NULL
       ORDER BY d.created_at DESC, d.id LIMIT ?2`,
    )
    .bind(companyId, limit)
    .all<DeliveryRow>();
  const attempts = results.length
    ? (
        await db
          .prepare(`SELECT delivery_id, at, answer_code, result, ok FROM webhook_attempts WHERE delivery_id IN (SELECT value FROM json_each(?1)) ORDER BY id`)
          .bind(JSON.stringify(results.map((row) => row.id)))
          .all<{ delivery_id: string; at: number; answer_code: number | null; result: string; ok: number }>()
      ).results
    : [];
  return { deliveries: results, attempts };
}

/**
 * Sends a dead letter (or a failed one still waiting) again now, as a new run of retries with the same webhook-id;
 * only of the owner's live endpoints.
 */
export const resendStatement = (db: D1Database, companyId: string | null, deliveryId: string, at: number) =>
  db
    .prepare(
      `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_at = ?3, lease_until = NULL
       WHERE id = ?2 AND status <> 'delivered'
         AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE ${OWNED_BY} AND disabled_at IS NULL)`,
    )
    .bind(companyId, deliveryId, at);

export interface DueDelivery {
  id: string;
  attempts: number;
  endpoint_id: string;
  company_id: string | null;
  url: string;
  personal_fields: 'masked' | 'hashed' | 'clear';
  sealed_secret: string;
  previous_sealed_secret: string | null;
  previous_secret_until: number | null;
  failing_since: number | null;
  event_id: string;
  type: string;
  data: string;
  audit_id: number | null;
  event_at: number;
  event_company_id: string | null;
}

/**
 * Claims the deliveries due at `at` (at most `limit`) for `leaseMs`, in one statement: two runs of the job at once
 * claim different ones, and a run that dies leaves its claims to the next once the lease is over.
 */
export async function claimDue(db: D1Database, at: number, leaseMs: number, limit: number, only?: string): Promise<DueDelivery[]> {
  const { results } = await db
    .prepare(
      `UPDATE webhook_deliveries SET lease_until = ?1 + ?2
       WHERE id IN (SELECT id FROM webhook_deliveries
                    WHERE status = 'pending' AND next_at <= ?1 AND (lease_until IS NULL OR lease_until <= ?1) AND (?4 IS NULL OR id = ?4)
                      AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE disabled_at IS NULL AND removed_at IS NULL)
                    ORDER BY next_at LIMIT ?3)
       RETURNING id`,
    )
    .bind(at, leaseMs, limit, only ?? null)
    .all<{ id: string }>();
  if (!results.length) return [];
  const rows = await db
    .prepare(
      `SELECT d.id, d.attempts, d.endpoint_id, e.company_id, e.url, e.personal_fields, e.sealed_secret, e.previous_sealed_secret, e.previous_secret_until,
              e.failing_since, ev.id AS event_id, ev.type, ev.data, ev.audit_id, ev.created_at AS event_at, ev.company_id AS event_company_id
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id JOIN webhook_events ev ON ev.id = d.event_id
       WHERE d.id IN (SELECT value FROM json_each(?1))`,
    )
    .bind(JSON.stringify(results.map((row) => row.id)))
    .all<DueDelivery>();
  return rows.results;
}

/** What one attempt did: its attempt row, the delivery's new state, and the endpoint's run of failures. */
export function recordAttemptStatements(
  db: D1Database,
  attempt: {
    deliveryId: string;
    endpointId: string;
    at: number;
    answerCode: number | null;
    result: string;
    ok: boolean;
    attempts: number;
    status: 'pending' | 'delivered' | 'dead';
    nextAt: number | null;
  },
): D1PreparedStatement[] {
  return [
    db
      .prepare('INSERT INTO webhook_attempts (delivery_id, at, answer_code, result, ok) VALUES (?, ?, ?, ?, ?)')
      .bind(attempt.deliveryId, attempt.at, attempt.answerCode, attempt.result, attempt.ok ? 1 : 0),
    db
      .prepare(
        `UPDATE webhook_deliveries SET status = ?2, attempts = ?3, next_at = ?4, lease_until = NULL, last_at = ?5, last_code = ?6, last_result = ?7 WHERE id = ?1`,
      )
      .bind(attempt.deliveryId, attempt.status, attempt.attempts, attempt.nextAt, attempt.at, attempt.answerCode, attempt.result),
    attempt.ok
      ? db.prepare('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ?').bind(attempt.endpointId)
      : db.prepare('UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, ?2) WHERE id = ?1').bind(attempt.endpointId, attempt.at),
  ];
}

/**
 * Stops an endpoint (`gone`: it answered 410; `failing`: failures for 5 days): it hears nothing more, and what it
 * still had waiting becomes dead letters, to send again once it is turned back on.
 */
export function disableEndpointStatements(db: D1Database, endpointId: string, reason: 'gone' | 'failing', at: number): D1PreparedStatement[] {
  return [
    db.prepare('UPDATE webhook_endpoints SET disabled_at = ?2, disabled_reason = ?3 WHERE id = ?1 AND disabled_at IS NULL').bind(endpointId, at, reason),
    db
      .prepare(`UPDATE webhook_deliveries SET status = 'dead', next_at = NULL, lease_until = NULL WHERE endpoint_id = ?1 AND status = 'pending'`)
      .bind(endpointId),
  ];
}

/** The newest `ping` delivery of an endpoint (the test button sends it at once). */
export function latestPingDelivery(db: D1Database, endpointId: string) {
  return db
    .prepare(
      "SELECT d.id FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id WHERE d.endpoint_id = ? AND ev.type = 'ping' ORDER BY d.created_at DESC, d.rowid DESC LIMIT 1",
    )
    .bind(endpointId)
    .first<{ id: string }>();
}
