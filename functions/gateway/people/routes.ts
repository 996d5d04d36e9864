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
import { clientIp, ok, requestLang } from '../errors';
import { idsNamedBy, listAudit, operatorNamesOf, partiesOf } from '../audit/db';
import { now } from '../../contract';
import { requireOperator, type OperatorVariables } from '../operators/service';
import * as people from './service';
import { idleTimeoutMs } from '../sessions/service';
import type { UserRow } from '../account/db';
import { validate } from '../validate';
import { ERR } from '../../../src/schemas/error-codes';

/**
 * People support (role support; admin may do everything) and the audit trail (every operator). Contracts in
 * src/schemas/ops-people.ts; the rules and SQL in people/service.ts.
 */
type OpsEnv = { Bindings: WorkerEnv; Variables: OperatorVariables };

const support = requireOperator('support');
const reasoned = validate('json', supportActionRequest, { code: ERR.SUPPORT_REASON_MISSING });
const personParam = validate('param', personIdParam, { code: ERR.PERSON_NOT_FOUND });

/** The operator acting now, with the reason of the call's body. */
const act = (c: Context<OpsEnv>, reason: string): people.SupportAct => ({ operatorId: c.get('operator').id, reason, network: clientIp(c), at: now(c) });

/** A support action on one person and what it answers the operator (nothing unless said). */
type PersonAction = {
  name: string;
  change: (db: D1Database, person: UserRow, act: people.SupportAct) => Promise<number>;
  answer?: (changed: number) => unknown;
};
const personActions: PersonAction[] = [
  { name: 'unlock', change: people.unlockPerson },
  { name: 'signOut', change: people.signOutPerson, answer: (ended) => ({ ended }) },
  { name: 'requirePasswordChange', change: people.requirePasswordChange },
  { name: 'resetTwoStep', change: people.resetTwoStep },
  { name: 'block', change: people.blockPerson },
  { name: 'unblock', change: people.unblockPerson },
  { name: 'legalHold', change: people.placeLegalHold },
  { name: 'liftLegalHold', change: people.liftLegalHold },
];

/** POST /ops/v1/people/:id/<action>: each action done once to the person in the path, with the body's reason. */
const personActionRoutes = new Hono<OpsEnv>();
for (const { name, change, answer = () => null } of personActions) {
  personActionRoutes.post(`/ops/v1/people/:id/${name}`, support, personParam, reasoned, async (c) => {
    const person = await people.personOf(c.env.DB, c.req.valid('param').id);
    return ok(c, answer(await change(c.env.DB, person, act(c, c.req.valid('json').reason))));
  });
}

export const opsPeopleRoutes = new Hono<OpsEnv>()
  .get('/ops/v1/people', support, validate('query', peopleQuery, { code: ERR.PEOPLE_SEARCH_EMPTY }), async (c) => {
    const { q, page } = c.req.valid('query');
    return ok(c, await people.findPeople(c.env.DB, q, page));
  })

  // Accounts closing or closed (before /:id, which would take "closing" for an id).
  .get('/ops/v1/people/closing', support, async (c) => ok(c, await people.closingPeople(c.env.DB)))

  .get('/ops/v1/people/:id', support, personParam, async (c) => {
    const user = await people.personOf(c.env.DB, c.req.valid('param').id);
    return ok(c, await people.personDetail(c.env.DB, user, now(c), idleTimeoutMs(c.env), requestLang(c)));
  })

  .route('/', personActionRoutes)

  .post('/ops/v1/companies/:id/transferAdministrator', support, personParam, validate('json', transferAdministratorRequest, { code: ERR.SUPPORT_REASON_MISSING }), async (c) => {
    const { userId, reason } = c.req.valid('json');
    await people.transferAdministrator(c.env.DB, c.req.valid('param').id, userId, act(c, reason));
    return ok(c, null);
  })

  // The trail, for every operator role. `actor` and `target` match either kind's id.
  .get('/ops/v1/audit', requireOperator(), validate('query', auditQuery), async (c) => {
    const query = c.req.valid('query');
    // A filter takes an id, or a person's name, phone or e-mail, or a company's or operator's name (issue 33).
    const [actorIds, targetIds] = await Promise.all([query.actor ? idsNamedBy(c.env.DB, query.actor) : undefined, query.target ? idsNamedBy(c.env.DB, query.target) : undefined]);
    const rows = await listAudit(c.env.DB, {
      actorIds,
      targetIds,
      action: query.action,
      from: query.from,
      to: query.to,
      before: query.before,
      limit: AUDIT_PAGE_SIZE + 1,
    });
    const page = rows.slice(0, AUDIT_PAGE_SIZE);
    const [actorName, parties] = await Promise.all([operatorNamesOf(c.env.DB, page), partiesOf(c.env.DB, page)]);
    const answer: AuditPage = {
      entries: page.map((r) => ({
        id: r.id,
        at: r.created_at,
        actorKind: r.actor_kind,
        actorId: r.actor_id,
        actorName: actorName(r),
        actorParty: r.actor_kind === 'user' && r.actor_id ? (parties.get(r.actor_id) ?? null) : null,
        action: r.action,
        targetKind: r.target_kind,
        targetId: r.target_id,
        targetParty: r.target_id ? (parties.get(r.target_id) ?? null) : null,
        reason: r.reason,
        network: r.network,
        detail: r.detail,
      })),
      next: rows.length > AUDIT_PAGE_SIZE ? page.at(-1)!.id : null,
    };
    return ok(c, answer);
  });
