import type { Lang } from '../../../src/lib/lang';
import {
  COMPANY_CLIENT_MAX_DAYS,
  COMPANY_CLIENTS_MAX,
  moduleScope,
  type CompanyClient,
  type CompanyClientCreated,
  type CompanyClientRequest,
  type CompanyClientsAnswer,
} from '../../../src/schemas/oidc-clients';
import { ERR } from '../../../src/schemas/error-codes';
import { auditStatement } from '../audit/db';
import { companyById } from '../companies/db';
import { companyAuthority } from '../authority/service';
import { GatewayError } from '../errors';
import { newSecret, randomToken } from '../identity/tokens';
import { modulesOfType, moduleName } from '../companies/modules';
import { parseList } from './clients';
import {
  clientByCreationKey,
  companyClients,
  insertCompanyClientStatement,
  ownedClientById,
  revokeClientGrantsStatement,
  revokeCompanyClientStatements,
  type CompanyClientRow,
  type OwnedClientRow,
} from './clients-db';
import type { Asker } from '../authority/db';

/**
 * A company's API clients (issue 27; routes in company-clients-routes.ts): its administrators make clients for the
 * company's own systems, client credentials only, with the scopes `company` and `module:<key>` of the company's
 * modules, and an end at most a year away. The secret is shown once. The token endpoint refuses a revoked or
 * expired one (clients.ts authenticateClient, db.ts liveGrant), puts `company_id` in its tokens and records each
 * token in the company's activity (audit rows with the company as target: `oidc.company_client_used`).
 *
 * Who may: authority/service.ts `companyAuthority(…, 'manage')` says the caller manages the company; a staff
 * member gets CO0008, anyone else CO0009 (MF0021 when the company's two-step rule keeps them out). The INSERT and
 * the revoking UPDATE check the administrator again as they write.
 */

export interface CompanyCaller extends Asker {
  db: D1Database;
  network: string;
  at: number;
  lang: Lang;
}

const DAY_MS = 24 * 60 * 60 * 1000;

async function administratorOf(caller: CompanyCaller, companyId: string) {
  await companyAuthority(caller.db, caller, companyId, 'manage');
  const company = await companyById(caller.db, companyId);
  if (!company) throw new GatewayError(ERR.COMPANY_NOT_FOUND);
  return company;
}

/** The scopes the company may give: `company`, and one per module of its type. */
function scopesOf(companyType: string, lang: Lang): CompanyClientsAnswer['scopes'] {
  return [{ scope: 'company', name: null }, ...modulesOfType(companyType).map((entry) => ({ scope: moduleScope(entry.key), name: moduleName(entry, lang).name }))];
}

export function companyClientView(row: OwnedClientRow & { last_used_at?: number | null }): CompanyClient {
  return {
    id: row.id,
    name: row.name,
    scopes: parseList(row.scopes),
    createdAt: row.created_at,
    expiresAt: row.expires_at ?? 0,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at ?? null,
  };
}

export async function listCompanyClients(caller: CompanyCaller, companyId: string): Promise<CompanyClientsAnswer> {
  const company = await administratorOf(caller, companyId);
  const rows: CompanyClientRow[] = await companyClients(caller.db, companyId);
  return { clients: rows.map(companyClientView), scopes: scopesOf(company.type, caller.lang) };
}

export async function createCompanyClient(caller: CompanyCaller, request: CompanyClientRequest): Promise<CompanyClientCreated> {
  const company = await administratorOf(caller, request.companyId);
  if (request.expiresAt < caller.at + DAY_MS / 2 || request.expiresAt > caller.at + COMPANY_CLIENT_MAX_DAYS * DAY_MS) throw new GatewayError(ERR.COMPANY_CLIENT_EXPIRY_INVALID);
  const allowed = new Set(scopesOf(company.type, caller.lang).map((entry) => entry.scope));
  const refused = request.scopes.filter((scope) => !allowed.has(scope));
  if (refused.length) throw new GatewayError(ERR.COMPANY_CLIENT_SCOPE_REFUSED, { scopes: refused });
  const id = randomToken().slice(0, 22);
  const secret = await newSecret();
  const scopes = [...new Set(request.scopes)];
  const [inserted] = await caller.db.batch([
    insertCompanyClientStatement(
      caller.db,
      { id, name: request.name, secret_hash: secret.hash, scopes: JSON.stringify(scopes), company_id: company.id, created_by: caller.userId, expires_at: request.expiresAt, creation_key: request.creationKey, at: caller.at },
      COMPANY_CLIENTS_MAX,
      caller.mfaCompanyId,
    ),
    auditStatement(
      caller.db,
      { at: caller.at, actor: { kind: 'user', id: caller.userId }, action: 'oidc.company_client_created', target: { kind: 'company', id: company.id }, network: caller.network, detail: { clientId: id, name: request.name, scopes, expiresAt: request.expiresAt } },
      { ifChanged: true },
    ),
  ]);
  if (!inserted?.meta.changes) {
    // Read only to say why, after the statement decided: a repeat of this creation, or the cap (or the role, lost meanwhile).
    if (await clientByCreationKey(caller.db, company.id, request.creationKey)) throw new GatewayError(ERR.COMPANY_CLIENT_ALREADY_CREATED);
    await administratorOf(caller, company.id);
    throw new GatewayError(ERR.COMPANY_CLIENTS_CAPPED, { max: COMPANY_CLIENTS_MAX });
  }
  return { client: companyClientView((await ownedClientById(caller.db, id))!), secret: secret.token };
}

/** Revokes one of the company's clients: its tokens stop at their next use, and no new ones are issued. */
export async function revokeCompanyClient(caller: CompanyCaller, companyId: string, clientId: string): Promise<CompanyClient> {
  await administratorOf(caller, companyId);
  const [revoked] = await caller.db.batch([
    ...revokeCompanyClientStatements(caller.db, companyId, clientId, caller, caller.at),
    auditStatement(
      caller.db,
      { at: caller.at, actor: { kind: 'user', id: caller.userId }, action: 'oidc.company_client_revoked', target: { kind: 'company', id: companyId }, network: caller.network, detail: { clientId } },
      { ifChanged: true },
    ),
    revokeClientGrantsStatement(caller.db, companyId, clientId, caller.at),
  ]);
  const row = await ownedClientById(caller.db, clientId);
  if (!revoked?.meta.changes || !row || row.company_id !== companyId) throw new GatewayError(ERR.COMPANY_CLIENT_NOT_FOUND);
  return companyClientView(row);
}

/** A blocked or expired company's clients get no tokens (token.ts), whatever their own end date says. */
export async function companySuspended(db: D1Database, client: { company_id?: string | null }): Promise<boolean> {
  if (!client.company_id) return false;
  const company = await companyById(db, client.company_id);
  return !company || company.status === 'blocked' || company.status === 'expired';
}

/**
 * What the token endpoint adds for a company's client (token.ts): nothing for a platform client; for a company's,
 * the `company_id` claim and the activity row of the token, to batch with its grant.
 */
export function companyTokenUse(db: D1Database, client: { id: string; company_id?: string | null }, use: { at: number; network: string | null; scope: string; grantId: string }) {
  if (!client.company_id) return null;
  return {
    claims: { company_id: client.company_id },
    record: auditStatement(db, {
      at: use.at,
      actor: { kind: 'system', id: null },
      action: 'oidc.company_client_used',
      target: { kind: 'company', id: client.company_id },
      network: use.network,
      detail: { clientId: client.id, scope: use.scope, grantId: use.grantId },
    }),
  };
}
