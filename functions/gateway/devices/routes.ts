import { askerOf } from '../authority/service';
import { Hono } from 'hono';
import { forgetDeviceRequest } from '../../../src/schemas/security';
import type { WorkerEnv } from '../../env';
import { clientIp, ok } from '../errors';
import { DEVICE_HEADER, now } from '../../contract';
import { requireSession } from '../sessions/service';
import type { SessionVariables } from '../identity/db/sessions';
import { validate } from '../validate';
import { companyDevices, deviceOfRequest, forgetDevice, knownDevicesOf, setCompanyDevices } from './service';
import { companyDevicesQuery, companyDevicesRequest } from '../../../src/schemas/two-step';

/**
 * The person's known devices in the Security section (issue 44; contracts in src/schemas/security.ts): the list, and
 * "Forget" one of them. Every statement names the session's person. And the company's device rules (issue 44):
 * GET `agg-web/company/devices?companyId=` and POST {companyId, confirmNewDevices?, forbidTrustedDevices?}, its
 * administrator only.
 */
export const deviceRoutes = new Hono<{ Bindings: WorkerEnv; Variables: SessionVariables }>()
  .use('/agg-web/user/security/devices', requireSession)
  .use('/agg-web/user/security/devices/*', requireSession)
  .use('/agg-web/company/devices', requireSession)
  .get('/agg-web/user/security/devices', async (c) => ok(c, await knownDevicesOf(c.env, c.get('user').id, await deviceOfRequest(c.req.header(DEVICE_HEADER)), now(c))))
  .post('/agg-web/user/security/devices/forget', validate('json', forgetDeviceRequest), async (c) => {
    await forgetDevice(c.env, c.get('user').id, c.req.valid('json').id, { at: now(c), network: clientIp(c) });
    return ok(c, null);
  })
  // The company's device rules (an administrator, in the user center's company part).
  .get('/agg-web/company/devices', validate('query', companyDevicesQuery), async (c) => ok(c, await companyDevices(c.env, c.req.valid('query').companyId, askerOf(c.get('session')))))
  .post('/agg-web/company/devices', validate('json', companyDevicesRequest), async (c) => ok(c, await setCompanyDevices(c.env, { ...c.req.valid('json'), ...askerOf(c.get('session')) })));
