import { Hono, type Context } from 'hono';
import * as z from 'zod/mini';
import type { EdgeBindings, WorkerEnv } from '../../env';
import { now } from '../../contract';
import { ERR } from '../../../src/schemas/error-codes';
import { fail, ok } from '../errors';
import { validate } from '../validate';
import { setDevFault } from './db';
import { RECEIPT_PATH, takeReceipts, verifiedReceipts, type ReceiptProvider } from './receipts';

/** Receipts are small; anything larger is not a provider's callback. */
const MAX_RECEIPT_BYTES = 64 * 1024;

type DeliveryContext = Context<{ Bindings: WorkerEnv }>;

/** Reads, verifies and takes one callback; null when its body is too large to be a receipt. */
async function receipt(c: DeliveryContext, provider: ReceiptProvider, token?: string) {
  const length = Number(c.req.raw.headers.get('content-length') ?? 0);
  if (length > MAX_RECEIPT_BYTES) return null;
  const body = await c.req.text();
  if (body.length > MAX_RECEIPT_BYTES) return null;
  const at = now(c);
  const receipts = await verifiedReceipts(c.get('config'), provider, { body, headers: c.req.raw.headers, token }, at);
  return takeReceipts(c.env.DB, provider, receipts, at);
}

/**
 * The delivery capability's calls: the providers' status callbacks (receipts.ts) and, in a local run the stand-in faults the e2e suite sets.
 */
export const deliveryRoutes = new Hono<{ Bindings: WorkerEnv }>()
  .post(`${RECEIPT_PATH}/twilio`, async (c) => {
    const taken = await receipt(c, 'twilio');
    return taken ? ok(c, taken) : fail(c, ERR.DELIVERY_RECEIPT_UNVERIFIED);
  })
  .post(`${RECEIPT_PATH}/ses`, async (c) => {
    const taken = await receipt(c, 'ses');
    return taken ? ok(c, taken) : fail(c, ERR.DELIVERY_RECEIPT_UNVERIFIED);
  })
  .post(`${RECEIPT_PATH}/:provider/:token`, async (c) => {
    // Checked here, not by a pattern in the path: a route pattern is no validation of what it matched.
    const provider = c.req.param('provider');
    if (provider !== 'aliyun' && provider !== 'tencent') return fail(c, ERR.NO_SUCH_API);
    const taken = await receipt(c, provider, c.req.param('token'));
    return taken ? ok(c, taken) : fail(c, ERR.DELIVERY_RECEIPT_UNVERIFIED);
  });

/** Local development only: tell a provider (stood in for by the outbox) to fail for one recipient or all ('*'). */
// /* @__PURE__ */: nothing mounts it in a deployed build (gateway/app.ts, PORTAL_DEPLOYED_BUILD), so esbuild drops it.
export const devDeliveryRoutes = /* @__PURE__ */ (() =>
  new Hono<EdgeBindings>().post(
    '/dev/delivery/faults',
    async (c, next) => (c.get('config').devRoutes ? next() : fail(c, ERR.NO_SUCH_API)),
    validate(
      'json',
      z.object({
        provider: z.enum(['aliyun', 'tencent', 'twilio', 'ses', 'webhook']),
        recipient: z.string().check(z.minLength(1), z.maxLength(254)),
        mode: z.nullable(z.enum(['down', 'hang', 'throttled', 'invalid'])),
      }),
    ),
    async (c) => {
      const { provider, recipient, mode } = c.req.valid('json');
      await setDevFault(c.env.DB, provider, recipient, mode);
      return ok(c, null);
    },
  ))();
