import { Hono, type Context } from 'hono';
import {
  AUDIT_PAGE_SIZE,
  auditQuery,
  peopleQuery,
  personIdParam,
  supportActionRequest,
  transferAdministratorRequest,
  type AuditPage,
} from '../../../src/schemas/ops-people';
import type { WorkerEnv } from '../../env';
import { clientIp, ok } from '../errors';
import { listAudit } from '../services/audit';
import { now } from '../services/clock';
import { requireOperator, type OperatorVariables } from '../services/operators';
import * as people from '../services/people';
import { idleTimeoutMs } from '../services/sessions';
import { validate } from '../validate';

/**
 * People support (role support; admin may do everything) and the audit trail (every operator). Contracts in
 * src/schemas/ops-people.ts; the rules and SQL in services/people.ts.
 */
type OpsEnv = { Bindings: WorkerEnv; Variables: OperatorVariables };

const support = requireOperator('support');
const reasoned = validate('json', supportActionRequest, { code: 'PS0009' });
const personParam = validate('param', personIdParam, { code: 'PS0001' });

/** The operator acting now, with the reason of the call's body. */
const act = (c: Context<OpsEnv>, reason: string): people.SupportAct => ({ operatorId: c.var.operator.id, reason, network: clientIp(c), at: now(c) });

export const opsPeopleRoutes = new Hono<OpsEnv>()
  .get('/ops/v1/people', support, validate('query', peopleQuery, { code: 'PS0010' }), async (c) => {
    const { q, page } = c.req.valid('query');
    return ok(c, await people.findPeople(c.env.DB, q, page));
  })

  .get('/ops/v1/people/:id', support, personParam, async (c) => {
    const user = await people.personOf(c.env.DB, c.req.valid('param').id);
    return ok(c, await people.personDetail(c.env.DB, user, now(c), idleTimeoutMs(c.env)));
  })

  .post('/ops/v1/people/:id/unlock', support, personParam, reasoned, async (c) => {
    await people.unlockPerson(c.env.DB, await people.personOf(c.env.DB, c.req.valid('param').id), act(c, c.req.valid('json').reason));
    return ok(c, null);
  })

  .post('/ops/v1/people/:id/signOut', support, personParam, reasoned, async (c) => {
    const ended = await people.signOutPerson(c.env.DB, await people.personOf(c.env.DB, c.req.valid('param').id), act(c, c.req.valid('json').reason));
    return ok(c, { ended });
  })

  .post('/ops/v1/people/:id/requirePasswordChange', support, personParam, reasoned, async (c) => {
    await people.requirePasswordChange(c.env.DB, await people.personOf(c.env.DB, c.req.valid('param').id), act(c, c.req.valid('json').reason));
    return ok(c, null);
  })

  .post('/ops/v1/people/:id/resetTwoStep', support, personParam, reasoned, async (c) => {
    await people.resetTwoStep(c.env.DB, await people.personOf(c.env.DB, c.req.valid('param').id), act(c, c.req.valid('json').reason));
    return ok(c, null);
  })

  .post('/ops/v1/people/:id/block', support, personParam, reasoned, async (c) => {
    await people.blockPerson(c.env.DB, await people.personOf(c.env.DB, c.req.valid('param').id), act(c, c.req.valid('json').reason));
    return ok(c, null);
  })

  .post('/ops/v1/people/:id/unblock', support, personParam, reasoned, async (c) => {
    await people.unblockPerson(c.env.DB, await people.personOf(c.env.DB, c.req.valid('param').id), act(c, c.req.valid('json').reason));
    return ok(c, null);
  })

  .post('/ops/v1/companies/:id/transferAdministrator', support, personParam, validate('json', transferAdministratorRequest, { code: 'PS0009' }), async (c) => {
    const { userId, reason } = c.req.valid('json');
    await people.transferAdministrator(c.env.DB, c.req.valid('param').id, userId, act(c, reason));
    return ok(c, null);
  })

  // The trail, for every operator role. `actor` and `target` match either kind's id.
  .get('/ops/v1/audit', requireOperator(), validate('query', auditQuery), async (c) => {
    const query = c.req.valid('query');
    const rows = await listAudit(c.env.DB, {
      actorId: query.actor || undefined,
      targetId: query.target || undefined,
      action: query.action,
      from: query.from,
      to: query.to,
      before: query.before,
      limit: AUDIT_PAGE_SIZE + 1,
    });
    const page = rows.slice(0, AUDIT_PAGE_SIZE);
    const operatorIds = [...new Set(page.filter((r) => r.actor_kind === 'operator' && r.actor_id).map((r) => r.actor_id!))];
    const names = new Map<string, string>();
    if (operatorIds.length) {
      const { results } = await c.env.DB.prepare(`SELECT id, name FROM operators WHERE id IN (${operatorIds.map(() => '?').join(', ')})`)
        .bind(...operatorIds)
        .all<{ id: string; name: string }>();
      for (const row of results) names.set(row.id, row.name);
    }
    const answer: AuditPage = {
      entries: page.map((r) => ({
        id: r.id,
        at: r.created_at,
        actorKind: r.actor_kind,
        actorId: r.actor_id,
        actorName: r.actor_kind === 'operator' && r.actor_id ? (names.get(r.actor_id) ?? null) : null,
        action: r.action,
        targetKind: r.target_kind,
        targetId: r.target_id,
        reason: r.reason,
        network: r.network,
        detail: r.detail,
      })),
      next: rows.length > AUDIT_PAGE_SIZE ? page.at(-1)!.id : null,
    };
    return ok(c, answer);
  });
