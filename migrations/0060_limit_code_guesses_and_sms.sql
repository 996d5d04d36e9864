-- Limits on one-time codes that a resend cannot reset (functions/gateway/codes/service.ts). Times are epoch ms.

-- Every guess at a code is recorded here before it is compared and removed again when it was right (or never
-- compared, the code being dead or missing), so the rows that stay are wrong guesses. The caps per recipient
-- and per client network count these rows, in the same statement that inserts one.
CREATE TABLE IF NOT EXISTS code_guesses (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  recipient TEXT NOT NULL,                               -- E.164 phone or lower-case e-mail
  ip TEXT NOT NULL,                                      -- the client network the guess came from
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS code_guesses_by_recipient ON code_guesses (recipient, created_at);
CREATE INDEX IF NOT EXISTS code_guesses_by_ip ON code_guesses (ip, created_at);

-- SMS anti-pumping: sends are capped per destination calling code per hour and in total per day, counted over
-- the codes rows of channel 'sms'. E-mail codes leave calling_code NULL.
ALTER TABLE codes ADD COLUMN calling_code TEXT;
CREATE INDEX IF NOT EXISTS codes_by_calling_code_time ON codes (calling_code, created_at);
CREATE INDEX IF NOT EXISTS codes_by_channel_time ON codes (channel, created_at);
