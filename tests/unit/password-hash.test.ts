import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, withoutChinese } from '../../src/lib/password-hash';
import { meetsPasswordRule } from '../../src/schemas/auth';

describe('password protocol', () => {
  it('sends SHA-256 hex of the password, or of password + salt for version 1', async () => {
    expect(await hashPassword('abc123')).toBe(createHash('sha256').update('abc123').digest('hex'));
    expect(await hashPassword('abc123', 'NaCl')).toBe(createHash('sha256').update('abc123NaCl').digest('hex'));
  });

  it('drops Chinese characters as they are typed', () => {
    expect(withoutChinese('abc密码123，')).toBe('abc123');
    expect(withoutChinese('Pa55word')).toBe('Pa55word');
  });

  it('holds new passwords to 6-18 letters and digits', () => {
    expect(meetsPasswordRule('abc123')).toBe(true);
    expect(meetsPasswordRule('a'.repeat(18))).toBe(true);
    expect(meetsPasswordRule('abc12')).toBe(false);
    expect(meetsPasswordRule('a'.repeat(19))).toBe(false);
    expect(meetsPasswordRule('abc 123')).toBe(false);
    expect(meetsPasswordRule('abc-123')).toBe(false);
  });
});
