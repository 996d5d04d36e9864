// The built Worker under `wrangler dev` on a loopback port, for the load run and the benchmark.
import { spawn } from 'node:child_process';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function reachable(base) {
  try {
    return (await fetch(`${base}/login`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

/**
 * Starts scripts/serve-e2e.mjs on `port` (fresh local D1 under .wrangler/e2e-PORT) unless a server already
 * answers there; answers a function that stops what it started.
 */
export async function ensureServer(port) {
  const base = `http://127.0.0.1:${port}`;
  if (await reachable(base)) return () => {};
  console.log(`starting the built Worker on ${base} (scripts/serve-e2e.mjs)…`);
  // Its own process group: npx, wrangler and workerd below it do not all pass a signal on, so the group is stopped.
  const server = spawn(process.execPath, ['scripts/serve-e2e.mjs'], {
    env: { ...process.env, E2E_PORT: String(port) },
    stdio: 'ignore',
    detached: true,
  });
  const stop = () => {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {}
  };
  for (let i = 0; i < 120 && !(await reachable(base)); i++) await sleep(1000);
  if (!(await reachable(base))) {
    stop();
    throw new Error(`the server on ${base} did not come up`);
  }
  return stop;
}
