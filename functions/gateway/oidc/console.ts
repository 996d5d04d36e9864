import type { ConsoleClient, ConsoleClientEdit, ConsoleClientRequest, ConsolePkceRequest, ClientWithSecret, LogoutSend } from '../../../src/schemas/oidc-clients';
import { ERR } from '../../../src/schemas/error-codes';
import { runBatch } from '../identity/db/batch';
import { auditStatement } from '../audit/db';
import { GatewayError } from '../errors';
import { newSecret, randomToken } from '../identity/tokens';
import { idTokenAlgOf, parseList, pkceRequired } from './clients';
import {
  editPlatformClientStatement,
  insertPlatformClientStatement,
  logoutSendsOf,
  ownedClientById,
  platformClients,
  rotateSecretStatement,
  setDisabledStatement,
  setPkceStatement,
  type OwnedClientRow,
} from './clients-db';

/**
 * The operators' client console (issue 27; routes in console-routes.ts, admins only): register, edit, rotate the
 * secret of, disable and enable the platform's clients. The secret is 32 random bytes shown once and stored as its
 * SHA-256 hex (clients.ts authenticateClient). Every change writes an audit row in the same batch, only when it
 * changed something. A company's API client (company-clients.ts) is its administrators' to manage: OI0019 here.
 */

export interface OperatorAct {
  operatorId: string;
  network: string;
  at: number;
}

const PERSON_SCOPES = ['openid', 'profile', 'email', 'phone', 'company', 'offline_access'];

export function consoleClientView(row: OwnedClientRow): ConsoleClient {
  return {
    id: row.id,
    name: row.name,
    public: row.public === 1,
    trusted: row.trusted === 1,
    redirectUris: parseList(row.redirect_uris),
    postLogoutUris: parseList(row.post_logout_uris),
    backchannelLogoutUri: row.backchannel_logout_uri,
    grantTypes: parseList(row.grant_types),
    idTokenAlg: idTokenAlgOf(row),
    pkceRequired: pkceRequired(row),
    pkceOffReason: pkceRequired(row) ? null : (row.pkce_off_reason ?? null),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    disabledAt: row.disabled_at,
  };
}

/** What a client may do follows from its URIs, as for `npm run operator -- client add`: sign people in, or a machine client. */
const capabilitiesOf = (redirectUris: readonly string[]) =>
  redirectUris.length
    ? { grant_types: JSON.stringify(['authorization_code', 'refresh_token']), scopes: JSON.stringify(PERSON_SCOPES) }
    : { grant_types: JSON.stringify(['client_credentials']), scopes: JSON.stringify(['company']) };

const auditOf = (act: OperatorAct, action: Parameters<typeof auditStatement>[1]['action'], clientId: string, detail?: Record<string, unknown>) => ({
  at: act.at,
  actor: { kind: 'operator' as const, id: act.operatorId },
  action,
  target: { kind: 'oidc_client', id: clientId },
  network: act.network,
  detail,
});

export const listClients = async (db: D1Database) => (await platformClients(db)).map(consoleClientView);

/** A platform client of the console: OI0010 when none, OI0019 when it is a company's. */
async function platformClient(db: D1Database, id: string): Promise<OwnedClientRow> {
  const row = await ownedClientById(db, id);
  if (!row) throw new GatewayError(ERR.OIDC_CLIENT_NOT_FOUND);
  if (row.company_id !== null) throw new GatewayError(ERR.OIDC_CLIENT_OF_COMPANY);
  return row;
}

export async function registerClient(db: D1Database, request: ConsoleClientRequest, act: OperatorAct): Promise<ClientWithSecret> {
  if (request.public && request.redirectUris.length === 0) throw new GatewayError(ERR.OIDC_PUBLIC_CLIENT_NEEDS_REDIRECT);
  const id = randomToken().slice(0, 22);
  const secret = request.public ? null : await newSecret();
  const row = {
    id,
    name: request.name,
    secret_hash: secret?.hash ?? null,
    public: request.public ? 1 : 0,
    trusted: request.trusted ? 1 : 0,
    redirect_uris: JSON.stringify(request.redirectUris),
    post_logout_uris: JSON.stringify(request.postLogoutUris),
    backchannel_logout_uri: request.backchannelLogoutUri,
    ...capabilitiesOf(request.redirectUris),
    created_at: act.at,
    updated_at: act.at,
    created_by: act.operatorId,
    id_token_alg: request.idTokenAlg ?? 'ES256',
  } as const;
  const detail = { name: request.name, redirectUris: request.redirectUris, public: request.public, trusted: request.trusted, idTokenAlg: request.idTokenAlg ?? 'ES256' };
  await runBatch(db, [insertPlatformClientStatement(db, row), auditStatement(db, auditOf(act, 'oidc.client_added', id, detail))]);
  return { client: consoleClientView((await ownedClientById(db, id))!), secret: secret?.token ?? null };
}

