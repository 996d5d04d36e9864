import { Hono } from 'hono';
import type { EdgeBindings } from '../../env';
import { sliderInitRequest, sliderVerifyRequest } from '../../../src/schemas/auth';
import { readJson } from '../body';
import { ok } from '../errors';
import { createChallenge, verifySlider } from '../services/captcha';
import { now } from '../services/clock';

/**
 * The slider captcha (CAPTCHA_PROVIDER "slider"). A Turnstile provider would add its own verify route here
 * that checks the widget token with Cloudflare and answers the same sliderCheck.
 */
export const captchaRoutes = new Hono<EdgeBindings>()
  .post('/agg-web/captcha/slider/init', async (c) => {
    const body = await readJson(c, sliderInitRequest);
    return ok(c, await createChallenge(c.env, { ...body, now: now(c) }));
  })
  .post('/agg-web/captcha/slider/verify', async (c) => {
    const body = await readJson(c, sliderVerifyRequest);
    return ok(c, await verifySlider(c.env, { ...body, now: now(c) }));
  });
