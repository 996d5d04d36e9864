// `npm run bench` (issue 9): builds, serves the Worker locally and writes a report (Markdown and JSON) under
// bench-report/<time>/ with
//   1. bytes per page, raw / gzip / brotli, by JavaScript, CSS, HTML and fonts, as Chromium loads them;
//   2. Lighthouse (mobile) on /login, /user_center, /create_account, /connect and /terms, three runs each, median;
//   3. throughput and latency from a bounded loopback load, each also as a ratio to a static file;
//   4. CPU time of one password hash at the production parameters;
//   5. the slider's proof of work: median solve time in Chromium (the page's own solver chunk and Web
//      Workers, as the slider runs it, also under a 4x CPU slowdown, Lighthouse's mid-range phone) and the
//      server's CPU time to verify one solution.
// Loopback only; every load scenario stops by itself. BENCH_PORT (default 8871), BENCH_SECONDS (default 5).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import autocannon from 'autocannon';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import puppeteer from 'puppeteer-core';
import { ensureServer } from './local-server.mjs';
import { jsBudgetOf } from './page-budgets.mjs';

const port = Number(process.env.BENCH_PORT ?? 8871);
const base = `http://127.0.0.1:${port}`;
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const chromeFlags = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];
const out = `bench-report/${new Date().toISOString().replace(/[:.]/g, '-')}`;
const pages = ['/', '/login', '/navigator_login', '/register', '/join', '/forget', '/navigator_forget', '/account', '/user_center', '/create_account', '/fill_account', '/change_password', '/enterprise_adm_and_staff', '/completion_of_application', '/pass_email_login', '/share_login', '/terms', '/privacy', '/disclaimer', '/registration_agreement', '/no-such-page'];
/** Pages without a framework (the legal texts and the 404 page): the small static budget. */
const PLAIN_PAGES = ['/terms', '/privacy', '/disclaimer', '/registration_agreement', '/no-such-page'];
const signInPaths = ['/', '/login', '/navigator_login', '/register', '/forget', '/navigator_forget'];
const sha256 = (text) => createHash('sha256').update(text).digest('hex');
const kb = (bytes) => (bytes / 1024).toFixed(1);
const gitCommit = () => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown commit';
  }
};

/** A signed-in session cookie for pages behind sign-in (a seeded account, agreed to the terms). */
async function sessionCookie() {
  const email = `bench.${Date.now()}@example.com`;
  await fetch(`${base}/api/dev/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'harbour2024', userType: 2, agreed: true, companies: [{ nameEn: `Bench Shipping ${Date.now()}` }] }),
  });
  const res = await fetch(`${base}/api/agg-web/user/v3/userLogin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ loginEmail: email, loginPassword: sha256('harbour2024'), passwordVersion: 2, captchaType: 3, grant_type: 'password', scope: 'server', client_id: 'portal', client_secret: 'portal' }),
  });
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

function sizes(body) {
  return {
    raw: body.length,
    gzip: gzipSync(body, { level: 9 }).length,
    brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** 1. What Chromium loads for each page in each language, by kind. */
async function pageBytes(cookie) {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromeFlags.slice(1) });
  const rows = [];
  for (const lang of ['zh', 'en']) {
    const signedOut = await browser.newContext();
    const signedIn = await browser.newContext();
    await signedOut.addCookies([{ name: 'LANG', value: lang, url: base }]);
    await signedIn.addCookies([
      { name: 'LANG', value: lang, url: base },
      ...cookie.split('; ').map((pair) => ({ name: pair.split('=')[0], value: pair.split('=').slice(1).join('='), url: base })),
    ]);
    for (const path of pages) {
      // A sign-in page sends a visitor with a session on (src/lib/routes.ts signInShells): measure it signed out.
      const page = await (signInPaths.includes(path) ? signedOut : signedIn).newPage();
      const bodies = [];
      page.on('response', (response) => bodies.push(response));
      await page.goto(base + path, { waitUntil: 'networkidle' });
      const totals = { js: [0, 0, 0], css: [0, 0, 0], html: [0, 0, 0], font: [0, 0, 0] };
      for (const response of bodies) {
        const kind = { script: 'js', stylesheet: 'css', document: 'html', font: 'font' }[response.request().resourceType()];
        if (!kind || response.status() >= 300) continue;
        const size = sizes(await response.body().catch(() => Buffer.alloc(0)));
        totals[kind][0] += size.raw;
        totals[kind][1] += size.gzip;
        totals[kind][2] += size.brotli;
      }
      rows.push({ path, lang, ...Object.fromEntries(Object.entries(totals).map(([k, [raw, gzip, brotli]]) => [k, { raw, gzip, brotli }])) });
      await page.close();
    }
    await signedOut.close();
    await signedIn.close();
  }
  await browser.close();
  return rows;
}

