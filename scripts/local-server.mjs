// The built Worker under `wrangler dev` on a loopback port, for the load run and the benchmark.
import { spawn } from 'node:child_process';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** True when `base` serves /login; a first render under `astro dev` can take seconds, hence the long wait. */
export async function reachable(base) {
  try {
    return (await fetch(`${base}/login`, { signal: AbortSignal.timeout(10_000) })).ok;
  } catch {
    return false;
  }
}

/**
 * Runs `command` in its own process group (npx, npm, wrangler and workerd below it do not all pass a signal on,
 * so the group is stopped) and waits until `base` serves /login. Answers the process and a function that stops
 * the group and resolves once the command has exited; throws, having stopped it, when nothing answers within
 * `seconds` or the command exits first.
 * @param {string} command
 * @param {string[]} args
 * @param {{ base: string, env?: NodeJS.ProcessEnv, stdio?: import('node:child_process').StdioOptions, seconds?: number }} options
 */
export async function startServer(command, args, { base, env = process.env, stdio = 'ignore', seconds = 120 }) {
  const server = spawn(command, args, { env, stdio, detached: true });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const signal = (name) => {
    try {
      process.kill(-server.pid, name);
    } catch {}
  };
  const stop = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    signal('SIGTERM');
    const kill = setTimeout(() => signal('SIGKILL'), 10_000);
    await exited;
    clearTimeout(kill);
  };
  const deadline = Date.now() + seconds * 1000;
  // Polls the server's own answer: wrangler announces readiness only on a terminal.
  while (Date.now() < deadline && server.exitCode === null && !(await reachable(base))) await sleep(250);
  if (server.exitCode !== null || !(await reachable(base))) {
    await stop();
    throw new Error(`the server on ${base} did not come up`);
  }
  return { server, stop };
}

/**
 * Starts scripts/serve-e2e.mjs on `port` (fresh local D1 under .wrangler/e2e-PORT) unless a server already
 * answers there; answers a function that stops what it started.
 */
export async function ensureServer(port) {
  const base = `http://127.0.0.1:${port}`;
  if (await reachable(base)) return () => {};
  console.log(`starting the built Worker on ${base} (scripts/serve-e2e.mjs)…`);
  const { stop } = await startServer(process.execPath, ['scripts/serve-e2e.mjs'], {
    base,
    env: { ...process.env, E2E_PORT: String(port) },
  });
  return stop;
}
