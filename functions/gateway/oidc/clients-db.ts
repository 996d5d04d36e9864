import { mayManageSql, type Asker } from '../authority/db';
import type { ClientRow } from './db';

/**
 * SQL of the operators' client console (console.ts) and of company API clients (company-clients.ts). Every change
 * is one statement that decides (a conditional UPDATE, an INSERT ... SELECT ... WHERE), batched with its audit row
 * written only when it changed something (audit/db.ts auditStatement ifChanged).
 */

export interface OwnedClientRow extends ClientRow {
  company_id: string | null;
  created_by: string | null;
  expires_at: number | null;
  revoked_at: number | null;
  creation_key: string | null;
}

/** The platform's clients (no company), newest first. */
export async function platformClients(db: D1Database): Promise<OwnedClientRow[]> {
  const { results } = await db.prepare('SELECT * FROM oidc_clients WHERE company_id IS NULL ORDER BY created_at DESC, id').all<OwnedClientRow>();
  return results;
}

export const ownedClientById = (db: D1Database, id: string) => db.prepare('SELECT * FROM oidc_clients WHERE id = ?').bind(id).first<OwnedClientRow>();

export function insertPlatformClientStatement(db: D1Database, row: Omit<ClientRow, 'disabled_at'> & { created_by: string }): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO oidc_clients (id, name, secret_hash, public, trusted, redirect_uris, post_logout_uris, backchannel_logout_uri, grant_types, scopes, created_at, updated_at, created_by, id_token_alg)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)`,
    )
    .bind(row.id, row.name, row.secret_hash, row.public, row.trusted, row.redirect_uris, row.post_logout_uris, row.backchannel_logout_uri, row.grant_types, row.scopes, row.created_at, row.updated_at, row.created_by, row.id_token_alg ?? 'ES256');
}

/** Edits a platform client's name, URIs and trust; a public client keeps at least one redirect URI. */
export function editPlatformClientStatement(
  db: D1Database,
  id: string,
  change: { name: string; redirect_uris: string; post_logout_uris: string; backchannel_logout_uri: string | null; trusted: 0 | 1; grant_types: string; scopes: string; id_token_alg: string | null; at: number },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE oidc_clients SET name = ?2, redirect_uris = ?3, post_logout_uris = ?4, backchannel_logout_uri = ?5, trusted = ?6, grant_types = ?7, scopes = ?8, updated_at = ?9,
         id_token_alg = COALESCE(?10, id_token_alg)
       WHERE id = ?1 AND company_id IS NULL AND (public = 0 OR json_array_length(?3) > 0)`,
    )
    .bind(id, change.name, change.redirect_uris, change.post_logout_uris, change.backchannel_logout_uri, change.trusted, change.grant_types, change.scopes, change.at, change.id_token_alg);
}

/**
 * PKCE for a platform client (issue 43): on, or off with the operator's reason, and never off for a public client
 * (the statement decides; the table's CHECK holds it too). Changes nothing when it is already so.
 */
export const setPkceStatement = (db: D1Database, id: string, required: boolean, reason: string | null, at: number) =>
  required
    ? db.prepare('UPDATE oidc_clients SET pkce_required = 1, pkce_off_reason = NULL, updated_at = ?2 WHERE id = ?1 AND company_id IS NULL AND pkce_required = 0').bind(id, at)
    : db
        .prepare('UPDATE oidc_clients SET pkce_required = 0, pkce_off_reason = ?2, updated_at = ?3 WHERE id = ?1 AND company_id IS NULL AND public = 0 AND (pkce_required = 1 OR pkce_off_reason IS NOT ?2)')
        .bind(id, reason, at);

/** A new secret for a confidential platform client: the old one stops working at once. */
export const rotateSecretStatement = (db: D1Database, id: string, hash: string, at: number) =>
  db.prepare('UPDATE oidc_clients SET secret_hash = ?2, updated_at = ?3 WHERE id = ?1 AND company_id IS NULL AND public = 0').bind(id, hash, at);

/** Disables (at) or enables (null) a platform client; changes nothing when it is already so. */
export const setDisabledStatement = (db: D1Database, id: string, at: number, disable: boolean) =>
  disable
    ? db.prepare('UPDATE oidc_clients SET disabled_at = ?2, updated_at = ?2 WHERE id = ?1 AND company_id IS NULL AND disabled_at IS NULL').bind(id, at)
    : db.prepare('UPDATE oidc_clients SET disabled_at = NULL, updated_at = ?2 WHERE id = ?1 AND company_id IS NULL AND disabled_at IS NOT NULL').bind(id, at);

