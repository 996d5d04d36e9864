import { Secret, TOTP } from 'otpauth';
import { describe, expect, it, vi } from 'vitest';
import { unstable_splitSqlQuery } from 'wrangler';
import { addOperatorSql, enrolmentLink, LIST_OPERATORS_SQL, newEnrolmentSql, newEnrolmentToken, removeOperatorSql } from '../../scripts/operator-sql.mjs';
import { createGateway } from '../../functions/gateway/app';
import {
  OPERATOR_CHALLENGE_TRIES,
  OPERATOR_LOGIN_GUESS_CAP,
  OPERATOR_NETWORK_GUESS_CAP,
} from '../../functions/gateway/operators/sign-in';
import { operatorInsert, startOperatorSession, type OperatorRole } from '../../functions/gateway/operators/service';
import { sha256Hex } from '../../functions/gateway/identity/passwords';
import { hashPassword } from '../../src/lib/password-hash';
import { useWorkerEnv } from './gateway-client';
import { SoftAuthenticator } from './soft-authenticator';

/**
 * Operator accounts from the command line's SQL to a signed-in session, the way a script would attack them:
 * parallel bursts on one enrolment link, one challenge, one login and one network, forged client headers,
 * and every answer read in full (no token ever in a body, no cookie before the second step).
 */
// Every enrolment and sign-in runs PBKDF2 (100,000 rounds) in the local workerd: on a shared 2-core machine a
// test of several sign-ins takes longer than the default 20 s.
vi.setConfig({ testTimeout: 90_000 });
const ORIGIN = 'https://portal.example.com';
const PASSWORD = 'Quay7Harbour9';
// The passkey site comes from PORTAL_ORIGIN (PASSKEY_* unset, as deployed).
const { worker, api } = useWorkerEnv('ops-auth', { PORTAL_ORIGIN: ORIGIN, PASSKEY_RP_ID: '', PASSKEY_ORIGINS: '' }, { origin: ORIGIN });

/** Runs SQL text the way `wrangler d1 execute --command` does: split into statements, one batch. */
async function runSql(sql: string) {
  const db = worker.env.DB;
  return db.batch(unstable_splitSqlQuery(sql).map((statement) => db.prepare(statement)));
}

const codeAt = (secret: string, at: number) => TOTP.generate({ secret: Secret.fromBase32(secret), digits: 6, period: 30, timestamp: at });
const OPERATOR_COOKIE = /(?:^|\n)(__Host-portal_operator)=([^;]*)([^\n]*)/;
const operatorCookieOf = (res: Response) => {
  const [, name, value, attributes] = OPERATOR_COOKIE.exec(res.headers.getSetCookie().join('\n')) ?? [];
  return name ? { cookie: `${name}=${value}`, value: value!, attributes: attributes! } : null;
};
const codesOf = (bodies: { code: string }[]) => bodies.map((b) => b.code).reduce<Record<string, number>>((n, c) => ({ ...n, [c]: (n[c] ?? 0) + 1 }), {});

/** `npm run operator -- add`: the CLI's own SQL, on the real local D1. */
async function addOperator(role: OperatorRole, name = 'Test Operator') {
  const login = `op.${api.unique()}@ops.example.com`;
  const { token, hash } = newEnrolmentToken();
  await runSql(addOperatorSql({ login, name, role, tokenHash: hash }));
  const { id } = (await worker.env.DB.prepare('SELECT id FROM operators WHERE login = ?').bind(login).first<{ id: string }>())!;
  return { login, token, id };
}

/** Opens the link and finishes enrolment with a code of the current step. */
async function enrolled(role: OperatorRole) {
  const added = await addOperator(role);
  const start = await api.json<{ secret: string; uri: string; login: string }>(await api.post('/ops/v1/enrolment/start', { token: added.token }));
  expect(start.code).toBe('0');
  const secret = start.data.secret;
  const done = await api.json(await api.post('/ops/v1/enrolment/finish', { token: added.token, password: await hashPassword(PASSWORD), code: codeAt(secret, Date.now()) }));
  expect(done.code).toBe('0');
  return { ...added, secret };
}

