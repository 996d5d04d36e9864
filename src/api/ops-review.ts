import { companyGrantsOpsAnswer } from '../schemas/grants';
import * as z from 'zod/mini';
import { companyEditAnswer, reviewDecisionAnswer, reviewDetailAnswer, reviewQueueAnswer, type CompanyEditRequest, type ReviewDecisionRequest } from '../schemas/ops-review';
import { registryCheckSchema } from '../schemas/registry';
import { callGateway } from './client';

/** Company review calls of operators (the operator cookie goes with them; a platform session opens none). */
export const opsReviewApi = {
  queue: (query: Record<string, string>) => callGateway('ops/v1/companies', reviewQueueAnswer, { method: 'GET', query }),
  detail: (companyId: string) => callGateway('ops/v1/companies/detail', reviewDetailAnswer, { method: 'GET', query: { companyId } }),
  decide: (body: ReviewDecisionRequest) => callGateway('ops/v1/companies/decide', reviewDecisionAnswer, { body }),
  edit: (body: CompanyEditRequest) => callGateway('ops/v1/companies/edit', companyEditAnswer, { body }),
  grants: (companyId: string) => callGateway(`ops/v1/companies/${encodeURIComponent(companyId)}/grants`, companyGrantsOpsAnswer, { method: 'GET' }),
  suspendGrants: (companyId: string, suspend: boolean, reason: string) => callGateway('ops/v1/companies/grants/suspend', z.null(), { body: { companyId, suspend, reason } }),
  registryCheck: (companyId: string) => callGateway('ops/v1/registry/check', registryCheckSchema, { body: { companyId } }),
};
