-- "This wasn't me" after an e-mail change (issue 47): the notice to the OLD address carries a link that, without
-- signing in, puts that address back, ends every session and turns the password off. One row per change; the
-- secret is kept as its SHA-256 only; single use (identity/db/single-use.ts `contactUndo`), 72 hours.
CREATE TABLE IF NOT EXISTS contact_undos (
  id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  old_email TEXT NOT NULL,
  new_email TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX IF NOT EXISTS contact_undos_user ON contact_undos (user_id);
