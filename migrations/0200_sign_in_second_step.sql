-- The second step a sign-in passed, shown with the sign-in in the person's history and to support
-- (functions/gateway/sign-in/history.ts): an authenticator app code, a passkey, or a recovery code.
-- NULL: no second step was asked (two-step off, or the sign-in was a passkey, which is two factors by itself).
ALTER TABLE sign_ins ADD COLUMN second_step TEXT CHECK (second_step IN ('totp', 'passkey', 'recovery'));
