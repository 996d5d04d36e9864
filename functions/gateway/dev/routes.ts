import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { EdgeBindings } from '../../env';
import { stripSpacesAndCommas } from '../../../src/schemas/auth';
import { clientIp, fail, ok } from '../errors';
import { revealTarget } from '../captcha/service';
import { now } from '../../contract';
import { advanceDevClock, outboxOf, resetDevClock } from './db';
import { d1MeterReading, setD1Meter } from './d1-meter';
import { devOperatorSession, OPERATOR_ROLES } from '../operators/service';
import { devOperatorTotpSecret } from '../operators/sign-in';
import { validate } from '../validate';
import { runDataRightsJob } from '../data-rights/jobs';
import { endRunOutViews } from '../support/service';
import { ERR } from '../../../src/schemas/error-codes';

/** A dev operator: found by `login` (a new one when absent), made with a throwaway password on first use. */
const devOperatorRequest = z.object({
  role: z.enum(OPERATOR_ROLES as ['reviewer', 'support', 'admin']),
  login: z.optional(z.string().check(z.regex(/^[a-z0-9.@_-]{3,64}$/))),
  name: z.optional(z.string().check(z.maxLength(64))),
});

/** Moves the clock of every isolate forward (at most a year at a time), or back to real time. */
const devClockRequest = z.union([
  z.object({ advanceMs: z.number().check(z.int(), z.minimum(0), z.maximum(366 * 24 * 60 * 60 * 1000)) }),
  z.object({ reset: z.literal(true) }),
]);

/**
 * Development helpers, live only where the dev routes are on (a local run, DEV_OUTBOX "true"; the startup
 * check refuses it in a deployment); otherwise every /dev path answers the ordinary 404 envelope, so their
 * existence does not show.
 */
// /* @__PURE__ */: nothing mounts it in a deployed build (gateway/app.ts, PORTAL_DEPLOYED_BUILD), so esbuild drops it.
export const devRoutes = /* @__PURE__ */ (() =>
  new Hono<EdgeBindings>()
    .use('/dev/*', async (c, next) => {
      if (!c.get('config').devRoutes) return fail(c, ERR.NO_SUCH_API);
      await next();
    })
    // ?to= an E.164 phone or an e-mail. An unencoded '+' arrives as a space, so bare digits get it back.
    .get('/dev/outbox', async (c) => {
      let to = stripSpacesAndCommas(c.req.query('to') ?? '').toLowerCase();
      if (/^\d+$/.test(to)) to = `+${to}`;
      return ok(c, await outboxOf(c.env.DB, to));
    })
    // The gateway's clock for every isolate: { advanceMs } adds to its offset, { reset: true } returns to real time.
    .post('/dev/clock', validate('json', devClockRequest), async (c) => {
      const body = c.req.valid('json');
      const offsetMs = 'reset' in body ? (await resetDevClock(c.env.DB), 0) : await advanceDevClock(c.env.DB, body.advanceMs);
      return ok(c, { offsetMs, now: Date.now() + offsetMs });
    })
    // npm run load's meter of D1 work (dev/d1-meter.ts): { on } starts or stops it from zero and answers what it had
    // counted; GET reads it.
    .post('/dev/d1-meter', validate('json', z.object({ on: z.boolean() })), (c) => ok(c, setD1Meter(c.req.valid('json').on)))
    .get('/dev/d1-meter', (c) => ok(c, d1MeterReading()))
    // The data-rights job of the every-minute cron, now, on the gateway's clock (e2e: a copy is ready at once).
    .post('/dev/data-rights/run', async (c) => ok(c, await runDataRightsJob(c.env, now(c))))
    // The support views' end of the every-minute cron, now, on the gateway's clock (support/service.ts endRunOutViews).
    .post('/dev/support/run', async (c) => ok(c, await endRunOutViews(c.env, now(c))))
    .get('/dev/captcha/:sessionId', async (c) => {
      const x = await revealTarget(c.env.DB, c.req.param('sessionId'));
      return x === null ? fail(c, ERR.CAPTCHA_EXPIRED) : ok(c, { x });
    })
    // An operator session for local end-to-end runs that test something else than the operator sign-in: answers
    // data.operatorSession, which the edge turns into the real operator cookie.
    .post('/dev/operator-session', validate('json', devOperatorRequest), async (c) => {
      const { role, name } = c.req.valid('json');
      const login = c.req.valid('json').login ?? `dev-${crypto.randomUUID()}@operators.invalid`;
      const session = await devOperatorSession(c.env, { login, name: name ?? login.split('@')[0]!, role }, now(c), clientIp(c));
      // The operator's authenticator app, for calls that ask a fresh operator proof (a support "view as").
      return ok(c, { ...session, totpSecret: await devOperatorTotpSecret(c.env, session.operatorId) });
    })
)();
