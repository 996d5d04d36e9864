-- The route group a try went down (select.ts routeGroupOf: "sms" for +86, "smsInternational", "email", or a calling
-- code of SMS_ROUTES), so the operators' view can say per channel what people got (issue 47 item 7). Older rows
-- have none and count for no channel.
ALTER TABLE delivery_attempts ADD COLUMN route TEXT;
CREATE INDEX IF NOT EXISTS delivery_attempts_route ON delivery_attempts (created_at, route);
