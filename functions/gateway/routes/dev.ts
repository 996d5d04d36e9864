import { Hono } from 'hono';
import type { EdgeBindings } from '../../env';
import { stripSpacesAndCommas } from '../../../src/schemas/auth';
import { fail, ok } from '../errors';
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
  .get('/dev/captcha/:sessionId', async (c) => {
    const x = await revealTarget(c.env.DB, c.req.param('sessionId'));
    return x === null ? fail(c, 'CP0002') : ok(c, { x });
  });
