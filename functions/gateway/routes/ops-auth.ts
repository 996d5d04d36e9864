import { Hono } from 'hono';
import {
  enrolmentTokenRequest,
  operatorEnrolmentFinish,
  operatorLoginRequest,
  operatorTotpRequest,
  type OperatorListItem,
} from '../../../src/schemas/ops';
import type { WorkerEnv } from '../../env';
import { clientIp, ok } from '../errors';
import { now } from '../services/clock';
import { finishOperatorEnrolment, listOperators, passwordStep, startOperatorEnrolment, totpStep } from '../services/operator-sign-in';
import { operatorView, requireOperator, type OperatorVariables } from '../services/operators';
import { validate } from '../validate';

/**
 * Operator sign-in, enrolment and the admin's list of operators (rules in services/operator-sign-in.ts).
 * Sign-in and enrolment take no session; only `ops/v1/login/totp` starts one, answered as
 * `data.operatorSession` for the edge to move into the operator cookie.
 */
export const opsAuthRoutes = new Hono<{ Bindings: WorkerEnv; Variables: OperatorVariables }>()
  .post('/ops/v1/login', validate('json', operatorLoginRequest), async (c) => {
    const { login, password } = c.req.valid('json');
    return ok(c, await passwordStep(c.env, login, password, { network: clientIp(c), at: now(c) }));
  })

  .post('/ops/v1/login/totp', validate('json', operatorTotpRequest), async (c) => {
    const { challenge, code } = c.req.valid('json');
    const client = { network: clientIp(c), at: now(c), userAgent: c.req.header('user-agent') };
    const signedIn = await totpStep(c.env, challenge, code, client);
    return ok(c, { operator: operatorView(signedIn.operator), operatorSession: { token: signedIn.token, expiresIn: signedIn.expiresIn } });
  })

  .post('/ops/v1/enrolment/start', validate('json', enrolmentTokenRequest), async (c) =>
    ok(c, await startOperatorEnrolment(c.env, c.req.valid('json').token, now(c))),
  )

  .post('/ops/v1/enrolment/finish', validate('json', operatorEnrolmentFinish), async (c) =>
    ok(c, await finishOperatorEnrolment(c.env, c.req.valid('json'), { network: clientIp(c), at: now(c) })),
  )

  .get('/ops/v1/operators', requireOperator('admin'), async (c) => {
    const list: OperatorListItem[] = await listOperators(c.env.DB);
    return ok(c, list);
  });
