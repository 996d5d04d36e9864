// The SQL of `npm run operator` (scripts/operator.mjs), kept apart so the function tests run exactly these
// statements against a real local D1. Values are written as SQL literals (wrangler d1 execute takes no binds):
// every value passes `literal`, which quotes and doubles quotes, and the login/role are checked first.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { redirectUriProblem } from '../src/lib/client-uri.mjs';

/** An enrolment link lives 24 hours and is used once. */
export const ENROLMENT_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const ROLES = ['reviewer', 'support', 'admin'];
const LOGIN = /^[a-z0-9][a-z0-9._@+-]{0,253}$/;

/** A text as an SQL string literal (NUL refused: SQLite would cut the text there). */
export function literal(value) {
  const text = String(value);
  if (text.includes('\0')) throw new Error('NUL in a value');
  return `'${text.replaceAll("'", "''")}'`;
}

export const normalLogin = (login) => String(login ?? '').trim().toLowerCase();

export function checkLogin(login) {
  const normal = normalLogin(login);
  if (!LOGIN.test(normal)) throw new Error(`not a login (letters, digits, . _ @ + -): ${login}`);
  return normal;
}

export function checkRole(role) {
  if (!ROLES.includes(role)) throw new Error(`--role must be one of ${ROLES.join(', ')}`);
  return role;
}

/** SHA-256 hex, as the gateway stores tokens (sessions/service.ts tokenHash). */
export const sha256Hex = (text) => createHash('sha256').update(text).digest('hex');

/** A new random enrolment token (base64url, 32 bytes) and its stored hash. */
export function newEnrolmentToken() {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: sha256Hex(token) };
}

/** The link an operator opens to set their password and second step; the token is in the fragment, which no request or log carries. */
export function enrolmentLink(origin, token) {
  return `${String(origin).replace(/\/+$/, '')}/ops/enrol#${token}`;
}

/**
 * `add`: the operator (no password, no secret: enrolled_at stays NULL until the link is used) and their
 * enrolment link, in one statement list that wrangler runs as one batch. An existing live login is refused
 * by the UNIQUE constraint, so the link is not created either.
 */
export function addOperatorSql({ login, name, role, lang = 'zh', at = Date.now(), id = randomUUID(), tokenHash }) {
  const normal = checkLogin(login);
  checkRole(role);
  if (!['zh', 'en'].includes(lang)) throw new Error('--lang must be zh or en');
  const display = String(name ?? '').trim() || normal;
  return [
    `INSERT INTO operators (id, login, name, role, lang, created_at) VALUES (${literal(id)}, ${literal(normal)}, ${literal(display.slice(0, 100))}, ${literal(role)}, ${literal(lang)}, ${Number(at)});`,
    `INSERT INTO operator_enrolments (token_hash, operator_id, created_at, expires_at) VALUES (${literal(tokenHash)}, ${literal(id)}, ${Number(at)}, ${Number(at) + ENROLMENT_LIFETIME_MS});`,
    `INSERT INTO audit_log (created_at, actor_kind, actor_id, action, target_kind, target_id, detail) VALUES (${Number(at)}, 'system', 'cli', 'operator.added', 'operator', ${literal(id)}, ${literal(JSON.stringify({ login: normal, role }))});`,
  ].join('\n');
}

/**
 * `enrol`: a new link for an existing operator (a lost phone, a forgotten password): earlier unused links die,
 * the new one sets password and second step again when used. Nothing happens for an unknown or removed login.
 */
export function newEnrolmentSql({ login, at = Date.now(), tokenHash }) {
  const normal = checkLogin(login);
  const op = `(SELECT id FROM operators WHERE login = ${literal(normal)} AND removed_at IS NULL)`;
  return [
    `UPDATE operator_enrolments SET used_at = ${Number(at)} WHERE used_at IS NULL AND operator_id = ${op};`,
    `INSERT INTO operator_enrolments (token_hash, operator_id, created_at, expires_at) SELECT ${literal(tokenHash)}, id, ${Number(at)}, ${Number(at) + ENROLMENT_LIFETIME_MS} FROM operators WHERE login = ${literal(normal)} AND removed_at IS NULL;`,
    `INSERT INTO audit_log (created_at, actor_kind, actor_id, action, target_kind, target_id) SELECT ${Number(at)}, 'system', 'cli', 'operator.enrolment_issued', 'operator', id FROM operators WHERE login = ${literal(normal)} AND removed_at IS NULL;`,
    `SELECT COUNT(*) AS issued FROM operator_enrolments WHERE token_hash = ${literal(tokenHash)};`,
  ].join('\n');
}

