-- Issue 47: the owner is told when the account's closure is asked for and when it is erased. The erasure runs
-- 15 days later from the cron, with no request to take a language from: the closure's request keeps it here.
ALTER TABLE users ADD COLUMN closing_lang TEXT CHECK (closing_lang IN ('zh', 'en'));
