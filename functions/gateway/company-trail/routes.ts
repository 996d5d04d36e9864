import { Hono, type Context, type MiddlewareHandler } from 'hono';
import * as z from 'zod/mini';
import { auditExportParam, auditExportRequest, companyAuditQuery, personalFields } from '../../../src/schemas/webhooks';
import { ERR } from '../../../src/schemas/error-codes';
import type { WorkerEnv } from '../../env';
import { now } from '../../contract';
import { clientIp, GatewayError, ok } from '../errors';
import { requireFreshProof } from '../identity/proof';
import { type SessionVariables } from '../identity/db/sessions';
import { requireSession } from '../sessions/service';
import { validate } from '../validate';
import * as trail from './service';
import { askerOf } from '../authority/service';

/** A company's own trail in the user center (rules in service.ts): read, export (fresh proof), download. */
type CompanyEnv = { Bindings: WorkerEnv; Variables: SessionVariables };

const platformSession: MiddlewareHandler<CompanyEnv> = async (c, next) => {
  if (c.get('session').kind !== 'platform') throw new GatewayError(ERR.SESSION_ENDED);
  await next();
};
const signedIn = [requireSession, platformSession] as const;
const caller = (c: Context<CompanyEnv>): trail.TrailCaller => ({ env: c.env, ...askerOf(c.get('session')), network: clientIp(c), at: now(c) });

export const companyTrailRoutes = new Hono<CompanyEnv>()
  .get('/agg-web/company/audit', ...signedIn, validate('query', z.extend(companyAuditQuery, { personalFields: z.optional(personalFields) })), async (c) => {
    const { companyId, before, personalFields: fields } = c.req.valid('query');
    return ok(c, await trail.trailPage(caller(c), companyId, before, fields));
  })
  .post('/agg-web/company/audit/export', ...signedIn, requireFreshProof, validate('json', auditExportRequest, { code: ERR.REQUEST_INVALID }), async (c) =>
    ok(c, await trail.exportTrail(caller(c), c.req.valid('json'))),
  )
  .get('/agg-web/company/audit/exports/:id', ...signedIn, validate('param', auditExportParam, { code: ERR.AUDIT_EXPORT_GONE }), validate('query', z.object({ companyId: companyAuditQuery.shape.companyId })), async (c) =>
    trail.downloadExport(caller(c), c.req.valid('query').companyId, c.req.valid('param').id),
  );