/**
 * 2. Lighthouse with its mobile defaults, driving Debian's Chromium. The cookies go into the browser's jar, which
 * Lighthouse keeps between runs: a Cookie header from `extraHeaders` is dropped as soon as the page writes a cookie
 * of its own (ROLE_LIST on /user_center), which lost the session and measured /login instead. Only the pages behind
 * sign-in get the session; with one, /login answers a redirect.
 */
async function lighthouseScores(cookie) {
  const chrome = await chromeLauncher.launch({ chromePath: chromiumPath, chromeFlags });
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  const session = cookie.split('; ').map((pair) => [pair.split('=')[0], pair.split('=').slice(1).join('=')]);
  // Lighthouse on a shared machine is noisy: BENCH_LIGHTHOUSE_RUNS (default 3) runs each page that many times and
  // the report gives the median of each page (issue 46: performance 100 on these five is the aim);
  // BENCH_LIGHTHOUSE_PAGES (comma-separated paths) measures only those. Every run's full result is kept beside
  // the report (lighthouse/<page>-<run>.json) for its audit details: the LCP element, render-blocking requests…
  const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
  const paths = process.env.BENCH_LIGHTHOUSE_PAGES?.split(',') ?? ['/login', '/user_center', '/create_account', '/connect', '/terms'];
  mkdirSync(`${out}/lighthouse`, { recursive: true });
  const results = [];
  try {
    for (let run = 1; run <= runs; run++) {
      for (const path of paths) {
        // A trace Lighthouse could not record (its runtimeError, e.g. NO_NAVSTART, seen on the first page after a
        // build) is no measurement: that run is made again, twice at most, and named in the log.
        let lhr;
        for (let attempt = 1; attempt <= 3; attempt++) {
          const page = await browser.newPage();
          const cdp = await page.createCDPSession();
          await cdp.send('Network.clearBrowserCookies');
          const signedIn = path === '/create_account' || path === '/user_center';
          for (const [name, value] of [['LANG', 'en'], ...(signedIn ? session : [])]) await cdp.send('Network.setCookie', { name, value, url: base });
          ({ lhr } = await lighthouse(
            base + path,
            { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices'] },
            undefined,
            page,
          ));
          await page.close();
          if (!lhr.runtimeError) break;
          console.warn(`lighthouse ${path} run ${run}: ${lhr.runtimeError.code}${attempt < 3 ? ', again' : ''}`);
        }
        if (lhr.runtimeError) throw new Error(`Lighthouse could not measure ${path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
        writeFileSync(`${out}/lighthouse/${path.slice(1) || 'root'}-${run}.json`, JSON.stringify(lhr));
        const lcpNode = lhr.audits['lcp-breakdown-insight']?.details?.items?.find((item) => item.type === 'node');
        const lcpElement = lcpNode && `${lcpNode.selector} (${lcpNode.boundingRect?.width}x${lcpNode.boundingRect?.height})`;
        results.push({
          path,
          run,
          finalPath: new URL(lhr.finalDisplayedUrl).pathname,
          performance: Math.round(lhr.categories.performance.score * 100),
          accessibility: Math.round(lhr.categories.accessibility.score * 100),
          bestPractices: Math.round(lhr.categories['best-practices'].score * 100),
          fcpMs: Math.round(lhr.audits['first-contentful-paint'].numericValue),
          lcpMs: Math.round(lhr.audits['largest-contentful-paint'].numericValue),
          tbtMs: Math.round(lhr.audits['total-blocking-time'].numericValue),
          cls: Number(lhr.audits['cumulative-layout-shift'].numericValue.toFixed(3)),
          lcpElement: lcpElement?.replace(/\s+/g, ' ').slice(0, 80).replaceAll('|', '\\|'),
        });
      }
    }
  } finally {
    await browser.disconnect();
    await chrome.kill();
  }
  return results;
}

function summarise(name, result) {
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

const load = (name, options) => autocannon({ url: base, connections: 10, duration: seconds, ...options }).then((r) => summarise(name, r));

/** 3. Loopback throughput: a static file, a page shell, a dictionary call through /api, a full code sign-in. */
async function throughput() {
  const rows = [
    await load('static file (/favicon.svg, no Worker)', { url: `${base}/favicon.svg` }),
    await load('page shell (/login, picked by language)', { url: `${base}/login`, headers: { cookie: 'LANG=zh' } }),
    await load('dictionary via /api (selectPhoneCode)', { url: `${base}/api/agg-web/country/selectPhoneCode` }),
  ];
  // A full code sign-in: ask for an e-mail code, read it from the dev outbox, sign in (registering the address).
  // Each flow uses its own address and client IP, inside the send caps.
  const latencies = [];
  const deadline = Date.now() + seconds * 1000;
  let flows = 0;
  let failures = 0;
  const worker = async (lane) => {
    for (let i = 0; Date.now() < deadline; i++) {
      const email = `bench.${lane}.${i}.${Date.now()}@example.com`;
      const ip = `10.${lane}.${(i >> 8) & 255}.${i & 255}`;
      const started = performance.now();
      const post = (path, body) => fetch(`${base}/api/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'cf-connecting-ip': ip }, body: JSON.stringify(body) }).then((r) => r.json());
      await post('agg-web/user/getRegVerificationCode', { emailAddress: email, type: 3 });
      const outbox = await fetch(`${base}/api/dev/outbox?to=${encodeURIComponent(email)}`).then((r) => r.json());
      const code = /\b(\d{6})\b/.exec(outbox.data[0]?.text ?? '')?.[1];
      const answer = await post('agg-web/quick/user/login', { loginType: 2, loginEmail: email, code, agreed: true, userIdentity: 1, companyName: 'Bench Line' });
      latencies.push(performance.now() - started);
      if (answer.code === '0') flows++;
      else failures++;
    }
  };
  await Promise.all(Array.from({ length: 5 }, (_, lane) => worker(lane + 1)));
  latencies.sort((a, b) => a - b);
  const pct = (p) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0);
  rows.push({ name: 'full code sign-in (send, read outbox, sign in; 5 lanes)', requestsPerSecond: Math.round(flows / seconds), p50: pct(50), p90: pct(90), p99: pct(99), non2xx: failures, errors: 0 });
  const staticRate = rows[0].requestsPerSecond || 1;
  return rows.map((row) => ({ ...row, ratioToStatic: Number((row.requestsPerSecond / staticRate).toFixed(3)) }));
}

