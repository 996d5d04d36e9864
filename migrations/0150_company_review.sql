-- Company review by operators (functions/gateway/review/service.ts). Times are epoch milliseconds.

-- The language the administrator last sent the company form in: decisions are written to them in it.
ALTER TABLE companies ADD COLUMN lang TEXT NOT NULL DEFAULT 'zh' CHECK (lang IN ('zh', 'en'));
-- The last decision: a reason template key (src/schemas/ops-review.ts REVIEW_REASONS) and the operator's own
-- words, shown to the administrator on /account and /fill_account; cleared when the form is sent again.
ALTER TABLE companies ADD COLUMN review_reason TEXT;
ALTER TABLE companies ADD COLUMN review_note TEXT;
ALTER TABLE companies ADD COLUMN reviewed_at INTEGER;
-- The status a block interrupted, which an unblock gives back.
ALTER TABLE companies ADD COLUMN status_before_block TEXT;

-- The queue: companies of a status, newest first.
CREATE INDEX IF NOT EXISTS companies_by_status ON companies (status, created_at);
