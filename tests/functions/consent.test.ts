import { describe, expect, it } from 'vitest';
import { legalVersions } from '../../functions/gateway/generated/legal-versions';
import { useWorkerEnv } from './gateway-client';

/** Issue 7: which document versions a person agreed to, and asking again when the terms change. */
const { worker, api } = useWorkerEnv('consent');

const email = () => `consent.${api.unique()}@example.com`;
const data = async (res: Response) => (await api.json(res)).data;
const consentsOf = (userId: string) =>
  worker.env.DB.prepare('SELECT document, version FROM user_consents WHERE user_id = ? ORDER BY document').bind(userId).all<{ document: string; version: string }>();
/** A person who never agreed to any terms. */
const seedWithoutConsent = (address: string) => api.seed({ email: address, password: 'harbour2024', userType: 2, agreed: false });
const passwordLogin = (address: string) => api.emailLogin(address, 'harbour2024');

describe('consent records', () => {
  it('records the terms, privacy and registration versions a new user agreed to', async () => {
    const address = email();
    expect((await api.json(await api.post('/agg-web/user/getRegVerificationCode', { emailAddress: address, type: 3 }))).code).toBe('0');
    const code = /\b(\d{6})\b/.exec((await api.outbox(address))[0]!.text)![1];
    const res = await api.post('/agg-web/quick/user/login', { loginType: 2, loginEmail: address, code, agreed: true, userIdentity: 1, companyName: 'Harbour Line' });
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
    await seedWithoutConsent(address);
    const first = await passwordLogin(address);
    const answer = await data(first);
    expect(answer.needsConsent).toBe(true);
    const agreed = await api.post('/agg-web/protocol/agree', {}, { cookie: api.sessionCookie(first) });
    expect((await api.json(agreed)).code).toBe('0');
    expect((await consentsOf(answer.userId as string)).results.map((r) => r.document)).toEqual(['privacy', 'terms']);
    expect((await data(await passwordLogin(address))).needsConsent).toBe(false);
  });

  it('asks again when the terms version changed since the person agreed', async () => {
    const address = email();
    await seedWithoutConsent(address);
    const userId = (await data(await passwordLogin(address))).userId as string;
    await worker.env.DB.prepare("INSERT INTO user_consents (user_id, document, version, agreed_at) VALUES (?, 'terms', '0.9.0', 1)").bind(userId).run();
    expect((await data(await passwordLogin(address))).needsConsent).toBe(true);
  });

  it('refuses to record an agreement without a session', async () => {
    const res = await api.post('/agg-web/protocol/agree', {});
    expect(res.status).toBe(401);
    await res.body?.cancel();
  });
});
