-- Password sign-in failures per (sign-in name, client network), replacing the per-account counters on users:
-- a script on one network can no longer lock the owner out everywhere (sign-in/risk.ts has the rules).
-- `subject` is the stored sign-in key (E.164 phone, lower-case e-mail, usId; a user id for the password
-- change's current-password check), known account or not, so the throttle never tells whether one exists.
-- `network` is the client network (IPv4 address, IPv6 /64). Times are epoch milliseconds.
CREATE TABLE IF NOT EXISTS password_failures (
  subject TEXT NOT NULL,
  network TEXT NOT NULL,
  failures INTEGER NOT NULL DEFAULT 0,
  locked_until INTEGER,
  lock_count INTEGER NOT NULL DEFAULT 0,                 -- locks so far; each lasts twice the one before (capped)
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (subject, network)
);
CREATE INDEX IF NOT EXISTS password_failures_by_time ON password_failures (updated_at);

ALTER TABLE users DROP COLUMN failed_logins;
ALTER TABLE users DROP COLUMN locked_until;
ALTER TABLE users DROP COLUMN lock_count;

-- checkIsNewUser answers whether an account exists (by design), so it is capped per name and per network.
CREATE TABLE IF NOT EXISTS new_user_checks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  subject TEXT NOT NULL,
  ip TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS new_user_checks_by_subject ON new_user_checks (subject, created_at);
CREATE INDEX IF NOT EXISTS new_user_checks_by_ip ON new_user_checks (ip, created_at);