/**
 * 4b. What the offline breached-password check (issue 44) adds to a password change: the production lookup
 * (identity/breached-passwords.ts, bundled by esbuild for Node) against wrangler's local R2 (miniflare, files on disk)
 * holding ranges of the real set's size (about 1,000 suffixes a prefix), each lookup on a prefix not yet cached (an R2
 * read) and again cached. The aim: under 30 ms at p95.
 */
async function breachedLookup() {
  const file = '.wrangler/bench-breached.mjs';
  await build({ entryPoints: ['functions/gateway/identity/breached-passwords.ts'], bundle: true, format: 'esm', platform: 'node', outfile: file, logLevel: 'silent' });
  const { assertNotBreached, RANGE_KEY_PREFIX } = await import(`../${file}`);
  const { getPlatformProxy } = await import('wrangler');
  const persist = '.wrangler/bench-pwned';
  const proxy = await getPlatformProxy({ configPath: 'wrangler.toml', persist: { path: persist } });
  try {
    const runs = 200;
    const sha1 = (text) => createHash('sha1').update(text).digest('hex').toUpperCase();
    const passwords = Array.from({ length: runs }, (_, i) => `bench-password-${i}-${Date.now()}`);
    for (const password of passwords) {
      const prefix = sha1(password).slice(0, 5);
      const lines = Array.from({ length: 1000 }, (_, i) => `${sha1(`${prefix}-${i}`).slice(0, 35)}:${(i % 50) + 1}`).sort();
      await proxy.env.PWNED.put(`${RANGE_KEY_PREFIX}${prefix}`, lines.join('\n'));
    }
    const env = { ...proxy.env, DEV_OUTBOX: 'false' };
    const timed = async () => {
      const ms = [];
      for (const password of passwords) {
        const started = performance.now();
        await assertNotBreached(env, sha1(password), Date.now());
        ms.push(performance.now() - started);
      }
      ms.sort((a, b) => a - b);
      const at = (q) => Number(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(2));
      return { p50: at(0.5), p95: at(0.95), max: at(1) };
    };
    const cold = await timed();
    const cached = await timed();
    return { runs, suffixesPerRange: 1000, cold, cached, withinAim: cold.p95 < 30 };
  } finally {
    await proxy.dispose();
  }
}

