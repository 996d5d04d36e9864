import { appendFileSync, cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { inject } from 'vitest';
import { getPlatformProxy } from 'wrangler';
import type { WorkerEnv } from '../../functions/env';
import { CHEAP_POW } from './pow-solver';
import { throttledD1 } from './throttled-d1';

/**
 * A real local D1 and R2 (miniflare, through wrangler) for function tests: each call gets its own fresh
 * persisted state, a copy of the run's migrated template (global-setup.ts), so test files never see each
 * other's rows and none replays the migrations. `vars` overrides
 * bindings, vars and secrets (also those `Env` does not type, such as HANDOFF_KEY_PREVIOUS); functions/config.ts
 * parses them like the deployed ones. The human check's proof of work is made cheap (CHEAP_POW) unless `vars`
 * says otherwise: the tests check that it is demanded and verified, not how long it takes (`npm run bench` does).
 */
export async function startWorkerEnv(name: string, vars: Record<string, unknown> = {}) {
  const started = performance.now();
  const persist = join('.wrangler', 'functions', `${name}-${process.pid}`);
  rmSync(persist, { recursive: true, force: true });
  cpSync(inject('d1Template'), persist, { recursive: true });
  const proxy = await getPlatformProxy<WorkerEnv>({ configPath: 'wrangler.toml', persist: { path: persist } });
  const breakers = await startBreakers(join(persist, 'breakers'));
  // D1 is reached through a bridge that drops sockets under bursts; throttledD1 queues only the transport.
  const env = { ...proxy.env, DB: throttledD1(proxy.env.DB), DELIVERY_BREAKERS: breakers.namespace, ...CHEAP_POW, ...vars } as WorkerEnv;
  // waitUntil keeps the work (a message delivered after the answer) so that a test can await it: settle().
  const pending = new Set<Promise<unknown>>();
  const waitUntil = (work: Promise<unknown>) => {
    const kept: Promise<unknown> = Promise.resolve(work)
      .catch(() => undefined)
      .finally(() => pending.delete(kept));
    pending.add(kept);
  };
  const ctx = { waitUntil, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
  // README "Tests": the share of the function suite spent starting platforms, measured with FUNCTION_SETUP_LOG=<file>.
  if (process.env.FUNCTION_SETUP_LOG) appendFileSync(process.env.FUNCTION_SETUP_LOG, `${name}\t${(performance.now() - started).toFixed(0)}\n`);
  return {
    env,
    ctx,
    /** Resolves once every waitUntil task so far (and any they started) has settled. */
    async settle() {
      while (pending.size) await Promise.all([...pending]);
    },
    async dispose() {
      await Promise.all([proxy.dispose(), breakers.dispose()]);
      rmSync(persist, { recursive: true, force: true });
    },
  };
}

/**
 * The delivery breakers' Durable Object (wrangler.toml DELIVERY_BREAKERS) in a workerd of its own: wrangler's
 * platform proxy does not run Durable Objects whose class the Worker itself exports, so the class is bundled
 * from its source and served by miniflare, and its namespace handed to the Worker's env. The gateway reaches it
 * by fetch over miniflare's bridge, the way it reaches D1.
 */
async function startBreakers(persist: string) {
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: await breakerScript(),
      compatibilityDate: '2026-10-19',
      durableObjects: { DELIVERY_BREAKERS: { className: 'DeliveryBreaker', useSQLite: true } },
      resourcePersistencePath: persist,
    }),
  );
  const namespace = (await mf.getDurableObjectNamespace('DELIVERY_BREAKERS')) as unknown as WorkerEnv['DELIVERY_BREAKERS'];
  return { namespace, dispose: () => mf.dispose() };
}

/** The breaker class bundled once per test process (the files of a process share it: vitest.config.ts). */
let breakerBundle: Promise<string> | undefined;
function breakerScript(): Promise<string> {
  breakerBundle ??= build({
    stdin: { contents: "export { DeliveryBreaker } from './functions/gateway/delivery/breaker.ts'; export default { fetch: () => new Response(null, { status: 404 }) };", resolveDir: process.cwd(), loader: 'ts' },
    bundle: true,
    format: 'esm',
    write: false,
    platform: 'neutral',
  }).then((bundle) => bundle.outputFiles[0]!.text);
  return breakerBundle;
}

/** The settings of a deployed Worker (production), complete so that the startup check lets it serve. */
export const deployedVars = {
  ENVIRONMENT: 'production',
  DEV_OUTBOX: 'false',
  DEV_TRUST_COUNTRY_HEADER: 'false',
  DEV_TRUST_CLIENT_IP_HEADER: 'false',
  DELIVERY: 'webhook',
  DELIVERY_WEBHOOK_URL: 'https://sms.example.com/hook',
  HANDOFF_KEY: 'zuiqE9jfleZdxpPDwWhU2NYSu3D2TcoSo14VneEHAEE=',
  PASSWORD_PEPPER: 'pepper',
  DELIVERY_WEBHOOK_SECRET: 'hook',
  CAPTCHA_SECRET: 'captcha',
  TWO_STEP_KEY: 'T3d0LXN0ZXAta2V5LWZvci10ZXN0cy0zMmJ5dGVzISE=',
  OIDC_KEY: 'T2lkYy1zaWduaW5nLWtleS1mb3ItdGVzdHMtMzJieSE=',
  PORTAL_ORIGIN: 'https://portal.example.com',
  NAVIGATOR_ORIGIN: 'https://navigator.example.com',
  // What wrangler.toml's environments set: a deployed Worker refuses the tests' cheap proof of work (POW_FLOOR).
  CAPTCHA_POW_COST: '4000',
  CAPTCHA_POW_COUNTER: '1200',
} satisfies Partial<WorkerEnv> & Record<string, string>;
