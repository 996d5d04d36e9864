import { Hono, type Context } from 'hono';
import { autoAcceptRequest, companyLookupRequest, companyOnlyRequest, createGrantRequest, grantActionRequest } from '../../../src/schemas/grants';
import type { WorkerEnv } from '../../env';
import { clientIp, ok, requestLang } from '../errors';
import { now } from '../../contract';
import { requireFreshProof } from '../identity/proof';
import type { SessionVariables } from '../identity/db/sessions';
import { requireSession } from '../sessions/service';
import { validate } from '../validate';
import { answerGrant, companyGrants, createGrant, lookUpCompanies, revokeGrant, setAutoAccept, type GrantCaller } from './service';
import { askerOf } from '../authority/service';

type GrantEnv = { Bindings: WorkerEnv; Variables: SessionVariables };

const callerOf = (c: Context<GrantEnv>): GrantCaller => ({ env: c.env, db: c.env.DB, ...askerOf(c.get('session')), network: clientIp(c), at: now(c), lang: requestLang(c) });

/**
 * Grants between companies (rules in service.ts), for the administrators of either side. Giving access (a new
 * grant, accepting one) needs a fresh "confirm it's you" proof; ending one does not.
 */
export const grantRoutes = new Hono<GrantEnv>()
  .use('/agg-web/company/grants/*', requireSession)
  .use('/agg-web/company/grants/create', requireFreshProof)
  .use('/agg-web/company/grants/accept', requireFreshProof)
  .post('/agg-web/company/grants/list', validate('json', companyOnlyRequest), async (c) => ok(c, await companyGrants(callerOf(c), c.req.valid('json').companyId)))
  .post('/agg-web/company/grants/companies', validate('json', companyLookupRequest), async (c) => {
    const { companyId, name } = c.req.valid('json');
    return ok(c, await lookUpCompanies(callerOf(c), companyId, name));
  })
  .post('/agg-web/company/grants/create', validate('json', createGrantRequest), async (c) => ok(c, await createGrant(callerOf(c), c.req.valid('json'))))
  .post('/agg-web/company/grants/accept', validate('json', grantActionRequest), async (c) => {
    const { companyId, grantId } = c.req.valid('json');
    return ok(c, await answerGrant(callerOf(c), companyId, grantId, true));
  })
  .post('/agg-web/company/grants/decline', validate('json', grantActionRequest), async (c) => {
    const { companyId, grantId } = c.req.valid('json');
    return ok(c, await answerGrant(callerOf(c), companyId, grantId, false));
  })
  .post('/agg-web/company/grants/revoke', validate('json', grantActionRequest), async (c) => {
    const { companyId, grantId } = c.req.valid('json');
    return ok(c, await revokeGrant(callerOf(c), companyId, grantId));
  })
  .post('/agg-web/company/grants/autoAccept', validate('json', autoAcceptRequest), async (c) => {
    const { companyId, agentCompanyId, on } = c.req.valid('json');
    return ok(c, { autoAccept: await setAutoAccept(callerOf(c), companyId, agentCompanyId, on) });
  });
