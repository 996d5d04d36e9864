-- Support "view as" (issue 44): an operator with the support role sees the portal as a person sees it, with the
-- person's consent (a support code they read in their user center) or, for a person who cannot sign in, the
-- approval of an operator administrator who is not the operator asking. See functions/gateway/support/.

-- The person's support code: 6 digits, 15 minutes, single use, stored only as SHA-256 of (person, code). A new code
-- ends the person's earlier ones (used_at). tries counts wrong codes entered for it (5, then it is dead). A kind of
-- identity/db/single-use.ts (SINGLE_USE.supportCode): spent by one UPDATE ... RETURNING.
CREATE TABLE IF NOT EXISTS support_codes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  tries INTEGER NOT NULL DEFAULT 0,
  used_at INTEGER
);
CREATE INDEX IF NOT EXISTS support_codes_by_user ON support_codes (user_id, id);

-- A view without a code: asked by a support operator (requested_by) with a reason, approved by an operator
-- administrator who is not that operator (approved_by; the CHECK keeps the two apart), usable once (used_at) by the
-- operator who asked, within 15 minutes of the approval.
CREATE TABLE IF NOT EXISTS support_approvals (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  requested_by TEXT NOT NULL REFERENCES operators(id),
  reason TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  approved_by TEXT REFERENCES operators(id),
  approved_at INTEGER,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  CHECK (approved_by IS NULL OR approved_by <> requested_by)
);
CREATE INDEX IF NOT EXISTS support_approvals_by_requester ON support_approvals (requested_by, created_at);

-- The view-as session is a person's session (sessions) marked with the operator, the reason and whether an operator
-- administrator allowed changes in it (support_writable, support_write_granted_by: never the viewing operator).
-- Its expires_at is at most 30 minutes after its start and nothing extends a session's expires_at.
ALTER TABLE sessions ADD COLUMN support_operator_id TEXT;
ALTER TABLE sessions ADD COLUMN support_reason TEXT;
ALTER TABLE sessions ADD COLUMN support_writable INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN support_write_granted_by TEXT;
CREATE INDEX IF NOT EXISTS sessions_by_support_operator ON sessions (support_operator_id) WHERE support_operator_id IS NOT NULL;
