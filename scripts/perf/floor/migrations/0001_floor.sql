-- A session row about the size of the portal's session joined with its person (the row fetchMeByUserToken reads).
CREATE TABLE sessions (
  token TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  email TEXT NOT NULL,
  name TEXT,
  lang TEXT NOT NULL,
  profile TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE codes (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL,
  code TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX codes_email ON codes (email, id);
