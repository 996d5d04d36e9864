import { Hono } from 'hono';
import { opsRegistryCheckRequest, registryCheckRequest } from '../../../src/schemas/registry';
import type { EdgeBindings, WorkerEnv } from '../../env';
import { now } from '../../contract';
import { ok, requestLang } from '../errors';
import { requireSession } from '../sessions/service';
import type { SessionVariables } from '../identity/db/sessions';
import { requireOperator, type OperatorVariables } from '../operators/service';
import { validate } from '../validate';
import { applicantCheck, operatorCheck } from './service';
import { setStandInCompany, setStandInMode } from './stand-in';
import { fail } from '../errors';
import { ERR } from '../../../src/schemas/error-codes';
import * as z from 'zod/mini';
import { askerOf } from '../authority/service';

/** POST /dev/registry: what the local stand-in's registry says of a code, and how each stand-in provider behaves. */
const standInRequest = z.object({
  code: z.optional(z.string()),
  entry: z.optional(z.nullable(z.object({ missing: z.optional(z.boolean()), name: z.optional(z.string()), repDiffers: z.optional(z.boolean()), status: z.optional(z.string()) }))),
  provider: z.optional(z.enum(['tencent', 'aliyun'])),
  mode: z.optional(z.nullable(z.enum(['down', 'hang', 'throttled']))),
});

/** The registry check (registry/service.ts): the applicant's, with consent, and the operator's again. */
export const registryRoutes = new Hono<{ Bindings: WorkerEnv; Variables: SessionVariables }>()
  .use('/agg-web/registry/check', requireSession)
  .post('/agg-web/registry/check', validate('json', registryCheckRequest), async (c) =>
    ok(c, await applicantCheck({ db: c.env.DB, env: c.env, ...askerOf(c.get('session')), lang: requestLang(c), now: now(c) }, c.req.valid('json'))),
  );

/** The local stand-in's controls (DEV_OUTBOX runs only). */
// /* @__PURE__ */: nothing mounts it in a deployed build (gateway/app.ts, PORTAL_DEPLOYED_BUILD), so esbuild drops it.
export const devRegistryRoutes = /* @__PURE__ */ (() =>
  new Hono<EdgeBindings>().post('/dev/registry', validate('json', standInRequest), async (c) => {
    if (!c.get('config').devRoutes) return fail(c, ERR.NO_SUCH_API);
    const body = c.req.valid('json');
    if (body.code !== undefined && body.entry !== undefined) setStandInCompany(body.code, body.entry);
    if (body.provider && body.mode !== undefined) setStandInMode(body.provider, body.mode);
    return ok(c, true);
  }))();

export const opsRegistryRoutes = new Hono<{ Bindings: WorkerEnv; Variables: OperatorVariables }>()
  .use('/ops/v1/registry/*', requireOperator('reviewer'))
  .post('/ops/v1/registry/check', validate('json', opsRegistryCheckRequest), async (c) =>
    ok(c, await operatorCheck({ db: c.env.DB, env: c.env, now: now(c) }, c.req.valid('json').companyId)),
  );