/** A client's recent back-channel logout sends, newest first. */
export async function logoutSendsOf(db: D1Database, clientId: string, limit: number) {
  const { results } = await db
    .prepare('SELECT created_at, status, attempts, last_result, sent_at FROM oidc_logout_sends WHERE client_id = ? ORDER BY created_at DESC LIMIT ?')
    .bind(clientId, limit)
    .all<{ created_at: number; status: 'pending' | 'sent' | 'failed'; attempts: number; last_result: string | null; sent_at: number | null }>();
  return results;
}

// ---------------------------------------------------------------------------------------------------------
// Company API clients
// ---------------------------------------------------------------------------------------------------------

export interface CompanyClientRow extends OwnedClientRow {
  last_used_at: number | null;
}

/** A company's API clients, newest first, with when each last got a token. */
export async function companyClients(db: D1Database, companyId: string): Promise<CompanyClientRow[]> {
  const { results } = await db
    .prepare(
      `SELECT c.*, (SELECT MAX(g.created_at) FROM oidc_grants g WHERE g.client_id = c.id) AS last_used_at
       FROM oidc_clients c WHERE c.company_id = ?1 ORDER BY c.created_at DESC, c.id`,
    )
    .bind(companyId)
    .all<CompanyClientRow>();
  return results;
}

/**
 * A company's new API client, in one statement that checks as it writes: the creator is still an active
 * administrator of the company, the company holds fewer than `max` live clients, and no client was made with this
 * creation key (the unique index; a double click's second request inserts nothing).
 */
export function insertCompanyClientStatement(
  db: D1Database,
  row: { id: string; name: string; secret_hash: string; scopes: string; company_id: string; created_by: string; expires_at: number; creation_key: string; at: number },
  max: number,
  /** The creator's session's company mfa (authority/db.ts Asker). */
  mfaCompanyId: string | null,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO oidc_clients (id, name, secret_hash, public, trusted, redirect_uris, post_logout_uris, backchannel_logout_uri, grant_types, scopes, created_at, updated_at, company_id, created_by, expires_at, creation_key)
       SELECT ?1, ?2, ?3, 0, 0, '[]', '[]', NULL, '["client_credentials"]', ?4, ?9, ?9, ?5, ?6, ?7, ?8
       WHERE ${mayManageSql('?5', '?6', '?11')}
         AND (SELECT COUNT(*) FROM oidc_clients WHERE company_id = ?5 AND revoked_at IS NULL AND disabled_at IS NULL AND expires_at > ?9) < ?10
       ON CONFLICT DO NOTHING`,
    )
    .bind(row.id, row.name, row.secret_hash, row.scopes, row.company_id, row.created_by, row.expires_at, row.creation_key, row.at, max, mfaCompanyId);
}

export const clientByCreationKey = (db: D1Database, companyId: string, key: string) =>
  db.prepare('SELECT id FROM oidc_clients WHERE company_id = ? AND creation_key = ?').bind(companyId, key).first<{ id: string }>();

/** Revokes a company's live client, the revoker still its active administrator; its grants end with it. */
export function revokeCompanyClientStatements(db: D1Database, companyId: string, clientId: string, asker: Asker, at: number): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `UPDATE oidc_clients SET revoked_at = ?4, updated_at = ?4 WHERE id = ?2 AND company_id = ?1 AND revoked_at IS NULL
           AND ${mayManageSql('?1', '?3', '?5')}`,
      )
      .bind(companyId, clientId, asker.userId, at, asker.mfaCompanyId),
  ];
}

/** Ends the grants of a company's revoked client (only of that company's: the id in a request is not trusted). */
export const revokeClientGrantsStatement = (db: D1Database, companyId: string, clientId: string, at: number) =>
  db
    .prepare(
      `UPDATE oidc_grants SET revoked_at = ?3 WHERE client_id = ?2 AND revoked_at IS NULL
         AND EXISTS (SELECT 1 FROM oidc_clients c WHERE c.id = ?2 AND c.company_id = ?1 AND c.revoked_at IS NOT NULL)`,
    )
    .bind(companyId, clientId, at);
