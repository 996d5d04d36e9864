import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowFramingBySelf, securityHeaders } from '../../functions/edge/headers';
import { createGateway } from '../../functions/gateway/app';
import { needsConsent, recordConsent } from '../../functions/gateway/legal/consents';
import { legalVersions } from '../../functions/gateway/generated/legal-versions';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { userProtocolAnswer } from '../../src/schemas/legal';
import { readToEnd } from './gateway-client';
import { startWorkerEnv } from './worker-env';

let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
beforeAll(async () => {
  worker = await startWorkerEnv('legal');
});
afterAll(() => worker.dispose());

// Through the gateway, which turns a refusal thrown by a route's validator into the envelope.
const gateway = createGateway();
const protocol = (query: string, headers: Record<string, string> = {}) =>
  gateway.request(`http://gateway.internal/agg-web/protocol/queryUserProtocol${query}`, { headers }, worker.env, worker.ctx);

describe('GET agg-web/protocol/queryUserProtocol', () => {
  it('answers the privacy policy for type 0 and the terms for type 1, one URL per language', async () => {
    const privacy = await protocol('?platformCode=1&type=0');
    expect(privacy.status).toBe(200);
    const body = (await privacy.json()) as { code: string; data: unknown };
    expect(body.code).toBe('0');
    expect(userProtocolAnswer.parse(body.data)).toEqual({ urlCn: '/privacy?lang=zh', urlEn: '/privacy?lang=en', version: legalVersions.privacy });

    const terms = (await (await protocol('?platformCode=1&type=1')).json()) as { data: unknown };
    expect(terms.data).toEqual({ urlCn: '/terms?lang=zh', urlEn: '/terms?lang=en', version: legalVersions.terms });
  });

  it.each(['?platformCode=1&type=2', '?platformCode=2&type=0', '?type=1', '?platformCode=1', '?platformCode=1&type=privacy', ''])(
    'answers LG0001 for %j',
    async (query) => {
      const res = await protocol(query);
      expect(res.status).toBe(400);
      // Like every validator refusal, `data` lists the fields that were wrong.
      expect(await res.json()).toEqual({ code: 'LG0001', message: errorCatalogue.LG0001.en, data: expect.arrayContaining([expect.objectContaining({ path: expect.any(String) })]) });
    },
  );

  it('explains the error in the visitor language', async () => {
    const res = await protocol('?platformCode=1&type=9', { language: 'zh' });
    expect(((await res.json()) as { message: string }).message).toBe(errorCatalogue.LG0001.zh);
  });
});

describe('consent records', () => {
  let n = 0;
  /** A fresh user row (user_consents references users). */
  async function newUser(): Promise<string> {
    const id = `consent-user-${++n}`;
    await worker.env.DB.prepare('INSERT INTO users (id, email, created_at) VALUES (?1, ?2, ?3)').bind(id, `${id}@example.com`, Date.now()).run();
    return id;
  }
  const rowsOf = async (userId: string) =>
    (
      await worker.env.DB.prepare('SELECT document, version, agreed_at FROM user_consents WHERE user_id = ?1 ORDER BY document, version')
        .bind(userId)
        .all<{ document: string; version: string; agreed_at: number }>()
    ).results;

  it('records the current versions of the terms and the privacy policy, once', async () => {
    const user = await newUser();
    expect(await needsConsent(worker.env.DB, user)).toBe(true);
    await recordConsent(worker.env.DB, user, 1_000);
    await recordConsent(worker.env.DB, user, 2_000);
    expect(await rowsOf(user)).toEqual([
      { document: 'privacy', version: legalVersions.privacy, agreed_at: 1_000 },
      { document: 'terms', version: legalVersions.terms, agreed_at: 1_000 },
    ]);
    expect(await needsConsent(worker.env.DB, user)).toBe(false);
  });

  it('records the documents it is given, such as the registration agreement', async () => {
    const user = await newUser();
    await recordConsent(worker.env.DB, user, 5, ['terms', 'privacy', 'registration']);
    expect((await rowsOf(user)).map((row) => row.document)).toEqual(['privacy', 'registration', 'terms']);
  });

  it('asks again after the terms version is raised, and keeps the earlier agreement', async () => {
    const user = await newUser();
    await recordConsent(worker.env.DB, user, 1_000);
    const bumped = { ...legalVersions, terms: '9.0.0' };
    expect(await needsConsent(worker.env.DB, user, bumped)).toBe(true);
    await recordConsent(worker.env.DB, user, 3_000, ['terms'], bumped);
    expect(await needsConsent(worker.env.DB, user, bumped)).toBe(false);
    expect((await rowsOf(user)).filter((row) => row.document === 'terms')).toEqual([
      { document: 'terms', version: legalVersions.terms, agreed_at: 1_000 },
      { document: 'terms', version: '9.0.0', agreed_at: 3_000 },
    ].sort((a, b) => a.version.localeCompare(b.version)));
  });

  it('does not let a privacy-only version change ask again', async () => {
    const user = await newUser();
    await recordConsent(worker.env.DB, user, 1_000);
    expect(await needsConsent(worker.env.DB, user, { ...legalVersions, privacy: '9.0.0' })).toBe(false);
  });

  it('refuses a consent for an unknown user', async () => {
    await expect(recordConsent(worker.env.DB, 'no-such-user', 1)).rejects.toThrow(/FOREIGN KEY/i);
  });
});

describe('framing rule', () => {
  const app = new Hono()
    .use('*', securityHeaders)
    .get('/legal', (c) => {
      allowFramingBySelf(c);
      return c.text('legal');
    })
    .get('/other', (c) => c.text('other'));

  it('lets only this site frame a page that asks for it', async () => {
    const legal = await readToEnd(await app.request('/legal'));
    expect(legal.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(legal.headers.get('content-security-policy')).not.toContain("frame-ancestors 'none'");
    expect(legal.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(legal.headers.get('content-security-policy')).toContain("object-src 'none'");
  });

  it('keeps every other answer unframeable', async () => {
    const other = await readToEnd(await app.request('/other'));
    expect(other.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(other.headers.get('x-frame-options')).toBe('DENY');
  });
});
