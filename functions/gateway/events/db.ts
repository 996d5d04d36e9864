import type { EventType } from '../../../src/schemas/webhooks';

/**
 * The outbox of event webhooks (migration 0450): the one way a capability says that something changed.
 *
 * `emitEvent` returns the INSERT rather than running it, so the caller puts it in the same `db.batch` as the
 * change it reports: the change and its event land together or not at all. The table's trigger fans it out, in
 * that very statement, to one delivery per endpoint that chose the type and may hear it (a company's endpoints
 * hear only that company's events); webhooks/delivery.ts sends them.
 *
 * - `companyId`: the company the event is about (its endpoints hear it).
 * - `userId` without `companyId`: a person's event (user.signed_out, user.closed), heard by the endpoints of every
 *   company the person is an active member of; put it before a statement that ends those memberships.
 * - `ifChanged`: written only when the statement just before it in the batch changed a row (SQLite's changes()),
 *   as audit/db.ts auditStatement does: a conditional change refused or lost to a parallel one reports nothing.
 *   After an audit row written `ifChanged`, it follows that row, which followed the change.
 * - `data`: what the receiver needs, ids rather than personal fields (README "Event webhooks" lists each type's).
 */
export interface EmittedEvent {
  type: EventType;
  at: number;
  companyId?: string | null;
  userId?: string | null;
  data: Record<string, unknown>;
}

export function emitEvent(db: D1Database, event: EmittedEvent, { ifChanged = false } = {}): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO webhook_events (id, type, company_id, user_id, data, created_at)
       SELECT 'evt_' || lower(hex(randomblob(12))), ?1, ?2, ?3, ?4, ?5 WHERE ${ifChanged ? 'changes() > 0' : '1 = 1'}`,
    )
    .bind(event.type, event.companyId ?? null, event.userId ?? null, JSON.stringify(event.data), event.at);
}

/** A ping for one endpoint (the test button): only that endpoint hears it. */
export function pingStatement(db: D1Database, endpointId: string, at: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO webhook_events (id, type, company_id, endpoint_id, data, created_at)
       SELECT 'evt_' || lower(hex(randomblob(12))), 'ping', company_id, ?1, json_object('endpointId', ?1), ?2 FROM webhook_endpoints WHERE id = ?1`,
    )
    .bind(endpointId, at);
}
