import { Hono, type Context, type MiddlewareHandler } from 'hono';
import {
  companyDomainConnectionRequest,
  companyDomainRequest,
  companyDomainsQuery,
  companySsoCallbackRequest,
  companySsoConnectionRequest,
  companySsoLinkRequest,
  companySsoLookupRequest,
  companySsoSettingsRequest,
  companySsoStartRequest,
} from '../../../src/schemas/company-sso';
import { ERR } from '../../../src/schemas/error-codes';
import type { WorkerEnv } from '../../env';
import { now } from '../../contract';
import { clientIp, GatewayError, ok, requestLang } from '../errors';
import { requireFreshProof } from '../identity/proof';
import { requireSession } from '../sessions/service';
import { type SessionVariables } from '../identity/db/sessions';
import { validate } from '../validate';
import * as domains from './service';
import * as connections from './connections';
import * as federation from './federation';
import { askerOf } from '../authority/service';

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
const caller = (c: Context<CompanyEnv>): domains.DomainCaller => ({ db: c.env.DB, env: c.env, ...askerOf(c.get('session')), network: clientIp(c), at: now(c), lang: requestLang(c) });

export const companyDomainRoutes = new Hono<CompanyEnv>()
  .get('/agg-web/company-domains', ...signedIn, validate('query', companyDomainsQuery), async (c) => ok(c, await domains.listDomains(caller(c), c.req.valid('query').companyId)))
  .post('/agg-web/company-domains/add', ...signedIn, requireFreshProof, validate('json', companyDomainRequest, { code: ERR.DOMAIN_INVALID }), async (c) => {
    const { companyId, domain } = c.req.valid('json');
    return ok(c, await domains.addDomain(caller(c), companyId, domain));
  })
  .post('/agg-web/company-domains/remove', ...signedIn, requireFreshProof, validate('json', companyDomainRequest, { code: ERR.DOMAIN_INVALID }), async (c) => {
    const { companyId, domain } = c.req.valid('json');
    return ok(c, await domains.removeDomain(caller(c), companyId, domain));
  })
  .post('/agg-web/company-domains/connection', ...signedIn, requireFreshProof, validate('json', companyDomainConnectionRequest, { code: ERR.DOMAIN_INVALID }), async (c) => {
    const { companyId, domain, connectionId } = c.req.valid('json');
    return ok(c, await domains.setDomainConnection(caller(c), companyId, domain, connectionId));
  })
  .post('/agg-web/company-domains/check', ...signedIn, validate('json', companyDomainRequest, { code: ERR.DOMAIN_INVALID }), async (c) => {
    const { companyId, domain } = c.req.valid('json');
    return ok(c, await domains.checkDomain(caller(c), companyId, domain));
  })
  // The connection (connections.ts): read by the company's administrators; changed after a fresh proof.
  .get('/agg-web/company-sso/connections', ...signedIn, validate('query', companyDomainsQuery), async (c) => ok(c, await connections.listConnections(caller(c), c.req.valid('query').companyId)))
  .post('/agg-web/company-sso/connection', ...signedIn, requireFreshProof, validate('json', companySsoConnectionRequest, { code: ERR.SSO_CONNECTION_INVALID }), async (c) =>
    ok(c, await connections.saveConnection(caller(c), c.req.valid('json'))),
  )
  .post('/agg-web/company-sso/settings', ...signedIn, requireFreshProof, validate('json', companySsoSettingsRequest), async (c) => ok(c, await connections.saveSettings(caller(c), c.req.valid('json'))))
  // Signing in through it (federation.ts): no session.
  .post('/agg-web/company-sso/lookup', validate('json', companySsoLookupRequest), async (c) => ok(c, await federation.lookup(c.env.DB, c.req.valid('json').email)))
  .post('/agg-web/company-sso/start', validate('json', companySsoStartRequest), async (c) => ok(c, await federation.start(c, c.req.valid('json').email)))
  .post('/agg-web/company-sso/callback', validate('json', companySsoCallbackRequest), async (c) => federation.callback(c, c.req.valid('json')))
  .post('/agg-web/company-sso/link/code', async (c) => federation.sendLinkCode(c))
  .post('/agg-web/company-sso/link', validate('json', companySsoLinkRequest), async (c) => federation.link(c, c.req.valid('json').code));
