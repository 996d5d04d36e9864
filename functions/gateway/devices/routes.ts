import { Hono } from 'hono';
import { forgetDeviceRequest } from '../../../src/schemas/security';
import type { WorkerEnv } from '../../env';
import { clientIp, ok } from '../errors';
import { DEVICE_HEADER, now } from '../../contract';
import { requireSession } from '../sessions/service';
import type { SessionVariables } from '../identity/db/sessions';
import { validate } from '../validate';
import { deviceOfRequest, forgetDevice, knownDevicesOf } from './service';

/**
 * The person's known devices in the Security section (issue 44; contracts in src/schemas/security.ts): the list, and
 * "Forget" one of them. Every statement names the session's person.
 */
export const deviceRoutes = new Hono<{ Bindings: WorkerEnv; Variables: SessionVariables }>()
  .use('/agg-web/user/security/devices', requireSession)
  .use('/agg-web/user/security/devices/*', requireSession)
  .get('/agg-web/user/security/devices', async (c) => ok(c, await knownDevicesOf(c.env, c.get('user').id, await deviceOfRequest(c.req.header(DEVICE_HEADER)), now(c))))
  .post('/agg-web/user/security/devices/forget', validate('json', forgetDeviceRequest), async (c) => {
    await forgetDevice(c.env, c.get('user').id, c.req.valid('json').id, { at: now(c), network: clientIp(c) });
    return ok(c, null);
  });