/**
 * 4c. The same, end to end: password changes through the running Worker (POST /api/agg-web/user/changePassword, a
 * fresh session, two PBKDF2 runs each) with the breached-password check on (`newPasswordSha1` sent: a prefix never
 * looked up before, so an R2 read each time) and off (left out), alternating so that both see the same machine. What
 * the check adds is the difference of the two at p50 and at p95. The server's local R2 holds no ranges: each read is
 * a miss (the lookup part above times reads of real-sized ranges).
 */
async function passwordChangeWithCheck() {
  const email = `bench.change.${Date.now()}@example.com`;
  const passwords = ['Harbour2024', 'Quayside2025'];
  await fetch(`${base}/api/dev/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: passwords[0], agreed: true }) });
  const login = await fetch(`${base}/api/agg-web/user/v3/userLogin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ loginEmail: email, loginPassword: sha256(passwords[0]), passwordVersion: 2, captchaType: 3, grant_type: 'password', scope: 'server', client_id: 'portal', client_secret: 'portal' }),
  });
  const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const pairs = Number(process.env.BENCH_CHANGE_PAIRS ?? 30);
  const times = { on: [], off: [] };
  let current = 0;
  const change = async (withCheck) => {
    const next = 1 - current;
    const body = { currentPassword: sha256(passwords[current]), newPassword: sha256(passwords[next]), newPasswordSubmit: sha256(passwords[next]) };
    // A prefix no lookup has seen: the Worker's per-prefix cache cannot answer it.
    if (withCheck) body.newPasswordSha1 = createHash('sha1').update(`${Math.random()}-${performance.now()}`).digest('hex').toUpperCase();
    const started = performance.now();
    const res = await fetch(`${base}/api/agg-web/user/changePassword`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) });
    const answer = await res.json();
    const ms = performance.now() - started;
    if (answer.code !== '0') throw new Error(`password change answered ${answer.code}`);
    current = next;
    times[withCheck ? 'on' : 'off'].push(ms);
  };
  // One of each to warm the isolate, not counted.
  await change(true);
  await change(false);
  times.on.length = 0;
  times.off.length = 0;
  for (let i = 0; i < pairs; i++) {
    await change(i % 2 === 0);
    await change(i % 2 !== 0);
  }
  const stats = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q) => Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1));
    return { p50: at(0.5), p95: at(0.95) };
  };
  const on = stats(times.on);
  const off = stats(times.off);
  const added = { p50: Number((on.p50 - off.p50).toFixed(1)), p95: Number((on.p95 - off.p95).toFixed(1)) };
  // A shared machine's load moves these more than the check does: the report says what it was.
  return { pairs, on, off, added, withinAim: added.p95 < 30, loadAverage: Number((await import('node:os')).loadavg()[0].toFixed(1)) };
}

