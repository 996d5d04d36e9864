-- One-time codes, their dev outbox, and the slider captcha (issue 3). Times are epoch milliseconds.

-- Codes are stored only as a hash (functions/gateway/codes/service.ts). Only the newest row per
-- recipient + purpose can be consumed; older rows stay for the send caps and expire on their own.
CREATE TABLE IF NOT EXISTS codes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,                  -- order of issue: "latest" is the highest id
  recipient TEXT NOT NULL,                               -- E.164 phone or lower-case e-mail
  purpose TEXT NOT NULL CHECK (purpose IN ('login', 'verify')),
  channel TEXT NOT NULL CHECK (channel IN ('sms', 'email')),
  code_hash TEXT NOT NULL,
  ip TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  tries INTEGER NOT NULL DEFAULT 0,                      -- wrong guesses; at 5 the code is dead
  consumed_at INTEGER
);
CREATE INDEX IF NOT EXISTS codes_by_recipient ON codes (recipient, purpose, id);
CREATE INDEX IF NOT EXISTS codes_by_recipient_time ON codes (recipient, created_at);
CREATE INDEX IF NOT EXISTS codes_by_ip_time ON codes (ip, created_at);

-- Local development only (DELIVERY "outbox" with DEV_OUTBOX "true"): what would have been sent.
CREATE TABLE IF NOT EXISTS outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  channel TEXT NOT NULL CHECK (channel IN ('sms', 'email')),
  recipient TEXT NOT NULL,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS outbox_by_recipient ON outbox (recipient, id);

-- A slider challenge and, once passed, the single-use check it yields (token stored as SHA-256 hex).
CREATE TABLE IF NOT EXISTS slider_challenges (
  session_id TEXT PRIMARY KEY,
  scene TEXT NOT NULL CHECK (scene IN ('sms', 'login')),
  subject TEXT NOT NULL,                                 -- normalised: E.164 phone, lower-case e-mail or user id
  target_x INTEGER NOT NULL,
  piece_y INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,                   -- one verify per challenge, pass or fail
  check_hash TEXT UNIQUE,
  check_expires_at INTEGER,
  check_consumed_at INTEGER
);
