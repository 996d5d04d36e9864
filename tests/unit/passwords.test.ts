import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  constantTimeEqual,
  CURRENT_PARAMS,
  decoySalt,
  hashPassword,
  hmacSha256,
  pepperOf,
  sha256Hex,
  toHex,
  verifyPassword,
} from '../../functions/gateway/identity/passwords';
import { hashPassword as clientHash } from '../../src/lib/password-hash';
import { blockedPasswords, COMMON_PASSWORDS_MIGRATION, commonPasswordsMigration } from '../../scripts/common-passwords.ts';

const env = { DEV_OUTBOX: 'true' };

describe('hex', () => {
  it('writes every byte as two lower-case digits, and SHA-256 as the standard vector', async () => {
    expect(toHex(new Uint8Array([0, 9, 15, 16, 171, 255]))).toBe('00090f10abff');
    expect(toHex(new Uint8Array([1, 2]).buffer)).toBe('0102');
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

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

  it('the D1 table is the migration generated from the same words (tests/functions/common-passwords.test.ts reads it)', () => {
    // When zxcvbn-ts's list changes this fails: add a migration that replaces the rows (scripts/common-passwords.mjs).
    expect(readFileSync(COMMON_PASSWORDS_MIGRATION, 'utf8')).toBe(commonPasswordsMigration());
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
