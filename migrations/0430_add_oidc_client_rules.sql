-- Issue 43: the OpenID Provider ready for certification (functions/gateway/oidc/).
-- A client names the algorithm of its ID tokens (OIDC Registration §2 id_token_signed_response_alg): ES256, or RS256,
-- which OIDC Core §15.1 makes mandatory to implement. Access tokens are the portal's own and stay ES256.
ALTER TABLE oidc_clients ADD COLUMN id_token_alg TEXT NOT NULL DEFAULT 'ES256' CHECK (id_token_alg IN ('ES256', 'RS256'));
-- PKCE is a per-client rule: always required of a public client, on by default for a confidential one, and turned off
-- only by an operator who gives a reason (recorded here and in the audit trail).
ALTER TABLE oidc_clients ADD COLUMN pkce_off_reason TEXT;
ALTER TABLE oidc_clients ADD COLUMN pkce_required INTEGER NOT NULL DEFAULT 1
  CHECK (pkce_required = 1 OR (public = 0 AND pkce_off_reason IS NOT NULL AND length(trim(pkce_off_reason)) > 0));
-- Signing keys rotate per algorithm: an ES256 and an RS256 key sign side by side, each with its own successor.
ALTER TABLE oidc_keys ADD COLUMN alg TEXT NOT NULL DEFAULT 'ES256' CHECK (alg IN ('ES256', 'RS256'));
