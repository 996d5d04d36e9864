-- Sign-in links (issue 6): the e-mail pass link (/pass_email_login) and the shared sign-in link (/share_login).
-- Only the SHA-256 hex of a link's token is kept, so a database leak yields no usable link. A link is single
-- use: consuming it is one UPDATE ... WHERE used_at IS NULL AND expires_at > now, so of any number of parallel
-- uses exactly one wins. Times are epoch milliseconds.
CREATE TABLE IF NOT EXISTS login_links (
  token_hash TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('email_pass', 'share')),
  -- NULL for a decoy row: an e-mail pass asked for an address with no account. Nothing is sent and the row
  -- can never sign anyone in; it only keeps the send limits the same as for a real account.
  user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  recipient TEXT,                                        -- e-mail pass: the lower-case address it went to
  ip TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX IF NOT EXISTS login_links_by_recipient ON login_links (recipient, created_at);
CREATE INDEX IF NOT EXISTS login_links_by_ip ON login_links (ip, created_at);
CREATE INDEX IF NOT EXISTS login_links_by_user ON login_links (user_id, created_at);
