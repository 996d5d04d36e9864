-- The human check's caps: who asked for a challenge (client network) and how it ended, so issuing is capped
-- per network and per subject, and so are failed verifies. `provider` tells slider rows from the rows a
-- passed Turnstile token creates (those have no hole, target_x and piece_y stay 0).
ALTER TABLE slider_challenges ADD COLUMN ip TEXT NOT NULL DEFAULT '';
ALTER TABLE slider_challenges ADD COLUMN outcome TEXT CHECK (outcome IN ('passed', 'failed'));
ALTER TABLE slider_challenges ADD COLUMN provider TEXT NOT NULL DEFAULT 'slider';
CREATE INDEX IF NOT EXISTS slider_challenges_by_ip ON slider_challenges (ip, created_at);
CREATE INDEX IF NOT EXISTS slider_challenges_by_subject ON slider_challenges (subject, created_at);
