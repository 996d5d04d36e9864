-- Issue 43: more than one OpenID connection per company (say Entra ID for one subsidiary's domain, Okta for another's).
-- Each proved domain points at one connection (company_domains.connection_id); a domain that names none signs in
-- through the company's first connection (oldest), which is how every domain of a one-connection company works.
-- The sign-ins through a company's provider record the connection, for the last sign-ins of each.
-- SQLite cannot drop the UNIQUE of company_id, so the table is rebuilt (as 0610 rebuilt oauth_states). Dropping the
-- old table ends the company sign-in flows under way (their oauth_states rows cascade): at most ten minutes of them.
PRAGMA defer_foreign_keys = true;
CREATE TABLE company_sso_connections_new (
  id TEXT PRIMARY KEY,
  company_id TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
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
INSERT INTO company_sso_connections_new (id, company_id, issuer, client_id, client_secret_sealed, email_claim, sso_only, admit_domain, disabled_at, created_by, created_at, updated_at)
  SELECT id, company_id, issuer, client_id, client_secret_sealed, email_claim, sso_only, admit_domain, disabled_at, created_by, created_at, updated_at FROM company_sso_connections;
DROP TABLE company_sso_connections;
ALTER TABLE company_sso_connections_new RENAME TO company_sso_connections;
CREATE INDEX IF NOT EXISTS company_sso_connections_by_company ON company_sso_connections (company_id, created_at);

ALTER TABLE company_domains ADD COLUMN connection_id TEXT REFERENCES company_sso_connections(id) ON DELETE SET NULL;
ALTER TABLE company_sso_sign_ins ADD COLUMN connection_id TEXT REFERENCES company_sso_connections(id) ON DELETE CASCADE;
UPDATE company_sso_sign_ins SET connection_id = (SELECT c.id FROM company_sso_connections c WHERE c.company_id = company_sso_sign_ins.company_id ORDER BY c.created_at LIMIT 1);
CREATE INDEX IF NOT EXISTS company_sso_sign_ins_by_connection ON company_sso_sign_ins (connection_id, created_at);
