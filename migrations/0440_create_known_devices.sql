-- The new-device challenge (issue 44): the devices a person has signed in from, each named by a random token the
-- browser keeps in an HttpOnly cookie (the edge's portal_device) and stored here only as its SHA-256. A password,
-- hand-off or partner sign-in without a live row for this person and this token owes a one-time code first
-- (sign-in/service.ts signedIn). A password change, "sign out everywhere" and an operator's block delete the rows.
CREATE TABLE IF NOT EXISTS known_devices (
  token_hash TEXT PRIMARY KEY,
  -- What the person's list names the device by ("Forget"): random, neither the token nor its hash.
  public_id TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL,
  user_agent TEXT,
  country TEXT
);
CREATE INDEX IF NOT EXISTS known_devices_by_user ON known_devices (user_id, last_used_at);

-- The sign-in history names the new second step ('code': the new-device challenge's one-time code). SQLite cannot
-- change a CHECK, so sign_ins is rebuilt with the same columns and indexes (as 0400 did).
CREATE TABLE sign_ins_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  method TEXT NOT NULL CHECK (method IN ('code', 'password', 'link', 'handoff', 'passkey', 'wechat', 'wecom')),
  partner INTEGER NOT NULL DEFAULT 0 CHECK (partner IN (0, 1)),
  success INTEGER NOT NULL CHECK (success IN (0, 1)),
  country TEXT,
  network TEXT,
  user_agent TEXT,
  device TEXT,
  new_device INTEGER NOT NULL DEFAULT 0,
  new_country INTEGER NOT NULL DEFAULT 0,
  second_step TEXT CHECK (second_step IN ('totp', 'passkey', 'recovery', 'code'))
);
INSERT INTO sign_ins_new (id, user_id, created_at, method, partner, success, country, network, user_agent, device, new_device, new_country, second_step)
  SELECT id, user_id, created_at, method, partner, success, country, network, user_agent, device, new_device, new_country, second_step FROM sign_ins;
DROP TABLE sign_ins;
ALTER TABLE sign_ins_new RENAME TO sign_ins;
CREATE INDEX IF NOT EXISTS sign_ins_by_user ON sign_ins (user_id, created_at);
CREATE INDEX IF NOT EXISTS sign_ins_by_device ON sign_ins (user_id, device) WHERE success = 1;
CREATE INDEX IF NOT EXISTS sign_ins_by_time ON sign_ins (created_at);