export async function editClient(db: D1Database, id: string, request: ConsoleClientEdit, act: OperatorAct): Promise<ConsoleClient> {
  const before = await platformClient(db, id);
  if (before.public === 1 && request.redirectUris.length === 0) throw new GatewayError(ERR.OIDC_PUBLIC_CLIENT_NEEDS_REDIRECT);
  const change = {
    name: request.name,
    redirect_uris: JSON.stringify(request.redirectUris),
    post_logout_uris: JSON.stringify(request.postLogoutUris),
    backchannel_logout_uri: request.backchannelLogoutUri,
    trusted: (request.trusted ? 1 : 0) as 0 | 1,
    ...capabilitiesOf(request.redirectUris),
    id_token_alg: request.idTokenAlg ?? null,
    at: act.at,
  };
  const detail = { name: request.name, redirectUris: request.redirectUris, postLogoutUris: request.postLogoutUris, backchannelLogoutUri: request.backchannelLogoutUri, trusted: request.trusted, idTokenAlg: request.idTokenAlg ?? before.id_token_alg };
  await runBatch(db, [editPlatformClientStatement(db, id, change), auditStatement(db, auditOf(act, 'oidc.client_changed', id, detail), { ifChanged: true })]);
  return consoleClientView((await ownedClientById(db, id))!);
}

/** A new secret, shown once; the old one ends at once (apps using it must be given the new one). */
export async function rotateSecret(db: D1Database, id: string, act: OperatorAct): Promise<ClientWithSecret> {
  const row = await platformClient(db, id);
  if (row.public === 1) throw new GatewayError(ERR.OIDC_CLIENT_INVALID);
  const secret = await newSecret();
  await runBatch(db, [rotateSecretStatement(db, id, secret.hash, act.at), auditStatement(db, auditOf(act, 'oidc.client_secret_rotated', id), { ifChanged: true })]);
  return { client: consoleClientView((await ownedClientById(db, id))!), secret: secret.token };
}

/** Disabling ends every grant's tokens at their next use (db.ts liveGrant joins the client); enabling lets it start again. */
export async function setClientDisabled(db: D1Database, id: string, disable: boolean, act: OperatorAct): Promise<ConsoleClient> {
  await platformClient(db, id);
  await runBatch(db, [
    setDisabledStatement(db, id, act.at, disable),
    auditStatement(db, auditOf(act, disable ? 'oidc.client_disabled' : 'oidc.client_enabled', id), { ifChanged: true }),
  ]);
  return consoleClientView((await ownedClientById(db, id))!);
}

/**
 * PKCE for one client (issue 43): always required of a public client; on by default for a confidential one and
 * turned off only here or by `npm run operator -- client pkce`, with a reason that the audit row keeps.
 */
export async function setClientPkce(db: D1Database, id: string, request: ConsolePkceRequest, act: OperatorAct): Promise<ConsoleClient> {
  const row = await platformClient(db, id);
  if (!request.required && row.public === 1) throw new GatewayError(ERR.OIDC_PKCE_OFF_REFUSED);
  const reason = request.required ? null : request.reason;
  await runBatch(db, [
    setPkceStatement(db, id, request.required, reason, act.at),
    auditStatement(db, { ...auditOf(act, request.required ? 'oidc.client_pkce_required' : 'oidc.client_pkce_off', id, reason ? { reason } : undefined), reason: reason ?? undefined }, { ifChanged: true }),
  ]);
  return consoleClientView((await ownedClientById(db, id))!);
}

export const LOGOUT_SENDS_SHOWN = 20;

export async function logoutSends(db: D1Database, id: string): Promise<LogoutSend[]> {
  await platformClient(db, id);
  return (await logoutSendsOf(db, id, LOGOUT_SENDS_SHOWN)).map((row) => ({
    createdAt: row.created_at,
    status: row.status,
    attempts: row.attempts,
    lastResult: row.last_result,
    sentAt: row.sent_at,
  }));
}
