-- The WeChat stand-in's profile grants (DEV_OUTBOX "true" only) get a time, so the hourly prune can forget them
-- after 30 days (maintenance/prune.ts STAND_IN_RETENTION); rows made before this migration count as old.
ALTER TABLE dev_wechat_grants ADD COLUMN created_at INTEGER NOT NULL DEFAULT 0;
