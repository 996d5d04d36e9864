import { Hono } from 'hono';
import type { EdgeBindings } from '../env';
import { fail, GatewayError } from './errors';
import { dictionaryRoutes } from './routes/dictionaries';

/**
 * The embedded gateway: the calls of spec section 7 on D1 and R2, answering the spec's envelope.
 * Paths are the gateway's own (`/agg-web/...`, `/c/...`); the edge proxy strips `/api` before calling it.
 */
export const gateway: Hono<EdgeBindings> = new Hono<EdgeBindings>()
  .route('/', dictionaryRoutes)
  .notFound((c) => {
    // A known path asked with another method is a 405, not a 404.
    const known = gateway.routes.some((route) => route.path === c.req.path && route.method !== 'ALL');
    return fail(c, known ? 'GW0405' : 'GW0404');
  })
  .onError((error, c) => {
    if (error instanceof GatewayError) return fail(c, error.code, error.data);
    console.error('gateway error', error instanceof Error ? error.stack : error);
    return fail(c, 'SY0500');
  });
