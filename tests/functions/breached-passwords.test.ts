import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { forgetCachedRanges, RANGE_KEY_PREFIX } from '../../functions/gateway/identity/breached-passwords';
import { hashPassword } from '../../src/lib/password-hash';
import { RANGE_KEY_PREFIX as IMPORTED_KEY_PREFIX, syntheticRanges } from '../../scripts/pwned-ranges';
import { useWorkerEnv } from './gateway-client';
import { CHEAP_POW } from './pow-solver';

/**
 * The offline breached-password check (issue 44) through the whole Worker on a real local D1 and R2: the repository's
 * synthetic Pwned Passwords ranges (scripts/pwned-ranges.ts, as `npm run pwned:import -- --synthetic` writes them) in
 * the PWNED bucket; a password is tried on each of set, change, reset and sign-in.
 */
const { worker, api } = useWorkerEnv('breached', CHEAP_POW);

beforeAll(async () => {
  expect(IMPORTED_KEY_PREFIX).toBe(RANGE_KEY_PREFIX);
  for (const [prefix, text] of syntheticRanges()) await worker.env.PWNED.put(`${RANGE_KEY_PREFIX}${prefix}`, text);
});

const sha1 = (password: string) => createHash('sha1').update(password).digest('hex');
/** In the synthetic set 52,113 times. */
const BREACHED = 'Breached2024';
/** In the synthetic set twice. */
const SELDOM = 'Seldom2023x';
const uniqueEmail = () => `breach.${api.unique()}@example.com`;
/** A bucket whose every read fails, as R2 down. */
const brokenBucket = { get: async () => Promise.reject(new Error('R2 unavailable')) };

const newPassword = async (password: string) => ({
  newPassword: await hashPassword(password),
  newPasswordSubmit: await hashPassword(password),
  newPasswordSha1: sha1(password),
});
const change = async (cookie: string, current: string, password: string, env?: Record<string, unknown>) =>
  api.json(await api.post('/agg-web/user/changePassword', { currentPassword: await hashPassword(current), ...(await newPassword(password)) }, { cookie, env }));

describe('a new password', () => {
  it('is refused on change when breached (PW0005, in both languages), and the old one still works; a clean one is taken', async () => {
    const email = uniqueEmail();
    await api.seed({ email, password: 'OldPass123' });
    const { cookie } = await api.signIn(email, 'OldPass123');
    const refused = await change(cookie!, 'OldPass123', BREACHED);
    expect(refused.code).toBe('PW0005');
    const zh = await api.json(await api.post('/agg-web/user/changePassword', { currentPassword: await hashPassword('OldPass123'), ...(await newPassword(BREACHED)) }, { cookie, lang: 'zh' }));
    expect(zh.message).toMatch(/数据泄露/);
    expect((await api.json(await api.emailLogin(email, 'OldPass123'))).code).toBe('0');
    expect((await change(cookie!, 'OldPass123', 'Clean2024zz')).code).toBe('0');
  });

  it('is refused on reset before the code is spent: the same code then sets a clean one', async () => {
    const email = uniqueEmail();
    await api.seed({ email, password: 'OldPass123' });
    await api.post('/agg-web/user/password/reset/sendCode', { loginType: 2, loginEmail: email });
    const code = await api.latestCode(email);
    const reset = (password: string) => newPassword(password).then((body) => api.post('/agg-web/user/password/reset', { loginType: 2, loginEmail: email, code, ...body }));
    expect((await api.json(await reset(BREACHED))).code).toBe('PW0005');
    expect((await api.json(await reset('Clean2024yy'))).code).toBe('0');
  });

  it('is refused when set at sign-in (the insecure-password modal)', async () => {
    const email = uniqueEmail();
    await api.seed({ email, password: 'OldPass123', originalFlag: true });
    const res = await api.emailLogin(email, 'OldPass123', { newPassword: await hashPassword(BREACHED), newPasswordSha1: sha1(BREACHED) });
    expect((await api.json(res)).code).toBe('PW0005');
    expect(res.headers.getSetCookie().some((cookie) => cookie.startsWith('portal_token='))).toBe(false);
  });

  it('with a count under the threshold is taken; at the threshold it is refused', async () => {
    const email = uniqueEmail();
    await api.seed({ email, password: 'OldPass123' });
    const { cookie } = await api.signIn(email, 'OldPass123');
    expect((await change(cookie!, 'OldPass123', SELDOM, { PWNED_MIN_COUNT: '2' })).code).toBe('PW0005');
    expect((await change(cookie!, 'OldPass123', SELDOM, { PWNED_MIN_COUNT: '3' })).code).toBe('0');
  });

  it('is taken and the failure logged (without the password, its hashes or prefix) when R2 fails; refused with PWNED_FAIL_CLOSED', async () => {
    const email = uniqueEmail();
    await api.seed({ email, password: 'OldPass123' });
    const { cookie } = await api.signIn(email, 'OldPass123');
    forgetCachedRanges();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect((await change(cookie!, 'OldPass123', BREACHED, { PWNED: brokenBucket, PWNED_FAIL_CLOSED: 'true' })).code).toBe('PW0006');
      expect((await change(cookie!, 'OldPass123', BREACHED, { PWNED: brokenBucket })).code).toBe('0');
      const lines = logged.mock.calls.map((call) => call.map(String).join(' ')).join('\n');
      expect(lines).toMatch(/breached-password check unavailable/);
      const hash = sha1(BREACHED);
      for (const secret of [BREACHED, hash, hash.toUpperCase(), hash.slice(0, 5).toUpperCase(), await hashPassword(BREACHED)]) expect(lines).not.toContain(secret);
    } finally {
      logged.mockRestore();
    }
  });
});

describe('a password sign-in with a breached password', () => {
  it('signs in, asks for a change at that sign-in (the insecure-password flag) and records it', async () => {
    const email = uniqueEmail();
    const userId = await api.seed({ email, password: BREACHED });
    const res = await api.emailLogin(email, BREACHED, { passwordSha1: sha1(BREACHED) });
    const body = await api.json<{ originalFlag: boolean }>(res);
    expect(body.code).toBe('0');
    expect(body.data.originalFlag).toBe(true);
    const rows = await worker.env.DB.prepare("SELECT detail FROM audit_log WHERE target_id = ? AND action = 'user.password_change_required'").bind(userId).all<{ detail: string }>();
    expect(rows.results.map((row) => JSON.parse(row.detail))).toEqual([{ breached: true }]);
    // Until it is changed, every sign-in asks.
    expect((await api.json<{ originalFlag: boolean }>(await api.emailLogin(email, BREACHED))).data.originalFlag).toBe(true);
  });

  it('a clean password signs in as before', async () => {
    const email = uniqueEmail();
    await api.seed({ email, password: 'Clean2024xx' });
    const body = await api.json<{ originalFlag: boolean }>(await api.emailLogin(email, 'Clean2024xx', { passwordSha1: sha1('Clean2024xx') }));
    expect(body.data.originalFlag).toBe(false);
  });
});
