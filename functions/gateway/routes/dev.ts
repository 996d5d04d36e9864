import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { EdgeBindings } from '../../env';
import { stripSpacesAndCommas } from '../../../src/schemas/auth';
import { clientIp, fail, ok } from '../errors';
import { revealTarget } from '../services/captcha';
import { now } from '../services/clock';
import { OPERATOR_ABSOLUTE_MS, OPERATOR_ROLES, findOperatorByLogin, operatorInsert, startOperatorSession } from '../services/operators';
import { sha256Hex } from '../services/passwords';
import { validate } from '../validate';

/** A dev operator: found by `login` (a new one when absent), made with a throwaway password on first use. */
const devOperatorRequest = z.object({
  role: z.enum(OPERATOR_ROLES as ['reviewer', 'support', 'admin']),
  login: z.optional(z.string().check(z.regex(/^[a-z0-9.@_-]{3,64}$/))),
  name: z.optional(z.string().check(z.maxLength(64))),
});

/**
 * Development helpers, live only where the dev routes are on (a local run, DEV_OUTBOX "true"; the startup
 * check refuses it in a deployment); otherwise every /dev path answers the ordinary 404 envelope, so their
 * existence does not show.
 */
export const devRoutes = new Hono<EdgeBindings>()
  .use('/dev/*', async (c, next) => {
    if (!c.var.config.devRoutes) return fail(c, 'GW0404');
    await next();
  })
  // ?to= an E.164 phone or an e-mail. An unencoded '+' arrives as a space, so bare digits get it back.
  .get('/dev/outbox', async (c) => {
    let to = stripSpacesAndCommas(c.req.query('to') ?? '').toLowerCase();
    if (/^\d+$/.test(to)) to = `+${to}`;
    const { results } = await c.env.DB.prepare(
      `SELECT channel, recipient AS "to", subject, body AS text, created_at AS createdAt
       FROM outbox WHERE recipient = ? ORDER BY id DESC LIMIT 20`,
    )
      .bind(to)
      .all<{ channel: 'sms' | 'email'; to: string; subject: string; text: string; createdAt: number }>();
    return ok(c, results);
  })
  .get('/dev/captcha/:sessionId', async (c) => {
    const x = await revealTarget(c.env.DB, c.req.param('sessionId'));
    return x === null ? fail(c, 'CP0002') : ok(c, { x });
  })
  // An operator session for local end-to-end runs that test something else than the operator sign-in: answers
  // data.operatorSession, which the edge turns into the real operator cookie.
  .post('/dev/operator-session', validate('json', devOperatorRequest), async (c) => {
    const { role, name } = c.req.valid('json');
    const login = c.req.valid('json').login ?? `dev-${crypto.randomUUID()}@operators.invalid`;
    const at = now(c);
    let operator = await findOperatorByLogin(c.env.DB, login);
    if (!operator) {
      const { statement } = await operatorInsert(c.env.DB, c.env, { login, name: name ?? login.split('@')[0]!, role, clientHash: await sha256Hex(crypto.randomUUID()) }, at);
      await statement.run();
      operator = await findOperatorByLogin(c.env.DB, login);
    }
    const { token } = await startOperatorSession(c.env.DB, operator!.id, at, { network: clientIp(c) });
    return ok(c, { operatorId: operator!.id, role: operator!.role, operatorSession: { token, expiresIn: OPERATOR_ABSOLUTE_MS / 1000 } });
  });
