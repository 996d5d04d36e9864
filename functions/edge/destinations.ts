import { Hono } from 'hono';
import { SUCCESS_CODE } from '../../src/schemas/envelope';
import { destinationTokenAnswer } from '../../src/schemas/handoff';
import type { EdgeBindings } from '../env';
import { callGateway, type GatewayFetch } from './gateway-call';
import { buildRedirect, safeRedirect } from './redirect-target';
import { sessionTokenOf } from './session-cookies';

/** The gateway's blob for /go (functions/gateway/destinations/routes.ts). */
const TOKEN_PATH = '/edge/v1/destinations/token';

/**
 * `/go/web_app`, `/go/web_home` and `/go/partner_app` (PARTNER_APP_URL, a partner with no company): the
 * platform's destinations after sign-in (configuration; locally pages
 * of this portal). A signed-in person sent to another origin carries a fresh 60-second hand-off blob in
 * `token`, which the gateway seals for that site's audience, so the other site can open its own session.
 */
export const destinationRoutes = (embedded: GatewayFetch) =>
  new Hono<EdgeBindings>().get('/:target{web_app|web_home|partner_app}', async (c) => {
    const config = c.get('config');
    const which = c.req.param('target');
    const configured = which === 'web_app' ? config.webAppUrl : which === 'web_home' ? config.webHomeUrl : config.partnerAppUrl;
    const target = safeRedirect(configured, config.redirect);
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    // A path stays on this site; so does an absolute target on one of this Worker's own configured sites.
    if (target.startsWith('/')) return c.redirect(target, 302);
    const destination = new URL(target);
    const ownSite = [config.portalOrigin, config.navigatorOrigin].includes(destination.origin);

    const query = new URLSearchParams(destination.search);
    if (!ownSite && sessionTokenOf(c)) {
      const { answer } = await callGateway(c, embedded, { path: TOKEN_PATH, method: 'POST', edgeCall: true });
      const envelope = (await answer.json().catch(() => null)) as { code?: unknown; data?: unknown } | null;
      const parsed = envelope?.code === SUCCESS_CODE ? destinationTokenAnswer.safeParse(envelope.data) : undefined;
      // Without a blob the person still goes on, and signs in again over there.
      if (parsed?.success && parsed.data.token) query.set('token', parsed.data.token);
    }
    const parts = { origin: destination.origin, path: destination.pathname, query, hash: destination.hash };
    return c.redirect(buildRedirect(parts, config.redirect), 302);
  });
