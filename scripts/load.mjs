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
// Then the people (issue 46): LOAD_PEOPLE (200) people at once, each on an address of their own, ask for a code,
// sign in with it (registering) and then make signed-in calls (fetchMeByUserToken) one after another until
// LOAD_PEOPLE_SECONDS (60) have passed since the start. It reports p50 and p99 of each step, every failure, and the
// D1 work per request (round trips, statements that read, statements that write; the gateway's D1 meter,
// POST /api/dev/d1-meter), beside the write rate one D1 primary takes (README "Scale"). Afterwards: every person
// exists once, with exactly one session, and every code was used once.
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
const PEOPLE = Number(process.env.LOAD_PEOPLE ?? 200);
const PEOPLE_SECONDS = Number(process.env.LOAD_PEOPLE_SECONDS ?? 60);
// README "Scale": one D1 primary runs about 1,000 one-millisecond queries a second, one at a time.
const PRIMARY_QUERIES_PER_SECOND = 1000;
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

const quantile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]) : null;
};

async function d1Meter(on) {
  const answer = await fetch(`${base}/api/dev/d1-meter`, { method: on === undefined ? 'GET' : 'POST', ...(on === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ on }) }) }).then((r) => r.json());
  if (answer.code !== '0') throw new Error(`d1 meter: ${JSON.stringify(answer)}`);
  return answer.data;
}

