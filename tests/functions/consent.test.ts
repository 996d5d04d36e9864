import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app from '../../functions/worker';
import { legalVersions } from '../../functions/gateway/services/legal-versions';
import { hashPassword } from '../../src/lib/password-hash';
import { LOGIN_CLIENT } from '../../src/schemas/auth';
import { startWorkerEnv } from './worker-env';

/** Issue 7: which document versions a person agreed to, and asking again when the terms change. */
let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
beforeAll(async () => {
  worker = await startWorkerEnv('consent');
});
afterAll(() => worker.dispose());

let seq = 0;
const email = () => `consent.${Date.now()}.${seq++}@example.com`;
const post = (path: string, body: unknown, cookie?: string) =>
  app.request(
    `http://localhost/api${path}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': `10.7.0.${seq++}`, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    },
    worker.env,
    worker.ctx,
  );
const data = async (res: Response) => ((await res.json()) as { code: string; data: Record<string, unknown> }).data;
const cookieOf = (res: Response) => /portal_token=[^;]*/.exec(res.headers.getSetCookie().join('\n'))![0];
const consentsOf = (userId: string) =>
  worker.env.DB.prepare('SELECT document, version FROM user_consents WHERE user_id = ? ORDER BY document').bind(userId).all<{ document: string; version: string }>();

async function passwordLogin(address: string) {
  return post('/agg-web/user/v3/userLogin', {
    loginEmail: address,
    loginPassword: await hashPassword('harbour2024'),
    passwordVersion: 2,
    captchaType: 3,
    ...LOGIN_CLIENT,
  });
}

describe('consent records', () => {
  it('records the terms, privacy and registration versions a new user agreed to', async () => {
    const address = email();
    await post('/agg-web/user/getRegVerificationCode', { emailAddress: address, type: 3 });
    const outbox = await app.request(`http://localhost/api/dev/outbox?to=${address}`, {}, worker.env, worker.ctx);
    const code = /\b(\d{6})\b/.exec(((await outbox.json()) as { data: { text: string }[] }).data[0]!.text)![1];
    const res = await post('/agg-web/quick/user/login', { loginType: 2, loginEmail: address, code, agreed: true, userIdentity: 1, companyName: 'Harbour Line' });
    const answer = await data(res);
    expect(answer.needsConsent).toBe(false);
    const rows = (await consentsOf(answer.userId as string)).results;
    expect(rows).toEqual([
      { document: 'privacy', version: legalVersions.privacy },
      { document: 'registration', version: legalVersions.registration },
      { document: 'terms', version: legalVersions.terms },
    ]);
  });

  it('asks a person who never agreed to these terms, and records the agreement once given', async () => {
    const address = email();
    await app.request('http://localhost/api/dev/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: address, password: 'harbour2024', userType: 2 }) }, worker.env, worker.ctx);
    const first = await passwordLogin(address);
    const answer = await data(first);
    expect(answer.needsConsent).toBe(true);
    const agreed = await post('/agg-web/protocol/agree', {}, cookieOf(first));
    expect(((await agreed.json()) as { code: string }).code).toBe('0');
    expect((await consentsOf(answer.userId as string)).results.map((r) => r.document)).toEqual(['privacy', 'terms']);
    expect((await data(await passwordLogin(address))).needsConsent).toBe(false);
  });

  it('asks again when the terms version changed since the person agreed', async () => {
    const address = email();
    await app.request('http://localhost/api/dev/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: address, password: 'harbour2024', userType: 2 }) }, worker.env, worker.ctx);
    const userId = (await data(await passwordLogin(address))).userId as string;
    await worker.env.DB.prepare("INSERT INTO user_consents (user_id, document, version, agreed_at) VALUES (?, 'terms', '0.9.0', 1)").bind(userId).run();
    expect((await data(await passwordLogin(address))).needsConsent).toBe(true);
  });

  it('refuses to record an agreement without a session', async () => {
    const res = await post('/agg-web/protocol/agree', {});
    expect(res.status).toBe(401);
  });
});
