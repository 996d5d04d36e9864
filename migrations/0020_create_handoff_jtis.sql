-- Hand-off blobs are single use (issue 6, security baseline): the edge records each blob's jti here with a
-- plain INSERT, and the PRIMARY KEY makes a second use of the same blob fail, however many arrive at once.
-- Times are epoch seconds, as in the blob's claims.
CREATE TABLE IF NOT EXISTS handoff_jtis (
  jti TEXT PRIMARY KEY,
  purpose TEXT NOT NULL CHECK (purpose IN ('session', 'credentials')),
  expires_at INTEGER NOT NULL,                           -- the blob's exp; rows well past it are pruned
  used_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS handoff_jtis_by_expiry ON handoff_jtis (expires_at);
