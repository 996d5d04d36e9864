import { Hono } from 'hono';
import { withBindings, withConfig, type Config } from '../config';
import type { EdgeBindings } from '../env';
import { MemoRouter } from '../memo-router';
import { fail, GatewayError } from './errors';
import { blockedAnswer } from './account/support';
import { dictionaryRoutes } from './places/dictionaries-routes';
import { legalRoutes } from './legal/routes';
import { accountRoutes } from './account/routes';
import { authRoutes } from './sign-in/routes';
import { vesselRoutes } from './vessels/routes';
import { grantRoutes } from './grants/routes';
import { grantOpsRoutes } from './grants/ops-routes';
import { signInSecondStepRoutes } from './sign-in/second-step-routes';
import { devUserRoutes } from './dev/users-routes';
import { captchaRoutes } from './captcha/routes';
import { powProblems } from './captcha/service';
import { codeRoutes } from './codes/routes';
import { devRoutes } from './dev/routes';
import { passwordRoutes } from './password/routes';
import { partnerRoutes } from './sign-in/partner-routes';
import { trackingRoutes } from './tracking/routes';
import { systemClock, type Clock } from '../contract';
import { devClockOffset } from './dev/db';
import { d1MeterOn, meteredD1 } from './dev/d1-meter';
import { deliveryProblems } from './delivery/select';
import { proofRoutes } from './step-up/routes';
import { companyRoutes } from './companies/routes';
import { fileRoutes } from './files/routes';
import { placeRoutes } from './places/routes';
import { loginLinkRoutes } from './login-links/routes';
import { securityRoutes } from './sessions/routes';
import { deviceRoutes } from './devices/routes';
import { passkeyRoutes } from './passkeys/routes';
import { twoStepRoutes } from './second-step/routes';
import { operatorRoutes } from './operators/routes';
import { opsAuthRoutes } from './operators/sign-in-routes';
import { opsPeopleRoutes } from './people/routes';
import { opsReviewRoutes } from './review/routes';
import { devRegistryRoutes, opsRegistryRoutes, registryRoutes } from './registry/routes';
import { handoffRoutes } from './handoff/routes';
import { destinationRoutes } from './destinations/routes';
import { oidcPersonRoutes, oidcRoutes, tellsConnectedApps } from './oidc/routes';
import { OAuthError } from './oidc/clients';
import { oidcConsoleRoutes } from './oidc/console-routes';
import { companyClientRoutes } from './oidc/company-clients-routes';
import { companyDomainRoutes } from './company-sso/routes';
import { dataRightsRoutes } from './data-rights/routes';
import { deliveryRoutes, devDeliveryRoutes } from './delivery/routes';
import { wechatRoutes, wechatStandInRoutes } from './wechat/routes';
import { wechatProblems } from './wechat/settings';
import { webhookConsoleRoutes, webhookRoutes } from './webhooks/routes';
import { companyTrailRoutes } from './company-trail/routes';
import { supportOpsRoutes, supportRoutes } from './support/routes';
import { ERR } from '../../src/schemas/error-codes';

/**
 * The embedded gateway: the platform's account calls (portal-spec.md §7 lists them) on D1 and R2, each answering
 * the `{ code, message, data }` envelope.
 * Paths are the gateway's own (`/agg-web/...`, `/c/...`); the edge proxy strips `/api` before calling it.
 * `clock` is where every route reads the time (`now(c)`); tests pass a fake one instead of sleeping.
 */
