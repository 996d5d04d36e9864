-- Observability (issue 8): the tracking call agg-web/buriedPoint/add (spec 7, tracking version 9.3.11) and the
-- browser error reports of agg-web/client/error. Times are epoch milliseconds. Both tables only grow; operators
-- prune them with `wrangler d1 execute` (see README "Running it in production").

CREATE TABLE IF NOT EXISTS tracking_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id TEXT NOT NULL,
  event_name TEXT NOT NULL DEFAULT '',
  event_type TEXT NOT NULL DEFAULT '',
  bp_source TEXT NOT NULL DEFAULT '',
  bp_type TEXT NOT NULL DEFAULT '',
  key_list TEXT NOT NULL DEFAULT '[]',                  -- JSON as sent (capped at 4 kB)
  version_number TEXT NOT NULL DEFAULT '',              -- the client's tracking version, e.g. '9.3.11'
  trace_id TEXT,                                         -- the edge's traceid of the call
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS tracking_events_by_event ON tracking_events (event_id, id);

CREATE TABLE IF NOT EXISTS client_errors (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  message TEXT NOT NULL,
  stack TEXT,
  url TEXT NOT NULL,                                     -- origin + path only: query and fragment are dropped
  trace_id TEXT,                                         -- the edge's traceid of the report
  client_trace_id TEXT,                                  -- the trace id of the failed call, when the page knew it
  ip TEXT NOT NULL,                                      -- for the per-IP cap only
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS client_errors_by_ip_time ON client_errors (ip, created_at);
