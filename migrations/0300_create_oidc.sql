-- The portal as an OpenID Provider (issue 27; functions/gateway/oidc/). Secrets (client secrets, codes, refresh
-- tokens) are stored as SHA-256 hex only; signing keys' private halves are sealed with the secret OIDC_KEY.

-- Registered clients: the platform's apps and customers' systems. Redirect and logout URIs are JSON arrays of
-- exact strings (no wildcards). A public client (single-page or mobile app) has no secret and uses PKCE alone.
CREATE TABLE IF NOT EXISTS oidc_clients (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  secret_hash TEXT,
  public INTEGER NOT NULL DEFAULT 0 CHECK (public IN (0, 1)),
  trusted INTEGER NOT NULL DEFAULT 0 CHECK (trusted IN (0, 1)),
  redirect_uris TEXT NOT NULL DEFAULT '[]',
  post_logout_uris TEXT NOT NULL DEFAULT '[]',
  backchannel_logout_uri TEXT,
  -- JSON arrays: the grant types and scopes this client may use.
  grant_types TEXT NOT NULL,
  scopes TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  disabled_at INTEGER,
  CHECK (public = 0 OR secret_hash IS NULL)
);

-- ES256 signing keys. Published in the JWKS from created_at until published_until; used to sign from signs_from
-- until signs_until. A key is published a day before it signs and stays published until its last token expired.
CREATE TABLE IF NOT EXISTS oidc_keys (
  kid TEXT PRIMARY KEY,
  public_jwk TEXT NOT NULL,
  sealed_private_jwk TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  signs_from INTEGER NOT NULL,
  signs_until INTEGER NOT NULL,
  published_until INTEGER NOT NULL
);

-- An authorization request waiting for sign-in, a fresh proof or consent (/connect?request=ID). Single use;
-- bound to the first session that opens it.
CREATE TABLE IF NOT EXISTS oidc_requests (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oidc_clients(id),
  params TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  session_hash TEXT,
  used_at INTEGER
);

-- What a person allowed a client to receive, remembered per client (space-separated scopes).
CREATE TABLE IF NOT EXISTS oidc_consents (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  client_id TEXT NOT NULL REFERENCES oidc_clients(id),
  scope TEXT NOT NULL,
  granted_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, client_id)
);

-- A grant: one authorization of one client by one person in one session (sid = the session's public id), or a
-- client's own (client credentials: user_id NULL). Revoking it ends its refresh tokens and access tokens.
CREATE TABLE IF NOT EXISTS oidc_grants (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oidc_clients(id),
  user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  session_hash TEXT,
  sid TEXT,
  scope TEXT NOT NULL,
  auth_time INTEGER,
  amr TEXT,
  acr TEXT,
  -- The page language when the person allowed it: the ID token's locale.
  locale TEXT,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX IF NOT EXISTS oidc_grants_by_session ON oidc_grants (session_hash) WHERE revoked_at IS NULL;
CREATE INDEX IF NOT EXISTS oidc_grants_by_user ON oidc_grants (user_id, client_id);

-- Authorization codes: single use, 60 s, bound to client, redirect_uri and the PKCE challenge.
CREATE TABLE IF NOT EXISTS oidc_codes (
  code_hash TEXT PRIMARY KEY,
  grant_id TEXT NOT NULL REFERENCES oidc_grants(id),
  client_id TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  nonce TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);

-- Refresh tokens, rotated on every use; all of a grant's tokens are one family.
CREATE TABLE IF NOT EXISTS oidc_refresh_tokens (
  token_hash TEXT PRIMARY KEY,
  grant_id TEXT NOT NULL REFERENCES oidc_grants(id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX IF NOT EXISTS oidc_refresh_tokens_by_grant ON oidc_refresh_tokens (grant_id);

-- Access tokens revoked one by one (RFC 7009) before they expire.
CREATE TABLE IF NOT EXISTS oidc_revoked_tokens (
  jti TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
);

-- Back-channel logout sends: one per ended grant of a client with a back-channel logout URI, retried with backoff.
CREATE TABLE IF NOT EXISTS oidc_logout_sends (
  grant_id TEXT PRIMARY KEY REFERENCES oidc_grants(id),
  client_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  last_result TEXT,
  sent_at INTEGER
);
CREATE INDEX IF NOT EXISTS oidc_logout_sends_due ON oidc_logout_sends (next_at) WHERE status = 'pending';

-- How a session was signed in (method and second step), for the ID token's amr and acr; proved_with changes with
-- every later proof, this does not.
ALTER TABLE sessions ADD COLUMN signed_in_with TEXT;

-- Calls of the token endpoint, counted per client and per network (OIDC_TOKEN_*_CAP a minute); pruned hourly.
CREATE TABLE IF NOT EXISTS oidc_token_calls (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  client_id TEXT NOT NULL,
  network TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS oidc_token_calls_by_client ON oidc_token_calls (client_id, created_at);
CREATE INDEX IF NOT EXISTS oidc_token_calls_by_network ON oidc_token_calls (network, created_at);
