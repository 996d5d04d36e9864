import { Hono } from 'hono';
import * as z from 'zod/mini';
import { fileIdSchema } from '../../../src/schemas/onboarding';
import { companyEditRequest, reviewDecisionRequest, reviewDetailQuery, reviewQueueQuery } from '../../../src/schemas/ops-review';
import type { WorkerEnv } from '../../env';
import { clientIp, ok } from '../errors';
import { now } from '../../contract';
import { companyFileShown, companyQueue, companyReview, decide, editCompany } from './service';
import { requireOperator, type OperatorVariables } from '../operators/service';
import { validate } from '../validate';
import { ERR } from '../../../src/schemas/error-codes';

/**
 * Company review (review/service.ts): reviewers and admins only. A platform session, another
 * operator role or no session at all opens none of these calls, the company files included.
 */
export const opsReviewRoutes = new Hono<{ Bindings: WorkerEnv; Variables: OperatorVariables }>()
  .use('/ops/v1/companies', requireOperator('reviewer'))
  .use('/ops/v1/companies/*', requireOperator('reviewer'))

  .get('/ops/v1/companies', validate('query', reviewQueueQuery), async (c) => ok(c, await companyQueue(c.env.DB, c.req.valid('query'))))

  .get('/ops/v1/companies/detail', validate('query', reviewDetailQuery), async (c) => ok(c, await companyReview(c.env.DB, c.req.valid('query').companyId)))

  .post('/ops/v1/companies/decide', validate('json', reviewDecisionRequest), async (c) =>
    ok(c, await decide({ db: c.env.DB, env: c.env, operator: c.get('operator'), network: clientIp(c), now: now(c) }, c.req.valid('json'))),
  )

  // The operator's correction of the names and the credit code, with a reason (issue 42).
  .post('/ops/v1/companies/edit', validate('json', companyEditRequest), async (c) =>
    ok(c, await editCompany({ db: c.env.DB, env: c.env, operator: c.get('operator'), network: clientIp(c), now: now(c) }, c.req.valid('json'))),
  )

  // The licences, GTC and logo, shown inline to the operator: only a file attached to this company.
  .get(
    '/ops/v1/companies/:companyId/files/:fileId',
    validate('param', z.object({ companyId: z.string().check(z.maxLength(64)), fileId: fileIdSchema }), { code: ERR.FILE_NOT_FOUND }),
    async (c) => {
      const { companyId, fileId } = c.req.valid('param');
      return companyFileShown(c.env, companyId, fileId);
    },
  );
