import type { CompanySsoConnection, CompanySsoConnectionRequest, CompanySsoSettingsRequest } from '../../../src/schemas/company-sso';
import { ERR } from '../../../src/schemas/error-codes';
import { configOf } from '../../config';
import { auditStatement } from '../audit/db';
import { companyAuthority } from '../authority/service';
import { GatewayError } from '../errors';
import { runBatch } from '../identity/db/batch';
import { randomToken } from '../identity/tokens';
import { sealSecret } from '../webhooks/signing';
import { discover } from './client';
import { connectionById, connectionsOf, domainsOf, lastSignIns, settingsStatement, upsertConnectionStatement, type ConnectionRow, type DomainRow } from './db';
import type { DomainCaller } from './service';

/**
 * A company's OpenID Connect connection (issue 43), set by its administrators (companyAuthority 'manage', checked
 * again inside each write by mayManageSql; saving needs a fresh proof, routes.ts). The issuer's discovery document
 * is read before anything is saved (ID0611 for an address that is not public https, ID0612 when it cannot be read
 * or names another issuer). The client secret is sealed like a webhook endpoint's (webhooks/signing.ts, the
 * connection id as associated data) and never shown again. Each change is an audit row with the company as target.
 * A company may have several connections (Entra ID for one subsidiary's domain, Okta for another's): each domain
 * routes to one (service.ts setDomainConnection; a domain that names none, to the company's first: db.ts).
 */

const view = (row: ConnectionRow, domains: string[], signIns: Awaited<ReturnType<typeof lastSignIns>>): CompanySsoConnection => ({
  id: row.id,
  issuer: row.issuer,
  clientId: row.client_id,
  emailClaim: row.email_claim,
  ssoOnly: row.sso_only === 1,
  admitDomain: row.admit_domain === 1,
  disabled: row.disabled_at !== null,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  domains,
  lastSignIns: signIns.map((s) => ({ at: s.created_at, outcome: s.outcome, name: s.real_name ?? '', email: s.email })),
});

export const sealingId = (row: Pick<ConnectionRow, 'id'>) => `company-sso:${row.id}`;

/** The live domains that route to each connection (the first takes those that name none). */
const domainsRoutedTo = (rows: ConnectionRow[], domains: DomainRow[]) => (row: ConnectionRow) =>
  domains.filter((d) => (d.connection_id ?? rows[0]?.id) === row.id).map((d) => d.domain);

/** Every connection of the company with its domains and last sign-ins, oldest first. */
export async function listConnections(caller: DomainCaller, companyId: string): Promise<CompanySsoConnection[]> {
  await companyAuthority(caller.db, caller, companyId, 'manage');
  const [rows, domains] = await Promise.all([connectionsOf(caller.db, companyId), domainsOf(caller.db, companyId)]);
  const routed = domainsRoutedTo(rows, domains);
  return Promise.all(rows.map(async (row) => view(row, routed(row), await lastSignIns(caller.db, row.id))));
}

/** One connection of the company, or ID0613 (SSO_NOT_CONNECTED) for none or another company's. */
async function ownConnection(caller: DomainCaller, companyId: string, connectionId: string | undefined): Promise<ConnectionRow> {
  const row = connectionId ? await connectionById(caller.db, connectionId) : (await connectionsOf(caller.db, companyId))[0];
  if (!row || row.company_id !== companyId) throw new GatewayError(ERR.SSO_NOT_CONNECTED);
  return row;
}

const connectionView = async (caller: DomainCaller, companyId: string, id: string) => (await listConnections(caller, companyId)).find((c) => c.id === id)!;

export async function saveConnection(caller: DomainCaller, request: CompanySsoConnectionRequest): Promise<CompanySsoConnection> {
  const { companyId } = request;
  await companyAuthority(caller.db, caller, companyId, 'manage');
  const existing = request.connectionId ? await ownConnection(caller, companyId, request.connectionId) : null;
  if (!request.clientSecret && !existing) throw new GatewayError(ERR.SSO_CONNECTION_INVALID);
  const issuer = request.issuer.replace(/\/+$/, '');
  // The provider must answer for this issuer before it is saved: a typo is told now, not at the first sign-in.
  await discover(issuer, { loopbackHttp: configOf(caller.env).devRoutes }, { fresh: true });
  const id = existing?.id ?? randomToken();
  const sealed = request.clientSecret ? await sealSecret(caller.env, sealingId({ id }), request.clientSecret) : existing!.client_secret_sealed;
  const [written] = await runBatch(caller.db, [
    upsertConnectionStatement(caller.db, { id, company_id: companyId, issuer, client_id: request.clientId, client_secret_sealed: sealed, email_claim: request.emailClaim, created_by: caller.userId, created_at: caller.at, updated_at: caller.at }, caller),
    auditStatement(
      caller.db,
      {
        at: caller.at,
        actor: { kind: 'user', id: caller.userId },
        action: 'company.sso_connected',
        target: { kind: 'company', id: companyId },
        network: caller.network,
        detail: { connectionId: id, issuer, clientId: request.clientId, emailClaim: request.emailClaim, secretChanged: Boolean(request.clientSecret) },
      },
      { ifChanged: true },
    ),
  ]);
  if (!written?.results.length) {
    await companyAuthority(caller.db, caller, companyId, 'manage');
    if (!existing) throw new GatewayError(ERR.SSO_CONNECTIONS_CAPPED);
    throw new GatewayError(ERR.SSO_NOT_CONNECTED);
  }
  return connectionView(caller, companyId, id);
}

export async function saveSettings(caller: DomainCaller, request: CompanySsoSettingsRequest): Promise<CompanySsoConnection> {
  const { companyId } = request;
  await companyAuthority(caller.db, caller, companyId, 'manage');
  const connection = await ownConnection(caller, companyId, request.connectionId);
  const settings = { ssoOnly: request.ssoOnly ?? null, admitDomain: request.admitDomain ?? null, disabled: request.disabled ?? null };
  const [written] = await runBatch(caller.db, [
    settingsStatement(caller.db, companyId, connection.id, caller, caller.at, settings),
    auditStatement(
      caller.db,
      { at: caller.at, actor: { kind: 'user', id: caller.userId }, action: 'company.sso_settings_changed', target: { kind: 'company', id: companyId }, network: caller.network, detail: settings },
      { ifChanged: true },
    ),
  ]);
  if (!written?.results.length) await companyAuthority(caller.db, caller, companyId, 'manage');
  return connectionView(caller, companyId, connection.id);
}
