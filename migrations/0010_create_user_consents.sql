-- Which version of which legal document each person agreed to, and when (issue 7). Times are epoch
-- milliseconds. One row per agreement: agreeing again to the same version changes nothing, and a new
-- version of the terms (content/legal/*/terms.md front matter) is a new row.
CREATE TABLE IF NOT EXISTS user_consents (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  document TEXT NOT NULL CHECK (document IN ('terms', 'privacy', 'disclaimer', 'registration')),
  version TEXT NOT NULL,
  agreed_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, document, version)
);