/** A step's answers: latency and what came back; a failure is anything but code "0" over HTTP 200. */
function step(name) {
  return { name, ms: [], failures: {}, count: 0 };
}
async function timed(record, run) {
  const started = performance.now();
  let why = null;
  let value;
  try {
    value = await run();
    if (value.failure) why = value.failure;
  } catch (error) {
    why = String(error.message ?? error).slice(0, 80);
  }
  record.count++;
  record.ms.push(performance.now() - started);
  if (why) record.failures[why] = (record.failures[why] ?? 0) + 1;
  return why ? null : value;
}
const post = (path, body, ip, cookie) =>
  fetch(`${base}/api/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'cf-connecting-ip': ip, ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });

/** LOAD_PEOPLE people at once: a code each, a sign-in each, then signed-in calls until the time is up. */
async function people() {
  const send = step('code sent'), signIn = step('code sign-in'), call = step('signed-in call');
  const emails = Array.from({ length: PEOPLE }, (_, i) => `people-${run}-${i}@example.com`);
  const ipOfPerson = (i) => `198.19.${Math.floor(i / 250)}.${i % 250}`;
  const started = performance.now();
  const deadline = started + PEOPLE_SECONDS * 1000;
  const meter = {};
  // 1. Every person asks for a code at the same moment.
  await d1Meter(true);
  const sent = await Promise.all(emails.map((email, i) => timed(send, async () => {
    const answer = await post('agg-web/user/getRegVerificationCode', { emailAddress: email, type: 3 }, ipOfPerson(i)).then((r) => r.json());
    return answer.code === '0' ? {} : { failure: `send ${answer.code}` };
  })));
  meter.send = await d1Meter(false);
  const codes = await Promise.all(emails.map(async (email, i) => {
    if (!sent[i]) return null;
    const outbox = await fetch(`${base}/api/dev/outbox?to=${encodeURIComponent(email)}`).then((r) => r.json());
    return /\b(\d{4,8})\b/.exec(outbox.data?.[0]?.text ?? '')?.[1] ?? null;
  }));
  // 2. Every person signs in with their code at the same moment (registering), 3. then calls until the deadline.
  await d1Meter(true);
  const cookies = await Promise.all(emails.map((email, i) => timed(signIn, async () => {
    if (!codes[i]) return { failure: 'no code' };
    const response = await post('agg-web/quick/user/login', { loginType: 2, loginEmail: email, code: codes[i], agreed: true, userIdentity: 1, companyName: 'Load Test Shipping' }, ipOfPerson(i));
    const answer = await response.json();
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('portal_token='))?.split(';')[0];
    return answer.code === '0' && cookie ? { cookie } : { failure: `sign-in ${answer.code}` };
  })));
  meter.signIn = await d1Meter(true);
  const callsStarted = performance.now();
  await Promise.all(cookies.map(async (signedIn, i) => {
    if (!signedIn) return;
    while (performance.now() < deadline) {
      await timed(call, async () => {
        const answer = await fetch(`${base}/api/agg-web/user/fetchMeByUserToken`, { headers: { cookie: signedIn.cookie, 'cf-connecting-ip': ipOfPerson(i) } }).then((r) => r.json());
        return answer.code === '0' ? {} : { failure: `call ${answer.code}` };
      });
    }
  }));
  meter.call = await d1Meter(false);
  const callSeconds = (performance.now() - callsStarted) / 1000;
  const perRequest = (reading, n) => (n ? { 'D1 round trips': +(reading.roundTrips / n).toFixed(2), 'D1 reads': +(reading.reads / n).toFixed(2), 'D1 writes': +(reading.writes / n).toFixed(2) } : {});
  const rows = [[send, meter.send], [signIn, meter.signIn], [call, meter.call]].map(([record, reading]) => ({
    step: record.name,
    requests: record.count,
    'p50 ms': quantile(record.ms, 0.5),
    'p99 ms': quantile(record.ms, 0.99),
    failures: Object.values(record.failures).reduce((a, b) => a + b, 0),
    ...perRequest(reading, record.count),
  }));
  const callRate = call.count / callSeconds;
  const statementsPerSecond = (meter.call.reads + meter.call.writes) / callSeconds;
  return {
    rows,
    failures: { ...send.failures, ...signIn.failures, ...call.failures },
    emails,
    summary: {
      'people': PEOPLE,
      'seconds': +((performance.now() - started) / 1000).toFixed(1),
      'signed-in calls a second': +callRate.toFixed(1),
      'D1 statements a second while calling': +statementsPerSecond.toFixed(1),
      "share of one D1 primary's ~1,000 queries a second": `${((statementsPerSecond / PRIMARY_QUERIES_PER_SECOND) * 100).toFixed(1)} %`,
      'writes of a code pair (send + sign-in)': meter.send.writes / Math.max(1, send.count) + meter.signIn.writes / Math.max(1, signIn.count),
    },
  };
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
    // Each sign-in comes from the address its code was asked from, as a person's would: one address sending
    // hundreds of sign-ins a minute meets the per-network caps, which are not what this measures.
    const bodies = codes.flatMap(({ email, code }, i) => {
      const body = { body: JSON.stringify({ loginType: 2, loginEmail: email, code, agreed: true, userIdentity: 1, companyName: 'Load Test Shipping' }), ip: ipOf(i) };
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
          setupRequest: (request) => {
            const { body, ip } = bodies[sent++ % bodies.length];
            return { ...request, body, headers: { ...request.headers, 'cf-connecting-ip': ip } };
          },
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
    rows.push(summary(`code sign-in + registration (${SIGN_INS} codes × 2)`, signIns, { answers: JSON.stringify(Object.fromEntries(answers)) }));

    // 3. The people: code sign-in, then signed-in calls, all at once.
    console.log(`${PEOPLE} people: code sign-in, then signed-in calls, for ${PEOPLE_SECONDS} s…`);
    const crowd = await people();
    console.table(crowd.rows);
    console.table(crowd.summary);
    if (Object.keys(crowd.failures).length) console.log('failures:', crowd.failures);
    const crowdUsers = d1(`SELECT COUNT(*) AS n, COUNT(DISTINCT email) AS distinct_emails FROM users WHERE email LIKE 'people-${run}-%'`)[0];
    const crowdSessions = d1(`SELECT COUNT(*) AS n, COUNT(DISTINCT user_id) AS people FROM sessions WHERE user_id IN (SELECT id FROM users WHERE email LIKE 'people-${run}-%')`)[0];

    // 4. The database: every registration exactly once.
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
      'the people: no failure': Object.keys(crowd.failures).length === 0,
      'the people: each exists once': crowdUsers.n === PEOPLE && crowdUsers.distinct_emails === PEOPLE,
      'the people: one session each': crowdSessions.n === PEOPLE && crowdSessions.people === PEOPLE,
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