/** `remove`: removed_at set (the row stays for the audit trail), every session and unused link ended. */
export function removeOperatorSql({ login, at = Date.now() }) {
  const normal = checkLogin(login);
  const op = `(SELECT id FROM operators WHERE login = ${literal(normal)} AND removed_at IS NULL)`;
  return [
    `UPDATE operator_sessions SET revoked_at = ${Number(at)} WHERE revoked_at IS NULL AND operator_id = ${op};`,
    `UPDATE operator_enrolments SET used_at = ${Number(at)} WHERE used_at IS NULL AND operator_id = ${op};`,
    `INSERT INTO audit_log (created_at, actor_kind, actor_id, action, target_kind, target_id) SELECT ${Number(at)}, 'system', 'cli', 'operator.removed', 'operator', id FROM operators WHERE login = ${literal(normal)} AND removed_at IS NULL;`,
    `UPDATE operators SET removed_at = ${Number(at)} WHERE login = ${literal(normal)} AND removed_at IS NULL RETURNING login;`,
  ].join('\n');
}

/** `list`: login, name, role, created, enrolled, removed and the kinds of second step set up. */
export const LIST_OPERATORS_SQL = `SELECT login, name, role, created_at, enrolled_at, removed_at,
  TRIM((CASE WHEN totp_secret_enc IS NOT NULL THEN 'totp ' ELSE '' END)
    || (CASE WHEN EXISTS (SELECT 1 FROM operator_passkeys p WHERE p.operator_id = operators.id) THEN 'passkey' ELSE '' END)) AS second_steps
  FROM operators ORDER BY removed_at IS NOT NULL, login;`;

// OpenID Connect clients (`npm run operator -- client add …`; functions/gateway/oidc/). ------------------------

/** The rule of src/lib/client-uri.mjs (the gateway's and the console's too): an Error naming the URI and what is wrong. */
export function checkClientUri(value) {
  const text = String(value ?? '');
  const problem = redirectUriProblem(text);
  if (problem) throw new Error(`${text} ${problem}`);
  return text;
}

/**
 * A new client: its id, its secret for a confidential client (shown once; only its SHA-256 is stored) and the
 * INSERT with its audit row. A client with redirect URIs signs people in (code flow, refresh tokens); one without
 * any is a machine client (client credentials).
 */
