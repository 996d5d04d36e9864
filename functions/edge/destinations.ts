import { Hono } from 'hono';
import type { EdgeBindings } from '../env';
import { now } from '../gateway/services/clock';
import { findSession, idleTimeoutMs } from '../gateway/services/sessions';
import { handoffKeys } from './handoff-keys';
import { createHandoffBlob, handoffClaims } from './handoff-blob';
import { buildRedirect, safeRedirect } from './redirect-target';
import { sessionTokenOf } from './session-cookies';

/**
 * `/go/web_app` and `/go/web_home`: the platform's destinations after sign-in (configuration; locally pages
 * of this portal). A signed-in person sent to another origin carries a fresh 60-second hand-off blob in
 * `token`, sealed for that site's audience, so the other site can open its own session.
 */
export const destinationRoutes = new Hono<EdgeBindings>().get('/:target{web_app|web_home}', async (c) => {
  const config = c.var.config;
  const configured = c.req.param('target') === 'web_app' ? config.webAppUrl : config.webHomeUrl;
  const target = safeRedirect(configured, config.redirect);
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
  // A path stays on this site; so does an absolute target on one of this Worker's own configured sites.
  if (target.startsWith('/')) return c.redirect(target, 302);
  const destination = new URL(target);
  const ownSite = [config.portalOrigin, config.navigatorOrigin].includes(destination.origin);

  const token = sessionTokenOf(c);
  const [key] = await handoffKeys(config);
  const query = new URLSearchParams(destination.search);
  if (!ownSite && token && key) {
    const session = await findSession(c.env.DB, token, now(c), idleTimeoutMs(c.env));
    if (session) {
      const claims = handoffClaims({ sub: session.user_id, aud: config.webAppAudience, purpose: 'session', now: now(c) });
      query.set('token', await createHandoffBlob(key, claims));
    }
  }
  const parts = { origin: destination.origin, path: destination.pathname, query, hash: destination.hash };
  return c.redirect(buildRedirect(parts, config.redirect), 302);
});
