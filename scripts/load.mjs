// A bounded load run of the built Worker under `wrangler dev` (issue 8): loopback only, every scenario stops by
// itself (a fixed duration or a fixed number of requests), then the local D1 is checked.
//
//   npm run load                 # starts scripts/serve-e2e.mjs on LOAD_PORT (default 8841) and stops it afterwards
//   LOAD_PORT=8841 npm run load  # or uses a server already listening there (started with E2E_PORT=8841)
//
// Scenarios: the sign-in pages (10 s, 10 connections), and code sign-in: N codes are issued beforehand for N new
// e-mail addresses (at most 25 per `cf-connecting-ip`, inside the per-IP cap of 30 an hour; the edge takes the
// client IP from that header), then each code is sent twice, from different connections at about the same time:
// exactly one of the two may register and sign in. Afterwards every registration must exist exactly once in D1
// (`wrangler d1 execute --local --persist-to .wrangler/e2e-PORT`). No answer may be a 5xx.
// Requires the build in dist/ (npm run build); it does not build.
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { ensureServer } from './local-server.mjs';

const port = Number(process.env.LOAD_PORT ?? process.env.E2E_PORT ?? 8841);
const base = `http://127.0.0.1:${port}`;
const persist = `.wrangler/e2e-${port}`;
const DURATION_S = Number(process.env.LOAD_DURATION ?? 10);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 10);
const SIGN_INS = Number(process.env.LOAD_SIGN_INS ?? 500);
const run = Date.now().toString(36);


/** Runs `items` through `fn` with at most `limit` at a time. */
async function pool(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i], i);
      }
    }),
  );
  return results;
}

const ipOf = (i) => `198.18.${100 + Math.floor(i / 25 / 250)}.${Math.floor(i / 25) % 250}`;

async function issueCodes(n) {
  const emails = Array.from({ length: n }, (_, i) => `load-${run}-${i}@example.com`);
  return pool(emails, 16, async (email, i) => {
    const sent = await fetch(`${base}/api/agg-web/user/getRegVerificationCode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': ipOf(i) },
      body: JSON.stringify({ emailAddress: email, type: 3 }),
    }).then((r) => r.json());
    if (sent.code !== '0') throw new Error(`code for ${email}: ${JSON.stringify(sent)}`);
    const outbox = await fetch(`${base}/api/dev/outbox?to=${encodeURIComponent(email)}`).then((r) => r.json());
    const code = /\b(\d{4,8})\b/.exec(outbox.data?.[0]?.text ?? '')?.[1];
    if (!code) throw new Error(`no code in the outbox for ${email}`);
    return { email, code };
  });
}

function summary(name, result, extra = {}) {
  const l = result.latency;
  return {
    scenario: name,
    requests: result.requests.total,
    'req/s (mean)': Math.round(result.requests.average),
    'latency ms p50': l.p50,
    'p90': l.p90,
    'p99': l.p99,
    'max': l.max,
    '2xx': result['2xx'],
    '3xx': result['3xx'],
    '4xx': result['4xx'],
    '5xx': result['5xx'],
    errors: result.errors,
    timeouts: result.timeouts,
    ...extra,
  };
}

function d1(sql) {
  const out = execFileSync('npx', ['wrangler', 'd1', 'execute', 'DB', '--local', '--persist-to', persist, '--json', '--command', sql], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return JSON.parse(out)[0].results;
}

async function main() {
  const stop = await ensureServer(port);
  const rows = [];
  let failed = false;
  try {
    // 1. Sign-in pages: the pre-rendered shells through the whole edge.
    const pages = await autocannon({
      url: base,
      connections: CONNECTIONS,
      duration: DURATION_S,
      requests: [{ path: '/login' }, { path: '/register' }, { path: '/navigator_login' }, { path: '/forget' }],
    });
    rows.push(summary('sign-in pages (GET /login, /register, /navigator_login, /forget)', pages));

    // 2. Code sign-in with registration, each code sent twice.
    console.log(`issuing ${SIGN_INS} codes…`);
    const started = Date.now();
    const codes = await issueCodes(SIGN_INS);
    console.log(`issued in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const bodies = codes.flatMap(({ email, code }) => {
      const body = JSON.stringify({ loginType: 2, loginEmail: email, code, agreed: true, userIdentity: 1, companyName: 'Load Test Shipping' });
      return [body, body];
    });
    const answers = new Map();
    let sent = 0;
    const signIns = await autocannon({
      url: `${base}/api/agg-web/quick/user/login`,
      connections: CONNECTIONS,
      amount: bodies.length,
      timeout: 30,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          setupRequest: (request) => ({ ...request, body: bodies[sent++ % bodies.length] }),
          onResponse: (status, body) => {
            let code = `HTTP ${status}`;
            try {
              code = JSON.parse(body).code;
            } catch {}
            answers.set(code, (answers.get(code) ?? 0) + 1);
          },
        },
      ],
    });
    const wins = answers.get('0') ?? 0;
    rows.push(summary(`code sign-in + registration (${SIGN_INS} codes × 2)`, signIns, { answers: Object.fromEntries(answers) }));

    // 3. The database: every registration exactly once.
    const users = d1(`SELECT COUNT(*) AS n, COUNT(DISTINCT email) AS distinct_emails FROM users WHERE email LIKE 'load-${run}-%'`)[0];
    const twice = d1(`SELECT email, COUNT(*) AS n FROM users WHERE email LIKE 'load-${run}-%' GROUP BY email HAVING n > 1`);
    const sessions = d1(
      `SELECT COUNT(*) AS n FROM sessions WHERE user_id IN (SELECT id FROM users WHERE email LIKE 'load-${run}-%')`,
    )[0];
    const consumed = d1(`SELECT COUNT(*) AS n FROM codes WHERE recipient LIKE 'load-${run}-%' AND consumed_at IS NOT NULL`)[0];
    const checks = {
      'no 5xx anywhere': pages['5xx'] === 0 && signIns['5xx'] === 0 && pages.errors === 0 && signIns.errors === 0,
      'one win per code': wins === SIGN_INS,
      'users = codes, each e-mail once': users.n === SIGN_INS && users.distinct_emails === SIGN_INS && twice.length === 0,
      'one session per user': sessions.n === SIGN_INS,
      'every code consumed once': consumed.n === SIGN_INS,
    };
    console.table(rows);
    console.log({ users, duplicates: twice.length, sessions: sessions.n, consumedCodes: consumed.n });
    console.table(checks);
    failed = Object.values(checks).some((ok) => !ok);
  } finally {
    stop();
  }
  if (failed) {
    console.error('load run: a check failed');
    process.exit(1);
  }
}

await main();
