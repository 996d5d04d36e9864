-- A company's own OpenID provider (issue 43, second half; functions/gateway/company-sso/). Times are epoch ms.

-- One OpenID Connect connection per company. The client secret is sealed (AES-256-GCM under a key derived from
-- OIDC_KEY, the connection id as associated data: webhooks/signing.ts sealSecret) and never shown again.
-- `sso_only`: people whose e-mail is on one of the company's proved domains sign in only through it (their password
-- and code sign-ins are refused). `admit_domain`: a new person from the provider becomes an active staff member
-- instead of a pending application. A disabled connection signs nobody in.
CREATE TABLE IF NOT EXISTS company_sso_connections (
  id TEXT PRIMARY KEY,
  company_id TEXT NOT NULL UNIQUE REFERENCES companies(id) ON DELETE CASCADE,
  issuer TEXT NOT NULL,
  client_id TEXT NOT NULL,
  client_secret_sealed TEXT NOT NULL,
  email_claim TEXT NOT NULL DEFAULT 'email',
  sso_only INTEGER NOT NULL DEFAULT 0 CHECK (sso_only IN (0, 1)),
  admit_domain INTEGER NOT NULL DEFAULT 0 CHECK (admit_domain IN (0, 1)),
  disabled_at INTEGER,
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

-- A person of the provider (its `iss` and `sub`) tied to a portal account: made when a new person is admitted or
-- applies, or after an existing account's own proof (its e-mail code). One account per subject per company; a
-- parallel second tie fails on the keys.
CREATE TABLE IF NOT EXISTS company_sso_links (
  company_id TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  subject TEXT NOT NULL,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (company_id, subject),
  UNIQUE (company_id, user_id)
);

-- Sign-ins through a company's provider, for its administrators' page (the last ones of each connection).
CREATE TABLE IF NOT EXISTS company_sso_sign_ins (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  company_id TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  outcome TEXT NOT NULL CHECK (outcome IN ('signed-in', 'linked', 'applied', 'admitted')),
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS company_sso_sign_ins_by_company ON company_sso_sign_ins (company_id, created_at);

-- The OAuth states (SINGLE_USE.oauthState) carry company SSO flows too: `connection_id` names the connection a flow
-- started with. The PKCE verifier and the nonce are not stored: they are derived from the browser's half of the
-- flow, which only its HttpOnly cookie holds. SQLite cannot change a CHECK, so the table is rebuilt.
CREATE TABLE oauth_states_new (
  state_hash TEXT PRIMARY KEY,
  browser_hash TEXT NOT NULL,
  method TEXT NOT NULL CHECK (method IN ('qr', 'mp', 'wecom', 'company-sso')),
  purpose TEXT NOT NULL CHECK (purpose IN ('sign-in', 'bind')),
  user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  network TEXT,
  connection_id TEXT REFERENCES company_sso_connections(id) ON DELETE CASCADE
);
INSERT INTO oauth_states_new (state_hash, browser_hash, method, purpose, user_id, created_at, expires_at, used_at, network)
  SELECT state_hash, browser_hash, method, purpose, user_id, created_at, expires_at, used_at, network FROM oauth_states;
DROP TABLE oauth_states;
ALTER TABLE oauth_states_new RENAME TO oauth_states;
CREATE INDEX IF NOT EXISTS oauth_states_by_time ON oauth_states (created_at);
CREATE INDEX IF NOT EXISTS oauth_states_by_network ON oauth_states (network, created_at);

-- The tickets (SINGLE_USE.oauthTicket) carry what a company provider said of a person whose existing account must
-- prove itself once before it is tied: the company, the e-mail, and the provider's `amr` (recorded only: the tie asks the
-- account's own proof, its second step included). Rebuilt for the CHECK.
CREATE TABLE oauth_tickets_new (
  ticket_hash TEXT PRIMARY KEY,
  browser_hash TEXT NOT NULL,
  provider TEXT NOT NULL CHECK (provider IN ('wechat', 'wecom', 'company-sso')),
  subject TEXT NOT NULL,
  nickname TEXT NOT NULL DEFAULT '',
  mp_openid TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  company_id TEXT REFERENCES companies(id) ON DELETE CASCADE,
  email TEXT,
  amr TEXT
);
INSERT INTO oauth_tickets_new (ticket_hash, browser_hash, provider, subject, nickname, mp_openid, created_at, expires_at, used_at)
  SELECT ticket_hash, browser_hash, provider, subject, nickname, mp_openid, created_at, expires_at, used_at FROM oauth_tickets;
DROP TABLE oauth_tickets;
ALTER TABLE oauth_tickets_new RENAME TO oauth_tickets;
CREATE INDEX IF NOT EXISTS oauth_tickets_by_time ON oauth_tickets (created_at);

-- The sign-in history names the new method. Rebuilt with the same columns and indexes (as 0440 did).
CREATE TABLE sign_ins_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  method TEXT NOT NULL CHECK (method IN ('code', 'password', 'link', 'handoff', 'passkey', 'wechat', 'wecom', 'company-sso')),
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
