-- One company per name and type, whatever the letter case, width or compatibility form: name_key is the name
-- after Unicode NFKC and case folding (companyNameKey in src/schemas/onboarding.ts), written by the gateway
-- with every name. SQLite cannot fold Unicode, so rows written before this migration get lower(name_en) (the
-- key 0005 already compared); the next fill of such a company rewrites it.
ALTER TABLE companies ADD COLUMN name_key TEXT;
UPDATE companies SET name_key = lower(name_en) WHERE name_key IS NULL;
CREATE UNIQUE INDEX IF NOT EXISTS companies_name_key_type ON companies (name_key, type);

-- The id of the write that last changed the row. The statements of one company write (members, files) act only
-- while the row carries that write's id, so when the guarded company statement changes nothing, none of the
-- rest does either and the batch leaves no half-made company (functions/gateway/companies/db.ts).
ALTER TABLE companies ADD COLUMN write_id TEXT;
