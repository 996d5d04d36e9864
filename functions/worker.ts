import { Hono } from 'hono';
import type { EdgeBindings } from './env';
import { securityHeaders } from './edge/headers';
import { apiProxy } from './edge/proxy';
import { servePage } from './edge/shells';
import { destinationRoutes } from './edge/destinations';
import { regionRedirect } from './edge/region';
import { handoffIntake } from './edge/handoff';
import { sourceOrigin } from './edge/source-origin';
import { sessionRedirect } from './edge/session-redirect';
import { startupCheck } from './edge/startup-check';
import { withConfig } from './config';
import { prune } from './gateway/services/prune';

/** The composition root: every request of the portal passes through here, in this order. */
const app = new Hono<EdgeBindings>();

app.use('*', securityHeaders);
app.use('*', startupCheck, withConfig);
app.use('*', regionRedirect, handoffIntake, sourceOrigin, sessionRedirect);
app.route('/api', apiProxy);
app.route('/go', destinationRoutes);
app.on(['GET', 'HEAD'], '*', servePage);
app.all('*', (c) => c.text('Method Not Allowed', 405, { Allow: 'GET, HEAD' }));

/** The Cron Trigger of wrangler.toml ([triggers] crons): old rows go, by the retentions of services/prune.ts. */
async function scheduled(controller: ScheduledController, env: EdgeBindings['Bindings']): Promise<void> {
  const deleted = await prune(env.DB, controller.scheduledTime);
  console.log('pruned', JSON.stringify(deleted));
}

export default Object.assign(app, { scheduled }) satisfies ExportedHandler<EdgeBindings['Bindings']>;
