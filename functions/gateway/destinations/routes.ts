import { Hono } from 'hono';
import { edgeCallsOnly, now, ok } from '../../contract';
import type { EdgeBindings } from '../../env';
import { bearerToken } from '../sessions/service';
import { destinationToken } from './service';

/** `edge/v1/destinations/token` (the edge's own call, EDGE_CALL_HEADER): the blob the edge's /go adds when it sends a signed-in person to another site. */
export const destinationRoutes = new Hono<EdgeBindings>().post('/edge/v1/destinations/token', edgeCallsOnly, async (c) =>
  ok(c, await destinationToken(c.env, bearerToken(c), now(c))),
);
