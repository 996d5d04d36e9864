-- Issue 45: `user.signed_out` on every path that ends a person's session. Sign-out, "sign out everywhere", one
-- session ended from the Security section, an operator's sign-out or block of a person, a password changed or
-- reset (ending the other sessions), RP-initiated logout, a member removed from the company the session was in,
-- an account erased: each sets sessions.revoked_at, and this trigger writes one event per session that it ends, in
-- the statement that ends it (so a change and its event commit together; a session already ended is no second
-- event). The event is a person's: the fan-out trigger (0450) sends it to the endpoints of every company the person
-- is then an active member of, and to platform endpoints. Nothing is written while no endpoint is live.
CREATE TRIGGER sessions_signed_out AFTER UPDATE OF revoked_at ON sessions
WHEN OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL
  AND EXISTS (SELECT 1 FROM webhook_endpoints WHERE removed_at IS NULL AND disabled_at IS NULL)
BEGIN
  INSERT INTO webhook_events (id, type, user_id, data, created_at)
  VALUES (
    'evt_' || lower(hex(randomblob(12))),
    'user.signed_out',
    NEW.user_id,
    json_object('userId', NEW.user_id, 'sessionId', NEW.public_id),
    NEW.revoked_at
  );
END;
