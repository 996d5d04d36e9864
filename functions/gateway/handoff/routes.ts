import { Hono } from 'hono';
import { handoffIntakeRequest } from '../../../src/schemas/handoff';
import { CLIENT_COUNTRY_HEADER, DEVICE_HEADER, clientIp, edgeCallsOnly, namedClientNetwork, now, ok, requestLang, SITE_HEADER } from '../../contract';
import type { EdgeBindings } from '../../env';
import { clientInfoOf } from '../sessions/devices';
import { bearerToken } from '../sessions/service';
import { validate } from '../validate';
import { takeHandoff } from './service';

/**
 * `edge/v1/handoff/intake` (the edge's own call, EDGE_CALL_HEADER): the edge passes the blobs of a page request (or of the account-choice form) and
 * the browser's session; the answer (service.ts takeHandoff) says what the edge does: a session or a
 * second-step challenge to set as cookies, the account-choice page, or the refusal page.
 */
export const handoffRoutes = new Hono<EdgeBindings>().post('/edge/v1/handoff/intake', validate('json', handoffIntakeRequest), edgeCallsOnly, async (c) =>
  ok(
    c,
    await takeHandoff(c.env, c.req.valid('json'), {
      sessionToken: bearerToken(c),
      partner: c.req.header(SITE_HEADER) === 'navigator',
      network: clientIp(c),
      // The history names the network the edge saw, and none when it saw none.
      client: clientInfoOf(c.req.header('user-agent'), c.req.header(CLIENT_COUNTRY_HEADER), namedClientNetwork(c)),
      lang: requestLang(c),
      at: now(c),
      device: c.req.header(DEVICE_HEADER),
      background: (work) => c.executionCtx.waitUntil(work),
    }),
  ),
);
