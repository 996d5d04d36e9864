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
import { connectionOf, lastSignIns, settingsStatement, upsertConnectionStatement, type ConnectionRow } from './db';
import type { DomainCaller } from './service';

/**
 * A company's OpenID Connect connection (issue 43), set by its administrators (companyAuthority 'manage', checked
 * again inside each write by mayManageSql; saving needs a fresh proof, routes.ts). The issuer's discovery document
 * is read before anything is saved (ID0611 for an address that is not public https, ID0612 when it cannot be read
 * or names another issuer). The client secret is sealed like a webhook endpoint's (webhooks/signing.ts, the
 * connection id as associated data) and never shown again. Each change is an audit row with the company as target.
 */

const view = (row: ConnectionRow, signIns: Awaited<ReturnType<typeof lastSignIns>>): CompanySsoConnection => ({
  issuer: row.issuer,
  clientId: row.client_id,
  emailClaim: row.email_claim,
  ssoOnly: row.sso_only === 1,
  admitDomain: row.admit_domain === 1,
  disabled: row.disabled_at !== null,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  lastSignIns: signIns.map((s) => ({ at: s.created_at, outcome: s.outcome, name: s.real_name ?? '', email: s.email })),
});

export const sealingId = (row: Pick<ConnectionRow, 'id'>) => `company-sso:${row.id}`;

export async function getConnection(caller: DomainCaller, companyId: string): Promise<CompanySsoConnection | null> {
  await companyAuthority(caller.db, caller, companyId, 'manage');
  const row = await connectionOf(caller.db, companyId);
  return row ? view(row, await lastSignIns(caller.db, companyId)) : null;
}

export async function saveConnection(caller: DomainCaller, request: CompanySsoConnectionRequest): Promise<CompanySsoConnection> {
  const { companyId } = request;
  await companyAuthority(caller.db, caller, companyId, 'manage');
  const existing = await connectionOf(caller.db, companyId);
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
        detail: { issuer, clientId: request.clientId, emailClaim: request.emailClaim, secretChanged: Boolean(request.clientSecret) },
      },
      { ifChanged: true },
    ),
  ]);
  if (!written?.results.length) await companyAuthority(caller.db, caller, companyId, 'manage');
  return (await getConnection(caller, companyId))!;
}

export async function saveSettings(caller: DomainCaller, request: CompanySsoSettingsRequest): Promise<CompanySsoConnection> {
  const { companyId } = request;
  await companyAuthority(caller.db, caller, companyId, 'manage');
  if (!(await connectionOf(caller.db, companyId))) throw new GatewayError(ERR.SSO_NOT_CONNECTED);
  const settings = { ssoOnly: request.ssoOnly ?? null, admitDomain: request.admitDomain ?? null, disabled: request.disabled ?? null };
  const [written] = await runBatch(caller.db, [
    settingsStatement(caller.db, companyId, caller, caller.at, settings),
    auditStatement(
      caller.db,
      { at: caller.at, actor: { kind: 'user', id: caller.userId }, action: 'company.sso_settings_changed', target: { kind: 'company', id: companyId }, network: caller.network, detail: settings },
      { ifChanged: true },
    ),
  ]);
  if (!written?.results.length) await companyAuthority(caller.db, caller, companyId, 'manage');
  return (await getConnection(caller, companyId))!;
}
