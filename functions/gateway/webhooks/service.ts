import type { DeliveryEnv } from '../delivery';
import {
  COMPANY_EVENT_TYPES,
  type EndpointRequest,
  type EndpointWithSecret,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhooksAnswer,
} from '../../../src/schemas/webhooks';
import { AUDITED_ACTIONS } from '../../../src/schemas/ops-people';
import { ERR } from '../../../src/schemas/error-codes';
import { configOf } from '../../config';
import { auditStatement, type AuditEntry } from '../audit/db';
import { mayManageSql } from '../authority/db';
import { companyAuthority } from '../authority/service';
import { GatewayError } from '../errors';
import { runBatch } from '../identity/db/batch';
import { toHex } from '../identity/passwords';
import { endpointAddressProblem } from './address';
import {
  deliveriesOf,
  enableEndpointStatement,
  endpointOf,
  endpointsOf,
  insertEndpointStatement,
  removeEndpointStatement,
  resendStatement,
  rotateSecretStatement,
  type EndpointRow,
  latestPingDelivery,
} from './db';
import { deliverWebhooks } from './delivery';
import { pingStatement } from '../events/db';
import { newEndpointSecret, sealSecret } from './signing';

/**
 * Event webhook endpoints (issue 45; README "Event webhooks"). Who owns them:
 * - a company: its administrators (authority/ `companyAuthority(…, 'manage')`, and the INSERT checks again with
 *   mayManageSql), adding one only with a fresh proof (the route's requireFreshProof);
 * - the platform (`companyId` null): operators with the admin role, for the platform's apps.
 * The secret is made here, shown once and stored sealed; a rotation keeps the old one signing for 24 hours.
 */

export interface Owner {
  env: DeliveryEnv;
  /** The company whose endpoints these are, or null for the platform's. */
  companyId: string | null;
  actor: { kind: 'user' | 'operator'; id: string };
  /** A person's session's company mfa (authority/db.ts Asker); null for an operator. */
  mfaCompanyId: string | null;
  network: string;
  at: number;
}

const ROTATION_OVERLAP_MS = 24 * 3_600_000;
const RECENT_DELIVERIES = 50;

/** What each kind of owner may choose: a company its own types (and `grant.*` once grants exist); the platform any event and every audit action. */
const PLATFORM_EXTRA = ['audit.*', ...AUDITED_ACTIONS.map((action) => `audit.${action}`)];
export const eventTypesFor = (companyId: string | null): readonly string[] => (companyId ? COMPANY_EVENT_TYPES : [...new Set([...COMPANY_EVENT_TYPES, ...PLATFORM_EXTRA])]);
function allowedType(companyId: string | null, type: string): boolean {
  const known = eventTypesFor(companyId);
  if (known.includes(type) || /^grant\.(\*|[a-z_]+)$/.test(type) || type.startsWith('audit.')) return true;
  // A family (`member.*`) of types the owner may choose.
  return type.endsWith('.*') && known.some((one) => one.startsWith(type.slice(0, -1)));
}

async function mayManage(owner: Owner): Promise<void> {
  if (owner.companyId && owner.actor.kind === 'user') await companyAuthority(owner.env.DB, { userId: owner.actor.id, mfaCompanyId: owner.mfaCompanyId }, owner.companyId, 'manage');
}

const auditOf = (owner: Owner, action: AuditEntry['action'], endpointId: string, detail: Record<string, unknown> = {}) =>
  auditStatement(
    owner.env.DB,
    {
      at: owner.at,
      actor: owner.actor,
      action,
      target: owner.companyId ? { kind: 'company', id: owner.companyId } : { kind: 'webhook_endpoint', id: endpointId },
      network: owner.network,
      detail: { endpointId, ...detail },
    },
    { ifChanged: true },
  );

export function endpointView(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: JSON.parse(row.event_types) as string[],
    personalFields: row.personal_fields,
    clientId: row.client_id,
    createdAt: row.created_at,
    disabledAt: row.disabled_at,
    disabledReason: row.disabled_reason,
    failingSince: row.failing_since,
    previousSecretUntil: row.previous_secret_until,
  };
}

export async function listEndpoints(owner: Owner): Promise<WebhooksAnswer> {
  await mayManage(owner);
  const [rows, { deliveries, attempts }] = await Promise.all([endpointsOf(owner.env.DB, owner.companyId), deliveriesOf(owner.env.DB, owner.companyId, RECENT_DELIVERIES)]);
  const history = new Map<string, WebhookDelivery['history']>();
  for (const a of attempts) history.set(a.delivery_id, [...(history.get(a.delivery_id) ?? []), { at: a.at, answerCode: a.answer_code, result: a.result, ok: a.ok === 1 }]);
  return {
    endpoints: rows.map(endpointView),
    deliveries: deliveries.map((d) => ({
      id: d.id,
      endpointId: d.endpoint_id,
      eventType: d.type,
      createdAt: d.created_at,
      status: d.status,
      attempts: d.attempts,
      nextAt: d.next_at,
      lastAt: d.last_at,
      lastCode: d.last_code,
      lastResult: d.last_result,
      history: history.get(d.id) ?? [],
    })),
    eventTypes: eventTypesFor(owner.companyId),
  };
}

