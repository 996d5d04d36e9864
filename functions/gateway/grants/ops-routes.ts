import { Hono } from 'hono';
import * as z from 'zod/mini';
import { suspendGrantsRequest } from '../../../src/schemas/grants';
import type { WorkerEnv } from '../../env';
import { clientIp, ok, requestLang } from '../errors';
import { now } from '../../contract';
import { requireOperator, type OperatorVariables } from '../operators/service';
import { validate } from '../validate';
import { companyGrantsForOperators, suspendCompanyGrants } from './service';
import { ERR } from '../../../src/schemas/error-codes';

/** The platform's view of a company's vessels and grants, and suspending its grants (support and admin roles). */
export const grantOpsRoutes = new Hono<{ Bindings: WorkerEnv; Variables: OperatorVariables }>()
  .get(
    '/ops/v1/companies/:companyId/grants',
    requireOperator(),
    validate('param', z.object({ companyId: z.string().check(z.maxLength(64)) }), { code: ERR.REVIEW_COMPANY_NOT_FOUND }),
    async (c) => ok(c, await companyGrantsForOperators(c.env.DB, c.req.valid('param').companyId, now(c), requestLang(c))),
  )
  .post('/ops/v1/companies/grants/suspend', requireOperator('support', 'admin'), validate('json', suspendGrantsRequest), async (c) => {
    await suspendCompanyGrants(c.env.DB, c.get('operator'), c.req.valid('json'), now(c), clientIp(c));
    return ok(c, null);
  });
