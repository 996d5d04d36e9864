import * as z from 'zod/mini';
import { supportCodeAnswer, supportConsole, supportViewsOfMine, supportViewStarted } from '../schemas/support-view';
import { callGateway } from './client';

/** Support "view as" (issue 44): the person's support code. */
export const supportViewApi = {
  code: () => callGateway('agg-web/user/support/code', supportCodeAnswer, { body: {} }),
  views: () => callGateway('agg-web/user/support/views', supportViewsOfMine, { method: 'GET' }),
  endView: (id: string) => callGateway(`agg-web/user/support/views/${encodeURIComponent(id)}/end`, z.null(), { body: {} }),
};

/** The operators' calls (the console's /ops/support; contracts in schemas/support-view.ts). */
export const opsSupportApi = {
  list: () => callGateway('ops/v1/support', supportConsole, { method: 'GET' }),
  start: (body: { userId: string; code?: string; approvalId?: string; reason: string; proof: string }) => callGateway('ops/v1/support/views', supportViewStarted, { body }),
  end: (id: string) => callGateway(`ops/v1/support/views/${encodeURIComponent(id)}/end`, z.null(), { body: {} }),
  allowWrites: (id: string, reason: string) => callGateway(`ops/v1/support/views/${encodeURIComponent(id)}/allowWrites`, z.null(), { body: { reason } }),
  request: (userId: string, reason: string) => callGateway('ops/v1/support/approvals', z.object({ id: z.string(), expiresAt: z.number() }), { body: { userId, reason } }),
  approve: (id: string) => callGateway(`ops/v1/support/approvals/${encodeURIComponent(id)}/approve`, z.object({ expiresAt: z.number() }), { body: {} }),
};
