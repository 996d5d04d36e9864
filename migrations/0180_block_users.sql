-- People support: an operator may block an account. A blocked person is refused at every sign-in
-- (sign-in/service.ts startSession) and their sessions stop working (sessions/service.ts); the block, its
-- reason and who set it are in the audit trail (action 'user.blocked').
ALTER TABLE users ADD COLUMN blocked_at INTEGER;
-- Name search of the support page: real names and login names by prefix.
CREATE INDEX IF NOT EXISTS users_by_real_name ON users (real_name);
CREATE INDEX IF NOT EXISTS users_by_login_name ON users (login_name);
