import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { companyDeliveryAct, companyEndpointAct, companyEndpointRequest, companyQuery, deliveryId, endpointId, platformEndpointRequest } from '../../../src/schemas/webhooks';
import * as z from 'zod/mini';
import { ERR } from '../../../src/schemas/error-codes';
import type { WorkerEnv } from '../../env';
import { now } from '../../contract';
import { clientIp, GatewayError, ok } from '../errors';
import { requireFreshProof } from '../identity/proof';
import { type SessionVariables } from '../identity/db/sessions';
import { requireSession } from '../sessions/service';
import { requireOperator, type OperatorVariables } from '../operators/service';
import { validate } from '../validate';
import * as webhooks from './service';

/**
 * Event webhook endpoints (rules in service.ts): a company's administrators in the user center
 * (`/agg-web/company/webhooks…`; adding an endpoint or replacing its secret needs a fresh proof, SU0001), and
 * operators with the admin role for the platform's apps (`/ops/v1/webhooks…`).
 */
type CompanyEnv = { Bindings: WorkerEnv; Variables: SessionVariables };
type OpsEnv = { Bindings: WorkerEnv; Variables: OperatorVariables };

/** A partner session (the navigator login) manages no company's endpoints. */
const platformSession: MiddlewareHandler<CompanyEnv> = async (c, next) => {
  if (c.get('session').kind !== 'platform') throw new GatewayError(ERR.SESSION_ENDED);
  await next();
};
const signedIn = [requireSession, platformSession] as const;

const companyOwner = (c: Context<CompanyEnv>, companyId: string): webhooks.Owner => ({
  env: c.env,
  companyId,
  actor: { kind: 'user', id: c.get('user').id },
  mfaCompanyId: c.get('session').provider_mfa_company_id ?? null,
  network: clientIp(c),
  at: now(c),
});
const platformOwner = (c: Context<OpsEnv>): webhooks.Owner => ({ env: c.env, companyId: null, actor: { kind: 'operator', id: c.get('operator').id }, mfaCompanyId: null, network: clientIp(c), at: now(c) });

const invalid = { code: ERR.REQUEST_INVALID };

export const webhookRoutes = new Hono<CompanyEnv>()
  .get('/agg-web/company/webhooks', ...signedIn, validate('query', companyQuery), async (c) => ok(c, await webhooks.listEndpoints(companyOwner(c, c.req.valid('query').companyId))))
  .post('/agg-web/company/webhooks/add', ...signedIn, requireFreshProof, validate('json', companyEndpointRequest, invalid), async (c) => {
    const { companyId, ...request } = c.req.valid('json');
    c.header('Cache-Control', 'no-store');
    return ok(c, await webhooks.addEndpoint(companyOwner(c, companyId), request));
  })
  .post('/agg-web/company/webhooks/rotate', ...signedIn, requireFreshProof, validate('json', companyEndpointAct, invalid), async (c) => {
    const { companyId, endpointId } = c.req.valid('json');
    c.header('Cache-Control', 'no-store');
    return ok(c, await webhooks.rotateSecret(companyOwner(c, companyId), endpointId));
  })
  .post('/agg-web/company/webhooks/remove', ...signedIn, validate('json', companyEndpointAct, invalid), async (c) => {
    const { companyId, endpointId } = c.req.valid('json');
    await webhooks.removeEndpoint(companyOwner(c, companyId), endpointId);
    return ok(c, true);
  })
  .post('/agg-web/company/webhooks/enable', ...signedIn, validate('json', companyEndpointAct, invalid), async (c) => {
    const { companyId, endpointId } = c.req.valid('json');
    return ok(c, await webhooks.enableEndpoint(companyOwner(c, companyId), endpointId));
  })
  .post('/agg-web/company/webhooks/ping', ...signedIn, validate('json', companyEndpointAct, invalid), async (c) => {
    const { companyId, endpointId } = c.req.valid('json');
    return ok(c, await webhooks.ping(companyOwner(c, companyId), endpointId));
  })
  .post('/agg-web/company/webhooks/resend', ...signedIn, validate('json', companyDeliveryAct, invalid), async (c) => {
    const { companyId, deliveryId } = c.req.valid('json');
    return ok(c, await webhooks.resend(companyOwner(c, companyId), deliveryId));
  });

const admin = requireOperator('admin');
const endpointParam = validate('param', z.object({ id: endpointId }), { code: ERR.WEBHOOK_ENDPOINT_NOT_FOUND });

export const webhookConsoleRoutes = new Hono<OpsEnv>()
  .get('/ops/v1/webhooks', admin, async (c) => ok(c, await webhooks.listEndpoints(platformOwner(c))))
  .post('/ops/v1/webhooks', admin, validate('json', platformEndpointRequest, invalid), async (c) => {
    c.header('Cache-Control', 'no-store');
    return ok(c, await webhooks.addEndpoint(platformOwner(c), c.req.valid('json')));
  })
  .post('/ops/v1/webhooks/:id/rotate', admin, endpointParam, async (c) => {
    c.header('Cache-Control', 'no-store');
    return ok(c, await webhooks.rotateSecret(platformOwner(c), c.req.valid('param').id));
  })
  .post('/ops/v1/webhooks/:id/remove', admin, endpointParam, async (c) => {
    await webhooks.removeEndpoint(platformOwner(c), c.req.valid('param').id);
    return ok(c, true);
  })
  .post('/ops/v1/webhooks/:id/enable', admin, endpointParam, async (c) => ok(c, await webhooks.enableEndpoint(platformOwner(c), c.req.valid('param').id)))
  .post('/ops/v1/webhooks/:id/ping', admin, endpointParam, async (c) => ok(c, await webhooks.ping(platformOwner(c), c.req.valid('param').id)))
  .post('/ops/v1/webhooks/deliveries/:id/resend', admin, validate('param', z.object({ id: deliveryId }), { code: ERR.WEBHOOK_RESEND_REFUSED }), async (c) =>
    ok(c, await webhooks.resend(platformOwner(c), c.req.valid('param').id)),
  );
