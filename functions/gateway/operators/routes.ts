import { Hono } from 'hono';
import type { WorkerEnv } from '../../env';
import { clientIp, ok } from '../errors';
import { auditStatement } from '../audit/db';
import { now } from '../../contract';
import { endOperatorSession, requireOperator, type OperatorVariables } from './service';

/**
 * Operator calls live under `/ops/v1/` (the browser reaches them as `/api/ops/v1/...`). Each one is guarded
 * by `requireOperator(...roles)`, which refuses a platform session (OP0001) and a role not listed (OP0003).
 */
export const operatorRoutes = new Hono<{ Bindings: WorkerEnv; Variables: OperatorVariables }>()
  .get('/ops/v1/me', requireOperator(), (c) => ok(c, c.get('operator')))

  .post('/ops/v1/logout', requireOperator(), async (c) => {
    const at = now(c);
    await c.env.DB.batch([
      endOperatorSession(c.env.DB, c.get('operatorSession').token_hash, at),
      auditStatement(c.env.DB, { at, actor: { kind: 'operator', id: c.get('operator').id }, action: 'operator.signed_out', network: clientIp(c) }),
    ]);
    // The edge clears the operator cookie on this POST (OPERATOR_LOGOUT_PATH).
    return ok(c, null);
  });
