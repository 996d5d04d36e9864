-- A copy of a person's data is bound to the proof that asked for it (issue 48, class 1): the session whose fresh
-- proof asked (its token hash) may download it for its 24 hours; any other session of the person needs a fresh
-- proof of its own. A session that never proved the person (a WeChat scan, a shared sign-in link, a hand-off)
-- downloads nothing.
ALTER TABLE data_exports ADD COLUMN asked_by_session TEXT;
