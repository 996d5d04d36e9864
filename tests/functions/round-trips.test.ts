import { describe, expect, it } from 'vitest';
import type { WorkerEnv } from '../../functions/env';
import { useWorkerEnv } from './gateway-client';

/**
 * What the paths every person takes cost in D1 (issue 31): round trips (a statement or a batch, each one wait on
 * the database) and the statements in them, counted by wrapping the D1 binding, through the whole Worker. The
 * budgets are the numbers README's scale section gives; a change that adds a round trip to these paths fails here.
 * Set ROUND_TRIPS_LOG=1 to print every statement of each measured call.
 */
const { worker, api } = useWorkerEnv('round-trips');

/** What one call cost in D1, the dev clock's read left out. */
interface Count {
  trips: number;
  /** Milliseconds spent waiting on D1. */
  waited: number;
  statements: number;
  writes: number;
  log: string[];
}

const WRITE = /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i;
/** The dev clock's read (gateway/app.ts): every call of a local run pays it, a deployed Worker never does. */
const DEV_CLOCK = /FROM portal_meta/;

/** A D1 binding that counts what reaches the database (a session of withSession counts the same way). */
function counting(db: D1Database | D1DatabaseSession, count: Count): D1Database {
  const sqlOf = new WeakMap<object, string>();
  const timed = <T>(work: Promise<T>) => {
    const started = performance.now();
    return work.finally(() => (count.waited += performance.now() - started));
  };
  const note = (sqls: string[]) => {
    if (sqls.length === 1 && DEV_CLOCK.test(sqls[0]!)) return void count.log.push(`(dev clock) ${sqls[0]}`);
    count.trips++;
    count.statements += sqls.length;
    count.writes += sqls.filter((sql) => WRITE.test(sql)).length;
    count.log.push(sqls.map((sql) => sql.replace(/\s+/g, ' ').slice(0, 110)).join('  ||  '));
  };
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const wrapped = new Proxy(statement, {
      get(target, key) {
        if (key === 'bind') return (...values: unknown[]) => wrap(target.bind(...values), sql);
        if (key === 'first' || key === 'run' || key === 'all' || key === 'raw') {
          return (...args: unknown[]) => {
            note([sql]);
            return timed((target[key] as (...a: unknown[]) => Promise<unknown>).apply(target, args));
          };
        }
        return Reflect.get(target, key);
      },
    });
    sqlOf.set(wrapped, sql);
    originals.set(wrapped, statement);
    return wrapped;
  };
  const originals = new WeakMap<object, D1PreparedStatement>();
  return {
    prepare: (sql: string) => wrap(db.prepare(sql), sql),
    batch: (statements: D1PreparedStatement[]) => {
      note(statements.map((s) => sqlOf.get(s) ?? '?'));
      return timed(db.batch(statements.map((s) => originals.get(s) ?? s)));
    },
    exec: (sql: string) => {
      note([sql]);
      return (db as D1Database).exec(sql);
    },
    withSession: (constraint?: string) => counting((db as D1Database).withSession(constraint), count),
    getBookmark: () => ('getBookmark' in db ? db.getBookmark() : null),
  } as unknown as D1Database;
}

/** Runs `steps` with every call's D1 counted; returns the count. */
async function measure(steps: (env: Partial<WorkerEnv>) => Promise<void>): Promise<Count> {
  const count: Count = { trips: 0, waited: 0, statements: 0, writes: 0, log: [] };
  await steps({ DB: counting(worker.env.DB, count) });
  if (process.env.ROUND_TRIPS_LOG) console.log(`${count.log.join('\n')}\n(${count.waited.toFixed(1)} ms waiting on D1)`);
  return count;
}

describe('D1 round trips of the paths every person takes', () => {
  it('a signed-in call (fetchMeByUserToken) reads once and writes nothing', async () => {
    const { cookie } = await api.person({ userType: 2 });
    // The first call after the sign-in: last_seen_at is less than a minute old, so nothing is written.
    const count = await measure(async (env) => {
      const answer = await api.json(await api.get('/agg-web/user/fetchMeByUserToken', { cookie, env }));
      expect(answer.code).toBe('0');
    });
    console.log(`signed-in call: ${count.trips} round trips, ${count.statements} statements, ${count.writes} writes`);
    expect(count.writes).toBe(0);
    expect(count.trips).toBe(1);
    // One statement: the session joined with its person, the companies selected with them as JSON.
    expect(count.statements).toBe(1);
  });

  it('a code sign-in (send, then sign in as a new person) stays within its round trips', async () => {
    const email = `rt.${api.unique()}@example.com`;
    const from = api.ip();
    const send = await measure(async (env) => {
      expect((await api.json(await api.post('/agg-web/user/getRegVerificationCode', { emailAddress: email, type: 3 }, { from, env }))).code).toBe('0');
    });
    const code = await api.latestCode(email);
    const signIn = await measure(async (env) => {
      const res = await api.post('/agg-web/quick/user/login', { loginType: 2, loginEmail: email, code, agreed: true, userIdentity: 1, companyName: 'Round Trip Shipping' }, { from, env });
      expect((await api.json(res)).code).toBe('0');
      expect(api.sessionCookie(res)).toMatch(/portal_token=.+/);
    });
    console.log(`code send: ${send.trips} round trips, ${send.statements} statements, ${send.writes} writes`);
    console.log(`code sign-in: ${signIn.trips} round trips, ${signIn.statements} statements, ${signIn.writes} writes`);
    expect(send.trips).toBeLessThanOrEqual(2);
    expect(signIn.trips).toBeLessThanOrEqual(3);
  });

  it('a code sign-in of a person who has an account stays within its round trips', async () => {
    const email = `rt.known.${api.unique()}@example.com`;
    await api.seed({ email, password: 'Harbour2024', userType: 2 });
    const from = api.ip();
    expect((await api.json(await api.post('/agg-web/user/getRegVerificationCode', { emailAddress: email, type: 3 }, { from }))).code).toBe('0');
    const code = await api.latestCode(email);
    const signIn = await measure(async (env) => {
      const res = await api.post('/agg-web/quick/user/login', { loginType: 2, loginEmail: email, code, agreed: true }, { from, env });
      expect((await api.json(res)).code).toBe('0');
      expect(api.sessionCookie(res)).toMatch(/portal_token=.+/);
    });
    console.log(`code sign-in (account exists): ${signIn.trips} round trips, ${signIn.statements} statements, ${signIn.writes} writes`);
    expect(signIn.trips).toBeLessThanOrEqual(4);
  });

  it('a password sign-in stays within its round trips', async () => {
    const email = `pw.${api.unique()}@example.com`;
    await api.seed({ email, password: 'Harbour2024', userType: 2 });
    const count = await measure(async (env) => {
      expect((await api.json(await api.emailLogin(email, 'Harbour2024', {}, { env }))).code).toBe('0');
    });
    console.log(`password sign-in: ${count.trips} round trips, ${count.statements} statements, ${count.writes} writes`);
    // 5 once the legacy share (sign-in/legacy-decoy.ts) is cached in the isolate; 6 on its first read.
    expect(count.trips).toBeLessThanOrEqual(6);
  });
});
