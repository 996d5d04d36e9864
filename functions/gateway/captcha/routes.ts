import { Hono } from 'hono';
import type { EdgeBindings } from '../../env';
import { sliderInitRequest, sliderVerifyRequest, turnstileVerifyRequest } from '../../../src/schemas/auth';
import { clientIp, fail, ok } from '../errors';
import { validate } from '../validate';
import { createChallenge, verifySlider } from './service';
import { now } from '../../contract';
import { verifyTurnstile } from './turnstile';
import { ERR } from '../../../src/schemas/error-codes';


/**
 * The human check. `slider/init` answers a slider challenge, or with Turnstile configured the widget's site
 * key; the browser then verifies at `slider/verify` or `turnstile/verify`, and both answer a sliderCheck.
 * The other provider's verify route does not exist (GW0404).
 */
export const captchaRoutes = new Hono<EdgeBindings>()
  .post('/agg-web/captcha/slider/init', validate('json', sliderInitRequest), async (c) => {
    const body = c.req.valid('json');
    if (c.get('config').captchaProvider === 'turnstile') return ok(c, { provider: 'turnstile' as const, siteKey: c.get('config').turnstileSiteKey });
    return ok(c, await createChallenge(c.env, { ...body, ip: clientIp(c), now: now(c) }));
  })
  .post('/agg-web/captcha/slider/verify', validate('json', sliderVerifyRequest), async (c) => {
    if (c.get('config').captchaProvider === 'turnstile') return fail(c, ERR.NO_SUCH_API);
    return ok(c, await verifySlider(c.env, { ...c.req.valid('json'), now: now(c) }));
  })
  .post('/agg-web/captcha/turnstile/verify', validate('json', turnstileVerifyRequest), async (c) => {
    if (c.get('config').captchaProvider !== 'turnstile') return fail(c, ERR.NO_SUCH_API);
    return ok(c, await verifyTurnstile(c.env, { ...c.req.valid('json'), ip: clientIp(c), now: now(c) }));
  });