/** 4. CPU time of one password hash with the production code and parameters (bundled by esbuild for Node). */
async function passwordHashCpu() {
  const file = '.wrangler/bench-passwords.mjs';
  await build({ entryPoints: ['functions/gateway/identity/passwords.ts'], bundle: true, format: 'esm', platform: 'node', outfile: file, logLevel: 'silent' });
  const { hashPassword, CURRENT_PARAMS } = await import(`../${file}`);
  const env = { PASSWORD_PEPPER: 'bench-pepper', DEV_OUTBOX: 'false' };
  await hashPassword(sha256('warm-up'), env);
  const runs = 5;
  const before = process.cpuUsage();
  for (let i = 0; i < runs; i++) await hashPassword(sha256(`password-${i}`), env);
  const used = process.cpuUsage(before);
  return { iterations: CURRENT_PARAMS.iterations, cpuMsPerHash: Number(((used.user + used.system) / 1000 / runs).toFixed(1)) };
}

/** The slider's proof-of-work code, bundled by esbuild for Node, at the parameters wrangler.toml sets. */
async function powCode() {
  const file = '.wrangler/bench-captcha.mjs';
  await build({ entryPoints: ['functions/gateway/captcha/service.ts'], bundle: true, format: 'esm', platform: 'node', outfile: file, logLevel: 'silent' });
  const toml = (await import('node:fs')).readFileSync('wrangler.toml', 'utf8');
  const variable = (name) => new RegExp(`^${name}\\s*=\\s*"([^"]*)"`, 'm').exec(toml)?.[1];
  // BENCH_POW_COST / BENCH_POW_COUNTER try other values than wrangler.toml's (for tuning).
  const env = {
    CAPTCHA_SECRET: 'bench-secret',
    CAPTCHA_POW_COST: process.env.BENCH_POW_COST ?? variable('CAPTCHA_POW_COST'),
    CAPTCHA_POW_COUNTER: process.env.BENCH_POW_COUNTER ?? variable('CAPTCHA_POW_COUNTER'),
  };
  return { ...(await import(`../${file}`)), env };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
};

/**
 * What a pass costs a script: CPU time (all threads) of solving challenges with altcha-lib's Node solver, which
 * derives keys with OpenSSL's native PBKDF2 (as fast per core as a script gets without a GPU), and so the slider
 * passes, and therefore SMS sends, one CPU-hour buys at most.
 */
async function scriptCost(powChallenge, env) {
  const { solveChallenge } = await import('altcha-lib');
  const { deriveKey } = await import('altcha-lib/algorithms/pbkdf2');
  const runs = 10;
  const challenges = await Promise.all(Array.from({ length: runs }, (_, i) => powChallenge(env, `script-${i}`)));
  const before = process.cpuUsage();
  for (const challenge of challenges) await solveChallenge({ challenge, deriveKey });
  const used = process.cpuUsage(before);
  const cpuMsPerSolve = (used.user + used.system) / 1000 / runs;
  return { scriptCpuMsPerSolve: Math.round(cpuMsPerSolve), sendsPerCpuHour: Math.round(3_600_000 / cpuMsPerSolve) };
}

/** 5. Proof of work: solve time in Chromium (as the slider does it) and verify CPU time on the server. */
async function proofOfWork() {
  const { powChallenge, powPasses, env } = await powCode();
  const runs = 15;
  const challenges = await Promise.all(Array.from({ length: runs }, (_, i) => powChallenge(env, `bench-${i}`)));
  const solverChunk = (await import('node:fs')).readdirSync('dist/_astro').find((f) => /^pow-solver\..*\.js$/.test(f));
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromeFlags.slice(1) });
  const solveTimes = {};
  const solutions = [];
  try {
    for (const [label, slowdown] of [['desktop', 1], ['4x CPU slowdown', 4]]) {
      const page = await browser.newPage();
      await page.goto(`${base}/login`);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
      const times = [];
      for (const challenge of challenges) {
        const { ms, payload } = await page.evaluate(
          async ({ chunk, challenge }) => {
            const { solvePow } = await import(`/_astro/${chunk}`);
            const started = performance.now();
            const payload = await solvePow(challenge, new AbortController());
            return { ms: performance.now() - started, payload };
          },
          { chunk: solverChunk, challenge },
        );
        times.push(ms);
        if (slowdown === 1) solutions.push(payload);
      }
      solveTimes[label] = { medianMs: Math.round(median(times)), maxMs: Math.round(Math.max(...times)) };
      await page.close();
    }
  } finally {
    await browser.close();
  }
  // Verify: what the gateway runs per slider verify (signature, binding to the challenge, the solution).
  await powPasses(env, 'bench-0', solutions[0]);
  const cpu = [];
  for (const [i, payload] of solutions.entries()) {
    const before = process.cpuUsage();
    if (!(await powPasses(env, `bench-${i}`, payload))) throw new Error('a Chromium solution did not verify');
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
  }
  const script = await scriptCost(powChallenge, env);
  return {
    cost: Number(env.CAPTCHA_POW_COST),
    counter: Number(env.CAPTCHA_POW_COUNTER),
    runs,
    cores: (await import('node:os')).availableParallelism(),
    solve: solveTimes,
    verifyCpuMs: Number(median(cpu).toFixed(2)),
    ...script,
  };
}

