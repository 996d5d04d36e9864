import * as z from 'zod/mini';

/**
 * Issue 45: signed event webhooks (Standard Webhooks 1.0) per company and per platform app, and a company's own
 * audit trail to export. Contracts shared by the gateway (functions/gateway/webhooks/, audit/company-*) and the
 * islands.
 */

/**
 * The event types a company's endpoint may choose. Other capabilities add theirs here (grants between companies,
 * issue 41: `grant.given`, `grant.ended`, ...) and emit them with webhooks/events-db.ts `emitEvent`; a company's
 * endpoint may also choose `audit.*` (every row of the company's own audit trail, streamed).
 */
export const COMPANY_EVENT_TYPES = [
  'member.requested',
  'member.approved',
  'member.removed',
  'member.modules_changed',
  'company.verification_changed',
  'company.blocked',
  'user.signed_out',
  'user.closed',
  'grant.requested',
  'grant.accepted',
  'grant.declined',
  'grant.revoked',
  'audit.*',
] as const;
/** What emitEvent accepts: the company types, `ping` (the test button) and any `audit.<action>`. */
export type EventType = Exclude<(typeof COMPANY_EVENT_TYPES)[number], 'audit.*'> | 'ping' | `audit.${string}` | `grant.${string}`;

/** Endpoints a company (or the platform) may hold, removed ones not counted. */
export const ENDPOINTS_MAX = 10;

/** How personal fields (phone numbers, e-mail addresses) leave the portal: in clear, masked, or hashed. */
export const personalFields = z.enum(['masked', 'hashed', 'clear']);
export type PersonalFields = z.infer<typeof personalFields>;

/** An event type as an endpoint chooses it: a known type, or a family (`grant.*`, `audit.*`). */
const eventType = z.string().check(z.regex(/^(ping|[a-z_]+(\.[a-z_]+)*\.(\*|[a-z_]+))$/), z.maxLength(64));
const url = z.string().check(z.trim(), z.minLength(8), z.maxLength(512));
const companyId = z.string().check(z.trim(), z.minLength(1), z.maxLength(64));
export const endpointId = z.string().check(z.regex(/^ep_[a-f0-9]{24}$/));
export const deliveryId = z.string().check(z.regex(/^msg_[a-f0-9]{24}$/));

export const endpointRequest = z.object({
  url,
  description: z._default(z.string().check(z.trim(), z.maxLength(100)), ''),
  eventTypes: z.array(eventType).check(z.minLength(1), z.maxLength(40)),
  personalFields: z._default(personalFields, 'masked'),
});
export type EndpointRequest = z.infer<typeof endpointRequest>;
export const companyEndpointRequest = z.extend(endpointRequest, { companyId });
export const companyQuery = z.object({ companyId });
export const companyEndpointAct = z.object({ companyId, endpointId });
export const companyDeliveryAct = z.object({ companyId, deliveryId });
/** Operators: a platform endpoint serves one of the platform's apps (an OpenID client id), or the platform itself. */
export const platformEndpointRequest = z.extend(endpointRequest, { clientId: z.nullable(z.string().check(z.maxLength(64))) });

export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string;
  eventTypes: string[];
  personalFields: PersonalFields;
  clientId: string | null;
  createdAt: number;
  /** Set when the endpoint stopped receiving: `gone` (it answered 410), `failing` (5 days of failures). */
  disabledAt: number | null;
  disabledReason: string | null;
  /** The first failure of the current run of failures, or null. */
  failingSince: number | null;
  /** The previous secret still signs until then (a rotation keeps it 24 hours). */
  previousSecretUntil: number | null;
}

export interface WebhookAttempt {
  at: number;
  /** The receiver's HTTP status, null when none came (time-out, unreachable, refused address). */
  answerCode: number | null;
  result: string;
  ok: boolean;
}

export interface WebhookDelivery {
  id: string;
  endpointId: string;
  eventType: string;
  createdAt: number;
  status: 'pending' | 'delivered' | 'dead';
  attempts: number;
  nextAt: number | null;
  lastAt: number | null;
  lastCode: number | null;
  lastResult: string | null;
  history: WebhookAttempt[];
}

export interface WebhooksAnswer {
  endpoints: WebhookEndpoint[];
  /** The newest deliveries of these endpoints, failures and dead letters included. */
  deliveries: WebhookDelivery[];
  eventTypes: readonly string[];
}

/** An endpoint with its secret (`whsec_…`): shown once, on creation and on rotation. */
export interface EndpointWithSecret {
  endpoint: WebhookEndpoint;
  secret: string;
}

// ---------------------------------------------------------------------------------------------------------
// The company's own audit trail
// ---------------------------------------------------------------------------------------------------------

export const COMPANY_AUDIT_PAGE = 50;
/** An export covers at most this many days and this many rows. */
export const EXPORT_MAX_DAYS = 366;
export const EXPORT_MAX_ROWS = 50_000;

export const companyAuditQuery = z.object({ companyId, before: z.optional(z.coerce.number().check(z.int(), z.minimum(1))) });
export const auditExportRequest = z.object({
  companyId,
  /** Epoch ms, from (inclusive) to (exclusive). */
  from: z.number().check(z.int(), z.minimum(0)),
  to: z.number().check(z.int(), z.minimum(0)),
  format: z.enum(['jsonl', 'csv']),
  personalFields: z._default(personalFields, 'masked'),
});
export type AuditExportRequest = z.infer<typeof auditExportRequest>;
export const auditExportParam = z.object({ id: z.string().check(z.regex(/^ax_[a-f0-9]{24}$/)) });

/** One row of a company's trail as its administrator reads, exports and streams it. */
export interface CompanyAuditRow {
  id: number;
  at: string;
  action: string;
  actor: { kind: string; id: string | null; name: string | null; phone: string | null; email: string | null };
  target: { kind: string | null; id: string | null };
  reason: string | null;
  network: string | null;
  detail: Record<string, unknown> | null;
}

export interface CompanyAuditPage {
  rows: CompanyAuditRow[];
  next: number | null;
}

export interface AuditExportAnswer {
  id: string;
  /** Where the file is, for the company's administrators, until `expiresAt`. */
  url: string;
  rows: number;
  expiresAt: number;
}

// The answers as the browser reads them: the gateway's own, typed above (the islands trust their own gateway's shape).
export const webhooksAnswer = z.custom<WebhooksAnswer>((value) => typeof value === 'object' && value !== null && 'endpoints' in value);
export const endpointWithSecret = z.custom<EndpointWithSecret>((value) => typeof value === 'object' && value !== null && 'secret' in value);
export const webhookEndpoint = z.custom<WebhookEndpoint>((value) => typeof value === 'object' && value !== null && 'url' in value);
export const webhookDelivery = z.nullable(z.custom<WebhookDelivery>((value) => typeof value === 'object' && value !== null && 'status' in value));
export const companyAuditPage = z.custom<CompanyAuditPage>((value) => typeof value === 'object' && value !== null && 'rows' in value);
export const auditExportAnswer = z.custom<AuditExportAnswer>((value) => typeof value === 'object' && value !== null && 'url' in value);
