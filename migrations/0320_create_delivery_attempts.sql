-- Every try of a provider for one message (functions/gateway/delivery/): which provider, what came of it and, once
-- its status callback arrives, the receipt. `send_id` groups the tries of one message; `provider_ref` is the id
-- the provider gave the message (Aliyun BizId, Tencent SerialNo, Twilio MessageSid, SES MessageId), which its
-- receipt names. No recipient and no text are kept: the operators' view needs counts and reasons only.
CREATE TABLE IF NOT EXISTS delivery_attempts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  send_id TEXT NOT NULL,
  channel TEXT NOT NULL,
  provider TEXT NOT NULL,
  -- sent | failed | throttled | invalid | skipped (breaker open)
  outcome TEXT NOT NULL,
  reason TEXT,
  provider_ref TEXT,
  -- delivered | failed | unknown, from the provider's receipt
  receipt TEXT,
  receipt_at INTEGER,
  elapsed_ms INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS delivery_attempts_by_time ON delivery_attempts (created_at, provider);
CREATE UNIQUE INDEX IF NOT EXISTS delivery_attempts_by_ref ON delivery_attempts (provider, provider_ref) WHERE provider_ref IS NOT NULL;

-- Receipts already taken (a hash of provider and body): a replayed callback is refused.
CREATE TABLE IF NOT EXISTS delivery_receipts_seen (
  receipt_key TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL
);

-- "Send the code by e-mail instead": a single-use ticket handed out with DL0010 (no SMS provider could send),
-- good for one e-mailed code to the account of that number, if it has a verified address.
CREATE TABLE IF NOT EXISTS delivery_fallbacks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  token_hash TEXT NOT NULL UNIQUE,
  recipient TEXT NOT NULL,
  purpose TEXT NOT NULL,
  lang TEXT NOT NULL,
  used_at INTEGER,
  expires_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);

-- Local development only (DEV_OUTBOX "true"): providers told to fail for one recipient ('*' for all), so that the
-- e2e suite can take the failover paths of an outbox stand-in (POST /api/dev/delivery/faults).
CREATE TABLE IF NOT EXISTS dev_delivery_faults (
  provider TEXT NOT NULL,
  recipient TEXT NOT NULL,
  mode TEXT NOT NULL,
  PRIMARY KEY (provider, recipient)
);
