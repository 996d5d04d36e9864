-- Passkeys (WebAuthn credentials) and the challenges their ceremonies sign. Times are epoch milliseconds.
-- A person may register several passkeys, each with a name they choose; the credential id is unique across
-- accounts, so one authenticator's credential can never belong to two people.
CREATE TABLE IF NOT EXISTS passkeys (
  id TEXT PRIMARY KEY,                                   -- the credential id, base64url
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  public_key TEXT NOT NULL,                              -- the COSE public key, base64url
  -- The authenticator's signature counter: a sign-in must raise it (or both stay 0, as synced passkeys do).
  counter INTEGER NOT NULL DEFAULT 0,
  transports TEXT NOT NULL DEFAULT '[]',                 -- JSON array of the authenticator's transports
  device_type TEXT NOT NULL CHECK (device_type IN ('singleDevice', 'multiDevice')),
  backed_up INTEGER NOT NULL DEFAULT 0 CHECK (backed_up IN (0, 1)),
  name TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER
);
CREATE INDEX IF NOT EXISTS passkeys_by_user ON passkeys (user_id, created_at);

-- One row per registration or sign-in ceremony: the random challenge the authenticator signs. A challenge is
-- single use: the verify call claims it with one UPDATE ... WHERE used_at IS NULL AND expires_at > now
-- RETURNING, so of any number of parallel verifies exactly one gets it. Sign-in challenges are anonymous
-- (user_id NULL) and capped per client network; registration ones belong to the signed-in person.
CREATE TABLE IF NOT EXISTS webauthn_challenges (
  challenge TEXT PRIMARY KEY,                            -- base64url of 32 random bytes
  purpose TEXT NOT NULL CHECK (purpose IN ('register', 'authenticate')),
  user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  ip TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX IF NOT EXISTS webauthn_challenges_by_ip ON webauthn_challenges (ip, purpose, created_at);
CREATE INDEX IF NOT EXISTS webauthn_challenges_by_user ON webauthn_challenges (user_id, created_at);