export async function addEndpoint(owner: Owner, request: EndpointRequest & { clientId?: string | null }): Promise<EndpointWithSecret> {
  await mayManage(owner);
  if (endpointAddressProblem(request.url, { loopbackHttp: configOf(owner.env).devRoutes })) throw new GatewayError(ERR.WEBHOOK_ADDRESS_REFUSED);
  const types = [...new Set(request.eventTypes)];
  if (!types.every((type) => allowedType(owner.companyId, type))) throw new GatewayError(ERR.WEBHOOK_EVENT_TYPES_INVALID);
  const id = `ep_${toHex(crypto.getRandomValues(new Uint8Array(12)))}`;
  const secret = newEndpointSecret();
  const byAdministrator = owner.companyId && owner.actor.kind === 'user' ? { sql: mayManageSql('?12', '?13', '?14'), binds: [owner.companyId, owner.actor.id, owner.mfaCompanyId] } : undefined;
  const [inserted] = await runBatch(owner.env.DB, [
    insertEndpointStatement(
      owner.env.DB,
      {
        id,
        company_id: owner.companyId,
        client_id: owner.companyId ? null : (request.clientId ?? null),
        url: new URL(request.url).toString(),
        description: request.description,
        event_types: JSON.stringify(types),
        personal_fields: request.personalFields,
        sealed_secret: await sealSecret(owner.env, id, secret),
        created_by_kind: owner.actor.kind,
        created_by: owner.actor.id,
        created_at: owner.at,
      },
      byAdministrator,
    ),
    auditOf(owner, 'webhook.endpoint_added', id, { url: request.url, eventTypes: types }),
  ]);
  if (!inserted?.meta.changes) {
    await mayManage(owner);
    throw new GatewayError(ERR.WEBHOOK_ENDPOINTS_CAPPED);
  }
  return { endpoint: endpointView((await endpointOf(owner.env.DB, owner.companyId, id))!), secret };
}

async function ownEndpoint(owner: Owner, endpointId: string): Promise<EndpointRow> {
  await mayManage(owner);
  const row = await endpointOf(owner.env.DB, owner.companyId, endpointId);
  if (!row) throw new GatewayError(ERR.WEBHOOK_ENDPOINT_NOT_FOUND);
  return row;
}

export async function removeEndpoint(owner: Owner, endpointId: string): Promise<void> {
  await ownEndpoint(owner, endpointId);
  await runBatch(owner.env.DB, [removeEndpointStatement(owner.env.DB, owner.companyId, endpointId, owner.at), auditOf(owner, 'webhook.endpoint_removed', endpointId)]);
}

export async function enableEndpoint(owner: Owner, endpointId: string): Promise<WebhookEndpoint> {
  await ownEndpoint(owner, endpointId);
  await runBatch(owner.env.DB, [enableEndpointStatement(owner.env.DB, owner.companyId, endpointId), auditOf(owner, 'webhook.endpoint_enabled', endpointId)]);
  return endpointView((await endpointOf(owner.env.DB, owner.companyId, endpointId))!);
}

/** A new secret, shown once; the one it replaces signs too (a second signature) for 24 hours. */
export async function rotateSecret(owner: Owner, endpointId: string): Promise<EndpointWithSecret> {
  await ownEndpoint(owner, endpointId);
  const secret = newEndpointSecret();
  const sealed = await sealSecret(owner.env, endpointId, secret);
  await runBatch(owner.env.DB, [rotateSecretStatement(owner.env.DB, owner.companyId, endpointId, sealed, owner.at + ROTATION_OVERLAP_MS), auditOf(owner, 'webhook.secret_rotated', endpointId)]);
  return { endpoint: endpointView((await endpointOf(owner.env.DB, owner.companyId, endpointId))!), secret };
}

/** The test button: a `ping` to this endpoint alone, sent at once; answers the delivery as it stands after the attempt. */
export async function ping(owner: Owner, endpointId: string): Promise<WebhookDelivery | null> {
  const row = await ownEndpoint(owner, endpointId);
  if (row.disabled_at !== null) throw new GatewayError(ERR.WEBHOOK_RESEND_REFUSED);
  await pingStatement(owner.env.DB, endpointId, owner.at).run();
  const delivery = await latestPingDelivery(owner.env.DB, endpointId);
  if (!delivery) return null;
  await deliverWebhooks(owner.env, owner.at, { only: delivery.id });
  return deliveryNamed(owner, delivery.id);
}

/** Sends a failed delivery or a dead letter again now (the same webhook-id, a fresh run of retries). */
export async function resend(owner: Owner, deliveryId: string): Promise<WebhookDelivery | null> {
  await mayManage(owner);
  const [changed] = await runBatch(owner.env.DB, [
    resendStatement(owner.env.DB, owner.companyId, deliveryId, owner.at),
    auditStatement(
      owner.env.DB,
      { at: owner.at, actor: owner.actor, action: 'webhook.delivery_resent', target: owner.companyId ? { kind: 'company', id: owner.companyId } : { kind: 'webhook_delivery', id: deliveryId }, network: owner.network, detail: { deliveryId } },
      { ifChanged: true },
    ),
  ]);
  if (!changed?.meta.changes) throw new GatewayError(ERR.WEBHOOK_RESEND_REFUSED);
  await deliverWebhooks(owner.env, owner.at, { only: deliveryId });
  return deliveryNamed(owner, deliveryId);
}

async function deliveryNamed(owner: Owner, deliveryId: string): Promise<WebhookDelivery | null> {
  return (await listEndpoints(owner)).deliveries.find((d) => d.id === deliveryId) ?? null;
}
