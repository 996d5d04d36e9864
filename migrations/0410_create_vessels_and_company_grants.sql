-- Issue 41: vessels a company declares, and grants by which one company acts for another.

-- A company's relation to a vessel (IMO ship number). At most one live owner and one live manager per IMO number;
-- a second claim is kept as a task for the operators (vessel_claims), never written over the first.
CREATE TABLE IF NOT EXISTS vessels (
  id TEXT PRIMARY KEY,
  imo TEXT NOT NULL,
  company_id TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  relation TEXT NOT NULL CHECK (relation IN ('owner', 'manager', 'operator', 'charterer')),
  -- A charter's days (yyyy-mm-dd, inclusive); NULL for the other relations.
  starts_on TEXT,
  ends_on TEXT,
  declared_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  removed_at INTEGER
);
CREATE UNIQUE INDEX IF NOT EXISTS vessels_one_owner ON vessels (imo) WHERE relation = 'owner' AND removed_at IS NULL;
CREATE UNIQUE INDEX IF NOT EXISTS vessels_one_manager ON vessels (imo) WHERE relation = 'manager' AND removed_at IS NULL;
CREATE UNIQUE INDEX IF NOT EXISTS vessels_once_per_company ON vessels (company_id, imo, relation) WHERE removed_at IS NULL;
CREATE INDEX IF NOT EXISTS vessels_of_company ON vessels (company_id, removed_at);

CREATE TABLE IF NOT EXISTS vessel_claims (
  id TEXT PRIMARY KEY,
  imo TEXT NOT NULL,
  relation TEXT NOT NULL,
  name TEXT NOT NULL,
  claimant_company_id TEXT NOT NULL,
  holder_company_id TEXT,
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  resolved_at INTEGER
);
CREATE UNIQUE INDEX IF NOT EXISTS vessel_claims_open ON vessel_claims (imo, relation, claimant_company_id) WHERE resolved_at IS NULL;

-- A grant: the principal lets the agent act for it, on vessels and/or ports, in modules, at a level, between two
-- moments. Pending until the other side's administrator accepts; ended by either side.
CREATE TABLE IF NOT EXISTS company_grants (
  id TEXT PRIMARY KEY,
  principal_company_id TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  agent_company_id TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  vessels TEXT NOT NULL DEFAULT '[]',
  ports TEXT NOT NULL DEFAULT '[]',
  modules TEXT NOT NULL DEFAULT '[]',
  level TEXT NOT NULL CHECK (level IN ('read', 'act')),
  starts_at INTEGER NOT NULL,
  ends_at INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'active', 'revoked', 'declined')),
  started_by TEXT NOT NULL CHECK (started_by IN ('principal', 'agent')),
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  answered_by TEXT,
  answered_at INTEGER,
  ended_by TEXT,
  ended_at INTEGER,
  CHECK (principal_company_id <> agent_company_id)
);
CREATE INDEX IF NOT EXISTS company_grants_principal ON company_grants (principal_company_id, status);
CREATE INDEX IF NOT EXISTS company_grants_agent ON company_grants (agent_company_id, status);

-- "Accept from this company automatically": the principal's standing yes to the agent's requests.
CREATE TABLE IF NOT EXISTS grant_auto_accept (
  principal_company_id TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  agent_company_id TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (principal_company_id, agent_company_id)
);

-- The first use of a grant per person per day (each is an audit row of both companies).
CREATE TABLE IF NOT EXISTS grant_uses (
  grant_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  day TEXT NOT NULL,
  PRIMARY KEY (grant_id, user_id, day)
);

-- The operators' one action: a company's grants suspended, with the reason (both directions).
ALTER TABLE companies ADD COLUMN grants_suspended_at INTEGER;
ALTER TABLE companies ADD COLUMN grants_suspended_reason TEXT;

-- The grant this session acts under (its current_company_id is then the agent company).
ALTER TABLE sessions ADD COLUMN acting_grant_id TEXT;
