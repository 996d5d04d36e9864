import { Hono, type Context } from 'hono';
import {
  auditQuery,
  peopleQuery,
  personIdParam,
  supportActionRequest,
  transferAdministratorRequest,
} from '../../../src/schemas/ops-people';
import type { WorkerEnv } from '../../env';
import { clientIp, ok, requestLang } from '../errors';
import { auditPage } from '../audit/service';
import { now } from '../../contract';
import { requireOperator, type OperatorVariables } from '../operators/service';
import * as people from './service';
import { idleTimeoutMs } from '../sessions/service';
import type { UserRow } from '../identity/db/people';
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
  .get('/ops/v1/audit', requireOperator(), validate('query', auditQuery), async (c) => ok(c, await auditPage(c.env.DB, c.req.valid('query'))));
