import { Hono, type Context } from 'hono';
import type { WorkerEnv } from '../../env';
import { approvalRequest, startViewRequest, supportIdParam } from '../../../src/schemas/support-view';
import { supportActionRequest } from '../../../src/schemas/ops-people';
import { clientIp, ok, requestLang } from '../errors';
import { now } from '../../contract';
import { validate } from '../validate';
import { requireOperator, type OperatorVariables } from '../operators/service';
import { requireSession } from '../sessions/service';
import type { SessionVariables } from '../identity/db/sessions';
import { ERR } from '../../../src/schemas/error-codes';
import * as support from './service';

/**
 * Support "view as" (issue 44): the person's support code and the end of a view (their session), and the operators'
 * calls (support role; admin for allowing changes and approving without a code). Contracts in
 * src/schemas/support-view.ts; rules in service.ts; what a view may call in guard.ts.
 */
type OpsEnv = { Bindings: WorkerEnv; Variables: OperatorVariables };

const act = (c: Context<OpsEnv>): support.OperatorAct => ({
  operatorId: c.get('operator').id,
  network: clientIp(c),
  at: now(c),
  lang: requestLang(c),
  userAgent: c.req.header('user-agent') ?? null,
});
const idParam = validate('param', supportIdParam, { code: ERR.SUPPORT_VIEW_ENDED });
const reasoned = validate('json', supportActionRequest, { code: ERR.SUPPORT_REASON_MISSING });

export const supportRoutes = new Hono<{ Bindings: WorkerEnv; Variables: SessionVariables }>()
  .use('/agg-web/user/support/*', requireSession)
  .post('/agg-web/user/support/code', async (c) => ok(c, await support.issueSupportCode(c.env.DB, c.get('user').id, now(c), clientIp(c))))
  // The person's own session: the views of their account now, and End on one (the guard keeps a view out of both).
  .get('/agg-web/user/support/views', async (c) => ok(c, await support.viewsOfPerson(c.env.DB, c.get('user').id, now(c))))
  .post('/agg-web/user/support/views/:id/end', idParam, async (c) => {
    await support.endViewByPerson(c.env, c.get('user').id, c.req.valid('param').id, now(c), clientIp(c), requestLang(c));
    return ok(c, null);
  })
  .post('/agg-web/user/support/end', async (c) => {
    // The banner's End, pressed in the view itself: by the operator viewing.
    const { session } = c.var;
    await support.endView(c.env, session, { kind: 'operator', id: session.support_operator_id ?? '' }, now(c), clientIp(c), requestLang(c));
    return ok(c, null);
  });

export const supportOpsRoutes = new Hono<OpsEnv>()
  .get('/ops/v1/support', requireOperator('support'), async (c) => ok(c, await support.supportConsole(c.env.DB, now(c))))
  .post('/ops/v1/support/views', requireOperator('support'), validate('json', startViewRequest), async (c) => ok(c, await support.startView(c.env, act(c), c.req.valid('json'))))
  .post('/ops/v1/support/views/:id/end', requireOperator('support'), idParam, async (c) => {
    await support.endViewByOperator(c.env, act(c), c.req.valid('param').id, c.get('operator').role === 'admin');
    return ok(c, null);
  })
  .post('/ops/v1/support/views/:id/allowWrites', requireOperator('admin'), idParam, reasoned, async (c) => {
    await support.allowWrites(c.env.DB, act(c), c.req.valid('param').id, c.req.valid('json').reason);
    return ok(c, null);
  })
  .post('/ops/v1/support/approvals', requireOperator('support'), validate('json', approvalRequest), async (c) =>
    ok(c, await support.requestApproval(c.env.DB, act(c), c.req.valid('json').userId, c.req.valid('json').reason)),
  )
  .post('/ops/v1/support/approvals/:id/approve', requireOperator('admin'), validate('param', supportIdParam, { code: ERR.SUPPORT_APPROVAL_INVALID }), async (c) =>
    ok(c, await support.approve(c.env.DB, act(c), c.req.valid('param').id)),
  );
