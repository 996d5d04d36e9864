-- Users, their sessions, and the companies they belong to (issue 3). Times are epoch milliseconds.

-- One row per person. Each sign-in identity is unique, so two parallel registrations of one phone number
-- or e-mail address cannot both insert: the loser's INSERT fails on the constraint and writes nothing.
CREATE TABLE IF NOT EXISTS users (
  id TEXT PRIMARY KEY,                                   -- uuid
  phone_e164 TEXT UNIQUE,                                -- '+8613800138000'
  email TEXT UNIQUE CHECK (email IS NULL OR email = lower(email)),
  us_id TEXT UNIQUE,                                     -- chain-partner login (?channel=britc)
  real_name TEXT NOT NULL DEFAULT '',
  login_name TEXT NOT NULL DEFAULT '',
  -- PBKDF2 over the client's SHA-256 hex (see functions/gateway/identity/passwords.ts); NULL = no password set.
  password_hash TEXT,
  password_salt TEXT,
  password_algo TEXT,
  password_params TEXT,                                  -- JSON, e.g. {"iterations":100000,"pepper":"v1"}
  -- 2: the client hashes the plain password; 1: legacy record, the client hashes password + legacy_salt (SY9990).
  password_version INTEGER NOT NULL DEFAULT 2 CHECK (password_version IN (1, 2)),
  legacy_salt TEXT,
  original_flag INTEGER NOT NULL DEFAULT 0 CHECK (original_flag IN (0, 1)),   -- must change password
  user_type INTEGER NOT NULL DEFAULT 0 CHECK (user_type IN (0, 1, 2)),       -- 0 not chosen, 1 individual, 2 enterprise
  identity INTEGER CHECK (identity IS NULL OR identity IN (1, 2)),           -- 1 principal, 2 service provider
  pending_company_name TEXT,                             -- company name given at registration, no company yet
  source TEXT,
  is_partner INTEGER NOT NULL DEFAULT 0 CHECK (is_partner IN (0, 1)),         -- may use the navigator login
  failed_logins INTEGER NOT NULL DEFAULT 0,              -- consecutive password failures
  locked_until INTEGER,
  lock_count INTEGER NOT NULL DEFAULT 0,                 -- locks so far; each lock lasts twice the previous one
  created_at INTEGER NOT NULL,
  CHECK (phone_e164 IS NOT NULL OR email IS NOT NULL OR us_id IS NOT NULL)
);

-- Opaque session tokens, stored only as SHA-256 hex; the refresh token handed out with a login answer is
-- hashed into refresh_hash of the same row (see functions/gateway/sessions/service.ts).
CREATE TABLE IF NOT EXISTS sessions (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('platform', 'partner')),
  refresh_hash TEXT UNIQUE,
  current_company_id TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX IF NOT EXISTS sessions_by_user ON sessions (user_id);

-- Kept minimal here; onboarding extends it.
CREATE TABLE IF NOT EXISTS companies (
  id TEXT PRIMARY KEY,
  name_en TEXT NOT NULL,
  name_cn TEXT,
  type TEXT NOT NULL,
  -- 'approving' | 'not_verified' | 'verified' | 'verification_failed' | 'additional_info' | 'pending_bind'
  -- | 'fail_bind' | 'blocked' | 'expired' | 'active' (spec 3)
  status TEXT NOT NULL,
  invitation_code TEXT UNIQUE,
  created_by TEXT REFERENCES users(id),
  created_at INTEGER NOT NULL,
  UNIQUE (name_en, type)                                 -- spec 6: one company per name and type
);

CREATE TABLE IF NOT EXISTS company_members (
  company_id TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('administrator', 'staff')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'active', 'rejected')),   -- a staff join awaits approval
  is_main INTEGER NOT NULL DEFAULT 0 CHECK (is_main IN (0, 1)),
  joined_at INTEGER NOT NULL,
  PRIMARY KEY (company_id, user_id)
);
CREATE INDEX IF NOT EXISTS company_members_by_user ON company_members (user_id);
