-- Overseas and shipping companies' registry numbers (issue 42, its last part). Times are epoch ms.

-- A company outside the mainland (country not CN) may record its IMO company number (7 digits, the last its check
-- digit: src/schemas/registry-numbers.ts checkImoCompanyNumber; stored without spaces or an `IMO` prefix) and its
-- national registry number (free text, at most 64 characters). NULL: none given, and always NULL for a mainland company.
ALTER TABLE companies ADD COLUMN imo_company_number TEXT CHECK (imo_company_number IS NULL OR (length(imo_company_number) = 7 AND imo_company_number NOT GLOB '*[^0-9]*'));
ALTER TABLE companies ADD COLUMN national_registry_number TEXT CHECK (national_registry_number IS NULL OR length(national_registry_number) <= 64);

-- The evidence of those numbers is a file of its own kind, tied to the company as the licence files are (company_id,
-- purpose 'registryEvidence' once the company form attaches it) and reviewed on /ops/company. SQLite cannot change a
-- CHECK, so the files table is rebuilt. users.photo_file_id references files ON DELETE SET NULL: dropping the old
-- table would clear every photo, so the photos' ties are kept aside and put back.
CREATE TABLE files_photo_ties AS SELECT id AS user_id, photo_file_id FROM users WHERE photo_file_id IS NOT NULL;

CREATE TABLE files_new (
  id TEXT PRIMARY KEY,                                     -- uuid
  owner_user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  company_id TEXT REFERENCES companies(id) ON DELETE SET NULL,
  purpose TEXT CHECK (purpose IS NULL OR purpose IN ('licence', 'gtc', 'logo', 'registryEvidence')),   -- set when attached
  kind TEXT NOT NULL CHECK (kind IN ('licence', 'gtc', 'logo', 'registryEvidence')),                   -- as uploaded
  r2_key TEXT NOT NULL UNIQUE,
  extension TEXT NOT NULL,
  content_type TEXT NOT NULL,                              -- sniffed, never the client's
  origin_name TEXT NOT NULL,
  size INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
INSERT INTO files_new (id, owner_user_id, company_id, purpose, kind, r2_key, extension, content_type, origin_name, size, created_at)
  SELECT id, owner_user_id, company_id, purpose, kind, r2_key, extension, content_type, origin_name, size, created_at FROM files ORDER BY rowid;
DROP TABLE files;
ALTER TABLE files_new RENAME TO files;
CREATE INDEX IF NOT EXISTS files_by_owner ON files (owner_user_id);
CREATE INDEX IF NOT EXISTS files_by_company ON files (company_id);

UPDATE users SET photo_file_id = (SELECT t.photo_file_id FROM files_photo_ties t WHERE t.user_id = users.id)
  WHERE id IN (SELECT user_id FROM files_photo_ties);
DROP TABLE files_photo_ties;
