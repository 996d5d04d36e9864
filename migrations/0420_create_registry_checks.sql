-- The registry check of mainland companies (functions/gateway/registry/, issue 42).
-- Nothing of the legal representative is kept: a check keeps the provider's verdict and which fields differed.

-- The applicant's consent to the check: who agreed, to which version of the text, in which language.
CREATE TABLE IF NOT EXISTS registry_consents (
  id TEXT PRIMARY KEY,
  company_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  text_version TEXT NOT NULL,
  lang TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS registry_consents_by_company ON registry_consents (company_id, created_at);

-- Every check: why it ran (application | operator | monthly), which provider answered (NULL: none did), the
-- verdict (match | differs | notFound | notOperating | notChecked), the differing fields (comma-separated names:
-- name, code, legalRepName, legalRepId), the registry's status, and the providers tried with their outcome
-- (JSON, no personal data).
CREATE TABLE IF NOT EXISTS registry_checks (
  id TEXT PRIMARY KEY,
  company_id TEXT NOT NULL,
  cause TEXT NOT NULL,
  provider TEXT,
  verdict TEXT NOT NULL,
  differing TEXT NOT NULL DEFAULT '',
  registry_status TEXT,
  tried TEXT NOT NULL DEFAULT '[]',
  checked_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS registry_checks_by_company ON registry_checks (company_id, checked_at);

-- Approved mainland companies kept checked: when each is due again (spread over the month) and the status the
-- registry last gave, which a change is measured against.
CREATE TABLE IF NOT EXISTS registry_watch (
  company_id TEXT PRIMARY KEY,
  next_check_at INTEGER NOT NULL,
  last_status TEXT
);
CREATE INDEX IF NOT EXISTS registry_watch_due ON registry_watch (next_check_at);

-- An operator task: an approved company's registry status became deregistered, revoked, cancelled or suspended.
CREATE TABLE IF NOT EXISTS registry_tasks (
  id TEXT PRIMARY KEY,
  company_id TEXT NOT NULL,
  from_status TEXT,
  to_status TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  closed_at INTEGER
);
CREATE INDEX IF NOT EXISTS registry_tasks_open ON registry_tasks (company_id) WHERE closed_at IS NULL;
