import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../functions/gateway/errors';
import { contactPhoneNumber, emailRecipient, phoneRecipient, phoneRecipientFromE164 } from '../../functions/gateway/identity/sign-in-names';

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof GatewayError ? error.code : 'not a GatewayError';
  }
  return 'no error';
};

describe('phoneRecipient', () => {
  it('gives E.164 for a mainland mobile number, stripping spaces and commas', () => {
    expect(phoneRecipient('+86', '13800138000')).toBe('+8613800138000');
    expect(phoneRecipient('+86', ' 138 0013,8000 ')).toBe('+8613800138000');
    expect(phoneRecipient('+86', '17012345678')).toBe('+8617012345678');
  });

  it('refuses with PH0001 what is not a valid mainland mobile number', () => {
    for (const mobile of ['12345678901', '1380013800', '138001380001', '01012345678', '1010']) {
      expect(codeOf(() => phoneRecipient('+86', mobile)), mobile).toBe('PH0001');
    }
  });

  it('accepts numbers valid in the calling code\'s numbering plan, dropping a trunk prefix', () => {
    expect(phoneRecipient('+44', '7911 123456')).toBe('+447911123456');
    expect(phoneRecipient('+44', '07911123456')).toBe('+447911123456');
    expect(phoneRecipient('+852', '6123 4567')).toBe('+85261234567');
    expect(phoneRecipient('+1', '2025550123')).toBe('+12025550123');
  });

  it('refuses with PH0001 a number of plausible length that its numbering plan does not have', () => {
    // Ofcom's range for drama (7700 900xxx) and a Hong Kong number of 4 digits are not assigned numbers.
    expect(codeOf(() => phoneRecipient('+44', '7700 900123'))).toBe('PH0001');
    expect(codeOf(() => phoneRecipient('+852', '1234'))).toBe('PH0001');
    expect(codeOf(() => phoneRecipient('+44', '12345678'))).toBe('PH0001');
  });

  it('refuses with PH0001 a number that cannot get its codes by text: fixed line, premium rate, toll free, UAN', () => {
    for (const [code, number] of <[string, string][]>[['+44', '20 7946 0018'], ['+44', '909 879 0000'], ['+1', '800 555 0199'], ['+44', '55 1123 4567'], ['+852', '2123 4567']]) {
      expect(codeOf(() => phoneRecipient(code, number)), `${code} ${number}`).toBe('PH0001');
    }
  });

  it('refuses with PH0001, not an exception, a calling code no country uses', () => {
    for (const code of ['+999', '+0', '+1111']) expect(codeOf(() => phoneRecipient(code, '12345678')), code).toBe('PH0001');
    expect(codeOf(() => phoneRecipientFromE164('+99912345678'))).toBe('PH0001');
  });

  it('refuses with PH0001 too few, too many or non-digit characters and a malformed calling code', () => {
    expect(codeOf(() => phoneRecipient('+44', '123'))).toBe('PH0001');
    expect(codeOf(() => phoneRecipient('+44', '1234567890123456'))).toBe('PH0001');
    expect(codeOf(() => phoneRecipient('+44', '77009a0123'))).toBe('PH0001');
    expect(codeOf(() => phoneRecipient('86', '13800138000'))).toBe('PH0001');
    expect(codeOf(() => phoneRecipient('+12345', '13800138000'))).toBe('PH0001');
  });

  it('reads a number written in one piece the same way', () => {
    expect(phoneRecipientFromE164('+86 138 0013 8000')).toBe('+8613800138000');
    expect(phoneRecipientFromE164('+4407911123456')).toBe(phoneRecipient('+44', '07911123456'));
    expect(codeOf(() => phoneRecipientFromE164('13800138000'))).toBe('PH0001');
    expect(codeOf(() => phoneRecipientFromE164('+8612345678901'))).toBe('PH0001');
  });
});

describe('contactPhoneNumber (a company\'s contact phone)', () => {
  it('takes an office\'s fixed line outside the mainland, and mobile numbers everywhere', () => {
    expect(contactPhoneNumber('+852', '2345 6789')).toBe('+85223456789');
    expect(contactPhoneNumber('+44', '020 7946 0018')).toBe('+442079460018');
    expect(contactPhoneNumber('+49', '30 1234567')).toBe('+49301234567');
    expect(contactPhoneNumber('+44', '7911 123456')).toBe(phoneRecipient('+44', '7911 123456'));
    expect(contactPhoneNumber('+86', '138 0013 8000')).toBe('+8613800138000');
  });

  it('refuses with PH0001 a mainland fixed line, a length no plan has, and an unknown calling code', () => {
    expect(codeOf(() => contactPhoneNumber('+86', '010 1234 5678'))).toBe('PH0001');
    expect(codeOf(() => contactPhoneNumber('+852', '1234'))).toBe('PH0001');
    expect(codeOf(() => contactPhoneNumber('+44', '2079 4600 1899 99'))).toBe('PH0001');
    expect(codeOf(() => contactPhoneNumber('+999', '12345678'))).toBe('PH0001');
  });
});

describe('emailRecipient', () => {
  it('strips spaces and commas and lower-cases', () => {
    expect(emailRecipient('  Ada.Lovelace@Example.COM ')).toBe('ada.lovelace@example.com');
    expect(emailRecipient('ada ,@example.com')).toBe('ada@example.com');
  });

  it('refuses with PH0002 what is not an e-mail address', () => {
    for (const email of ['', 'ada', 'ada@', '@example.com', 'ada@example', 'a@b@c.com', `${'a'.repeat(250)}@example.com`]) {
      expect(codeOf(() => emailRecipient(email)), email).toBe('PH0002');
    }
  });
});
