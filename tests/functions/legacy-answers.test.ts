import { describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/lib/password-hash';
import { countLegacyShare } from '../../functions/gateway/sign-in/db';
import { useWorkerEnv, type Envelope } from './gateway-client';

/**
 * Enumeration by answers (issue 30, part 2), as a script probes: a legacy (salted) record answers SY9990 to a
 * version-2 password, so an unknown name must answer it just as often, and a wrong password or code must not
 * write more before its answer for a known account than for an unknown name. Its own file: the share of legacy
 * records is read once per isolate, and these tests decide what it is (2 legacy records of 4 with a password).
 */
const { worker, api } = useWorkerEnv('legacy-answers');

const phonePassword = (mobile: string, password: string, passwordVersion: 1 | 2, from = api.ip()) =>
  api.post('/agg-web/user/loginByPhone', { mobile, mobileCode: '+86', password, passwordVersion, loginType: 101, captchaType: 3 }, { from });
/** What a script reads of an answer: its code, message and data (the trace id differs on every call). */
const said = async (res: Response) => {
  const { code, message, data } = await api.json(res);
  return { code, message, data };
};

describe('a legacy record and an unknown name answer alike', () => {
  const legacySalt = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';
  const legacy: string[] = [];

  it('the share of legacy records is counted from the accounts', async () => {
    for (let n = 0; n < 2; n++) {
      const mobile = api.mobile('136');
      await api.seed({ phone: { callingCode: '+86', mobile }, password: 'Legacy123', legacySalt });
      legacy.push(mobile);
      await api.seed({ phone: { callingCode: '+86', mobile: api.mobile('136') }, password: 'Harbour2024' });
    }
    expect(await countLegacyShare(worker.env.DB)).toBe(0.5);
  });

  it('unknown names answer SY9990 about as often as accounts are legacy records, and each name always the same', async () => {
    const unknown = Array.from({ length: 40 }, () => api.mobile('135'));
    const wrong = await hashPassword('Wrong12345');
    const first = await Promise.all(unknown.map(async (mobile) => (await said(await phonePassword(mobile, wrong, 2))).code));
    expect(new Set(first)).toEqual(new Set(['SY9990', 'US0010']));
    const salted = first.filter((code) => code === 'SY9990').length;
    // Half of 40 on average; outside 8–32 once in about 25,000 runs.
    expect(salted).toBeGreaterThanOrEqual(8);
    expect(salted).toBeLessThanOrEqual(32);
    // Asking again (from another network) never flips a name's answer, so repeating tells nothing more.
    const again = await Promise.all(unknown.slice(0, 12).map(async (mobile) => (await said(await phonePassword(mobile, wrong, 2))).code));
    expect(again).toEqual(first.slice(0, 12));
  }, 60_000);

  it('a decoy SY9990 goes through the salt round trip and ends exactly as a legacy account\'s wrong password does', async () => {
    const wrong = await hashPassword('Wrong12345');
    let decoy: string | undefined;
    for (let tries = 0; !decoy && tries < 64; tries++) {
      const mobile = api.mobile('135');
      if ((await said(await phonePassword(mobile, wrong, 2))).code === 'SY9990') decoy = mobile;
    }
    expect(decoy).toBeDefined();
    const roundTrip = async (mobile: string) => {
      const from = api.ip();
      const first = await said(await phonePassword(mobile, wrong, 2, from));
      const saltOf = async () => (await api.json<{ salt: string }>(await api.post('/agg-web/user/getUserSalt', { type: 1, phone: mobile, phoneCode: '+86' }))).data.salt;
      const salt = await saltOf();
      expect(await saltOf()).toBe(salt);
      const second = await said(await phonePassword(mobile, await hashPassword('Wrong12345', salt), 1, from));
      return { first, salt, second };
    };
    const [fake, real] = await Promise.all([roundTrip(decoy!), roundTrip(legacy[0]!)]);
    expect(fake.first).toEqual(real.first);
    expect(fake.first.code).toBe('SY9990');
    expect(fake.salt).toMatch(/^[0-9a-f]{32}$/);
    expect(real.salt).toBe(legacySalt);
    expect(fake.second).toEqual(real.second);
    expect(fake.second.code).toBe('US0010');
    // The owner still signs in with the salted password.
    const owner = await said(await phonePassword(legacy[1]!, await hashPassword('Legacy123', legacySalt), 1));
    expect(owner.code).toBe('0');
  }, 60_000);
});

/**
 * A D1 binding that notes each write statement as it completes. At the moment the Worker answers, what has
 * completed is what was written before the answer; waitUntil work completes later.
 */
function noteWrites(db: D1Database) {
  const completed: string[] = [];
  const isWrite = (sql: string) => /\b(INSERT|UPDATE|DELETE|REPLACE)\b/i.test(sql);
  const note = (sql: string) => {
    if (isWrite(sql)) completed.push(sql.replace(/\s+/g, ' ').trim());
  };
  const originals = new WeakMap<object, { statement: D1PreparedStatement; sql: string }>();
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const after = <T>(work: Promise<T>) => work.then((result) => (note(sql), result));
    const wrapped = {
      bind: (...values: unknown[]) => wrap(statement.bind(...values), sql),
      first: (column?: string) => after(column === undefined ? statement.first() : statement.first(column)),
      run: () => after(statement.run()),
      all: () => after(statement.all()),
      raw: (options?: { columnNames?: boolean }) => after(statement.raw(options as { columnNames: true })),
    } as unknown as D1PreparedStatement;
    originals.set(wrapped, { statement, sql });
    return wrapped;
  };
  const binding = {
    prepare: (sql: string) => wrap(db.prepare(sql), sql),
    batch: async (statements: D1PreparedStatement[]) => {
      const results = await db.batch(statements.map((s) => originals.get(s)?.statement ?? s));
      for (const s of statements) note(originals.get(s)?.sql ?? '');
      return results;
    },
    exec: (sql: string) => db.exec(sql),
    withSession: db.withSession.bind(db),
    dump: db.dump.bind(db),
  } as unknown as D1Database;
  return { binding, completed };
}

