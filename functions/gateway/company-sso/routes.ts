import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { companyDomainRequest, companyDomainsQuery } from '../../../src/schemas/company-sso';
import { ERR } from '../../../src/schemas/error-codes';
import type { WorkerEnv } from '../../env';
import { now } from '../../contract';
import { clientIp, GatewayError, ok, requestLang } from '../errors';
import { requireFreshProof } from '../identity/proof';
import { requireSession } from '../sessions/service';
import { type SessionVariables } from '../identity/db/sessions';
import { validate } from '../validate';
import * as domains from './service';

/**
 * A company's proved e-mail domains in the user center (issue 43; rules in service.ts): list, add (a fresh proof
 * of the person first: SU0001, then "Confirm it's you") and check. The company's administrators only.
 */
type CompanyEnv = { Bindings: WorkerEnv; Variables: SessionVariables };

const platformSession: MiddlewareHandler<CompanyEnv> = async (c, next) => {
  if (c.get('session').kind !== 'platform') throw new GatewayError(ERR.SESSION_ENDED);
  await next();
};
const signedIn = [requireSession, platformSession] as const;
const caller = (c: Context<CompanyEnv>): domains.DomainCaller => ({ db: c.env.DB, env: c.env, userId: c.get('user').id, network: clientIp(c), at: now(c), lang: requestLang(c) });

export const companyDomainRoutes = new Hono<CompanyEnv>()
  .get('/agg-web/company-domains', ...signedIn, validate('query', companyDomainsQuery), async (c) => ok(c, await domains.listDomains(caller(c), c.req.valid('query').companyId)))
  .post('/agg-web/company-domains/add', ...signedIn, requireFreshProof, validate('json', companyDomainRequest, { code: ERR.DOMAIN_INVALID }), async (c) => {
    const { companyId, domain } = c.req.valid('json');
    return ok(c, await domains.addDomain(caller(c), companyId, domain));
  })
  .post('/agg-web/company-domains/check', ...signedIn, validate('json', companyDomainRequest, { code: ERR.DOMAIN_INVALID }), async (c) => {
    const { companyId, domain } = c.req.valid('json');
    return ok(c, await domains.checkDomain(caller(c), companyId, domain));
  });
