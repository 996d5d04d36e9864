-- Operators (the platform's own staff who review companies and help people) and the audit trail.
-- Times are epoch milliseconds. See functions/gateway/services/operators.ts and services/audit.ts.

-- Operator accounts are not platform accounts: created and removed only from the command line
-- (npm run operator), never by a call. login is lower-cased. The password columns are those of `users`
-- (PBKDF2 over the client's SHA-256 hex, services/passwords.ts). The second step is mandatory: a TOTP
-- secret (AES-GCM with TWO_STEP_KEY, as two_step.secret_enc) and/or passkeys in operator_passkeys.
-- removed_at: a removed operator keeps their row (the audit trail names them) but can do nothing.
CREATE TABLE IF NOT EXISTS operators (
  id TEXT PRIMARY KEY,
  login TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('reviewer', 'support', 'admin')),
  lang TEXT NOT NULL DEFAULT 'zh' CHECK (lang IN ('zh', 'en')),
  password_hash TEXT NOT NULL,
  password_salt TEXT NOT NULL,
  password_algo TEXT NOT NULL,
  password_params TEXT NOT NULL,
  totp_secret_enc TEXT,
  totp_last_step INTEGER NOT NULL DEFAULT -1,
  created_at INTEGER NOT NULL,
  removed_at INTEGER
);

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
