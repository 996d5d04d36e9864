import { Hono, type Context } from 'hono';
import { clientIdParam, consoleClientEdit, consoleClientRequest, consolePkceRequest } from '../../../src/schemas/oidc-clients';
import { ERR } from '../../../src/schemas/error-codes';
import type { WorkerEnv } from '../../env';
import { now } from '../../contract';
import { clientIp, ok } from '../errors';
import { requireOperator, type OperatorVariables } from '../operators/service';
import { validate } from '../validate';
import * as console_ from './console';

/**
 * The operators' client console, `/ops/v1/oidc/clients...` (rules in console.ts). Operators with the admin role
 * only: any other role gets OP0003, a platform session OP0001.
 */
type OpsEnv = { Bindings: WorkerEnv; Variables: OperatorVariables };

const admin = requireOperator('admin');
const idParam = validate('param', clientIdParam, { code: ERR.OIDC_CLIENT_NOT_FOUND });
const act = (c: Context<OpsEnv>): console_.OperatorAct => ({ operatorId: c.get('operator').id, network: clientIp(c), at: now(c) });
const noStore = { 'Cache-Control': 'no-store' };

export const oidcConsoleRoutes = new Hono<OpsEnv>()
  .get('/ops/v1/oidc/clients', admin, async (c) => ok(c, await console_.listClients(c.env.DB)))
  .post('/ops/v1/oidc/clients', admin, validate('json', consoleClientRequest, { code: ERR.OIDC_CLIENT_INVALID }), async (c) => {
    const created = await console_.registerClient(c.env.DB, c.req.valid('json'), act(c));
    c.header('Cache-Control', noStore['Cache-Control']);
    return ok(c, created);
  })
  .post('/ops/v1/oidc/clients/:id', admin, idParam, validate('json', consoleClientEdit, { code: ERR.OIDC_CLIENT_INVALID }), async (c) =>
    ok(c, await console_.editClient(c.env.DB, c.req.valid('param').id, c.req.valid('json'), act(c))),
  )
  .post('/ops/v1/oidc/clients/:id/rotateSecret', admin, idParam, async (c) => {
    const rotated = await console_.rotateSecret(c.env.DB, c.req.valid('param').id, act(c));
    c.header('Cache-Control', noStore['Cache-Control']);
    return ok(c, rotated);
  })
  .post('/ops/v1/oidc/clients/:id/disable', admin, idParam, async (c) => ok(c, await console_.setClientDisabled(c.env.DB, c.req.valid('param').id, true, act(c))))
  .post('/ops/v1/oidc/clients/:id/enable', admin, idParam, async (c) => ok(c, await console_.setClientDisabled(c.env.DB, c.req.valid('param').id, false, act(c))))
  .post('/ops/v1/oidc/clients/:id/pkce', admin, idParam, validate('json', consolePkceRequest, { code: ERR.OIDC_PKCE_OFF_REFUSED }), async (c) =>
    ok(c, await console_.setClientPkce(c.env.DB, c.req.valid('param').id, c.req.valid('json'), act(c))),
  )
  .get('/ops/v1/oidc/clients/:id/logoutSends', admin, idParam, async (c) => ok(c, await console_.logoutSends(c.env.DB, c.req.valid('param').id)));