export function createGateway(options: { clock?: Clock } = {}): Hono<EdgeBindings> {
  const clock = options.clock ?? systemClock;
  const app: Hono<EdgeBindings> = new Hono<EdgeBindings>({ router: new MemoRouter() })
    .use('*', async (c, next) => {
      c.set('now', clock);
      await next();
    })
    .use('*', withConfig)
    // A local run's clock may be moved (POST /dev/clock, offset in D1, read once per isolate); never when deployed.
    .use('*', async (c, next) => {
      if (typeof PORTAL_DEPLOYED_BUILD === 'undefined' && c.get('config').devRoutes) {
        const offset = await devClockOffset(c.env.DB);
        if (offset !== 0) c.set('now', () => clock() + offset);
        // npm run load's count of D1 work per request (dev/d1-meter.ts), once turned on.
        if (d1MeterOn()) c.env = withBindings(c.env, { DB: meteredD1(c.env.DB) });
      }
      await next();
    })
    // Calls that can end a person's sessions: the connected apps of those sessions are told afterwards (oidc/logout.ts).
    .use('/c/user/v2/loginout', tellsConnectedApps)
    .use('/agg-web/user/security/sessions/*', tellsConnectedApps)
    .use('/agg-web/user/password/reset', tellsConnectedApps)
    .use('/agg-web/user/changePassword', tellsConnectedApps)
    .use('/ops/v1/people/:id/signOut', tellsConnectedApps)
    .use('/ops/v1/people/:id/block', tellsConnectedApps)
    .route('/', dictionaryRoutes)
    .route('/', legalRoutes)
    .route('/', authRoutes)
    .route('/', accountRoutes)
    .route('/', codeRoutes)
    .route('/', captchaRoutes)
    .route('/', companyRoutes)
    .route('/', vesselRoutes)
    .route('/', grantRoutes)
    .route('/', grantOpsRoutes)
    .route('/', fileRoutes)
    .route('/', placeRoutes)
    .route('/', passwordRoutes)
    .route('/', partnerRoutes)
    .route('/', trackingRoutes)
    .route('/', loginLinkRoutes)
    .route('/', signInSecondStepRoutes)
    .route('/', deviceRoutes)
    .route('/', securityRoutes)
    .route('/', passkeyRoutes)
    .route('/', twoStepRoutes)
    .route('/', proofRoutes)
    .route('/', operatorRoutes)
    .route('/', opsAuthRoutes)
    .route('/', opsPeopleRoutes)
    .route('/', opsReviewRoutes)
    .route('/', registryRoutes)
    .route('/', opsRegistryRoutes)
    .route('/', handoffRoutes)
    .route('/', destinationRoutes)
    .route('/', oidcRoutes)
    .route('/', oidcPersonRoutes)
    .route('/', oidcConsoleRoutes)
    .route('/', companyClientRoutes)
    .route('/', companyDomainRoutes)
    .route('/', dataRightsRoutes)
    .route('/', deliveryRoutes)
    .route('/', wechatRoutes)
    .route('/', webhookRoutes)
    .route('/', webhookConsoleRoutes)
    .route('/', companyTrailRoutes)
    .route('/', supportRoutes)
    .route('/', supportOpsRoutes);
  // Local runs only: the /dev helpers and the providers' stand-ins. A deployed build (wrangler.toml `define`s
  // PORTAL_DEPLOYED_BUILD for staging and production) has none of their code, so nothing can turn them on there.
  if (typeof PORTAL_DEPLOYED_BUILD === 'undefined') app.route('/', devUserRoutes).route('/', devRoutes).route('/', devRegistryRoutes).route('/', devDeliveryRoutes).route('/', wechatStandInRoutes);
  app
    .notFound((c) => {
      // A known path asked with another method is a 405, not a 404.
      const known = app.routes.some((route) => route.path === c.req.path && route.method !== 'ALL');
      return fail(c, known ? ERR.METHOD_NOT_ALLOWED : ERR.NO_SUCH_API);
    })
    .onError((error, c) => {
      // A blocked account is told how to reach support, from configuration (issue 33).
      if (error instanceof GatewayError && error.code === ERR.ACCOUNT_BLOCKED) return blockedAnswer(c);
      if (error instanceof GatewayError) return fail(c, error.code, error.data);
      // The OpenID endpoints answer OAuth's own errors (oidc/routes.ts); this catches any that reach here.
      if (error instanceof OAuthError) return c.json({ error: error.error, error_description: error.description }, error.status, { 'Cache-Control': 'no-store' });
      // The trace id the edge gave this call, which the person sees with the error and can quote.
      console.error('gateway error', { traceId: c.req.header('traceid') }, error instanceof Error ? error.stack : error);
      return fail(c, ERR.SERVER_ERROR);
    });
  return app;
}

export const gateway = createGateway();

/**
 * What a deployed gateway cannot serve without, for the startup check: each channel's provider with its keys,
 * since a missing one would show only when the first code cannot be sent.
 */
export function gatewayConfigurationProblems(config: Config): string[] {
  return [...deliveryProblems(config), ...powProblems(config), ...wechatProblems(config)];
}
