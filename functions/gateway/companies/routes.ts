import { Hono, type Context } from 'hono';
import type * as z from 'zod/mini';
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
import { companyModulesQuery, memberModuleRequest, memberRemoveRequest, memberRoleRequest } from '../../../src/schemas/members';
import type { WorkerEnv } from '../../env';
import { clientIp, ok, requestLang } from '../errors';
import { now } from '../../contract';
import * as companies from './service';
import * as members from './members';
import { requireSession } from '../sessions/service';
import { type SessionVariables } from '../identity/db/sessions';
import { validate } from '../validate';
import { ERR } from '../../../src/schemas/error-codes';
import { askerOf } from '../authority/service';

/** Companies of onboarding (companies/service.ts holds the rules, companies/db.ts the SQL). */

type CompanyEnv = { Bindings: WorkerEnv; Variables: SessionVariables };

/** The signed-in caller as the service sees it. */
const caller = (c: Context<CompanyEnv>): companies.Caller => ({ db: c.env.DB, ...askerOf(c.get('session')), ip: clientIp(c), now: now(c), lang: requestLang(c) });

/** A company name with a hidden character answers its own code; every other schema miss GW0400. */
const formCode = (issues: z.core.$ZodIssue[]) => (issues.some((issue) => issue.message === ERR.COMPANY_NAME_HIDDEN_CHARACTERS) ? ERR.COMPANY_NAME_HIDDEN_CHARACTERS : ERR.REQUEST_INVALID);

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

  // Administrators manage their members (companies/members.ts): role, removal, module grants.
  .post('/agg-web/company/member/role', validate('json', memberRoleRequest), async (c) => ok(c, await members.changeMemberRole(caller(c), c.req.valid('json'))))
  .post('/agg-web/company/member/remove', validate('json', memberRemoveRequest), async (c) =>
    ok(c, await members.removeCompanyMember(caller(c), c.req.valid('json'))),
  )
  .post('/agg-web/company/member/module', validate('json', memberModuleRequest), async (c) => ok(c, await members.setMemberModule(caller(c), c.req.valid('json'))))
  // Any active member: the modules they may use in the company.
  .get('/agg-web/company/modules', validate('query', companyModulesQuery), async (c) =>
    ok(c, await members.companyModules(caller(c), c.req.valid('query').companyId)),
  )

  .post('/agg-web/user/setMainAccount', validate('json', setMainAccountRequest), async (c) => {
    await companies.chooseMainCompany(caller(c), c.req.valid('json').companyId);
    return ok(c, true);
  })

  .post('/agg-web/user/clearMainAccount', validate('json', clearMainAccountRequest), async (c) => {
    await companies.clearMainChoice(caller(c));
    return ok(c, true);
  });
