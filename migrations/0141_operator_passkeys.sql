-- Operator passkeys: a second step beside the authenticator app (operators/passkeys.ts). Apart from
-- the platform's passkeys table (whose owners are people) so a person's passkey never opens the console.
CREATE TABLE IF NOT EXISTS operator_passkeys (
  id TEXT PRIMARY KEY,                                   -- the credential id, base64url
  operator_id TEXT NOT NULL REFERENCES operators(id),
  public_key TEXT NOT NULL,                              -- the COSE public key, base64url
  counter INTEGER NOT NULL DEFAULT 0,
  transports TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL,
  last_used_at INTEGER
);
CREATE INDEX IF NOT EXISTS operator_passkeys_by_operator ON operator_passkeys (operator_id);

-- The WebAuthn challenges of operators: 'register' (a signed-in operator adds a passkey) or 'authenticate'
-- (the second step of the sign-in whose challenge hash is sign_in). Single use, 5 minutes.
CREATE TABLE IF NOT EXISTS operator_webauthn_challenges (
  challenge TEXT PRIMARY KEY,
  purpose TEXT NOT NULL CHECK (purpose IN ('register', 'authenticate')),
  operator_id TEXT NOT NULL REFERENCES operators(id),
  sign_in TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX IF NOT EXISTS operator_webauthn_challenges_by_operator ON operator_webauthn_challenges (operator_id, purpose, created_at);
