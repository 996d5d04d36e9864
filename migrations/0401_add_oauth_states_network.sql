-- WeChat and WeCom flows started per client network (issue 29, attacker review): /start is capped per network
-- (WECHAT_START_CAP an hour) in its own INSERT, which counts by this column.
ALTER TABLE oauth_states ADD COLUMN network TEXT;
CREATE INDEX IF NOT EXISTS oauth_states_by_network ON oauth_states (network, created_at);
