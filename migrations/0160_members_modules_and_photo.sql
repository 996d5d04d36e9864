-- Company administrators manage their staff and modules; the full user record. Times are epoch milliseconds.

-- Enterprise types keep the keys the specification's data model gives them (src/schemas/onboarding.ts
-- COMPANY_TYPE_KEYS is the one table): ship owner 'consigner', ship agent 'consignee', fuel supplier 'oiler'.
UPDATE companies SET type = 'consigner' WHERE type = 'ship_owner';
UPDATE companies SET type = 'consignee' WHERE type = 'ship_agent';
UPDATE companies SET type = 'oiler' WHERE type = 'fuel_supplier';

-- Modules of the web app granted to a staff member of a company (keys from content/platform/modules.yaml).
-- Administrators see every module of their company's type and hold no rows. A row goes with its membership.
CREATE TABLE IF NOT EXISTS member_modules (
  company_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  module_key TEXT NOT NULL,
  granted_by TEXT,
  granted_at INTEGER NOT NULL,
  PRIMARY KEY (company_id, user_id, module_key),
  FOREIGN KEY (company_id, user_id) REFERENCES company_members (company_id, user_id) ON DELETE CASCADE
);

-- The person's photo: one of their own uploaded images (uploadFile kind 'logo'), served only to them.
ALTER TABLE users ADD COLUMN photo_file_id TEXT REFERENCES files (id) ON DELETE SET NULL;

-- Counting a company's administrators is part of every role change and removal.
CREATE INDEX IF NOT EXISTS company_members_by_role ON company_members (company_id, role, status);
