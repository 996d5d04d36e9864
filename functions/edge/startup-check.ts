import type { MiddlewareHandler } from 'hono';
import { ConfigError, configOf, missingSecrets, REQUIRED_SECRETS, type Config } from '../config';
import type { EdgeBindings } from '../env';

/**
 * A Worker whose configuration is malformed, or a deployed Worker (ENVIRONMENT "production" or "staging")
 * whose configuration is incomplete, refuses to serve: every answer is a 500 naming what to fix, and the
 * reason goes to the log once per isolate. Without this, a missing secret shows up only when the first person
 * needs it (a hand-off refused, a password call failing closed, a code that cannot be sent), long after the
 * deploy that caused it. Locally (no ENVIRONMENT) secrets are not required: the dev stand-ins apply there.
 */

export { REQUIRED_SECRETS };

/** What one side checks of a deployed configuration: each problem names the setting to fix. */
export type ConfigurationCheck = (config: Config) => string[];

/**
 * Every configuration problem, each naming the setting to fix; empty when the Worker may serve. The parse and
 * the missing secrets come first, then `checks` in order (the composition root passes the gateway's and the
 * edge's).
 */
export function configurationProblemsOf(env: object, checks: readonly ConfigurationCheck[]): string[] {
  let config;
  try {
    config = configOf(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  if (!config.deployed) return [];
  return [...missingSecrets(config).map((name) => `missing secret ${name}`), ...checks.flatMap((check) => check(config))];
}

/** What a deployed edge must not run with. */
export const edgeConfigurationProblems: ConfigurationCheck = (config) => {
  const problems: string[] = [];
  // Each local stand-in would weaken a deployed site; the outbox would publish every code at /api/dev/outbox.
  const devStandIns = [config.outboxDelivery, config.devRoutes, config.devPepper, config.devHandoffKey, config.devTwoStepKey, config.httpLocalhostRedirects, config.wechatStandIn];
  if (devStandIns.some(Boolean)) problems.push('DEV_OUTBOX must not be "true"');
  // Any client could then name itself and reset every per-IP limit, or pick its country.
  if (config.trustClientIpHeader) problems.push('DEV_TRUST_CLIENT_IP_HEADER must not be "true"');
  if (config.trustCountryHeader) problems.push('DEV_TRUST_COUNTRY_HEADER must not be "true"');
  // Sign-in links and the cross-site check are built on these, never on the request's Host.
  if (!config.portalOrigin?.startsWith('https://')) problems.push('PORTAL_ORIGIN must be an https origin');
  if (!config.navigatorOrigin?.startsWith('https://')) problems.push('NAVIGATOR_ORIGIN must be an https origin');
  return problems;
};

// The bindings object is the same for every request of an isolate, so this runs once per isolate (and once
// per env object in tests).
const checked = new WeakMap<object, string[]>();

/** The middleware that refuses to serve while `configurationProblems` names anything. */
export const startupCheck = (configurationProblems: (env: object) => string[]): MiddlewareHandler<EdgeBindings> => async (c, next) => {
  const env = c.env as object;
  let problems = checked.get(env);
  if (!problems) {
    problems = configurationProblems(env);
    checked.set(env, problems);
    if (problems.length) console.error(`startup check: refusing to serve: ${problems.join('; ')}`);
  }
  if (problems.length === 0) return next();
  c.header('Cache-Control', 'no-store');
  return c.text(`This service is not configured: ${problems.join('; ')}.\n`, 500);
};