describe('a refusal writes nothing more before its answer for a known account than for an unknown name', () => {
  /** The writes completed when `call` answered, and the answer; then waits for the work after the answer. */
  async function writesBeforeAnswer(call: (env: { DB: D1Database }) => Promise<Response>) {
    const { binding, completed } = noteWrites(worker.env.DB);
    const answer = await call({ DB: binding });
    const before = [...completed];
    const body = (await answer.json()) as Envelope;
    await worker.settle();
    return { before, after: [...completed], code: body.code };
  }

  it('a wrong password: the known account\'s history row is written after the answer', async () => {
    const known = api.mobile('134');
    const userId = await api.seed({ phone: { callingCode: '+86', mobile: known }, password: 'Harbour2024' });
    const attempt = (mobile: string) => (env: { DB: D1Database }) =>
      hashPassword('Wrong12345').then((password) =>
        api.post('/agg-web/user/loginByPhone', { mobile, mobileCode: '+86', password, passwordVersion: 1, loginType: 101, captchaType: 3 }, { env, early: true }),
      );
    const ofKnown = await writesBeforeAnswer(attempt(known));
    const ofUnknown = await writesBeforeAnswer(attempt(api.mobile('134')));
    expect(ofKnown.code).toBe('US0010');
    expect(ofUnknown.code).toBe('US0010');
    expect(ofKnown.before).toEqual(ofUnknown.before);
    expect(ofKnown.after.filter((sql) => /INSERT INTO sign_ins/i.test(sql))).toHaveLength(1);
    const rows = await worker.env.DB.prepare('SELECT success, method FROM sign_ins WHERE user_id = ?').bind(userId).all();
    expect(rows.results).toEqual([{ success: 0, method: 'password' }]);
  }, 60_000);

  it('a wrong code: the known account\'s history row is written after the answer', async () => {
    const known = `probe.${api.unique()}@example.com`;
    const userId = await api.seed({ email: known, password: 'Harbour2024' });
    const attempt = (loginEmail: string) => (env: { DB: D1Database }) =>
      api.post('/agg-web/quick/user/login', { loginType: 2, loginEmail, code: '123456', agreed: true, userIdentity: 1, companyName: 'Probe Shipping' }, { env, early: true });
    const ofKnown = await writesBeforeAnswer(attempt(known));
    const ofUnknown = await writesBeforeAnswer(attempt(`probe.${api.unique()}@example.com`));
    expect(ofKnown.code).toBe(ofUnknown.code);
    expect(ofKnown.code).toMatch(/^CD/);
    expect(ofKnown.before).toEqual(ofUnknown.before);
    const rows = await worker.env.DB.prepare('SELECT success, method FROM sign_ins WHERE user_id = ?').bind(userId).all();
    expect(rows.results).toEqual([{ success: 0, method: 'code' }]);
  }, 60_000);
});
