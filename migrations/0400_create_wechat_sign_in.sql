-- Sign in with WeChat and WeCom (issue 29; functions/gateway/wechat/). Times are epoch milliseconds.

-- A person's WeChat (or WeCom) tied to their account. `subject` is what stays the same for that person across
-- the portal's WeChat apps: the open platform's unionid for WeChat, "corpid:userid" for WeCom. One account per
-- subject and one subject per account and provider: a parallel second binding fails on these keys.
CREATE TABLE IF NOT EXISTS social_bindings (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  provider TEXT NOT NULL CHECK (provider IN ('wechat', 'wecom')),
  subject TEXT NOT NULL,
  -- The name WeChat shows for the person when they allowed it (snsapi_login / snsapi_userinfo); may be empty.
  nickname TEXT NOT NULL DEFAULT '',
  -- WeChat only: the person's openid in the Official Account, learnt in WeChat's own browser. It lets a later
  -- visit there sign in with the silent snsapi_base, without asking for the profile again.
  mp_openid TEXT UNIQUE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, provider),
  UNIQUE (provider, subject)
);

-- One WeChat or WeCom sign-in (or binding) under way: `state` goes to WeChat in the URL, `browser` is kept in an
-- HttpOnly cookie of the browser that started it. A callback is taken once (identity/db/single-use.ts
-- SINGLE_USE.oauthState), only with both, and only before expires_at.
CREATE TABLE IF NOT EXISTS oauth_states (
  state_hash TEXT PRIMARY KEY,
  browser_hash TEXT NOT NULL,
  method TEXT NOT NULL CHECK (method IN ('qr', 'mp', 'wecom')),
  purpose TEXT NOT NULL CHECK (purpose IN ('sign-in', 'bind')),
  -- bind: the signed-in person whose account gets the binding.
  user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX IF NOT EXISTS oauth_states_by_time ON oauth_states (created_at);

-- What a callback learnt of a person the portal does not know yet: kept (10 minutes, single use, bound to the same
-- browser) until their phone's code binds it (SINGLE_USE.oauthTicket).
CREATE TABLE IF NOT EXISTS oauth_tickets (
  ticket_hash TEXT PRIMARY KEY,
  browser_hash TEXT NOT NULL,
  provider TEXT NOT NULL CHECK (provider IN ('wechat', 'wecom')),
  subject TEXT NOT NULL,
  nickname TEXT NOT NULL DEFAULT '',
  mp_openid TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX IF NOT EXISTS oauth_tickets_by_time ON oauth_tickets (created_at);

-- Every authorization code the portal has sent to WeChat or WeCom, by hash: a code used twice is refused here,
-- whatever WeChat answers (it answers 40163, but the portal does not rely on that alone).
CREATE TABLE IF NOT EXISTS oauth_codes_seen (
  code_hash TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL
);

-- The local stand-in of WeChat and WeCom (DEV_OUTBOX "true" only; wechat/stand-in.ts): the codes its "scan and
-- confirm" page issued, the access tokens it gave, the userinfo grants people made, and a fault to play.
CREATE TABLE IF NOT EXISTS dev_wechat_codes (
  code TEXT PRIMARY KEY,
  app_id TEXT NOT NULL,
  person TEXT NOT NULL,
  scope TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE TABLE IF NOT EXISTS dev_wechat_tokens (
  token TEXT PRIMARY KEY,
  app_id TEXT NOT NULL,
  person TEXT NOT NULL,
  scope TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS dev_wechat_grants (
  app_id TEXT NOT NULL,
  person TEXT NOT NULL,
  PRIMARY KEY (app_id, person)
);
CREATE TABLE IF NOT EXISTS dev_wechat_faults (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  mode TEXT NOT NULL CHECK (mode IN ('slow', 'down'))
);

-- The sign-in history names the new methods: SQLite cannot change a CHECK, so sign_ins is rebuilt with the
-- same columns and indexes.
CREATE TABLE sign_ins_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  method TEXT NOT NULL CHECK (method IN ('code', 'password', 'link', 'handoff', 'passkey', 'wechat', 'wecom')),
  partner INTEGER NOT NULL DEFAULT 0 CHECK (partner IN (0, 1)),
  success INTEGER NOT NULL CHECK (success IN (0, 1)),
  country TEXT,
  network TEXT,
  user_agent TEXT,
  device TEXT,
  new_device INTEGER NOT NULL DEFAULT 0,
  new_country INTEGER NOT NULL DEFAULT 0,
  second_step TEXT CHECK (second_step IN ('totp', 'passkey', 'recovery'))
);
INSERT INTO sign_ins_new (id, user_id, created_at, method, partner, success, country, network, user_agent, device, new_device, new_country, second_step)
  SELECT id, user_id, created_at, method, partner, success, country, network, user_agent, device, new_device, new_country, second_step FROM sign_ins;
DROP TABLE sign_ins;
ALTER TABLE sign_ins_new RENAME TO sign_ins;
CREATE INDEX IF NOT EXISTS sign_ins_by_user ON sign_ins (user_id, created_at);
CREATE INDEX IF NOT EXISTS sign_ins_by_device ON sign_ins (user_id, device) WHERE success = 1;
CREATE INDEX IF NOT EXISTS sign_ins_by_time ON sign_ins (created_at);