const passwordStep = async (login: string, password = PASSWORD, from?: string) =>
  api.json<{ challenge: string }>(await api.post('/ops/v1/login', { login, password: await hashPassword(password) }, { from }));

describe('enrolment link (npm run operator -- add)', () => {
  it('is used once under 20 parallel uses: one operator enrolled, one audit row, the rest OP0010', async () => {
    const { token, id, login } = await addOperator('reviewer', "O'Brien'); DROP TABLE operators; --");
    expect(enrolmentLink('https://portal.example.com/', token)).toBe(`https://portal.example.com/ops/enrol#${token}`);
    // The name went through literal(): stored as typed, nothing else ran.
    expect((await worker.env.DB.prepare('SELECT name FROM operators WHERE id = ?').bind(id).first<{ name: string }>())?.name).toBe(
      "O'Brien'); DROP TABLE operators; --",
    );
    // Not enrolled yet: no password, so even the right one is no sign-in (and looks like any wrong one).
    expect((await passwordStep(login)).code).toBe('OP0004');

    const start = await api.json<{ secret: string; uri: string; login: string }>(await api.post('/ops/v1/enrolment/start', { token }));
    expect(start.data).toMatchObject({ login });
    expect(start.data.uri).toMatch(/^otpauth:\/\/totp\/.*Operators/);
    const body = { token, password: await hashPassword(PASSWORD), code: codeAt(start.data.secret, Date.now()) };
    const answers = await Promise.all(Array.from({ length: 20 }, async () => api.json(await api.post('/ops/v1/enrolment/finish', body))));
    expect(codesOf(answers)).toEqual({ '0': 1, OP0010: 19 });
    const audit = await worker.env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'operator.enrolled' AND target_id = ?").bind(id).first<{ n: number }>();
    expect(audit?.n).toBe(1);
    // The used link neither opens again nor hands out a new secret.
    expect((await api.json(await api.post('/ops/v1/enrolment/start', { token }))).code).toBe('OP0010');
    const row = await worker.env.DB.prepare('SELECT password_hash, totp_secret_enc, enrolled_at FROM operators WHERE id = ?').bind(id).first<Record<string, unknown>>();
    expect(row?.password_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.totp_secret_enc).toMatch(/^v1\./);
  });

  it('dies after 5 wrong codes, refuses a common password, and a forged token opens nothing', async () => {
    const { token } = await addOperator('support');
    const { secret } = (await api.json<{ secret: string }>(await api.post('/ops/v1/enrolment/start', { token }))).data;
    expect((await api.json(await api.post('/ops/v1/enrolment/finish', { token, password: await hashPassword('password1'), code: codeAt(secret, Date.now()) }))).code).toBe('PW0002');
    const wrong = { token, password: await hashPassword(PASSWORD), code: '000000' === codeAt(secret, Date.now()) ? '111111' : '000000' };
    const answers = await Promise.all(Array.from({ length: 20 }, async () => api.json(await api.post('/ops/v1/enrolment/finish', wrong))));
    expect(codesOf(answers)).toEqual({ OP0008: 5, OP0010: 15 });
    const right = { ...wrong, code: codeAt(secret, Date.now()) };
    expect((await api.json(await api.post('/ops/v1/enrolment/finish', right))).code).toBe('OP0010');
    expect((await api.json(await api.post('/ops/v1/enrolment/start', { token: token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) }))).code).toBe('OP0010');
  });
});

