import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import app from '../../functions/worker';
import { DEV_HANDOFF_KEY, createHandoffBlob, handoffClaims, importHandoffKey } from '../../functions/gateway/handoff/blob';
import { hashPassword } from '../../src/lib/password-hash';
import { LOGIN_CLIENT } from '../../src/schemas/auth';
import { deployedVars, startWorkerEnv } from './worker-env';

/**
 * Security baseline: "Nothing logs codes, tokens, passwords, or URLs carrying them." A code sign-in (which
 * registers), a password sign-in (a failure, then a success), a hand-off of credentials and a browser error
 * report whose URL carries a blob run through the whole Worker while every console method is captured. No log
 * line, no answer body and no header other than Set-Cookie may contain a code, a token, a password, its hashes
 * or salt, the pepper or a blob. The dev outbox answer (GET /api/dev/outbox, DEV_OUTBOX only) is the one place
 * a code may appear; its console line names only the recipient and subject (functions/gateway/delivery/).
 */
let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
beforeAll(async () => {
  worker = await startWorkerEnv('no-secrets');
});
afterAll(() => worker.dispose());

const lines: string[] = [];
for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
  vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
    lines.push(`${method}: ${args.map((a) => (typeof a === 'string' ? a : a instanceof Error ? `${a.message} ${a.stack}` : JSON.stringify(a))).join(' ')}`);
  });
}

/** Every answer the flows got: what the browser could see or keep in its history. */
const seen: { path: string; body: string; headers: string }[] = [];

async function call(path: string, init: { method?: string; body?: unknown; cookie?: string; ip?: string } = {}) {
  const headers: Record<string, string> = { 'cf-connecting-ip': init.ip ?? '198.51.100.23' };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.cookie) headers.cookie = init.cookie;
  const res = await app.request(
    `http://portal.test${path}`,
    { method: init.method ?? (init.body === undefined ? 'GET' : 'POST'), headers, body: init.body === undefined ? undefined : JSON.stringify(init.body), redirect: 'manual' },
    worker.env,
    worker.ctx,
  );
  const body = await res.text();
  const other = [...res.headers].filter(([name]) => name !== 'set-cookie').map(([n, v]) => `${n}: ${v}`).join('\n');
  seen.push({ path, body, headers: other });
  return { res, body, json: () => JSON.parse(body) as { code: string; data: unknown } };
}

const tokenOf = (res: Response) => /(?:^|\n)portal_token=([^;]*)/.exec(res.headers.getSetCookie().join('\n'))?.[1] ?? '';

