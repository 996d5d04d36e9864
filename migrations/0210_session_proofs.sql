-- Proving it's you again (functions/gateway/identity/proof.ts): when this session last proved its person and
-- with what. A sign-in is a proof at the moment the session starts (its method, and the second step when one
-- was asked: 'password', 'password+totp', 'passkey', ...); a later proof in the user center overwrites both.
-- NULL on sessions started before this column existed: they count as never proved.
ALTER TABLE sessions ADD COLUMN proved_at INTEGER;
ALTER TABLE sessions ADD COLUMN proved_with TEXT;

-- A password reset by code proves the e-mail or phone, not the person behind every passkey: when the account has
-- passkeys, the reset sets this, and the user center lists them with a remove button and a notice until the
-- person says they are all theirs (or none is left). NULL: nothing to review.
ALTER TABLE users ADD COLUMN passkeys_review_since INTEGER;
