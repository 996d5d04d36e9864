import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import {
  clearMainAccountRequest,
  companyCreateRequest,
  companyDetailQuery,
  companyFillRequest,
  companyJoinRequest,
  companyMembersQuery,
  invitationNameRequest,
  invitationRegenerateRequest,
  memberDecisionRequest,
  setMainAccountRequest,
} from '../../../src/schemas/onboarding';
import type { WorkerEnv } from '../../env';
import { clientIp, ok, requestLang } from '../errors';
import { now } from '../services/clock';
import * as companies from '../services/companies';
import { requireSession, type SessionVariables } from '../services/sessions';
import { validate } from '../validate';

/** Companies of onboarding (services/companies.ts holds the rules, db/companies.ts the SQL). */

type CompanyEnv = { Bindings: WorkerEnv; Variables: SessionVariables };

/** The signed-in caller as the service sees it. */
const caller = (c: Context<CompanyEnv>): companies.Caller => ({ db: c.env.DB, userId: c.var.user.id, ip: clientIp(c), now: now(c), lang: requestLang(c) });

/** A company name with a hidden character answers its own code; every other schema miss GW0400. */
const formCode = (issues: z.core.$ZodIssue[]) => (issues.some((issue) => issue.message === 'CO0018') ? 'CO0018' : 'GW0400');

export const companyRoutes = new Hono<CompanyEnv>()
  // The staff form fills the company name from the invitation code; no session needed.
  .post('/agg-web/user/selectCompanyNameByCompanyId', validate('json', invitationNameRequest), async (c) => {
    const { companyId } = c.req.valid('json');
    return ok(c, await companies.invitationName({ db: c.env.DB, ip: clientIp(c), now: now(c) }, companyId));
  })

  .use('/agg-web/company/*', requireSession)
  .use('/agg-web/user/setMainAccount', requireSession)
  .use('/agg-web/user/clearMainAccount', requireSession)

  .post('/agg-web/company/create', validate('json', companyCreateRequest, { code: formCode }), async (c) =>
    ok(c, await companies.createCompany(caller(c), c.req.valid('json'))),
  )

  .post('/agg-web/company/fill', validate('json', companyFillRequest, { code: formCode }), async (c) =>
    ok(c, await companies.fillCompany(caller(c), c.env.UPLOADS, c.req.valid('json'))),
  )

  .get('/agg-web/company/detail', validate('query', companyDetailQuery), async (c) =>
    ok(c, await companies.companyDetail(caller(c), c.req.valid('query').companyId)),
  )

  .post('/agg-web/company/join', validate('json', companyJoinRequest), async (c) => ok(c, await companies.joinCompany(caller(c), c.req.valid('json'))))

  .post('/agg-web/company/invitation/regenerate', validate('json', invitationRegenerateRequest), async (c) =>
    ok(c, await companies.regenerateInvitation(caller(c), c.req.valid('json').companyId)),
  )

  .get('/agg-web/company/members', validate('query', companyMembersQuery), async (c) =>
    ok(c, await companies.companyMembers(caller(c), c.req.valid('query').companyId)),
  )

  .post('/agg-web/company/member/approve', validate('json', memberDecisionRequest), async (c) =>
    ok(c, await companies.answerJoin(caller(c), c.req.valid('json'), 'active')),
  )
  .post('/agg-web/company/member/decline', validate('json', memberDecisionRequest), async (c) =>
    ok(c, await companies.answerJoin(caller(c), c.req.valid('json'), 'rejected')),
  )

  .post('/agg-web/user/setMainAccount', validate('json', setMainAccountRequest), async (c) => {
    await companies.chooseMainCompany(caller(c), c.req.valid('json').companyId);
    return ok(c, true);
  })

  .post('/agg-web/user/clearMainAccount', validate('json', clearMainAccountRequest), async (c) => {
    await companies.clearMainChoice(caller(c));
    return ok(c, true);
  });
