import { describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/lib/password-hash';
import { changePasswordRequest, newPasswordProblem, partnerLoginRequest, resetPasswordRequest } from '../../src/schemas/password';

describe('newPasswordProblem (spec 5)', () => {
  it('asks for both passwords, the 6-18 letters-and-digits rule, and a match, in that order', () => {
    expect(newPasswordProblem('', '')).toEqual({ field: 'password', problem: 'passwordRequired' });
    expect(newPasswordProblem('abc12', 'abc12')).toEqual({ field: 'password', problem: 'passwordRule' });
    expect(newPasswordProblem('abcdefghij123456789', '')).toEqual({ field: 'password', problem: 'passwordRule' });
    expect(newPasswordProblem('abc-123', 'abc-123')).toEqual({ field: 'password', problem: 'passwordRule' });
    expect(newPasswordProblem('abc123', '')).toEqual({ field: 'confirm', problem: 'confirmRequired' });
    expect(newPasswordProblem('abc123', 'abc124')).toEqual({ field: 'confirm', problem: 'passwordMismatch' });
    expect(newPasswordProblem('abc123', 'abc123')).toBeNull();
  });
});

describe('issue 4 wire contracts', () => {
  it('accept hashes only, and captchaType 2 with a slider check for the partner', async () => {
    const hash = await hashPassword('abc123');
    expect(changePasswordRequest.safeParse({ newPassword: hash, newPasswordSubmit: hash }).success).toBe(true);
    expect(changePasswordRequest.safeParse({ newPassword: 'abc123', newPasswordSubmit: 'abc123' }).success).toBe(false);
    const reset = { loginType: 2, loginEmail: ' A@Example.com, ', code: '123456', newPassword: hash, newPasswordSubmit: hash };
    expect(resetPasswordRequest.parse(reset).loginEmail).toBe('A@Example.com');
    const sliderCheck = { scene: 'login', sessionId: 's', sign: 'x', token: 't' };
    const partner = { phone: '138 0013 8000', phoneCode: '+86', password: hash, captchaType: 2, passwordVersion: 2, sliderCheck };
    expect(partnerLoginRequest.parse(partner).phone).toBe('13800138000');
    expect(partnerLoginRequest.safeParse({ ...partner, captchaType: 3 }).success).toBe(false);
    expect(partnerLoginRequest.safeParse({ ...partner, sliderCheck: undefined }).success).toBe(false);
  });
});
