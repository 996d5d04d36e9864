-- Sessions carry where they were started and when they were last used; every sign-in attempt of a known account
-- is kept for 90 days (functions/gateway/sign-in/history.ts). Times are epoch milliseconds.

-- public_id: a random id the person's session list and "sign out" use (never the token or its hash).
-- last_seen_at: the last call, written at most once a minute (sessions/service.ts touchSession); the idle timeout
-- counts from it. user_agent is cut to 512 characters; device is "browser|os|type" (sessions/devices.ts).
ALTER TABLE sessions ADD COLUMN public_id TEXT;
ALTER TABLE sessions ADD COLUMN last_seen_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN user_agent TEXT;
ALTER TABLE sessions ADD COLUMN device TEXT;
ALTER TABLE sessions ADD COLUMN country TEXT;
ALTER TABLE sessions ADD COLUMN network TEXT;
UPDATE sessions SET public_id = lower(hex(randomblob(16))) WHERE public_id IS NULL;
UPDATE sessions SET last_seen_at = created_at WHERE last_seen_at = 0;
CREATE UNIQUE INDEX IF NOT EXISTS sessions_by_public_id ON sessions (public_id);

-- One row per sign-in attempt of a known account. new_device / new_country: a success from a device (or country)
-- this account never signed in from before, while it had signed in before (a first sign-in is not "new").
CREATE TABLE IF NOT EXISTS sign_ins (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  method TEXT NOT NULL CHECK (method IN ('code', 'password', 'link', 'handoff', 'passkey')),
  partner INTEGER NOT NULL DEFAULT 0 CHECK (partner IN (0, 1)),
  success INTEGER NOT NULL CHECK (success IN (0, 1)),
  country TEXT,
  network TEXT,
  user_agent TEXT,
  device TEXT,
  new_device INTEGER NOT NULL DEFAULT 0,
  new_country INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS sign_ins_by_user ON sign_ins (user_id, created_at);
CREATE INDEX IF NOT EXISTS sign_ins_by_device ON sign_ins (user_id, device) WHERE success = 1;
CREATE INDEX IF NOT EXISTS sign_ins_by_time ON sign_ins (created_at);