describe('no secrets in logs, answers or URLs', () => {
  it('holds for a code sign-in, a password sign-in, a credentials hand-off and an error report', async () => {
    const secrets: Record<string, string> = {};

    // 1. Sign-in by e-mail code (a registration).
    const email = 'quiet.person@example.com';
    expect((await call('/api/agg-web/user/getRegVerificationCode', { body: { emailAddress: email, type: 3 } })).json().code).toBe('0');
    const outbox = await call(`/api/dev/outbox?to=${encodeURIComponent(email)}`);
    secrets.code = /\b(\d{6})\b/.exec(outbox.body)![1]!;
    const quick = await call('/api/agg-web/quick/user/login', {
      body: { loginType: 2, loginEmail: email, code: secrets.code, agreed: true, userIdentity: 1, companyName: 'Quiet Co' },
    });
    expect(quick.json().code).toBe('0');
    secrets.codeSessionToken = tokenOf(quick.res);
    await call('/api/agg-web/quick/user/findUserLoginCase', { body: {}, cookie: `portal_token=${secrets.codeSessionToken}` });
    await call('/api/c/user/v2/loginout', { body: {}, cookie: `portal_token=${secrets.codeSessionToken}` });

    // 2. Password sign-in: a seeded account, one wrong password, then the right one.
    const password = 'Quiet2024Harbour';
    const pwEmail = 'password.person@example.com';
    secrets.password = password;
    secrets.clientHash = await hashPassword(password);
    secrets.wrongClientHash = await hashPassword('Wrong2024Harbour');
    const seeded = (await call('/api/dev/users', { body: { email: pwEmail, password } })).json();
    expect(seeded.code).toBe('0');
    const pwUserId = (seeded.data as { userId: string }).userId;
    const login = (loginPassword: string) =>
      call('/api/agg-web/user/v3/userLogin', { body: { loginEmail: pwEmail, loginPassword, passwordVersion: 2, captchaType: 3, ...LOGIN_CLIENT } });
    expect((await login(secrets.wrongClientHash)).json().code).toBe('US0010');
    const ok = await login(secrets.clientHash);
    expect(ok.json().code).toBe('0');
    secrets.passwordSessionToken = tokenOf(ok.res);
    const stored = await worker.env.DB.prepare('SELECT password_hash, password_salt FROM users WHERE email = ?')
      .bind(pwEmail)
      .first<{ password_hash: string; password_salt: string }>();
    secrets.storedHash = stored!.password_hash;
    secrets.storedSalt = stored!.password_salt;
    secrets.pepper = 'dev-only-pepper-not-for-production';

    // 3. A credentials hand-off (userNameAndPwd): signs in, and its password hash is never shown or logged.
    const key = await importHandoffKey(DEV_HANDOFF_KEY);
    secrets.handoffPasswordHash = secrets.clientHash;
    secrets.blob = await createHandoffBlob(
      key,
      handoffClaims({ sub: pwUserId, aud: 'portal', purpose: 'credentials', loginName: pwEmail, passwordHash: secrets.handoffPasswordHash }),
    );
    const handoff = await call(`/login?userNameAndPwd=${secrets.blob}`);
    expect(handoff.res.status).toBe(303);
    // A replay is refused with the error page, which must not echo the blob either.
    expect((await call(`/login?userNameAndPwd=${secrets.blob}`)).res.status).toBe(400);

    // 4. A browser error report from a page whose URL still carries the blob.
    const report = await call('/api/agg-web/client/error', {
      body: { message: `failed at http://portal.test/login?userNameAndPwd=${secrets.blob}`, url: `http://portal.test/login?userNameAndPwd=${secrets.blob}` },
    });
    expect(report.json().data).toEqual({ stored: true });

    for (const [name, value] of Object.entries(secrets)) expect(value.length, name).toBeGreaterThanOrEqual(6);
    // The logs said something (the error report), so the capture works.
    expect(lines.some((line) => line.includes('client error'))).toBe(true);
    for (const line of lines) {
      for (const [name, value] of Object.entries(secrets)) expect(line.includes(value), `log line carries the ${name}: ${line}`).toBe(false);
    }
    for (const answer of seen.filter((a) => !a.path.startsWith('/api/dev/outbox'))) {
      for (const [name, value] of Object.entries(secrets)) {
        expect(answer.body.includes(value), `${answer.path} answer carries the ${name}`).toBe(false);
        expect(answer.headers.includes(value), `${answer.path} headers carry the ${name}`).toBe(false);
      }
      expect(answer.body).not.toMatch(/access_token|refresh_token|oauthVO/);
    }
    // The stored report kept no blob either.
    const rows = await worker.env.DB.prepare('SELECT message, url FROM client_errors').all();
    expect(JSON.stringify(rows.results)).not.toContain(secrets.blob);
  });
});

describe('URLs carrying live tokens never reach the logs', () => {
  const deployed = deployedVars;

  it('keeps Workers invocation logs (which record the full URL) off in every environment', () => {
    const toml = readFileSync('wrangler.toml', 'utf8');
    expect(toml.match(/^invocation_logs = (\w+)$/gm)).toEqual(['invocation_logs = false', 'invocation_logs = false', 'invocation_logs = false']);
  });

  it("writes the request line of a deployed Worker with every link's and blob's value redacted, for a burst of 30", async () => {
    lines.length = 0;
    const key = await importHandoffKey(DEV_HANDOFF_KEY);
    const values: string[] = [];
    const urls = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const blob = await createHandoffBlob(key, handoffClaims({ sub: `nobody-${i}`, aud: 'portal', purpose: 'session' }));
        const pass = crypto.randomUUID().replace(/-/g, '');
        values.push(blob, pass);
        const name = ['token', 'userToken', 'USERTOKEN', 'userNameAndPwd', 'pass', 'share'][i % 6]!;
        return i % 6 < 4 ? `/login?${name}=${blob}&source=portal&${name}=${blob}` : `/pass_email_login?${name}=${pass}&lang=en`;
      }),
    );
    const answers = await Promise.all(
      urls.map((url) =>
        app.request(`https://portal.example.com${url}`, { headers: { 'cf-connecting-ip': '203.0.113.30', 'cf-ray': 'ray-1' }, redirect: 'manual' }, { ...worker.env, ...deployed }, worker.ctx),
      ),
    );
    await Promise.all(answers.map((res) => res.text()));
    const requestLines = lines.filter((line) => line.includes('"request"'));
    expect(requestLines).toHaveLength(30);
    for (const line of lines) for (const value of values) expect(line.includes(value), line).toBe(false);
    expect(requestLines.filter((line) => line.includes('redacted'))).toHaveLength(30);
    expect(requestLines.some((line) => line.includes('source=portal'))).toBe(true);
  });
});
