import * as z from 'zod/mini';
import {
  auditExportAnswer,
  companyAuditPage,
  endpointWithSecret,
  webhookDelivery,
  webhookEndpoint,
  webhooksAnswer,
  type AuditExportRequest,
  type EndpointRequest,
} from '../schemas/webhooks';
import { callGateway } from './client';

/** The platform's endpoints for its apps (operators with the admin role, /ops/webhooks). */
export const platformWebhooksApi = {
  list: () => callGateway('ops/v1/webhooks', webhooksAnswer, { method: 'GET' }),
  add: (request: EndpointRequest & { clientId?: string | null }) => callGateway('ops/v1/webhooks', endpointWithSecret, { body: { clientId: null, ...request } }),
  rotate: (endpointId: string) => callGateway(`ops/v1/webhooks/${encodeURIComponent(endpointId)}/rotate`, endpointWithSecret),
  remove: (endpointId: string) => callGateway(`ops/v1/webhooks/${encodeURIComponent(endpointId)}/remove`, z.boolean()),
  enable: (endpointId: string) => callGateway(`ops/v1/webhooks/${encodeURIComponent(endpointId)}/enable`, webhookEndpoint),
  ping: (endpointId: string) => callGateway(`ops/v1/webhooks/${encodeURIComponent(endpointId)}/ping`, webhookDelivery),
  resend: (deliveryId: string) => callGateway(`ops/v1/webhooks/deliveries/${encodeURIComponent(deliveryId)}/resend`, webhookDelivery),
};

/** A company's event webhooks and its own trail in the user center (its administrators; contracts in schemas/webhooks.ts). */
export const companyWebhooksApi = {
  list: (companyId: string) => callGateway('agg-web/company/webhooks', webhooksAnswer, { method: 'GET', query: { companyId } }),
  add: (companyId: string, request: EndpointRequest) => callGateway('agg-web/company/webhooks/add', endpointWithSecret, { body: { companyId, ...request } }),
  rotate: (companyId: string, endpointId: string) => callGateway('agg-web/company/webhooks/rotate', endpointWithSecret, { body: { companyId, endpointId } }),
  remove: (companyId: string, endpointId: string) => callGateway('agg-web/company/webhooks/remove', z.boolean(), { body: { companyId, endpointId } }),
  enable: (companyId: string, endpointId: string) => callGateway('agg-web/company/webhooks/enable', webhookEndpoint, { body: { companyId, endpointId } }),
  ping: (companyId: string, endpointId: string) => callGateway('agg-web/company/webhooks/ping', webhookDelivery, { body: { companyId, endpointId } }),
  resend: (companyId: string, deliveryId: string) => callGateway('agg-web/company/webhooks/resend', webhookDelivery, { body: { companyId, deliveryId } }),
  trail: (companyId: string, before?: number) => callGateway('agg-web/company/audit', companyAuditPage, { method: 'GET', query: before ? { companyId, before: String(before) } : { companyId } }),
  exportTrail: (request: AuditExportRequest) => callGateway('agg-web/company/audit/export', auditExportAnswer, { body: request }),
};
