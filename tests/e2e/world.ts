import { startServer } from '../../scripts/local-server.mjs';

/**
 * Each Playwright worker's own world: its own `wrangler dev` of the built Worker on its own port, with its own
 * local D1, R2 and Durable Objects (scripts/serve-e2e.mjs, persisted under .wrangler/e2e-PORT). Nothing one
 * worker writes (rows, the dev clock, a delivery breaker, a per-network cap) is seen by another, so the caps and
 * breakers are on in e2e as in production, and `--shard` can split the suite across machines.
 *
 * Playwright sets TEST_PARALLEL_INDEX in a worker before it loads any spec, so the port is known at import time
 * (specs use it in `test.use`). A worker that restarts after a failure has the same index: the old one's
 * server has stopped by then (worker fixtures are torn down before a worker exits).
 */
const BASE_PORT = Number(process.env.E2E_BASE_PORT ?? 8800);
export const E2E_PORT = BASE_PORT + Number(process.env.TEST_PARALLEL_INDEX ?? 0);
/** PORTAL_ORIGIN of this worker's server: sign-in links and the OpenID issuer are built on it. */
export const PORTAL_ORIGIN = `http://127.0.0.1:${E2E_PORT}`;
/** The same server as localhost: browsers refuse an IP address as a passkey relying party (PASSKEY_ORIGINS). */
export const PASSKEY_ORIGIN = `http://localhost:${E2E_PORT}`;
/** The same server on the partners' host name (NAVIGATOR_ORIGIN). */
export const NAVIGATOR_ORIGIN = `http://navigator.localhost:${E2E_PORT}`;
/** Where this worker's server keeps its D1, R2 and Durable Objects (the operator command writes there too). */
export const PERSIST_DIR = `.wrangler/e2e-${E2E_PORT}`;

/** Starts this worker's server (scripts/serve-e2e.mjs on E2E_PORT); resolves once /login answers. */
export async function startWorldServer(): Promise<{ origin: string; stop: () => Promise<void> }> {
  const { stop } = await startServer(process.execPath, ['scripts/serve-e2e.mjs'], {
    base: PORTAL_ORIGIN,
    env: { ...process.env, E2E_PORT: String(E2E_PORT) },
    // wrangler's warnings and errors reach the run's output; its request log does not.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { origin: PORTAL_ORIGIN, stop };
}
