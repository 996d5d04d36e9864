import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { companyClientRequest, companyClientRevokeRequest, companyClientsQuery } from '../../../src/schemas/oidc-clients';
import { ERR } from '../../../src/schemas/error-codes';
import type { WorkerEnv } from '../../env';
import { now } from '../../contract';
import { clientIp, GatewayError, ok, requestLang } from '../errors';
import { requireFreshProof } from '../identity/proof';
import { requireSession } from '../sessions/service';
import { type SessionVariables } from '../identity/db/sessions';
import { validate } from '../validate';
import * as companyClients from './company-clients';
import { askerOf } from '../authority/service';

/**
 * A company's API clients in the user center (rules in company-clients.ts): list, create (needs a fresh proof of
 * the person: SU0001, then "Confirm it's you"), revoke. The company's administrators only.
 */
type CompanyEnv = { Bindings: WorkerEnv; Variables: SessionVariables };

/** A partner session (the navigator login) manages no company's API clients. */
const platformSession: MiddlewareHandler<CompanyEnv> = async (c, next) => {
  if (c.get('session').kind !== 'platform') throw new GatewayError(ERR.SESSION_ENDED);
  await next();
};
const signedIn = [requireSession, platformSession] as const;

const caller = (c: Context<CompanyEnv>): companyClients.CompanyCaller => ({ db: c.env.DB, ...askerOf(c.get('session')), network: clientIp(c), at: now(c), lang: requestLang(c) });

export const companyClientRoutes = new Hono<CompanyEnv>()
  .get('/agg-web/api-clients', ...signedIn, validate('query', companyClientsQuery), async (c) =>
    ok(c, await companyClients.listCompanyClients(caller(c), c.req.valid('query').companyId)),
  )
  .post('/agg-web/api-clients/create', ...signedIn, requireFreshProof, validate('json', companyClientRequest, { code: ERR.COMPANY_CLIENT_INVALID }), async (c) => {
    c.header('Cache-Control', 'no-store');
    return ok(c, await companyClients.createCompanyClient(caller(c), c.req.valid('json')));
  })
  .post('/agg-web/api-clients/revoke', ...signedIn, validate('json', companyClientRevokeRequest), async (c) => {
    const { companyId, clientId } = c.req.valid('json');
    return ok(c, await companyClients.revokeCompanyClient(caller(c), companyId, clientId));
  });
