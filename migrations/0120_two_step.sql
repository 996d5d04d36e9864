-- Two-step verification (functions/gateway/second-step/service.ts). Times are epoch milliseconds.

-- One row per person who started or finished enrolling an authenticator app. enabled_at NULL: a pending
-- enrolment, which signs nobody in and is replaced by the next start. The TOTP secret is AES-GCM encrypted
-- with TWO_STEP_KEY. last_used_step is the newest 30-second step a code was accepted for: a code is taken by
-- `UPDATE ... WHERE last_used_step < ?`, so each code (and any older one) is used once, whatever the burst.
CREATE TABLE IF NOT EXISTS two_step (
  user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  secret_enc TEXT NOT NULL,
  enabled_at INTEGER,
  last_used_step INTEGER NOT NULL DEFAULT -1,
  -- The current set of recovery codes; rows of any other batch are dead.
  recovery_batch TEXT,
  created_at INTEGER NOT NULL
);

-- Ten single-use recovery codes per batch, stored only as SHA-256 hex.
CREATE TABLE IF NOT EXISTS recovery_codes (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  batch TEXT NOT NULL,
  code_hash TEXT NOT NULL,
  used_at INTEGER,
  PRIMARY KEY (user_id, code_hash)
);

-- A first factor passed by someone with two-step on: the second step is owed. The challenge token is held
-- in an HttpOnly cookie by the browser and stored here only as SHA-256 hex; it is single use, lives 5
-- minutes and takes a few tries. `options` is the JSON of what the sign-in would have started (kind, terms
-- agreed to).
CREATE TABLE IF NOT EXISTS second_step_challenges (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  method TEXT NOT NULL,
  options TEXT NOT NULL,
  tries INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);

-- Wrong TOTP and recovery codes, as code_guesses for one-time codes: recorded before the comparison and
-- removed when right, capped per person and per client network in the inserting statement.
CREATE TABLE IF NOT EXISTS two_step_guesses (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id TEXT NOT NULL,
  ip TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS two_step_guesses_by_user ON two_step_guesses (user_id, created_at);
CREATE INDEX IF NOT EXISTS two_step_guesses_by_ip ON two_step_guesses (ip, created_at);

-- An administrator may require two-step of the company's members before they enter it.
ALTER TABLE companies ADD COLUMN require_two_step INTEGER NOT NULL DEFAULT 0 CHECK (require_two_step IN (0, 1));
