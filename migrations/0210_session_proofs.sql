-- Proving it's you again (functions/gateway/identity/proof.ts): when this session last proved its person and
-- with what. A sign-in is a proof at the moment the session starts (its method, and the second step when one
-- was asked: 'password', 'password+totp', 'passkey', ...); a later proof in the user center overwrites both.
-- NULL on sessions started before this column existed: they count as never proved.
ALTER TABLE sessions ADD COLUMN proved_at INTEGER;
ALTER TABLE sessions ADD COLUMN proved_with TEXT;
