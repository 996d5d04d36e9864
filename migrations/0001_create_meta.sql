-- Schema bookkeeping; feature tables arrive with their issues.
CREATE TABLE IF NOT EXISTS portal_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
INSERT OR IGNORE INTO portal_meta (key, value) VALUES ('schema', 'portal');