describe('operator sign-in', () => {
  it('password, then TOTP: no session before the second step, then only the HttpOnly operator cookie', async () => {
    const op = await enrolled('reviewer');
    const first = await api.post('/ops/v1/login', { login: op.login.toUpperCase(), password: await hashPassword(PASSWORD) }, { from: '198.51.100.7' });
    expect(first.headers.getSetCookie()).toEqual([]);
    const { challenge } = (await api.json<{ challenge: string }>(first)).data;
    // The half-way challenge is no session, whatever cookie it is put in.
    expect((await api.json(await api.get('/ops/v1/me', { cookie: `__Host-portal_operator=${challenge}` }))).code).toBe('OP0001');

    // The enrolment took the current step; the next one signs in.
    const code = codeAt(op.secret, Date.now() + 30_000);
    const res = await api.post('/ops/v1/login/totp', { challenge, code }, { from: '198.51.100.7' });
    const cookie = operatorCookieOf(res);
    const all = await api.readAll<{ operator: { login: string; role: string }; operatorSession: Record<string, unknown> }>(res);
    expect(all.body.code).toBe('0');
    expect(all.body.data.operator).toMatchObject({ login: op.login, role: 'reviewer' });
    expect(cookie?.attributes).toMatch(/HttpOnly/);
    expect(cookie?.attributes).toMatch(/SameSite=Strict/);
    expect(all.text).not.toContain(cookie!.value);
    expect(all.body.data.operatorSession).toEqual({ expiresIn: 12 * 3600 });
    expect(res.headers.getSetCookie().some((c) => /portal_token/.test(c))).toBe(false);
    expect((await api.json(await api.get('/ops/v1/me', { cookie: cookie!.cookie }))).data).toMatchObject({ id: op.id });
    const audit = await worker.env.DB.prepare("SELECT network FROM audit_log WHERE action = 'operator.signed_in' AND actor_id = ?").bind(op.id).all();
    expect(audit.results).toEqual([{ network: '198.51.100.7' }]);

    // The same code again, on a new challenge: used.
    const again = await passwordStep(op.login);
    expect((await api.json(await api.post('/ops/v1/login/totp', { challenge: again.data.challenge, code }))).code).toBe('OP0009');
    // The challenge that did start a session cannot start another.
    expect((await api.json(await api.post('/ops/v1/login/totp', { challenge, code: codeAt(op.secret, Date.now() + 60_000) }))).code).toBe('OP0007');
  });

  it('20 parallel right codes on one challenge start exactly one session', async () => {
    const op = await enrolled('support');
    const { challenge } = (await passwordStep(op.login)).data;
    const code = codeAt(op.secret, Date.now() + 30_000);
    const answers = await Promise.all(Array.from({ length: 20 }, async () => api.json(await api.post('/ops/v1/login/totp', { challenge, code }))));
    expect(answers.filter((a) => a.code === '0')).toHaveLength(1);
    // The others: the code was taken (OP0009), the challenge used or out of tries (OP0007), or the login's
    // guesses were full (OP0005: every code counts until it proved right).
    expect(Object.keys(codesOf(answers)).filter((c) => !['0', 'OP0009', 'OP0007', 'OP0005'].includes(c))).toEqual([]);
    const sessions = await worker.env.DB.prepare('SELECT COUNT(*) AS n FROM operator_sessions WHERE operator_id = ?').bind(op.id).first<{ n: number }>();
    expect(sessions?.n).toBe(1);
  }, 60_000);

  it('wrong passwords: 10 an hour per login under a burst of 30 from 30 networks, unknown logins alike', async () => {
    const op = await enrolled('admin');
    const burst = (login: string) =>
      Promise.all(Array.from({ length: 30 }, async () => (await passwordStep(login, 'Wrong1pass')).code));
    expect(codesOf((await burst(op.login)).map((code) => ({ code })))).toEqual({ OP0004: OPERATOR_LOGIN_GUESS_CAP, OP0005: 30 - OPERATOR_LOGIN_GUESS_CAP });
    // Capped: the right password does not get through either.
    expect((await passwordStep(op.login)).code).toBe('OP0005');
    const unknown = `nobody.${api.unique()}@ops.example.com`;
    expect(codesOf((await burst(unknown)).map((code) => ({ code })))).toEqual({ OP0004: OPERATOR_LOGIN_GUESS_CAP, OP0005: 30 - OPERATOR_LOGIN_GUESS_CAP });
  }, 120_000);

  it('wrong passwords: 30 an hour per network; forged client-address headers change nothing', async () => {
    const from = '192.0.2.44';
    const forged = (n: number) => ({ 'x-forwarded-for': `10.0.0.${n}`, 'x-real-ip': `10.0.1.${n}`, 'x-client-ip': `10.0.2.${n}`, 'true-client-ip': `10.0.3.${n}` });
    const answers = await Promise.all(
      Array.from({ length: 45 }, async (_, n) =>
        api.json(await api.post('/ops/v1/login', { login: `walk${n}.${api.unique()}@ops.example.com`, password: await hashPassword('Wrong1pass') }, { from, headers: forged(n) })),
      ),
    );
    expect(codesOf(answers)).toEqual({ OP0004: OPERATOR_NETWORK_GUESS_CAP, OP0006: 45 - OPERATOR_NETWORK_GUESS_CAP });
    const networks = await worker.env.DB.prepare("SELECT DISTINCT network FROM operator_guesses WHERE subject LIKE 'walk%'").all();
    expect(networks.results).toEqual([{ network: from }]);
  }, 120_000);

  it('wrong codes: 5 tries a challenge, 10 an hour per login under a burst of 20', async () => {
    const op = await enrolled('reviewer');
    const challenges = await Promise.all(Array.from({ length: 4 }, async () => (await passwordStep(op.login)).data.challenge));
    const good = new Set([-30_000, 0, 30_000, 60_000].map((d) => codeAt(op.secret, Date.now() + d)));
    const wrong = ['000000', '111111', '222222', '333333', '444444', '555555'].find((c) => !good.has(c))!;
    const answers = await Promise.all(
      challenges.flatMap((challenge) => Array.from({ length: OPERATOR_CHALLENGE_TRIES }, async () => api.json(await api.post('/ops/v1/login/totp', { challenge, code: wrong })))),
    );
    expect(codesOf(answers)).toEqual({ OP0008: OPERATOR_LOGIN_GUESS_CAP, OP0005: 20 - OPERATOR_LOGIN_GUESS_CAP });
    const last = (await passwordStep(op.login)).data.challenge;
    expect((await api.json(await api.post('/ops/v1/login/totp', { challenge: last, code: codeAt(op.secret, Date.now() + 30_000) }))).code).toBe('OP0005');
  });

  it('a challenge takes 5 tries, then is dead (on the gateway clock, no sleeping)', async () => {
    const op = await enrolled('support');
    let clock = Date.now() + 30_000;
    await api.throughGateway(createGateway({ clock: () => clock }), async () => {
      const { challenge } = (await api.json<{ challenge: string }>(await api.post('/ops/v1/login', { login: op.login, password: await hashPassword(PASSWORD) }))).data;
      const right = codeAt(op.secret, clock);
      const wrong = right === '123456' ? '654321' : '123456';
      const tries = [];
      for (let i = 0; i < OPERATOR_CHALLENGE_TRIES; i++) tries.push((await api.json<{ triesLeft: number }>(await api.post('/ops/v1/login/totp', { challenge, code: wrong }))).data);
      expect(tries.map((t) => t.triesLeft)).toEqual([4, 3, 2, 1, 0]);
      expect((await api.json(await api.post('/ops/v1/login/totp', { challenge, code: right }))).code).toBe('OP0007');
      // A fresh challenge that waits past its 5 minutes is dead too.
      const late = (await api.json<{ challenge: string }>(await api.post('/ops/v1/login', { login: op.login, password: await hashPassword(PASSWORD) }))).data.challenge;
      clock += 5 * 60 * 1000 + 1;
      expect((await api.json(await api.post('/ops/v1/login/totp', { challenge: late, code: codeAt(op.secret, clock) }))).code).toBe('OP0007');
    });
  });
});

