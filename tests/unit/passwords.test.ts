import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  assertNewPasswordAllowed,
  constantTimeEqual,
  CURRENT_PARAMS,
  decoySalt,
  hashPassword,
  hmacSha256,
  isCommonPassword,
  pepperOf,
  sha256Hex,
  toHex,
  verifyPassword,
} from '../../functions/gateway/identity/passwords';
import { hashPassword as clientHash } from '../../src/lib/password-hash';
import { BLOCKED_COUNT } from '../../functions/gateway/generated/common-passwords';
import { blockedPasswords, COMMON_PASSWORDS_MODULE, commonPasswordsModule } from '../../scripts/common-passwords.ts';

const env = { DEV_OUTBOX: 'true' };

describe('password storage', () => {
  it('stores PBKDF2 with its algorithm, parameters and a random 16-byte salt', async () => {
    const secret = await sha256Hex('Harbour2024');
    const a = await hashPassword(secret, env);
    const b = await hashPassword(secret, env);
    expect(a.algo).toBe('pbkdf2-sha256');
    expect(JSON.parse(a.params)).toEqual({ iterations: 100_000, pepper: 'p1' });
    expect(a.salt).toMatch(/^[0-9a-f]{32}$/);
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.salt).not.toBe(b.salt);
    expect(a.hash).not.toBe(b.hash);
  });

  it('verifies the right hash and refuses a wrong one', async () => {
    const secret = await sha256Hex('Harbour2024');
    const stored = await hashPassword(secret, env);
    expect(await verifyPassword(secret, stored, env)).toEqual({ ok: true, needsRehash: false });
    expect(await verifyPassword(await sha256Hex('Harbour2025'), stored, env)).toEqual({ ok: false, needsRehash: false });
    expect(await verifyPassword(secret, null, env)).toEqual({ ok: false, needsRehash: false });
  });

  it('depends on the pepper', async () => {
    const secret = await sha256Hex('Harbour2024');
    const stored = await hashPassword(secret, { PASSWORD_PEPPER: 'one' });
    expect((await verifyPassword(secret, stored, { PASSWORD_PEPPER: 'one' })).ok).toBe(true);
    expect((await verifyPassword(secret, stored, { PASSWORD_PEPPER: 'two' })).ok).toBe(false);
  });

  it('asks for a rehash after a match with old parameters', async () => {
    const secret = await sha256Hex('Harbour2024');
    // What an older record would hold: the same derivation with fewer iterations.
    const salt = crypto.getRandomValues(new Uint8Array(16));
    const peppered = await hmacSha256(pepperOf(env), secret);
    const key = await crypto.subtle.importKey('raw', peppered as Uint8Array<ArrayBuffer>, 'PBKDF2', false, ['deriveBits']);
    const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations: 1000 }, key, 256);
    const old = {
      hash: toHex(bits),
      salt: toHex(salt),
      algo: 'pbkdf2-sha256',
      params: JSON.stringify({ ...CURRENT_PARAMS, iterations: 1000 }),
    };
    expect(await verifyPassword(secret, old, env)).toEqual({ ok: true, needsRehash: true });
    expect(await verifyPassword(await sha256Hex('other'), old, env)).toEqual({ ok: false, needsRehash: false });
  });

  it('refuses to hash without a pepper outside development', async () => {
    expect(() => pepperOf({})).toThrow(/PASSWORD_PEPPER/);
    expect(() => pepperOf({ DEV_OUTBOX: 'false' })).toThrow(/PASSWORD_PEPPER/);
    expect(pepperOf({ PASSWORD_PEPPER: 'secret', DEV_OUTBOX: 'true' })).toBe('secret');
  });

  it('compares in constant time without an early exit', () => {
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true);
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))).toBe(false);
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 0]))).toBe(false);
  });

  it('matches the browser helper: SHA-256 hex of the password (and of password + salt)', async () => {
    expect(await sha256Hex('abc123')).toBe(await clientHash('abc123'));
    expect(await sha256Hex('abc123' + 'salt')).toBe(await clientHash('abc123', 'salt'));
  });
});

describe('common-password blocklist', () => {
  it('holds at least the top 3,000 passwords that the rule allows', () => {
    const list = blockedPasswords();
    expect(list.length).toBeGreaterThan(3000);
    for (const word of ['123456', 'password', 'qwerty123', 'iloveyou', 'Password1', '1qaz2wsx']) expect(list).toContain(word);
    expect(list.every((w) => /^[A-Za-z0-9]{6,18}$/.test(w))).toBe(true);
  });

  it('checks hashes, since the server never sees the password', async () => {
    expect(await isCommonPassword(await clientHash('123456'))).toBe(true);
    expect(await isCommonPassword(await clientHash('Password1'))).toBe(true);
    expect(await isCommonPassword(await clientHash('Harbour7Crane2024'))).toBe(false);
    await expect(assertNewPasswordAllowed(await clientHash('qwerty123'))).rejects.toMatchObject({ code: 'PW0002' });
    await expect(assertNewPasswordAllowed(await clientHash('Harbour7Crane2024'))).resolves.toBeUndefined();
  });

  it('the Worker carries the list as hash prefixes, generated from the same words', () => {
    expect(readFileSync(COMMON_PASSWORDS_MODULE, 'utf8')).toBe(commonPasswordsModule());
    expect(BLOCKED_COUNT).toBeGreaterThan(3000);
  });

  it('refuses every listed password, as the word list did', async () => {
    const hashes = await Promise.all(blockedPasswords().map((word) => clientHash(word)));
    const refused = await Promise.all(hashes.map(isCommonPassword));
    expect(refused.filter((r) => !r)).toHaveLength(0);
    // Not lower-case hex: not what a browser sends, and never on the list.
    expect(await isCommonPassword((await clientHash('123456')).toUpperCase())).toBe(false);
  });

  it('lets through ordinary passwords off the list (false positives are about 1 in 284,000)', async () => {
    const listed = new Set(blockedPasswords());
    // 2,000 passwords of the kind people pick that are not on the list: a word, digits, a place.
    const words = ['Harbour', 'crane', 'Anchor', 'pilot', 'Berth', 'quay', 'Vessel', 'tug'];
    const candidates = words.flatMap((word, i) => Array.from({ length: 250 }, (_, n) => `${word}${(n * 7919 + i * 131) % 100000}x`));
    const offList = candidates.filter((word) => !listed.has(word));
    expect(offList.length).toBeGreaterThan(1900);
    const refused = await Promise.all(offList.map(async (word) => isCommonPassword(await clientHash(word))));
    expect(refused.filter(Boolean)).toHaveLength(0);
  });
});

describe('decoy salt', () => {
  it('is stable per identity, differs between identities, and looks like a legacy salt', async () => {
    const a = await decoySalt('someone@example.com', env);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(await decoySalt('someone@example.com', env)).toBe(a);
    expect(await decoySalt('other@example.com', env)).not.toBe(a);
  });
});
