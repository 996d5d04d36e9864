-- Issue 43, first step of a company's own identity provider (functions/gateway/company-sso/): the e-mail domains a
-- company proves it holds, by a DNS TXT record read through DNS-over-HTTPS. A company may claim a domain many times
-- over (one live claim each); a domain is proved by one company only (the partial unique index decides, whatever
-- runs in parallel). Until a domain is proved, a connection signs nobody in.
CREATE TABLE IF NOT EXISTS company_domains (
  id TEXT PRIMARY KEY,
  company_id TEXT NOT NULL REFERENCES companies(id),
  domain TEXT NOT NULL,
  -- The value to publish as TXT at _shipping-portal-challenge.<domain>: 32 random bytes, not a secret once published.
  token TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  checked_at INTEGER,
  proved_at INTEGER,
  removed_at INTEGER
);
CREATE UNIQUE INDEX IF NOT EXISTS company_domains_live_claim ON company_domains (company_id, domain) WHERE removed_at IS NULL;
CREATE UNIQUE INDEX IF NOT EXISTS company_domains_one_owner ON company_domains (domain) WHERE proved_at IS NOT NULL AND removed_at IS NULL;
