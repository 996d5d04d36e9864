// The portal beside the floor (issue 46): A = the portal's built Worker, C = scripts/perf/floor, both already
// listening on loopback under `wrangler dev` behind the same static-assets router (scripts/perf/peer.sh starts
// them). Two scenarios, the same as the peer harness's (../shared/perf/better-auth-peer/bench.mjs): a signed-in
// call (autocannon, 10 connections) and the code pair (send, read the code, sign in; 10 at a time). A then C,
// REPEATS times; results/floor-summary.json holds min / median / max and portal/floor of the medians.
// cpuMs is the CPU the server's two workerd processes (wrangler's dev proxy and the runtime) spent per request or
// pair, read from /proc: steadier between repeats than req/s on a shared two-core machine (README, issue 46).
//
//   A_URL=http://127.0.0.1:8851 C_URL=http://127.0.0.1:8853 node scripts/perf/floor-bench.mjs
import autocannon from 'autocannon';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';

const A = process.env.A_URL ?? 'http://127.0.0.1:8851';
const C = process.env.C_URL ?? 'http://127.0.0.1:8853';
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const DURATION = Number(process.env.DURATION ?? 15);
const REPEATS = Number(process.env.REPEATS ?? 3);
const OUT = process.env.RESULTS ?? 'results';
const run = Date.now().toString(36);
const PASSWORD = 'Bench2024pass';
const sha256Hex = (s) => createHash('sha256').update(s).digest('hex');

// A distinct client address per code (the portal caps codes at 30 per address an hour), as the peer harness does.
let ipCounter = 0;
const nextIp = () => {
  const i = ipCounter++;
  return `198.${18 + ((i >> 16) & 1)}.${(i >> 8) & 255}.${i & 255}`;
};
const json = (body) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const sessionCookie = (response, name) => {
  const set = response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (!set) throw new Error(`no ${name} cookie`);
  return set.split(';')[0];
};

const systems = {
  A: {
    name: 'portal',
    base: A,
    authedPath: '/api/agg-web/user/fetchMeByUserToken',
    async cookieOf(email) {
      const seeded = await fetch(`${A}/api/dev/users`, json({ email, password: PASSWORD, userType: 2, agreed: true })).then((r) => r.json());
      if (seeded.code !== '0') throw new Error(`seed ${email}: ${JSON.stringify(seeded)}`);
      const r = await fetch(`${A}/api/agg-web/user/v3/userLogin`, json({
        loginEmail: email, loginPassword: sha256Hex(PASSWORD), passwordVersion: 2, captchaType: 3,
        grant_type: 'password', scope: 'server', client_id: 'web', client_secret: 'web',
      }));
      await r.arrayBuffer();
      return sessionCookie(r, 'portal_token');
    },
    async codePair(email) {
      const ip = nextIp();
      const t0 = performance.now();
      const sent = await fetch(`${A}/api/agg-web/user/getRegVerificationCode`, { ...json({ emailAddress: email, type: 3 }), headers: { 'content-type': 'application/json', 'cf-connecting-ip': ip } }).then((r) => r.json());
      const t1 = performance.now();
      if (sent.code !== '0') return { ok: false, why: `send ${sent.code}` };
      const outbox = await fetch(`${A}/api/dev/outbox?to=${encodeURIComponent(email)}`).then((r) => r.json());
      const code = /\b(\d{4,8})\b/.exec(outbox.data?.[0]?.text ?? '')?.[1];
      if (!code) return { ok: false, why: 'no code' };
      const t2 = performance.now();
      const r = await fetch(`${A}/api/agg-web/quick/user/login`, {
        ...json({ loginType: 2, loginEmail: email, code, agreed: true, userIdentity: 1, companyName: 'Bench Shipping' }),
        headers: { 'content-type': 'application/json', 'cf-connecting-ip': ip },
      });
      const body = await r.json();
      const t3 = performance.now();
      const ok = body.code === '0' && r.headers.getSetCookie().some((c) => c.startsWith('portal_token='));
      return { ok, why: ok ? null : `login ${body.code}`, send: t1 - t0, signIn: t3 - t2 };
    },
  },
  C: {
    name: 'floor',
    base: C,
    authedPath: '/session',
    async cookieOf(email) {
      const r = await fetch(`${C}/sign-up`, json({ email }));
      await r.arrayBuffer();
      return sessionCookie(r, 'floor_token');
    },
    async codePair(email) {
      const t0 = performance.now();
      const sent = await fetch(`${C}/code/send`, json({ email })).then((r) => r.json());
      const t1 = performance.now();
      if (sent.code !== '0') return { ok: false, why: `send ${sent.code}` };
      const { code } = await fetch(`${C}/dev/code?email=${encodeURIComponent(email)}`).then((r) => r.json());
      const t2 = performance.now();
      const r = await fetch(`${C}/code/sign-in`, json({ email, code }));
      const body = await r.json();
      const t3 = performance.now();
      const ok = body.code === '0' && r.headers.getSetCookie().some((c) => c.startsWith('floor_token='));
      return { ok, why: ok ? null : `sign-in ${body.code}`, send: t1 - t0, signIn: t3 - t2 };
    },
  },
};

/** /proc/<pid>/stat's fields after the command's name (which may hold ") "): state is [0], ppid [1], utime [11], stime [12]. */
const statOf = (pid) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
};

