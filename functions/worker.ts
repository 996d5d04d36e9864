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

/** The composition root: every request of the portal passes through here, in this order. */
const app = new Hono<EdgeBindings>();

app.use('*', securityHeaders);
app.use('*', startupCheck, withConfig);
app.use('*', regionRedirect, handoffIntake, sourceOrigin, sessionRedirect);
app.route('/api', apiProxy);
app.route('/go', destinationRoutes);
app.on(['GET', 'HEAD'], '*', servePage);
app.all('*', (c) => c.text('Method Not Allowed', 405, { Allow: 'GET, HEAD' }));

export default app;
