-- Issue 45: signed event webhooks (Standard Webhooks 1.0) per company and per platform app, and exports of a
-- company's own audit trail. functions/gateway/webhooks/ holds the rules; README "Event webhooks".

-- Where events go. A company's endpoint (company_id set) hears only that company's events; a platform endpoint
-- (company_id NULL, registered by an operator for one of the platform's apps) hears every company's events of its
-- types and every audit action. The secret (whsec_…) is stored sealed; during a rotation the previous one signs
-- too until previous_secret_until.
CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  company_id TEXT REFERENCES companies (id) ON DELETE CASCADE,
  client_id TEXT,
  url TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  event_types TEXT NOT NULL,
  personal_fields TEXT NOT NULL DEFAULT 'masked' CHECK (personal_fields IN ('masked', 'hashed', 'clear')),
  sealed_secret TEXT NOT NULL,
  previous_sealed_secret TEXT,
  previous_secret_until INTEGER,
  created_by_kind TEXT NOT NULL CHECK (created_by_kind IN ('user', 'operator')),
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  disabled_at INTEGER,
  disabled_reason TEXT,
  failing_since INTEGER,
  removed_at INTEGER
);
CREATE INDEX webhook_endpoints_by_company ON webhook_endpoints (company_id) WHERE removed_at IS NULL;

-- The outbox: one row per event, written in the same batch as the change it reports (webhooks/events-db.ts
-- emitEvent). endpoint_id names the one endpoint of a ping; audit_id the audit row an `audit.*` event streams.
CREATE TABLE webhook_events (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  company_id TEXT,
  user_id TEXT,
  endpoint_id TEXT,
  audit_id INTEGER,
  data TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

-- One message per event and endpoint: its id is the webhook-id of every attempt. pending (next_at due), delivered,
-- or dead (the last retry failed, or the endpoint stopped receiving): a dead letter, listed, and sent again on asking.
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  event_id TEXT NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
  endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'dead')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER,
  lease_until INTEGER,
  last_at INTEGER,
  last_code INTEGER,
  last_result TEXT,
  created_at INTEGER NOT NULL,
  UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at);

-- Every attempt: when, the answer's status (no body), what happened.
CREATE TABLE webhook_attempts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  at INTEGER NOT NULL,
  answer_code INTEGER,
  result TEXT NOT NULL,
  ok INTEGER NOT NULL
);
CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (delivery_id, id);

-- Fan-out, in the statement that writes the event: one delivery per live endpoint that chose the type (or the
-- family, `member.*`) and may hear it. A user's event without a company (user.signed_out, user.closed) goes to the
-- endpoints of the companies the person is an active member of. An event nobody hears is not kept.
CREATE TRIGGER webhook_events_fan_out AFTER INSERT ON webhook_events
BEGIN
  INSERT INTO webhook_deliveries (id, event_id, endpoint_id, next_at, created_at)
  SELECT 'msg_' || lower(hex(randomblob(12))), NEW.id, e.id, NEW.created_at, NEW.created_at
  FROM webhook_endpoints e
  WHERE e.removed_at IS NULL AND e.disabled_at IS NULL
    AND (NEW.endpoint_id IS NULL OR e.id = NEW.endpoint_id)
    AND (NEW.endpoint_id IS NOT NULL OR EXISTS (
      SELECT 1 FROM json_each(e.event_types) t
      WHERE t.value = NEW.type OR (t.value LIKE '%.*' AND substr(NEW.type, 1, length(t.value) - 1) = substr(t.value, 1, length(t.value) - 1))))
    AND (e.company_id IS NULL
      OR e.company_id = NEW.company_id
      OR (NEW.company_id IS NULL AND NEW.user_id IS NOT NULL
        AND e.company_id IN (SELECT company_id FROM company_members WHERE user_id = NEW.user_id AND status = 'active')));
  DELETE FROM webhook_events WHERE id = NEW.id AND NOT EXISTS (SELECT 1 FROM webhook_deliveries WHERE event_id = NEW.id);
END;

-- The audit trail streamed: each audit row becomes an `audit.<action>` event, in the statement that writes it,
-- for platform endpoints and for the company the row is about (its target, or the company its detail names).
-- The payload is read from the row at delivery, masked as the endpoint asks.
CREATE TRIGGER audit_log_stream AFTER INSERT ON audit_log
WHEN EXISTS (SELECT 1 FROM webhook_endpoints WHERE removed_at IS NULL AND disabled_at IS NULL)
BEGIN
  INSERT INTO webhook_events (id, type, company_id, audit_id, data, created_at)
  VALUES (
    'evt_' || lower(hex(randomblob(12))),
    'audit.' || NEW.action,
    CASE WHEN NEW.target_kind = 'company' THEN NEW.target_id ELSE json_extract(NEW.detail, '$.companyId') END,
    NEW.id,
    '{}',
    NEW.created_at
  );
END;

-- A company's own trail: rows whose target is the company, or whose detail names it (a membership decision).
CREATE INDEX audit_by_detail_company ON audit_log (json_extract(detail, '$.companyId'), id) WHERE detail IS NOT NULL;

-- Exports of a company's trail (JSON lines or CSV, built into R2), readable by its administrators for 24 hours.
CREATE TABLE audit_exports (
  id TEXT PRIMARY KEY,
  company_id TEXT NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  created_by TEXT NOT NULL,
  object_key TEXT NOT NULL,
  format TEXT NOT NULL CHECK (format IN ('jsonl', 'csv')),
  row_count INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX audit_exports_by_expiry ON audit_exports (expires_at);
