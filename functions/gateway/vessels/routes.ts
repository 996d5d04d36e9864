import { Hono } from 'hono';
import { companyOnlyRequest, declareVesselRequest, removeVesselRequest } from '../../../src/schemas/grants';
import type { WorkerEnv } from '../../env';
import { clientIp, ok } from '../errors';
import { now } from '../../contract';
import { requireSession } from '../sessions/service';
import type { SessionVariables } from '../identity/db/sessions';
import { validate } from '../validate';
import { companyVessels, declareVessel, removeVessel, type VesselCaller } from './service';
import type { Context } from 'hono';
import { askerOf } from '../authority/service';

type VesselEnv = { Bindings: WorkerEnv; Variables: SessionVariables };

const callerOf = (c: Context<VesselEnv>): VesselCaller => ({ db: c.env.DB, ...askerOf(c.get('session')), network: clientIp(c), at: now(c) });

/** A company's vessels (rules in service.ts), for its administrators (authority/: 'manage'). */
export const vesselRoutes = new Hono<VesselEnv>()
  .use('/agg-web/company/vessels/*', requireSession)
  .post('/agg-web/company/vessels/list', validate('json', companyOnlyRequest), async (c) => ok(c, await companyVessels(callerOf(c), c.req.valid('json').companyId)))
  .post('/agg-web/company/vessels/declare', validate('json', declareVesselRequest), async (c) => ok(c, await declareVessel(callerOf(c), c.req.valid('json'))))
  .post('/agg-web/company/vessels/remove', validate('json', removeVesselRequest), async (c) => {
    const { companyId, vesselId } = c.req.valid('json');
    await removeVessel(callerOf(c), companyId, vesselId);
    return ok(c, null);
  });
