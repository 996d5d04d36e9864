import { Hono } from 'hono';
import { wechatBindPhoneRequest, wechatCallbackRequest, wechatStartRequest, wechatUnbindRequest } from '../../../src/schemas/wechat';
import type { WorkerEnv } from '../../env';
import { now } from '../../contract';
import { clientIp, fail, ok, requestLang } from '../errors';
import { requireFreshProof } from '../identity/proof';
import { requireSession } from '../sessions/service';
import { type SessionVariables } from '../identity/db/sessions';
import { validate } from '../validate';
import { ERR } from '../../../src/schemas/error-codes';
import { bindingsOf, bindPhone, methodsOf, startFlow, takeCallback, unbind } from './service';
import { standIn } from './stand-in';

type WechatEnv = { Bindings: WorkerEnv; Variables: SessionVariables };

/**
 * Sign in with WeChat and WeCom (rules in wechat/service.ts). The sign-in calls answer the login answer of every
 * sign-in; `data.wechatFlow` (the browser's secret) is moved by the edge into the HttpOnly WeChat cookie.
 * Bind and unbind are user-center writes: a session, a fresh proof, and the edge's cross-site refusal of /api.
 */
export const wechatRoutes = new Hono<WechatEnv>()
  .get('/agg-web/wechat/methods', (c) => ok(c, methodsOf(c.get('config'), requestLang(c))))
  .post('/agg-web/wechat/start', validate('json', wechatStartRequest), async (c) => {
    const { method, profile } = c.req.valid('json');
    return ok(c, await startFlow(c, method, 'sign-in', null, profile));
  })
  .post('/agg-web/wechat/callback', validate('json', wechatCallbackRequest), async (c) => {
    const { code, state } = c.req.valid('json');
    return takeCallback(c, code, state);
  })
  .post('/agg-web/wechat/bindPhone', validate('json', wechatBindPhoneRequest, { code: (issues) => (issues.some((issue) => issue.path[0] === 'agreed') ? ERR.AGREEMENT_NOT_ACCEPTED : ERR.REQUEST_INVALID) }), async (c) =>
    bindPhone(c, c.req.valid('json')),
  )
  .get('/agg-web/user/wechat/bindings', requireSession, async (c) => ok(c, await bindingsOf(c.env.DB, c.get('user').id)))
  .post('/agg-web/user/wechat/bind', requireSession, requireFreshProof, validate('json', wechatStartRequest), async (c) => {
    const { method, profile } = c.req.valid('json');
    return ok(c, await startFlow(c, method, 'bind', c.get('user').id, profile));
  })
  .post('/agg-web/user/wechat/unbind', requireSession, requireFreshProof, validate('json', wechatUnbindRequest), async (c) => {
    await unbind(c.env, c.get('user').id, c.req.valid('json').provider, now(c), clientIp(c));
    return ok(c, null);
  });

/** The local stand-in of WeChat and WeCom at /dev/wechat (wechat/stand-in.ts); 404 unless DEV_OUTBOX is "true". */
// /* @__PURE__ */: nothing mounts it in a deployed build (gateway/app.ts, PORTAL_DEPLOYED_BUILD), so esbuild drops it.
export const wechatStandInRoutes = /* @__PURE__ */ (() =>
  new Hono<WechatEnv>()
    .use('/dev/wechat/*', async (c, next) => {
      if (!c.get('config').devRoutes || !c.get('config').wechatStandIn) return fail(c, ERR.NO_SUCH_API);
      await next();
    })
    .route('/dev/wechat', standIn)
)();
