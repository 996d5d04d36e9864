import { Hono } from 'hono';
import { signOutOthersRequest, signOutSessionRequest, type SessionEntry } from '../../../src/schemas/security';
import type { WorkerEnv } from '../../env';
import { GatewayError, ok } from '../errors';
import { assertFreshProof, requireFreshProof } from '../identity/proof';
import { now } from '../../contract';
import { parseDevice } from './devices';
import { idleTimeoutMs, liveSessionsOfUser, requireSession, revokeAllSessionsOfUser, revokeSessionOfUser } from './service';
import { type SessionVariables } from '../identity/db/sessions';
import { activityOf } from './activity';
import { validate } from '../validate';
import { ERR } from '../../../src/schemas/error-codes';

/**
 * The Security section of the user center (contracts in src/schemas/security.ts), for the signed-in person
 * only: their live sessions, signing one or all others out, and their sign-in history. Every statement names
 * the session's user, so no id of someone else's session ends it (SS0001, the same as an ended one).
 */
export const securityRoutes = new Hono<{ Bindings: WorkerEnv; Variables: SessionVariables }>()
  .use('/agg-web/user/security/*', requireSession)

  .get('/agg-web/user/security/sessions', async (c) => {
    const { user, session: current } = c.var;
    const rows = await liveSessionsOfUser(c.env.DB, user.id, now(c), idleTimeoutMs(c.env));
    const entries: SessionEntry[] = rows.map((row) => ({
      id: row.public_id,
      current: row.token_hash === current.token_hash,
      ...parseDevice(row.user_agent),
      country: row.country,
      createdAt: row.created_at,
      lastSeenAt: row.last_seen_at,
      partner: row.kind === 'partner',
    }));
    return ok(c, entries);
  })

  .post('/agg-web/user/security/sessions/signOut', validate('json', signOutSessionRequest), async (c) => {
    const { id } = c.req.valid('json');
    // Ending another device one by one is ending the other sessions: the same fresh proof. This one needs none.
    if (id !== c.get('session').public_id) assertFreshProof(c);
    if (!(await revokeSessionOfUser(c.env.DB, c.get('user').id, id, now(c)))) throw new GatewayError(ERR.SESSION_NOT_FOUND);
    return ok(c, null);
  })

  // Ending every other session needs a fresh proof (identity/proof.ts): a stolen session must not lock the owner out.
  .post('/agg-web/user/security/sessions/signOutOthers', requireFreshProof, validate('json', signOutOthersRequest), async (c) => {
    const ended = await revokeAllSessionsOfUser(c.env.DB, c.get('user').id, c.get('session').token_hash, now(c));
    return ok(c, { ended });
  })

  .get('/agg-web/user/security/activity', async (c) => ok(c, await activityOf(c.env.DB, c.get('user').id)));
