import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/**
 * Each Playwright worker's own world: its own `wrangler dev` of the built Worker on its own port, with its own
 * local D1, R2 and Durable Objects (scripts/serve-e2e.mjs, persisted under .wrangler/e2e-PORT). Nothing one
 * worker writes (rows, the dev clock, a delivery breaker, a per-network cap) is seen by another, so the caps and
 * breakers are on in e2e as in production, and `--shard` can split the suite across machines.
 *
 * Playwright sets TEST_PARALLEL_INDEX in a worker before it loads any spec, so the port is known at import time
 * (specs use it in `test.use`). A worker that restarts after a failure has the same index: the old one's
 * server is stopped first (worker fixtures are torn down before a worker exits).
 */
const BASE_PORT = Number(process.env.E2E_BASE_PORT ?? 8800);
export const E2E_PORT = BASE_PORT + Number(process.env.TEST_PARALLEL_INDEX ?? 0);
/** PORTAL_ORIGIN of this worker's server: sign-in links and OpenID issuer are built on it. */
export const PORTAL_ORIGIN = `http://127.0.0.1:${E2E_PORT}`;
/** The same server as localhost: browsers refuse an IP address as a passkey relying party (PASSKEY_ORIGINS). */
export const PASSKEY_ORIGIN = `http://localhost:${E2E_PORT}`;
/** The same server on the partners' host name (NAVIGATOR_ORIGIN). */
export const NAVIGATOR_ORIGIN = `http://navigator.localhost:${E2E_PORT}`;
/** Where this worker's server keeps its D1, R2 and Durable Objects (the operator command writes there too). */
export const PERSIST_DIR = `.wrangler/e2e-${E2E_PORT}`;

export type Server = { port: number; origin: string; process: ChildProcess };

/** Starts scripts/serve-e2e.mjs on E2E_PORT and resolves once /login answers. */
export async function startServer(): Promise<Server> {
  const child = spawn(process.execPath, ['scripts/serve-e2e.mjs'], {
    env: { ...process.env, E2E_PORT: String(E2E_PORT) },
    // Its own process group, so that stopping it stops wrangler and workerd with it.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`the e2e server on ${E2E_PORT} exited (${code}) before it answered:\n${output}`);
  });
  exited.catch(() => {});
  const deadline = Date.now() + 120_000;
  // Polls the server's own answer (an event would need wrangler to announce readiness, which it does only on a TTY).
  for (;;) {
    const ready = await Promise.race([answers(`${PORTAL_ORIGIN}/login`), exited]);
    if (ready) break;
    if (Date.now() > deadline) {
      await stopServer(child);
      throw new Error(`the e2e server on ${E2E_PORT} did not answer /login within 120 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { port: E2E_PORT, origin: PORTAL_ORIGIN, process: child };
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/** Stops the server's whole process group and waits until it has exited. */
export async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
