-- A person's rights over their data (issue 28; functions/gateway/data-rights/).

-- Closing an account: the cooling-off ends at closes_at (NULL: not closing); the cron erases the account after it
-- unless an operator placed a legal hold. An erased account keeps its row (erased_at) under its random id only,
-- the pseudonym its audit rows keep.
ALTER TABLE users ADD COLUMN closing_since INTEGER;
ALTER TABLE users ADD COLUMN closes_at INTEGER;
ALTER TABLE users ADD COLUMN legal_hold_reason TEXT;
ALTER TABLE users ADD COLUMN legal_hold_at INTEGER;
ALTER TABLE users ADD COLUMN erased_at INTEGER;
CREATE INDEX IF NOT EXISTS users_by_closes_at ON users (closes_at) WHERE closes_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS users_by_erased_at ON users (erased_at) WHERE erased_at IS NOT NULL;

-- A copy of a person's data: asked for (queued), made by the cron (building → ready), downloadable by its owner
-- until expires_at, then its R2 object goes (expired). The id and the R2 key are the server's own random values.
CREATE TABLE IF NOT EXISTS data_exports (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  requested_at INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued', 'building', 'ready', 'failed', 'expired')),
  started_at INTEGER,
  r2_key TEXT UNIQUE,
  size INTEGER,
  ready_at INTEGER,
  expires_at INTEGER,
  downloaded_at INTEGER
);
CREATE INDEX IF NOT EXISTS data_exports_by_user ON data_exports (user_id, requested_at);
CREATE INDEX IF NOT EXISTS data_exports_by_status ON data_exports (status, requested_at);

-- Separate consents a person gives or withdraws (today: funnel tracking), one row per change, with its time.
CREATE TABLE IF NOT EXISTS consent_changes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose TEXT NOT NULL CHECK (purpose IN ('tracking')),
  granted INTEGER NOT NULL CHECK (granted IN (0, 1)),
  changed_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS consent_changes_by_user ON consent_changes (user_id, purpose, id);