describe('roles and separation', () => {
  async function sessionOf(role: OperatorRole) {
    const at = Date.now();
    const { id, statement } = await operatorInsert(
      worker.env.DB,
      worker.env,
      { login: `${role}.${api.unique()}@ops.example.com`, name: role, role, clientHash: await sha256Hex(PASSWORD) },
      at,
    );
    await statement.run();
    return { id, cookie: `__Host-portal_operator=${(await startOperatorSession(worker.env.DB, id, at)).token}` };
  }

  it('only an admin lists operators; the list has no secret', async () => {
    const enrolledOp = await enrolled('reviewer');
    for (const role of ['reviewer', 'support'] as const) {
      expect((await api.json(await api.get('/ops/v1/operators', { cookie: (await sessionOf(role)).cookie }))).code).toBe('OP0003');
    }
    const res = await api.readAll<{ login: string; role: string; secondSteps: string[]; enrolled: boolean }[]>(await api.get('/ops/v1/operators', { cookie: (await sessionOf('admin')).cookie }));
    expect(res.body.code).toBe('0');
    expect(res.body.data.find((o) => o.login === enrolledOp.login)).toMatchObject({ role: 'reviewer', secondSteps: ['totp'], enrolled: true });
    expect(res.text).not.toMatch(/password|secret_enc|v1\./);
  });

  it('a platform session opens no operator call, an operator session no platform call', async () => {
    const person = await api.person();
    const platformToken = /=(.*)$/.exec(person.cookie!)![1]!;
    const refused = await api.get('/ops/v1/operators', { cookie: person.cookie });
    expect((await api.json(refused)).code).toBe('OP0001');
    expect((await api.json(await api.get('/ops/v1/me', { cookie: `__Host-portal_operator=${platformToken}` }))).code).toBe('OP0001');

    const admin = await sessionOf('admin');
    const platformCall = await api.get('/agg-web/user/twoStep/status', { cookie: admin.cookie });
    expect((await api.json(platformCall)).code).toBe('TK00001');
    // The operator token in the platform cookie is no platform session either.
    const asPlatform = admin.cookie.replace('portal_operator', 'portal_token');
    expect((await api.json(await api.get('/agg-web/user/twoStep/status', { cookie: asPlatform }))).code).toBe('TK00001');
  });
});