/** The workerd processes `wrangler dev` runs for the server on `base`'s port: its entry proxy and the runtime beside it. */
function workerdPids(base) {
  try {
    const entry = `--socket-addr=entry=127.0.0.1:${new URL(base).port}`;
    const procs = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).flatMap((pid) => {
      try {
        return [{ pid, args: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'), ppid: statOf(pid)[1] }];
      } catch {
        return [];
      }
    });
    const proxy = procs.find((p) => p.args.includes(entry));
    return proxy ? procs.filter((p) => p.ppid === proxy.ppid && p.args[0]?.endsWith('workerd')).map((p) => p.pid) : [];
  } catch {
    return []; // no /proc (not Linux): cpuMs is left out
  }
}
/** CPU milliseconds the processes have used (ticks of 10 ms, Linux's USER_HZ), or null when one has gone. */
const cpuMsOf = (pids) => {
  try {
    return pids.reduce((sum, pid) => { const s = statOf(pid); return sum + (Number(s[11]) + Number(s[12])) * 10; }, 0);
  } catch {
    return null;
  }
};
/** Runs a scenario and adds its server's CPU per unit (`units` reads the count from the result), when it can be read. */
async function withCpu(sys, run, units) {
  const pids = (sys.pids ??= workerdPids(sys.base));
  const before = pids.length ? cpuMsOf(pids) : null;
  const result = await run();
  const after = before === null ? null : cpuMsOf(pids);
  return after === null || units(result) === 0 ? result : { ...result, cpuMs: (after - before) / units(result) };
}

const quantile = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : null; };

function authedCall(sys, cookies) {
  let i = 0;
  let ok = 0;
  return new Promise((resolve, reject) => {
    autocannon({
      url: sys.base,
      connections: CONNECTIONS,
      duration: DURATION,
      timeout: 30,
      requests: [{
        setupRequest: (req) => ({ ...req, method: 'GET', path: sys.authedPath, headers: { cookie: cookies[i++ % cookies.length] } }),
        onResponse: (status, body) => { if (status === 200 && JSON.parse(body).code === '0') ok++; },
      }],
    }, (err, res) => (err ? reject(err) : resolve({ rps: res.requests.total / res.duration, requests: res.requests.total, p50: res.latency.p50, p99: res.latency.p99, ok, non2xx: res.non2xx, errors: res.errors })));
  });
}

async function codePairs(sys, rep) {
  const end = performance.now() + DURATION * 1000;
  const done = [];
  const fails = {};
  let n = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, async (_, w) => {
    while (performance.now() < end) {
      const email = `floor-${run}-${sys.name}-${rep}-${w}-${n++}@example.com`;
      const r = await sys.codePair(email).catch((e) => ({ ok: false, why: String(e.message ?? e).slice(0, 80) }));
      if (r.ok) done.push(r);
      else fails[r.why] = (fails[r.why] ?? 0) + 1;
    }
  }));
  const pair = done.map((d) => d.send + d.signIn);
  return { pairsPerS: done.length / ((performance.now() - t0) / 1000), pairs: done.length + Object.values(fails).reduce((a, b) => a + b, 0), p50PairMs: quantile(pair, 0.5), p99PairMs: quantile(pair, 0.99), fails };
}

mkdirSync(OUT, { recursive: true });
const cookies = {};
for (const key of ['A', 'C']) {
  cookies[key] = [];
  for (let i = 0; i < 10; i++) cookies[key].push(await systems[key].cookieOf(`floor-${run}-${key}-${i}@example.com`));
}
const reps = [];
for (let rep = 1; rep <= REPEATS; rep++) {
  const r = { A: {}, C: {} };
  for (const [scenario, fn] of [
    ['authedCall', (sys, key) => withCpu(sys, () => authedCall(sys, cookies[key]), (r) => r.requests)],
    ['codeSignIn', (sys) => withCpu(sys, () => codePairs(sys, rep), (r) => r.pairs)],
  ]) {
    for (const key of ['A', 'C']) {
      r[key][scenario] = await fn(systems[key], key);
      console.log(`rep ${rep} ${scenario} ${systems[key].name}: ${JSON.stringify(r[key][scenario])}`);
      await new Promise((s) => setTimeout(s, 1000));
    }
  }
  reps.push(r);
}
const metrics = { authedCall: ['rps', 'p50', 'p99', 'cpuMs'], codeSignIn: ['pairsPerS', 'p50PairMs', 'p99PairMs', 'cpuMs'] };
const stats = (xs) => { const s = [...xs].sort((a, b) => a - b); return { min: s[0], median: s[Math.floor(s.length / 2)], max: s[s.length - 1] }; };
const summary = {};
for (const [scenario, names] of Object.entries(metrics)) {
  for (const m of names) {
    if (reps.some((r) => r.A[scenario][m] === undefined || r.C[scenario][m] === undefined)) continue;
    const a = stats(reps.map((r) => r.A[scenario][m]));
    const c = stats(reps.map((r) => r.C[scenario][m]));
    summary[`${scenario}.${m}`] = { A: a, C: c, ratioAC: a.median / c.median };
  }
}
writeFileSync(`${OUT}/floor-raw-${run}.json`, JSON.stringify(reps, null, 1));
writeFileSync(`${OUT}/floor-summary.json`, JSON.stringify(summary, null, 1));
console.table(Object.fromEntries(Object.entries(summary).map(([k, v]) => [k, {
  'portal med': +v.A.median.toFixed(1), 'floor min': +v.C.min.toFixed(1), 'floor med': +v.C.median.toFixed(1), 'floor max': +v.C.max.toFixed(1), 'portal/floor': +v.ratioAC.toFixed(2),
}])));
