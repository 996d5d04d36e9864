import { Hono } from 'hono';
import type { WorkerEnv } from '../../env';
import { clientIp, ok } from '../errors';
import { now } from '../../contract';
import { deliveryOverview } from '../delivery/service';
import { requireOperator, signOutOperator, type OperatorVariables } from './service';

/**
 * Operator calls live under `/ops/v1/` (the browser reaches them as `/api/ops/v1/...`). Each one is guarded
 * by `requireOperator(...roles)`, which refuses a platform session (OP0001) and a role not listed (OP0003).
 */
export const operatorRoutes = new Hono<{ Bindings: WorkerEnv; Variables: OperatorVariables }>()
  .get('/ops/v1/me', requireOperator(), (c) => ok(c, c.get('operator')))

  // The delivery view (read-only, every role): delivery/service.ts.
  .get('/ops/v1/delivery', requireOperator(), async (c) => ok(c, await deliveryOverview(c.env, c.get('config'), now(c))))

  .post('/ops/v1/logout', requireOperator(), async (c) => {
    await signOutOperator(c.env.DB, { tokenHash: c.get('operatorSession').token_hash, operatorId: c.get('operator').id }, now(c), clientIp(c));
    // The edge clears the operator cookie on this POST (OPERATOR_LOGOUT_PATH).
    return ok(c, null);
  });
