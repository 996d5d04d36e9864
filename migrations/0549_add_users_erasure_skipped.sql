-- An erasure the job skipped because the closing person is still a company's last active administrator (issue 48,
-- class 5): marked once per closure, when the person and the operators are told; a new closure clears it.
ALTER TABLE users ADD COLUMN erasure_skipped_at INTEGER;
