import { describe, expect, it } from 'vitest';
import { sliderWays } from '../../src/lib/slider-ways';

/** What a refused slider offers instead (issue 47): only the ways that apply to the person. */
describe('the ways a refused slider offers', () => {
  it('offers someone registering only the e-mail code: they have no password or passkey yet', () => {
    expect(sliderWays({ register: false, registering: true, scene: 'sms', passkeys: true })).toEqual(['emailCode']);
    expect(sliderWays({ register: true, registering: false, scene: 'sms', passkeys: true })).toEqual(['emailCode']);
  });

  it('offers a known person the e-mail code, the password and, where the browser has them, a passkey', () => {
    expect(sliderWays({ register: false, registering: false, scene: 'sms', passkeys: true })).toEqual(['emailCode', 'password', 'passkey']);
    expect(sliderWays({ register: false, registering: false, scene: 'sms', passkeys: false })).toEqual(['emailCode', 'password']);
  });

  it('does not offer the password to the password sign-in\'s own check', () => {
    expect(sliderWays({ register: false, registering: false, scene: 'login', passkeys: true })).toEqual(['emailCode', 'passkey']);
  });
});