function markdown(report) {
  const lines = [`# Benchmark ${report.when} (${report.commit})`, ''];
  if (report.pages) {
    lines.push('## Bytes per page (KB: raw / gzip / brotli)', '', 'JS budget: gzip, scripts/page-budgets.mjs (tests/e2e/budgets.spec.ts asserts it).', '', '| page | lang | JS | JS budget | CSS | HTML | fonts |', '|---|---|---|---|---|---|---|');
    for (const r of report.pages) {
      const cell = (k) => `${kb(r[k].raw)} / ${kb(r[k].gzip)} / ${kb(r[k].brotli)}`;
      const budget = jsBudgetOf(r.path, { plain: PLAIN_PAGES.includes(r.path) });
      lines.push(`| ${r.path} | ${r.lang} | ${cell('js')} | ${kb(budget)} ${r.js.gzip <= budget ? 'within' : '**OVER**'} | ${cell('css')} | ${cell('html')} | ${cell('font')} |`);
    }
    lines.push('');
  }
  if (report.lighthouse) {
    lines.push('## Lighthouse (mobile)', '', '| page | run | performance | accessibility | best practices | FCP ms | LCP ms | TBT ms | CLS | LCP element |', '|---|---|---|---|---|---|---|---|---|---|');
    for (const r of report.lighthouse) lines.push(`| ${r.path}${r.finalPath !== r.path ? ` (ended on ${r.finalPath})` : ''} | ${r.run} | ${r.performance} | ${r.accessibility} | ${r.bestPractices} | ${r.fcpMs} | ${r.lcpMs} | ${r.tbtMs} | ${r.cls} | ${r.lcpElement ?? ''} |`);
    lines.push('', '### Median of the runs (the aim: performance 100 on each)', '', '| page | performance | FCP ms | LCP ms | TBT ms | CLS | aim |', '|---|---|---|---|---|---|---|');
    for (const path of [...new Set(report.lighthouse.map((r) => r.path))]) {
      const runs = report.lighthouse.filter((r) => r.path === path);
      const med = (key) => median(runs.map((r) => r[key]));
      lines.push(`| ${path} | ${med('performance')} | ${med('fcpMs')} | ${med('lcpMs')} | ${med('tbtMs')} | ${med('cls')} | ${med('performance') === 100 ? 'met' : 'NOT met'} |`);
    }
    lines.push('');
  }
  if (report.throughput) {
    lines.push(`## Throughput (${seconds} s each, loopback)`, '', '| scenario | req/s | p50 ms | p90 ms | p99 ms | non-2xx | ratio to static |', '|---|---|---|---|---|---|---|');
    for (const r of report.throughput) lines.push(`| ${r.name} | ${r.requestsPerSecond} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.non2xx} | ${r.ratioToStatic} |`);
    lines.push('');
  }
  if (report.breachedLookup) {
    const b = report.breachedLookup;
    lines.push('## Breached-password lookup (added to a password change)', '', `${b.runs} lookups, ${b.suffixesPerRange} suffixes a range, local R2 (miniflare). Aim: p95 under 30 ms (${b.withinAim ? 'met' : 'NOT met'}).`, '', '| | p50 ms | p95 ms | max ms |', '|---|---|---|---|', `| R2 read (prefix not cached) | ${b.cold.p50} | ${b.cold.p95} | ${b.cold.max} |`, `| cached in the Worker | ${b.cached.p50} | ${b.cached.p95} | ${b.cached.max} |`, '');
  }
  if (report.passwordChange) {
    const c = report.passwordChange;
    lines.push(
      '## Password change through the Worker, breached-password check on and off',
      '',
      `${c.pairs} changes each, alternating, one session (local R2 misses), load average ${c.loadAverage}. The check adds ${c.added.p50} ms at p50 and ${c.added.p95} ms at p95. Aim: under 30 ms at p95 (${c.withinAim ? 'met' : 'NOT met'}).`,
      '',
      '| check | p50 ms | p95 ms |',
      '|---|---|---|',
      `| on | ${c.on.p50} | ${c.on.p95} |`,
      `| off | ${c.off.p50} | ${c.off.p95} |`,
      '',
    );
  }
  if (report.passwordHash) lines.push('## Password hash', '', `PBKDF2-HMAC-SHA256, ${report.passwordHash.iterations} iterations: ${report.passwordHash.cpuMsPerHash} ms CPU per hash (Node's WebCrypto on this machine).`, '');
  const pow = report.proofOfWork;
  if (!pow) return lines.join('\n');
  lines.push('## Slider proof of work', '', `ALTCHA PBKDF2-SHA256, ${pow.cost} iterations per try, secret counter up to ${pow.counter}; ${pow.runs} challenges, solved by the slider's own chunk in Web Workers (${pow.cores} cores here).`, '', '| Chromium | median solve ms | slowest ms |', '|---|---|---|');
  for (const [label, t] of Object.entries(pow.solve)) lines.push(`| ${label} | ${t.medianMs} | ${t.maxMs} |`);
  lines.push('', `Server verify: ${pow.verifyCpuMs} ms CPU per solution (median; two HMACs, no key derivation).`, '');
  lines.push(`A script (Node, native PBKDF2): ${pow.scriptCpuMsPerSolve} ms CPU per solve, so one CPU-hour buys at most ${pow.sendsPerCpuHour} slider passes, i.e. SMS sends, before the caps.`, '');
  return lines.join('\n');
}

