-- Operators (the platform's own staff who review companies and help people) and the audit trail.
-- Times are epoch milliseconds. See functions/gateway/operators/service.ts and audit/service.ts.

-- Operator accounts are not platform accounts: created and removed only from the command line
-- (npm run operator), never by a call. login is lower-cased. The password columns are those of `users`
-- (PBKDF2 over the client's SHA-256 hex, identity/passwords.ts). The second step is mandatory: a TOTP
-- secret (AES-GCM with TWO_STEP_KEY, as two_step.secret_enc). The command line cannot know the deployed
-- pepper, so it creates the row without password or secret plus an enrolment link; both are set together
-- when the link is used (enrolled_at), and nobody signs in before that.
-- removed_at: a removed operator keeps their row (the audit trail names them) but can do nothing.
CREATE TABLE IF NOT EXISTS operators (
  id TEXT PRIMARY KEY,
  login TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('reviewer', 'support', 'admin')),
  lang TEXT NOT NULL DEFAULT 'zh' CHECK (lang IN ('zh', 'en')),
  password_hash TEXT,
  password_salt TEXT,
  password_algo TEXT,
  password_params TEXT,
  totp_secret_enc TEXT,
  totp_last_step INTEGER NOT NULL DEFAULT -1,
  created_at INTEGER NOT NULL,
  enrolled_at INTEGER,
  removed_at INTEGER
);

-- Single-use enrolment links (24 hours): the token is stored only as SHA-256 hex. Opening the link stores a
-- pending TOTP secret here; using it (password + one valid code of that secret) sets used_at and the
-- operator's password and secret in one batch. tries counts wrong codes (the link dies after 5).
CREATE TABLE IF NOT EXISTS operator_enrolments (
  token_hash TEXT PRIMARY KEY,
  operator_id TEXT NOT NULL REFERENCES operators(id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  pending_secret_enc TEXT,
  tries INTEGER NOT NULL DEFAULT 0,
  used_at INTEGER
);
CREATE INDEX IF NOT EXISTS operator_enrolments_by_operator ON operator_enrolments (operator_id);

-- The half-way point of an operator sign-in: the password was right, the second step is owed. Random token
-- (SHA-256 hex stored), 5 minutes, 5 tries, single use. It is no session and opens no operator call.
CREATE TABLE IF NOT EXISTS operator_challenges (
  token_hash TEXT PRIMARY KEY,
  operator_id TEXT NOT NULL REFERENCES operators(id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  tries INTEGER NOT NULL DEFAULT 0,
  used_at INTEGER
);

-- Every password or TOTP guess of an operator sign-in, recorded before it is checked (a right one is
-- withdrawn): the caps per login and per client network count these rows. subject is the lower-cased login
-- as typed, so unknown logins are capped exactly like known ones.
CREATE TABLE IF NOT EXISTS operator_guesses (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  subject TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('password', 'totp')),
  network TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS operator_guesses_by_subject ON operator_guesses (subject, kind, created_at);
CREATE INDEX IF NOT EXISTS operator_guesses_by_network ON operator_guesses (network, kind, created_at);

-- Operator sessions: short (idle 30 minutes, absolute 12 hours), their own HttpOnly cookie, token stored
-- only as SHA-256 hex. A session exists only after the second step.
CREATE TABLE IF NOT EXISTS operator_sessions (
  token_hash TEXT PRIMARY KEY,
  operator_id TEXT NOT NULL REFERENCES operators(id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  revoked_at INTEGER,
  network TEXT,
  user_agent TEXT
);
CREATE INDEX IF NOT EXISTS operator_sessions_by_operator ON operator_sessions (operator_id);

-- The audit trail: one append-only row per operator action and per security-relevant event of a person.
-- actor_kind 'operator' | 'user' | 'system'; target_kind e.g. 'company', 'user', 'operator'.
-- detail: JSON of what changed (never a secret). The triggers make "never updated or deleted" hold for
-- every statement, not only for the code that remembers it.
CREATE TABLE IF NOT EXISTS audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  created_at INTEGER NOT NULL,
  actor_kind TEXT NOT NULL CHECK (actor_kind IN ('operator', 'user', 'system')),
  actor_id TEXT,
  action TEXT NOT NULL,
  target_kind TEXT,
  target_id TEXT,
  reason TEXT,
  network TEXT,
  detail TEXT
);
CREATE INDEX IF NOT EXISTS audit_by_time ON audit_log (created_at);
CREATE INDEX IF NOT EXISTS audit_by_target ON audit_log (target_kind, target_id, created_at);
CREATE INDEX IF NOT EXISTS audit_by_actor ON audit_log (actor_kind, actor_id, created_at);

CREATE TRIGGER IF NOT EXISTS audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
CREATE TRIGGER IF NOT EXISTS audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
