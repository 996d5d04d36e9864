import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { z } from 'zod';
import { stripSpacesAndCommas } from '../../../src/schemas/auth';
import type { LoginIdentity } from '../db/users';
import { GatewayError } from '../errors';

/** Spec 9: the default area code (Chinese mainland), the only one the mobile pattern applies to (spec 5). */
export const MAINLAND_CALLING_CODE = '+86';

const emailFormat = z.email().max(254);

/**
 * The E.164 form of a phone number, the key codes, slider checks and users are stored under
 * ('+86', '138 0013 8000' → '+8613800138000'). For +86 it must be a valid mainland mobile number;
 * for other codes 4 to 15 digits, normalised by libphonenumber where it knows the numbering plan
 * (a trunk prefix 0 is dropped). Throws PH0001 otherwise.
 */
export function phoneRecipient(callingCode: string, mobile: string): string {
  const code = stripSpacesAndCommas(callingCode);
  const digits = stripSpacesAndCommas(mobile);
  if (!/^\+\d{1,4}$/.test(code) || !/^\d{4,15}$/.test(digits)) throw new GatewayError('PH0001');
  const parsed = parsePhoneNumberFromString(digits, { defaultCallingCode: code.slice(1) });
  if (code === MAINLAND_CALLING_CODE) {
    if (!parsed?.isValid() || parsed.country !== 'CN' || parsed.getType() !== 'MOBILE') throw new GatewayError('PH0001');
    return parsed.number;
  }
  const e164 = parsed?.number ?? code + digits;
  if (e164.length > 16) throw new GatewayError('PH0001');
  return e164;
}

/** A phone number written in one piece, such as '+86 138 0013 8000', in the form phoneRecipient gives. */
export function phoneRecipientFromE164(value: string): string {
  const stripped = stripSpacesAndCommas(value).replace(/[-()]/g, '');
  const parsed = /^\+\d{5,19}$/.test(stripped) ? parsePhoneNumberFromString(stripped) : undefined;
  if (!parsed) throw new GatewayError('PH0001');
  return phoneRecipient(`+${parsed.countryCallingCode}`, parsed.nationalNumber);
}

/** The key an e-mail address is stored under: stripped (spec 5) and lower-case. Throws PH0002 when malformed. */
export function emailRecipient(email: string): string {
  const value = stripSpacesAndCommas(email).toLowerCase();
  if (!emailFormat.safeParse(value).success) throw new GatewayError('PH0002');
  return value;
}

/** The sign-in name fields of a request: the phone (calling code + number), the e-mail, or a chain-partner usId. */
export interface SignInName {
  /** 1 phone, 2 e-mail, 3 usId (the chosen one must be present: US0005 otherwise). */
  loginType: 1 | 2 | 3;
  mobileCode?: string;
  mobile?: string;
  loginEmail?: string;
  usId?: string;
}

/** The one way from a request's name fields to the stored identity (E.164 phone, lower-case e-mail, usId). */
export function identity(name: SignInName): LoginIdentity {
  if (name.loginType === 1) {
    if (!name.mobileCode || !name.mobile) throw new GatewayError('US0005');
    return { phone: phoneRecipient(name.mobileCode, name.mobile) };
  }
  if (name.loginType === 2) {
    if (!name.loginEmail) throw new GatewayError('US0005');
    return { email: emailRecipient(name.loginEmail) };
  }
  const usId = name.usId?.trim();
  if (!usId) throw new GatewayError('US0005');
  return { usId };
}
