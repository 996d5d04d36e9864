import { Hono } from 'hono';
import {
  companyTwoStepRequest,
  enrolmentFinishRequest,
  twoStepChangeRequest,
  type EnrolmentStart,
  type TwoStepStatus,
} from '../../../src/schemas/two-step';
import type { WorkerEnv } from '../../env';
import { recoveryCodesLeft, setCompanyRequirement, twoStepEnabled } from './db';
import { storedPasswordOf } from '../identity/db/people';
import { clientIp, GatewayError, ok, requestLang } from '../errors';
import { requireFreshProof } from '../identity/proof';
import { now } from '../../contract';
import { sendSecurityNotice } from '../delivery/security-notice';
import { requireSession } from '../sessions/service';
import { type SessionVariables } from '../identity/db/sessions';
import { companyRequirementRefusal, disableTwoStep, finishEnrolment, regenerateRecoveryCodes, startEnrolment } from './service';
import { validate } from '../validate';

type TwoStepEnv = { Bindings: WorkerEnv; Variables: SessionVariables };

/**
 * Two-step verification (rules in second-step/service.ts):
 * - passing the second step of a sign-in is sign-in/second-step-routes.ts.
 * - `agg-web/user/twoStep/*` (session): status, enrolment, turning it off, new recovery codes; all but the
 *   status need a fresh proof of the person (identity/proof.ts, SU0001 without one).
 * - `agg-web/company/twoStep` (session, an active administrator): require two-step of the company's members.
 */
export const twoStepRoutes = new Hono<TwoStepEnv>()
  .use('/agg-web/user/twoStep/*', requireSession)
  .use('/agg-web/company/twoStep', requireSession)

  .get('/agg-web/user/twoStep/status', async (c) => {
    const user = c.get('user');
    const answer: TwoStepStatus = {
      enabled: await twoStepEnabled(c.env.DB, user.id),
      recoveryCodesLeft: await recoveryCodesLeft(c.env.DB, user.id),
      hasPassword: storedPasswordOf(user) !== null,
      passwordSalt: user.password_version === 1 ? user.legacy_salt : null,
    };
    return ok(c, answer);
  })

  .use('/agg-web/user/twoStep/enrol/*', requireFreshProof)
  .use('/agg-web/user/twoStep/disable', requireFreshProof)
  .use('/agg-web/user/twoStep/recoveryCodes', requireFreshProof)

  .post('/agg-web/user/twoStep/enrol/start', async (c) => {
    const answer: EnrolmentStart = await startEnrolment(c.env, c.get('user'), now(c));
    return ok(c, answer);
  })

  .post('/agg-web/user/twoStep/enrol/finish', validate('json', enrolmentFinishRequest), async (c) => {
    const at = now(c);
    const recoveryCodes = await finishEnrolment(c.env, c.get('user'), c.req.valid('json').code, { ip: clientIp(c), now: at });
    await sendSecurityNotice(c.env, { userId: c.get('user').id, at, change: 'twoStepOn', lang: requestLang(c) });
    return ok(c, { recoveryCodes });
  })

  .post('/agg-web/user/twoStep/disable', validate('json', twoStepChangeRequest), async (c) => {
    await disableTwoStep(c.env, c.get('user'), { ip: clientIp(c), now: now(c) });
    return ok(c, true);
  })

  .post('/agg-web/user/twoStep/recoveryCodes', validate('json', twoStepChangeRequest), async (c) => {
    const at = now(c);
    const recoveryCodes = await regenerateRecoveryCodes(c.env, c.get('user'), { ip: clientIp(c), now: at });
    await sendSecurityNotice(c.env, { userId: c.get('user').id, at, change: 'recoveryCodes', lang: requestLang(c) });
    return ok(c, { recoveryCodes });
  })

  .post('/agg-web/company/twoStep', validate('json', companyTwoStepRequest), async (c) => {
    const { companyId, required } = c.req.valid('json');
    const userId = c.get('user').id;
    if (await setCompanyRequirement(c.env.DB, { companyId, userId, required })) return ok(c, { required });
    // Refused by the one statement above; this only tells why.
    throw new GatewayError(await companyRequirementRefusal(c.env.DB, companyId, userId));
  });