export function addClientSql({ name, redirectUris = [], postLogoutUris = [], backchannelLogoutUri = null, isPublic = false, trusted = false, idTokenAlg = 'ES256', pkceOffReason = null, at = Date.now() }) {
  const cleanName = String(name ?? '').trim();
  if (!cleanName || cleanName.length > 100) throw new Error('--name is required (at most 100 characters)');
  if (!ID_TOKEN_ALGS.includes(idTokenAlg)) throw new Error('--id-token-alg must be ES256 or RS256');
  const offReason = pkceOffReason === null ? null : checkPkceReason(pkceOffReason, isPublic);
  const redirects = redirectUris.map(checkClientUri);
  const logouts = postLogoutUris.map(checkClientUri);
  if (backchannelLogoutUri) checkClientUri(backchannelLogoutUri);
  if (isPublic && redirects.length === 0) throw new Error('a public client needs at least one --redirect-uri');
  const clientId = randomBytes(16).toString('base64url');
  const clientSecret = isPublic ? null : randomBytes(32).toString('base64url');
  const grantTypes = redirects.length ? ['authorization_code', 'refresh_token'] : ['client_credentials'];
  const scopes = redirects.length ? ['openid', 'profile', 'email', 'phone', 'company', 'offline_access'] : ['company'];
  const values = [
    clientId,
    cleanName,
    clientSecret ? sha256Hex(clientSecret) : null,
    isPublic ? 1 : 0,
    trusted ? 1 : 0,
    JSON.stringify(redirects),
    JSON.stringify(logouts),
    backchannelLogoutUri,
    JSON.stringify(grantTypes),
    JSON.stringify(scopes),
    at,
    at,
  ].map((value) => (value === null ? 'NULL' : typeof value === 'number' ? String(value) : literal(value)));
  const detail = JSON.stringify({ name: cleanName, redirectUris: redirects, public: isPublic, trusted, idTokenAlg, ...(offReason ? { pkceOffReason: offReason } : {}) });
  const rules = [literal(idTokenAlg), offReason === null ? '1' : '0', offReason === null ? 'NULL' : literal(offReason)];
  const sql = `INSERT INTO oidc_clients (id, name, secret_hash, public, trusted, redirect_uris, post_logout_uris, backchannel_logout_uri, grant_types, scopes, created_at, updated_at, id_token_alg, pkce_required, pkce_off_reason)
VALUES (${[...values, ...rules].join(', ')});
INSERT INTO audit_log (created_at, actor_kind, actor_id, action, target_kind, target_id, reason, network, detail)
VALUES (${at}, 'system', NULL, 'oidc.client_added', 'oidc_client', ${literal(clientId)}, NULL, NULL, ${literal(detail)});`;
  return { clientId, clientSecret, sql };
}

/** The algorithms a client may name for its ID tokens (migration 0430). */
export const ID_TOKEN_ALGS = ['ES256', 'RS256'];

/** The reason an operator gives for a confidential client without PKCE: at least 10 characters (the console's rule). */
export function checkPkceReason(reason, isPublic = false) {
  if (isPublic) throw new Error('PKCE stays required for a public client');
  const text = String(reason ?? '').trim();
  if (text.length < 10 || text.length > 300) throw new Error('--reason is required to turn PKCE off (10 to 300 characters)');
  return text;
}

/**
 * `client pkce CLIENT_ID --on | --off --reason R`: PKCE for one platform client (issue 43), with its audit row, only
 * when it changed; never off for a public client (the statement and the table's CHECK both hold it).
 */
export function setClientPkceSql({ clientId, required, reason = null, at = Date.now() }) {
  const id = literal(String(clientId ?? ''));
  if (required) {
    return `UPDATE oidc_clients SET pkce_required = 1, pkce_off_reason = NULL, updated_at = ${Number(at)} WHERE id = ${id} AND company_id IS NULL AND pkce_required = 0;
INSERT INTO audit_log (created_at, actor_kind, actor_id, action, target_kind, target_id) SELECT ${Number(at)}, 'system', 'cli', 'oidc.client_pkce_required', 'oidc_client', ${id} WHERE changes() > 0;
SELECT id, public, pkce_required, pkce_off_reason FROM oidc_clients WHERE id = ${id};`;
  }
  const text = literal(checkPkceReason(reason));
  return `UPDATE oidc_clients SET pkce_required = 0, pkce_off_reason = ${text}, updated_at = ${Number(at)} WHERE id = ${id} AND company_id IS NULL AND public = 0;
INSERT INTO audit_log (created_at, actor_kind, actor_id, action, target_kind, target_id, reason) SELECT ${Number(at)}, 'system', 'cli', 'oidc.client_pkce_off', 'oidc_client', ${id}, ${text} WHERE changes() > 0;
SELECT id, public, pkce_required, pkce_off_reason FROM oidc_clients WHERE id = ${id};`;
}

/** `client list`: the platform's clients with their ID token algorithm and PKCE rule (company clients are their administrators'). */
export const LIST_CLIENTS_SQL = `SELECT id, name, public, id_token_alg, pkce_required, pkce_off_reason, disabled_at
  FROM oidc_clients WHERE company_id IS NULL ORDER BY created_at DESC;`;
