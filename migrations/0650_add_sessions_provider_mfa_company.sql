-- Issue 43: a session signed in through a company's own identity provider whose `amr` carried `mfa` or `hwk` records
-- that company. The company two-step rule (functions/gateway/authority/db.ts twoStepMissing) counts that session as
-- two-step for that company only: the same person's other sessions, and other companies, still need enrolled factors.
ALTER TABLE sessions ADD COLUMN provider_mfa_company_id TEXT REFERENCES companies(id) ON DELETE SET NULL;
