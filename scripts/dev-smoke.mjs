// `npm run dev` as a front-end engineer starts it (npm test runs this after the e2e suite): the dev server
// comes up on a free port, /login is the localised page with its island served by the Worker, the island's
// module comes from Vite, /api answers in the envelope from the embedded gateway on the local (migrated) D1;
// then the process group is stopped and no workerd of it may be left. Exits non-zero on any failure.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { startServer } from './local-server.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port nothing listens on now (DEV_SMOKE_PORT when set). */
async function freePort() {
  if (process.env.DEV_SMOKE_PORT) return Number(process.env.DEV_SMOKE_PORT);
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** The process ids in process group `group`, with their command names. */
function groupProcesses(group) {
  try {
    const listing = execFileSync('ps', ['-o', 'pid=,comm=', '-g', String(group)], { encoding: 'utf8' }).trim();
    return listing.split('\n').map((line) => line.trim().split(/\s+/, 2));
  } catch {
    return []; // ps exits 1 when the group is empty
  }
}

const failures = [];
function expect(condition, what) {
  console.log(`${condition ? 'ok  ' : 'FAIL'} ${what}`);
  if (!condition) failures.push(what);
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const started = Date.now();
console.log(`dev-smoke: npm run dev on ${base}`);
const { server, stop } = await startServer('npm', ['run', 'dev'], {
  base,
  env: { ...process.env, PORT: String(port), ASTRO_TELEMETRY_DISABLED: '1' },
  stdio: process.env.DEV_SMOKE_VERBOSE ? 'inherit' : 'ignore',
  // About half a minute on an idle machine; a first start on a fresh clone also optimises dependencies.
  seconds: 300,
});
console.log(`dev-smoke: up after ${Math.round((Date.now() - started) / 1000)} s`);

try {
  const workerds = groupProcesses(server.pid).filter(([, name]) => name === 'workerd');
  expect(workerds.length > 0, 'the Worker runs in workerd');

  const login = await fetch(`${base}/login`, { headers: { cookie: 'LANG=zh' } });
  const html = await login.text();
  expect(login.status === 200 && html.includes('<html lang="zh'), '/login is the Chinese page for LANG=zh');
  expect(login.headers.get('x-frame-options') === 'DENY', "/login carries the edge's security headers");
  const island = html.match(/<astro-island[^>]*component-url="([^"]+SignIn\.tsx)"/);
  expect(island !== null, '/login holds the sign-in island');
  if (island) {
    const module = await fetch(new URL(island[1], base));
    expect(module.ok && /javascript/.test(module.headers.get('content-type') ?? ''), "the island's module comes from Vite");
  }

  const missing = await fetch(`${base}/no-such-page`);
  expect(missing.status === 404 && (await missing.text()).includes('data-page="not_found"'), 'an unknown path gets the 404 page');

  const codes = await (await fetch(`${base}/api/agg-web/country/selectPhoneCode`)).json();
  expect(codes.code === '0' && codes.data.some((country) => country.phoneCode === '+86'), '/api answers the calling codes');

  // A slider challenge is a D1 row: it answers only on a migrated database.
  const challenge = await fetch(`${base}/api/agg-web/captcha/slider/init`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-test-client-ip': '203.0.113.7' },
    body: JSON.stringify({ scene: 'login', subject: 'dev-smoke@example.com' }),
  });
  expect(challenge.status === 200 && (await challenge.json()).code === '0', '/api writes a captcha challenge to D1');

  stop();
  for (let i = 0; i < 60 && groupProcesses(server.pid).length > 0; i++) await sleep(500);
  const left = groupProcesses(server.pid);
  expect(left.length === 0, `no process of the dev server is left${left.length ? ` (${left.map((p) => p.join(' ')).join(', ')})` : ''}`);
  if (left.length) process.kill(-server.pid, 'SIGKILL');
} finally {
  stop();
}

console.log(`dev-smoke: ${failures.length === 0 ? 'passed' : `${failures.length} check(s) failed`} in ${Math.round((Date.now() - started) / 1000)} s`);
process.exitCode = failures.length === 0 ? 0 : 1;