describe('npm run operator -- remove / enrol / list', () => {
  it('remove ends every session and the sign-in; the row stays, listed as removed', async () => {
    const op = await enrolled('support');
    const sessions = await Promise.all(Array.from({ length: 3 }, () => startOperatorSession(worker.env.DB, op.id, Date.now())));
    const [result] = (await runSql(removeOperatorSql({ login: op.login }))).slice(-1);
    expect(result?.results).toEqual([{ login: op.login }]);
    for (const { token } of sessions) expect((await api.json(await api.get('/ops/v1/me', { cookie: `__Host-portal_operator=${token}` }))).code).toBe('OP0001');
    expect((await passwordStep(op.login)).code).toBe('OP0004');
    const [listed] = (await runSql(LIST_OPERATORS_SQL)).map((r) => (r.results as Record<string, unknown>[]).find((row) => row.login === op.login));
    expect(listed).toMatchObject({ role: 'support', second_steps: 'totp' });
    expect(listed?.removed_at).toEqual(expect.any(Number));
    // Removing again changes nothing; a new link for a removed login is not issued.
    expect((await runSql(removeOperatorSql({ login: op.login }))).at(-1)?.results).toEqual([]);
    expect((await runSql(newEnrolmentSql({ login: op.login, tokenHash: newEnrolmentToken().hash }))).at(-1)?.results).toEqual([{ issued: 0 }]);
  });

  it('enrol issues a new link that replaces the old credentials and ends the sessions', async () => {
    const op = await enrolled('reviewer');
    const before = await startOperatorSession(worker.env.DB, op.id, Date.now());
    const { token, hash } = newEnrolmentToken();
    expect((await runSql(newEnrolmentSql({ login: op.login, tokenHash: hash }))).at(-1)?.results).toEqual([{ issued: 1 }]);
    const { secret } = (await api.json<{ secret: string }>(await api.post('/ops/v1/enrolment/start', { token }))).data;
    const done = await api.json(await api.post('/ops/v1/enrolment/finish', { token, password: await hashPassword('NewQuay8pass'), code: codeAt(secret, Date.now() + 30_000) }));
    expect(done.code).toBe('0');
    expect((await api.json(await api.get('/ops/v1/me', { cookie: `__Host-portal_operator=${before.token}` }))).code).toBe('OP0001');
    expect((await passwordStep(op.login)).code).toBe('OP0004');
    expect((await passwordStep(op.login, 'NewQuay8pass')).code).toBe('0');
  });
});

