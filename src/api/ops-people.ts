import * as z from 'zod/mini';
import { activityAnswer, auditPage, closingPeople, peoplePage, personDetail, type AuditQueryInput } from '../schemas/ops-people';
import { callGateway } from './client';

/** One function per call of people support and the audit trail (contracts in schemas/ops-people.ts). */
export type SupportAction = 'unlock' | 'signOut' | 'requirePasswordChange' | 'resetTwoStep' | 'block' | 'unblock' | 'legalHold' | 'liftLegalHold';

const person = (id: string) => `ops/v1/people/${encodeURIComponent(id)}`;

export const opsPeopleApi = {
  find: (q: string, page: number) => callGateway('ops/v1/people', peoplePage, { method: 'GET', query: { q, page: String(page) } }),
  /** Accounts closing or closed (data rights, issue 28). */
  closing: () => callGateway('ops/v1/people/closing', closingPeople, { method: 'GET' }),
  detail: (id: string) => callGateway(person(id), personDetail, { method: 'GET' }),
  act: (id: string, action: SupportAction, reason: string) => callGateway(`${person(id)}/${action}`, z.unknown(), { body: { reason } }),
  transferAdministrator: (companyId: string, userId: string, reason: string) =>
    callGateway(`ops/v1/companies/${encodeURIComponent(companyId)}/transferAdministrator`, z.null(), { body: { userId, reason } }),
  audit: (query: AuditQueryInput) =>
    callGateway('ops/v1/audit', auditPage, {
      method: 'GET',
      query: Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => [k, String(v)])),
    }),
  /** The signed-in person's own part of the trail (user center). */
  activity: () => callGateway('agg-web/user/security/activity', activityAnswer, { method: 'GET' }),
};
