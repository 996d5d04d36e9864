export interface TrackingRow {
  id: number;
  event_id: string;
  event_name: string;
  event_type: string;
  bp_source: string;
  bp_type: string;
  key_list: string;
  version_number: string;
  trace_id: string | null;
  created_at: number;
}

/** The newest `limit` events, of one event id when given. */
export async function latestEvents(db: D1Database, eventId: string | undefined, limit: number): Promise<TrackingRow[]> {
  const statement = eventId
    ? db.prepare('SELECT * FROM tracking_events WHERE event_id = ? ORDER BY id DESC LIMIT ?').bind(eventId, limit)
    : db.prepare('SELECT * FROM tracking_events ORDER BY id DESC LIMIT ?').bind(limit);
  const { results } = await statement.all<TrackingRow>();
  return results;
}
