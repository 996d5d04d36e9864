import { Hono } from 'hono';
import type { EdgeBindings } from '../../env';
import { stripSpacesAndCommas } from '../../../src/schemas/auth';
import { z } from 'zod';
import { clientIp, fail, ok } from '../errors';
import { now } from '../services/clock';
import { OPERATOR_ROLES, operatorInsert, startOperatorSession } from '../services/operators';
import { randomToken } from '../services/sessions';
import { validate } from '../validate';
import { revealTarget } from '../services/captcha';

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
  // A signed-in operator for browser tests before there is an operator sign-in page: a new operator of `role`
  // (no password anyone knows, no second step) and its session, answered as the edge sets the operator cookie.
  .post('/dev/operator-session', validate('json', z.object({ role: z.enum(OPERATOR_ROLES), name: z.optional(z.string().max(64)) })), async (c) => {
    const { role, name } = c.req.valid('json');
    const at = now(c);
    const { id, statement } = await operatorInsert(
      c.env.DB,
      c.env,
      { login: `dev-${crypto.randomUUID()}@operators.invalid`, name: name ?? `Dev ${role}`, role, clientHash: randomToken() },
      at,
    );
    await statement.run();
    const { token, expiresAt } = await startOperatorSession(c.env.DB, id, at, { network: clientIp(c) });
    return ok(c, { operatorId: id, operatorSession: { token, expiresIn: Math.floor((expiresAt - at) / 1000) } });
  })
  .get('/dev/captcha/:sessionId', async (c) => {
    const x = await revealTarget(c.env.DB, c.req.param('sessionId'));
    return x === null ? fail(c, 'CP0002') : ok(c, { x });
  });
