-- Anonymous writes are capped per client network and globally (functions/gateway/tracking/routes.ts) and old
-- rows are pruned on a schedule (functions/gateway/maintenance/prune.ts). The caps count rows by time, so every
-- capped table has an index that starts with the column the cap compares.
ALTER TABLE tracking_events ADD COLUMN ip TEXT NOT NULL DEFAULT '';   -- the client network, for the cap only
CREATE INDEX IF NOT EXISTS tracking_events_by_ip_time ON tracking_events (ip, created_at);
CREATE INDEX IF NOT EXISTS tracking_events_by_time ON tracking_events (created_at);
CREATE INDEX IF NOT EXISTS client_errors_by_time ON client_errors (created_at);

-- Indexes the prune job reads by.
CREATE INDEX IF NOT EXISTS codes_by_expiry ON codes (expires_at);
CREATE INDEX IF NOT EXISTS login_links_by_expiry ON login_links (expires_at);
CREATE INDEX IF NOT EXISTS slider_challenges_by_expiry ON slider_challenges (expires_at);
CREATE INDEX IF NOT EXISTS sessions_by_expiry ON sessions (expires_at);

-- Invitation codes tried by staff joins and name look-ups. Each attempt is recorded before the code is looked
-- up, under caps per account and per client network, and withdrawn when the code was right, so what is left
-- are the wrong guesses (functions/gateway/companies/service.ts).
CREATE TABLE IF NOT EXISTS invitation_attempts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id TEXT,                                          -- NULL for the name look-up, which needs no session
  ip TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS invitation_attempts_by_user ON invitation_attempts (user_id, created_at);
CREATE INDEX IF NOT EXISTS invitation_attempts_by_ip ON invitation_attempts (ip, created_at);
CREATE INDEX IF NOT EXISTS invitation_attempts_by_time ON invitation_attempts (created_at);
