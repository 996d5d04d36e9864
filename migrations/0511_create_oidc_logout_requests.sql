-- RP-initiated logout without a valid id_token_hint (or with one of another session) asks the person first
-- (/sign_out?request=ID, oidc/logout.ts). The request is bound to the session that opened it, single use, and
-- lives 10 minutes; the app's post-logout address is kept only when that app registered it.
CREATE TABLE IF NOT EXISTS oidc_logout_requests (
  id TEXT PRIMARY KEY,
  session_hash TEXT NOT NULL,
  client_id TEXT REFERENCES oidc_clients(id),
  redirect_uri TEXT,
  state TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
