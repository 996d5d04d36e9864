-- Every password given to "confirm it's you" (functions/gateway/identity/proof.ts), recorded before it is checked
-- (a right one is withdrawn): capped per person across every network, so a stolen session cannot guess the
-- password from many networks at once, and per network.
CREATE TABLE IF NOT EXISTS proof_guesses (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id TEXT NOT NULL,
  ip TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS proof_guesses_by_user ON proof_guesses (user_id, created_at);
CREATE INDEX IF NOT EXISTS proof_guesses_by_ip ON proof_guesses (ip, created_at);

-- Security-change notices sent (account/security-notice.ts): at most one per person and kind within a wait, so a
-- burst of changes cannot turn the notice into an SMS flood.
CREATE TABLE IF NOT EXISTS security_notices (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS security_notices_by_user ON security_notices (user_id, kind, created_at);
