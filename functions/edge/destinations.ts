import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import type { EdgeBindings } from '../env';
import { findSession } from '../gateway/services/sessions';
import { handoffKeys } from './handoff-keys';
import { createHandoffBlob, handoffClaims } from './handoff-blob';
import { safeRedirect } from './redirect-target';
import { tokenCookieName } from './session-cookies';

/**
 * `/go/web_app` and `/go/web_home`: the platform's destinations after sign-in (configuration; locally pages
 * of this portal). A signed-in person sent to another origin carries a fresh 60-second hand-off blob in
 * `token`, sealed for that site's audience, so the other site can open its own session.
 */
export const destinationRoutes = new Hono<EdgeBindings>().get('/:target{web_app|web_home}', async (c) => {
  const config = c.var.config;
  const configured = c.req.param('target') === 'web_app' ? config.webAppUrl : config.webHomeUrl;
  const target = safeRedirect(configured, config.redirect);
  const here = new URL(c.req.url);
  const destination = new URL(target, here);
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');

  const token = getCookie(c, tokenCookieName(here.hostname, config.navigatorHostLabel));
  const [key] = await handoffKeys(config);
  if (destination.origin !== here.origin && token && key) {
    const session = await findSession(c.env.DB, token, Date.now());
    if (session) {
      const claims = handoffClaims({ sub: session.user_id, aud: config.webAppAudience, purpose: 'session' });
      destination.searchParams.set('token', await createHandoffBlob(key, claims));
    }
  }
  return c.redirect(destination.origin === here.origin ? destination.pathname + destination.search : destination.toString(), 302);
});
