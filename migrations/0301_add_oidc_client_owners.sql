-- Issue 27, the operators' client console and company API clients (functions/gateway/oidc/console.ts,
-- company-clients.ts). A company's API client belongs to the company (company_id), was made by one of its
-- administrators (created_by, a user id; an operator's id for a console client), ends at expires_at (required for
-- a company client, at most a year) and may be revoked earlier (revoked_at). A client made by the operators'
-- console or the command line has no company and no expiry.
ALTER TABLE oidc_clients ADD COLUMN company_id TEXT REFERENCES companies(id);
ALTER TABLE oidc_clients ADD COLUMN created_by TEXT;
ALTER TABLE oidc_clients ADD COLUMN expires_at INTEGER;
ALTER TABLE oidc_clients ADD COLUMN revoked_at INTEGER;
-- The browser's key of one "Create" (a double click sends it twice): one client per key and company.
ALTER TABLE oidc_clients ADD COLUMN creation_key TEXT;
CREATE INDEX IF NOT EXISTS oidc_clients_by_company ON oidc_clients (company_id, created_at) WHERE company_id IS NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS oidc_clients_by_creation ON oidc_clients (company_id, creation_key) WHERE creation_key IS NOT NULL;
