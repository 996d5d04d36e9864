import type { MiddlewareHandler } from 'hono';
import type { EdgeBindings } from '../env';

/**
 * A deployed Worker (var ENVIRONMENT "production" or "staging") refuses to serve while its configuration is
 * incomplete: every answer is a 500 naming what is missing, and the reason goes to the log once per isolate.
 * Without this, a missing secret shows up only when the first person needs it (a hand-off refused, a password
 * call failing closed, a code that cannot be sent), long after the deploy that caused it.
 * Locally (no ENVIRONMENT) nothing is checked: the dev stand-ins of DEV_OUTBOX apply there.
 */

/** Secrets a deployed Worker needs (`wrangler secret put NAME --env production`). */
export const REQUIRED_SECRETS = ['HANDOFF_KEY', 'PASSWORD_PEPPER', 'DELIVERY_WEBHOOK_SECRET', 'CAPTCHA_SECRET'] as const;

/** What the check reads; ENVIRONMENT is set only by the named environments of wrangler.toml. */
type StartupEnv = {
  ENVIRONMENT?: string;
  DEV_OUTBOX?: string;
  DEV_TRUST_CLIENT_IP_HEADER?: string;
  DELIVERY?: string;
  DELIVERY_WEBHOOK_URL?: string;
  PORTAL_ORIGIN?: string;
  NAVIGATOR_ORIGIN?: string;
} & Partial<
  Record<(typeof REQUIRED_SECRETS)[number], string>
>;

export const isDeployed = (env: StartupEnv) => env.ENVIRONMENT === 'production' || env.ENVIRONMENT === 'staging';

/** Every configuration problem of a deployed Worker, each naming the setting to fix; empty when it may serve. */
export function configurationProblems(env: StartupEnv): string[] {
  if (!isDeployed(env)) return [];
  const problems = REQUIRED_SECRETS.filter((name) => !env[name]?.trim()).map((name) => `missing secret ${name}`);
  if (!env.DELIVERY_WEBHOOK_URL?.trim()) problems.push('missing variable DELIVERY_WEBHOOK_URL');
  if (env.DELIVERY !== 'webhook') problems.push('DELIVERY must be "webhook"');
  // The dev outbox would publish every code at /api/dev/outbox.
  if (env.DEV_OUTBOX === 'true') problems.push('DEV_OUTBOX must not be "true"');
  // Any client could then name itself and reset every per-IP limit.
  if (env.DEV_TRUST_CLIENT_IP_HEADER === 'true') problems.push('DEV_TRUST_CLIENT_IP_HEADER must not be "true"');
  // Sign-in links and the cross-site check are built on these, never on the request's Host.
  for (const name of ['PORTAL_ORIGIN', 'NAVIGATOR_ORIGIN'] as const) {
    if (!/^https:\/\/[^/?#@\s]+$/.test(env[name] ?? '')) problems.push(`${name} must be an https origin`);
  }
  return problems;
}

// The bindings object is the same for every request of an isolate, so this runs once per isolate (and once
// per env object in tests).
const checked = new WeakMap<object, string[]>();

export const startupCheck: MiddlewareHandler<EdgeBindings> = async (c, next) => {
  const env = c.env as unknown as StartupEnv & object;
  let problems = checked.get(env);
  if (!problems) {
    problems = configurationProblems(env);
    checked.set(env, problems);
    if (problems.length) console.error(`startup check: refusing to serve (${env.ENVIRONMENT}): ${problems.join('; ')}`);
  }
  if (problems.length === 0) return next();
  c.header('Cache-Control', 'no-store');
  return c.text(`This service is not configured: ${problems.join('; ')}.\n`, 500);
};
