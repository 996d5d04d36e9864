/**
 * Bindings of the Worker. `Env` is generated from wrangler.toml by `wrangler types` (npm run typegen);
 * secrets, which wrangler.toml does not list, are added here as issues need them.
 */
export type WorkerEnv = Env;

export type EdgeBindings = { Bindings: WorkerEnv };