// BENCH_SKIP_BUILD=true measures the dist/ already built (tuning runs).
if (process.env.BENCH_SKIP_BUILD !== 'true') execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
const stop = await ensureServer(port);
// BENCH_ONLY=pow measures the proof of work alone (for tuning CAPTCHA_POW_COST / CAPTCHA_POW_COUNTER).
if (process.env.BENCH_ONLY === 'pow') {
  try {
    console.log(JSON.stringify(await proofOfWork(), null, 2));
  } finally {
    stop();
  }
  process.exit(0);
}
// BENCH_ONLY=bytes or BENCH_ONLY=lighthouse runs that part alone (comma-separated for several, e.g.
// `bytes,lighthouse`); the report then has only those sections. Unset, every part runs.
const only = new Set((process.env.BENCH_ONLY ?? '').split(',').map((part) => part.trim()).filter(Boolean));
const wanted = (part) => only.size === 0 || only.has(part);
try {
  const cookie = await sessionCookie();
  const report = { when: new Date().toISOString(), commit: gitCommit() };
  if (wanted('bytes')) report.pages = await pageBytes(cookie);
  if (wanted('lighthouse')) report.lighthouse = await lighthouseScores(cookie);
  if (wanted('throughput')) report.throughput = await throughput();
  if (wanted('hash')) report.passwordHash = await passwordHashCpu();
  if (wanted('breached')) report.breachedLookup = await breachedLookup();
  if (wanted('breached')) report.passwordChange = await passwordChangeWithCheck();
  if (wanted('pow')) report.proofOfWork = await proofOfWork();
  mkdirSync(out, { recursive: true });
  writeFileSync(`${out}/report.json`, JSON.stringify(report, null, 2));
  writeFileSync(`${out}/report.md`, markdown(report));
  console.log(markdown(report));
  console.log(`\nReport written to ${out}/report.md and report.json`);
} finally {
  stop();
}
