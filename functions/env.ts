/**
 * Bindings of the Worker. `Env` is generated from wrangler.toml by `wrangler types` (npm run typegen) into the
 * committed functions/worker-configuration.d.ts, secrets included (wrangler.toml `[env.*.secrets] required`).
 * Vars and secrets are read only through the typed configuration (functions/config.ts, `c.get('config')`).
 */
export type WorkerEnv = Env;

export type EdgeBindings = { Bindings: WorkerEnv };
