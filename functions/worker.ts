import { Hono } from 'hono';
import type { EdgeBindings } from './env';
import { MemoRouter } from './memo-router';
import { systemClock, type Clock } from './contract';
import { createGateway, gatewayConfigurationProblems } from './gateway/app';
import { securityHeaders } from './edge/headers';
import { createApiProxy, type GatewayFetch } from './edge/proxy';
import { builtShells, servePage, type ShellSource } from './edge/shells';
import { destinationRoutes } from './edge/destinations';
import { oidcRoutes } from './edge/oidc';
import { regionRedirect } from './edge/region';
import { handoffContinue, handoffIntake, HANDOFF_CONTINUE_PATH } from './edge/handoff';
import { sourceOrigin } from './edge/source-origin';
import { sessionRedirect } from './edge/session-redirect';
import { configurationProblemsOf, edgeConfigurationProblems, startupCheck } from './edge/startup-check';
import { requestLog } from './edge/request-log';
import { configOf, withConfig } from './config';
import { prune } from './gateway/maintenance/prune';
import { rotateKeys } from './gateway/oidc/keys';
import { countLegacyShare } from './gateway/sign-in/db';
import { tellConnectedApps } from './gateway/oidc/logout';
import { endRunOutViews } from './gateway/support/service';
import { DATA_RIGHTS_CRON, runDataRightsJob } from './gateway/data-rights/jobs';
import { runRegistryRechecks } from './gateway/registry/service';
import { deliverWebhooks } from './gateway/webhooks/delivery';
import { pruneExports } from './gateway/company-trail/service';

// The Durable Object classes of wrangler.toml are exports of the Worker's entry; the class lives with its capability.
export { DeliveryBreaker } from './gateway/delivery/breaker';

/**
 * Every configuration problem of this Worker, the gateway's and the edge's, each naming the setting to fix;
 * empty when it may serve (edge/startup-check.ts).
 */
export function configurationProblems(env: object): string[] {
  return configurationProblemsOf(env, [gatewayConfigurationProblems, edgeConfigurationProblems]);
}

/**
 * The composition root: every request of the portal passes through here, in this order. `clock` is the one
 * clock of edge and embedded gateway (`now(c)`, functions/contract.ts); tests pass a fake one.
 * `shells` is where pages come from: the build's assets, or Astro's dev renderer under `npm run dev`.
 * The edge reaches the gateway only through `toGateway` (GATEWAY_URL when set, else the embedded one).
 */
export function createWorker(options: { clock?: Clock; shells?: ShellSource } = {}): Hono<EdgeBindings> {
  const clock = options.clock ?? systemClock;
  const shells = options.shells ?? builtShells;
  const gateway = createGateway({ clock });
  const toGateway: GatewayFetch = (request, env, ctx) => gateway.fetch(request, env, ctx);
  const app = new Hono<EdgeBindings>({ router: new MemoRouter() });
  app.use('*', async (c, next) => {
    c.set('now', clock);
    c.set('shellSource', shells);
    await next();
  });
  app.use('*', securityHeaders);
  // The configuration is parsed (and checked) before anything reads it, the request log included.
  app.use('*', startupCheck(configurationProblems), withConfig, requestLog);
  app.use('*', regionRedirect, handoffIntake(toGateway), sourceOrigin, sessionRedirect);
  app.route('/api', createApiProxy(toGateway));
  app.route('/go', destinationRoutes(toGateway));
  app.route('/', oidcRoutes(toGateway));
  app.post(HANDOFF_CONTINUE_PATH, handoffContinue(toGateway));
  app.on(['GET', 'HEAD'], '*', servePage);
  app.all('*', (c) => c.text('Method Not Allowed', 405, { Allow: 'GET, HEAD' }));
  return app;
}

/**
 * The Cron Triggers of wrangler.toml ([triggers] crons). Every minute: connected apps are told of ended sessions
 * and failed back-channel logouts are retried (gateway/oidc/logout.ts), support views that ran out end and their
 * person is told (gateway/support/service.ts), then the data-rights job makes copies and
 * erases closed accounts (gateway/data-rights/jobs.ts), and event webhooks are sent (gateway/webhooks/delivery.ts).
 * Hourly: old rows go, by the retentions of maintenance/prune.ts, expired exports of company trails
 * (gateway/company-trail/), the OpenID signing keys rotate (gateway/oidc/keys.ts), the share of legacy password
 * records is counted again (gateway/sign-in/legacy-decoy.ts), and the approved mainland companies due are checked
 * against the business registry again (gateway/registry/service.ts: each once a month).
 */
async function scheduled(controller: ScheduledController, env: EdgeBindings['Bindings']): Promise<void> {
  const told = await tellConnectedApps(env, controller.scheduledTime);
  if (told.sent + told.failed > 0) console.log('back-channel logouts', JSON.stringify(told));
  // Event webhooks due now (gateway/webhooks/delivery.ts): every minute, retries on their schedule.
  const hooks = await deliverWebhooks(env, controller.scheduledTime);
  if (hooks.delivered + hooks.failed + hooks.dead > 0) console.log('event webhooks', JSON.stringify(hooks));
  // Support views that ran out (30 minutes) end and the person is told (gateway/support/service.ts).
  const views = await endRunOutViews(env, controller.scheduledTime);
  if (views.ended > 0) console.log('support views ended', JSON.stringify(views));
  if (controller.cron === DATA_RIGHTS_CRON) {
    console.log('data rights', JSON.stringify(await runDataRightsJob(env, controller.scheduledTime)));
    return;
  }
  // The WeChat stand-in's rows too while it is on (a local run, DEV_OUTBOX).
  const deleted = await prune(env.DB, controller.scheduledTime, { standIns: configOf(env).wechatStandIn });
  console.log('pruned', JSON.stringify(deleted));
  console.log('audit exports removed', await pruneExports(env, controller.scheduledTime));
  console.log('signing keys', JSON.stringify(await rotateKeys(env, controller.scheduledTime)));
  // The share of unknown names that answer SY9990 follows the share of legacy records (sign-in/legacy-decoy.ts).
  console.log('legacy password share', await countLegacyShare(env.DB));
  // Approved mainland companies against the business registry, each once a month (gateway/registry/service.ts).
  console.log('registry re-checks', JSON.stringify(await runRegistryRechecks(env, controller.scheduledTime)));
}

/** The hourly one of wrangler.toml's crons (the other runs every minute). */
const HOURLY_CRON = '17 * * * *';

export default Object.assign(createWorker(), { scheduled }) satisfies ExportedHandler<EdgeBindings['Bindings']>;
