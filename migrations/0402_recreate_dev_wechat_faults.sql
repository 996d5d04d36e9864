-- The local stand-in's faults (DEV_OUTBOX only) gain "sluggish": each call in time, a sign-in's calls together
-- not (issue 29, attacker review: one time limit per sign-in). SQLite cannot change a CHECK; the table holds only
-- a test's passing fault, so it is made again.
DROP TABLE IF EXISTS dev_wechat_faults;
CREATE TABLE dev_wechat_faults (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  mode TEXT NOT NULL CHECK (mode IN ('slow', 'sluggish', 'down'))
);