describe('operator passkeys', () => {
  type CreationOptions = Parameters<SoftAuthenticator['register']>[0];
  async function withPasskey(role: OperatorRole) {
    const op = await enrolled(role);
    const cookie = `__Host-portal_operator=${(await startOperatorSession(worker.env.DB, op.id, Date.now())).token}`;
    const authenticator = new SoftAuthenticator();
    const options = await api.json<CreationOptions>(await api.post('/ops/v1/passkeys/options', {}, { cookie }));
    expect(options.code).toBe('0');
    const added = await api.json(await api.post('/ops/v1/passkeys', { response: await authenticator.register(options.data, ORIGIN) }, { cookie }));
    expect(added.code).toBe('0');
    return { ...op, authenticator };
  }
  const passkeyOptions = async (challenge: string) => api.json<{ challenge: string }>(await api.post('/ops/v1/login/passkey/options', { challenge }));

  it('only a signed-in operator adds one; it passes the second step once under 20 parallel uses', async () => {
    expect((await api.json(await api.post('/ops/v1/passkeys/options', {}))).code).toBe('OP0001');
    const op = await withPasskey('support');
    const first = await passwordStep(op.login);
    expect(first.data).toMatchObject({ methods: ['totp', 'passkey'] });
    const options = await passkeyOptions(first.data.challenge);
    const response = await op.authenticator.authenticate(options.data.challenge, ORIGIN);
    const answers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const res = await api.post('/ops/v1/login/passkey', { challenge: first.data.challenge, response });
        return { cookie: operatorCookieOf(res), body: await api.json(res) };
      }),
    );
    expect(answers.filter((a) => a.body.code === '0')).toHaveLength(1);
    expect(answers.filter((a) => a.cookie)).toHaveLength(1);
    const audit = await worker.env.DB.prepare("SELECT detail FROM audit_log WHERE action = 'operator.signed_in' AND actor_id = ?").bind(op.id).all();
    expect(audit.results).toEqual([{ detail: '{"method":"passkey"}' }]);
    const listed = await runSql(LIST_OPERATORS_SQL);
    expect((listed[0]!.results as Record<string, unknown>[]).find((row) => row.login === op.login)).toMatchObject({ second_steps: 'totp passkey' });
  }, 60_000);

  it("is no first factor, opens no other operator's sign-in, and only from the configured origin", async () => {
    const a = await withPasskey('reviewer');
    const b = await withPasskey('reviewer');
    // Without the password step there is no challenge to ask options for.
    expect((await api.json(await api.post('/ops/v1/login/passkey/options', { challenge: 'x'.repeat(43) }))).code).toBe('OP0007');
    // A's passkey on B's sign-in: the options named B's passkeys; A's response signs no challenge of B's.
    const bSignIn = (await passwordStep(b.login)).data.challenge;
    const bOptions = await passkeyOptions(bSignIn);
    const forged = await a.authenticator.authenticate(bOptions.data.challenge, ORIGIN);
    expect((await api.json(await api.post('/ops/v1/login/passkey', { challenge: bSignIn, response: forged }))).code).toBe('PK0004');
    // A response made on another site (a phishing page) is refused.
    const aSignIn = (await passwordStep(a.login)).data.challenge;
    const aOptions = await passkeyOptions(aSignIn);
    const phished = await a.authenticator.authenticate(aOptions.data.challenge, ORIGIN, { origin: 'https://portal-example.evil' });
    expect((await api.json(await api.post('/ops/v1/login/passkey', { challenge: aSignIn, response: phished }))).code).toBe('PK0003');
  }, 60_000);
});
