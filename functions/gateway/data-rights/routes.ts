import { Hono, type Context } from 'hono';
import * as z from 'zod/mini';
import type { WorkerEnv } from '../../env';
import { clientIp, ok, requestLang } from '../errors';
import { now } from '../../contract';
import { freshUntil, requireFreshProof } from '../identity/proof';
import { requireSession } from '../sessions/service';
import { type SessionVariables } from '../identity/db/sessions';
import { validate } from '../validate';
import { findUserById } from '../identity/db/people';
import { ERR } from '../../../src/schemas/error-codes';
import { closeAccountRequest, consentChangeRequest, contactChangeRequest, contactUndoRequest, dataCopyIdSchema, dataCopyRequest, keepAccountRequest } from '../../../src/schemas/data-rights';
import * as rights from './service';

type DataEnv = { Bindings: WorkerEnv; Variables: SessionVariables };

const actor = (c: Context<DataEnv>): rights.Actor => ({ userId: c.get('user').id, at: now(c), network: clientIp(c) });
const state = async (c: Context<DataEnv>) => {
  // Read the account again: the change just made is part of the answer.
  const user = (await findUserById(c.env.DB, c.get('user').id)) ?? c.get('user');
  return ok(c, await rights.stateOf(c.env, user, now(c)));
};

/**
 * "Your data" in the user center (contracts in src/schemas/data-rights.ts), for the signed-in person only.
 * Taking a copy and closing the account need a fresh proof (identity/proof.ts, SU0001); a copy is downloaded by the
 * session whose proof asked for it, or by one with a fresh proof of its own.
 */
export const dataRightsRoutes = new Hono<DataEnv>()
  .use('/agg-web/user/data', requireSession)
  .use('/agg-web/user/data/*', requireSession)

  .get('/agg-web/user/data', (c) => state(c))

  .post('/agg-web/user/data/copy', requireFreshProof, validate('json', dataCopyRequest), async (c) => {
    await rights.requestCopy(c.env.DB, actor(c), c.get('session').token_hash);
    return state(c);
  })

  .get('/agg-web/user/data/copy/:id', validate('param', z.object({ id: dataCopyIdSchema }), { code: ERR.DATA_COPY_NOT_AVAILABLE }), (c) =>
    rights.downloadCopy(c.env, actor(c), c.req.valid('param').id, {
      sessionHash: c.get('session').token_hash,
      fresh: freshUntil(c.env, c.get('session'), now(c)) !== null,
    }),
  )

  .post('/agg-web/user/data/consent', validate('json', consentChangeRequest), async (c) => {
    const { purpose, granted } = c.req.valid('json');
    await rights.changeConsent(c.env.DB, actor(c), purpose, granted);
    return state(c);
  })

  .post('/agg-web/user/data/close', requireFreshProof, validate('json', closeAccountRequest), async (c) => {
    await rights.closeAccount(c.env, actor(c), { lang: requestLang(c), background: (work) => c.executionCtx.waitUntil(work) });
    return state(c);
  })

  // A new phone or e-mail, proved by its code (sent by the ordinary code calls); the old address is told.
  .post('/agg-web/user/data/contact', requireFreshProof, validate('json', contactChangeRequest), async (c) => {
    await rights.changeContact(c.env, actor(c), c.get('user'), c.req.valid('json'), {
      lang: requestLang(c),
      background: (work) => c.executionCtx.waitUntil(work),
    });
    return ok(c, null);
  })

  // "This wasn't me", from the link in the notice at the old address of an e-mail change: no session (its owner may
  // have none left), the link's secret is the whole authority, and it can only put that address back.
  .post('/agg-web/user/contact/undo', validate('json', contactUndoRequest, { code: ERR.CONTACT_UNDO_INVALID }), async (c) =>
    ok(c, await rights.undoEmailChange(c.env.DB, c.req.valid('json').token, { at: now(c), network: clientIp(c) })),
  )

  // Keeping the account needs no fresh proof: it only undoes a closure, which the owner can always do.
  .post('/agg-web/user/data/keep', validate('json', keepAccountRequest), async (c) => {
    await rights.keepAccount(c.env.DB, actor(c));
    return state(c);
  });
