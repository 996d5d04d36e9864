import { parsePhoneNumberFromString, type PhoneNumber } from 'libphonenumber-js/mobile';
import * as z from 'zod/mini';
import { stripSpacesAndCommas } from '../../../src/schemas/auth';
import type { LoginIdentity } from './db/people';
import { GatewayError } from '../errors';
import { ERR } from '../../../src/schemas/error-codes';

/** The default area code (Chinese mainland); the mobile-number pattern is checked for this code only. */
export const MAINLAND_CALLING_CODE = '+86';

const emailFormat = z.email().check(z.maxLength(254));

/**
 * The E.164 form of a phone number, the key codes, slider checks and users are stored under
 * ('+86', '138 0013 8000' → '+8613800138000'). The number must be a mobile number of the calling code's
 * numbering plan (libphonenumber's `mobile` metadata: not only of a plausible length; a trunk prefix 0 is dropped),
 * and for +86 a mainland one. A sign-in phone gets its codes by SMS, so a fixed line is refused here already; the
 * `mobile` set is also 15.6 KB (gzip) smaller in the Worker than `max`. Throws PH0001 otherwise, an unknown
 * calling code such as +999 included.
 */
export function phoneRecipient(callingCode: string, mobile: string): string {
  const parsed = parseDialled(callingCode, mobile);
  if (!parsed.isValid()) throw new GatewayError(ERR.PHONE_INVALID);
  return parsed.number;
}

/**
 * A company's contact phone (the company forms' contactTel) in phoneRecipient's form. It may be an office's fixed
 * line, which the `mobile` metadata cannot tell from a wrong number, so outside +86 the number needs only a length
 * its numbering plan allows (`isPossible`); +86 asks a mainland mobile number, as for a sign-in phone. It is never
 * an SMS destination as such: every send is held to a mobile line by smsCallingCode. Throws PH0001 otherwise.
 */
export function contactPhoneNumber(callingCode: string, number: string): string {
  const parsed = parseDialled(callingCode, number);
  if (!(parsed.isValid() || (stripSpacesAndCommas(callingCode) !== MAINLAND_CALLING_CODE && parsed.isPossible()))) throw new GatewayError(ERR.PHONE_INVALID);
  return parsed.number;
}

/** The number dialled as calling code and national number, read by libphonenumber; PH0001 when it cannot be read. */
function parseDialled(callingCode: string, number: string): PhoneNumber {
  const code = stripSpacesAndCommas(callingCode);
  const digits = stripSpacesAndCommas(number);
  if (!/^\+\d{1,4}$/.test(code) || !/^\d{4,15}$/.test(digits)) throw new GatewayError(ERR.PHONE_INVALID);
  const parsed = parsePhone(digits, code.slice(1));
  if (!parsed) throw new GatewayError(ERR.PHONE_INVALID);
  // +86 is the mainland's own plan: a number of another region sharing it (none today) is refused.
  if (code === MAINLAND_CALLING_CODE && parsed.country !== 'CN') throw new GatewayError(ERR.PHONE_INVALID);
  return parsed;
}

/** A phone number written in one piece, such as '+86 138 0013 8000', in the form phoneRecipient gives. */
export function phoneRecipientFromE164(value: string): string {
  const stripped = stripSpacesAndCommas(value).replace(/[-()]/g, '');
  const parsed = /^\+\d{5,19}$/.test(stripped) ? parsePhone(stripped) : undefined;
  if (!parsed) throw new GatewayError(ERR.PHONE_INVALID);
  return phoneRecipient(`+${parsed.countryCallingCode}`, parsed.nationalNumber);
}

/**
 * The sign-in form's fields of a phoneRecipient: its region (the id of the area list, places/countries.ts), its
 * calling code and its national number; null for a number of no single region.
 */
export function phoneFields(recipient: string): { areaId: string; callingCode: string; mobile: string } | null {
  const parsed = parsePhone(recipient);
  return parsed?.country ? { areaId: parsed.country, callingCode: `+${parsed.countryCallingCode}`, mobile: parsed.nationalNumber } : null;
}

/**
 * The calling code ('+44') of a phoneRecipient an SMS may go to. Throws PH0001 for a number that is not a valid
 * mobile number: with the `mobile` metadata a fixed line, premium rate, toll free, shared cost, UAN or pager number
 * (lines that cannot take a text, or bill whoever sends to them: the target of SMS pumping) is not valid at all.
 * Numbers stored before the sign-in rule checked for mobile lines are held to it here.
 */
export function smsCallingCode(recipient: string): string {
  const parsed = parsePhone(recipient);
  if (!parsed?.isValid()) throw new GatewayError(ERR.PHONE_INVALID);
  return `+${parsed.countryCallingCode}`;
}

function parsePhone(text: string, defaultCallingCode?: string): PhoneNumber | undefined {
  try {
    return parsePhoneNumberFromString(text, defaultCallingCode ? { defaultCallingCode } : undefined);
  } catch {
    // libphonenumber throws (rather than answering undefined) for a calling code no country uses, such as +999.
    return undefined;
  }
}

/**
 * The key an e-mail address is stored under: stripped and lower-case, so one address is one account.
 * Throws PH0002 when malformed.
 */
export function emailRecipient(email: string): string {
  const value = stripSpacesAndCommas(email).toLowerCase();
  if (!emailFormat.safeParse(value).success) throw new GatewayError(ERR.EMAIL_INVALID);
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
    if (!name.mobileCode || !name.mobile) throw new GatewayError(ERR.ACCOUNT_NAME_MISSING);
    return { phone: phoneRecipient(name.mobileCode, name.mobile) };
  }
  if (name.loginType === 2) {
    if (!name.loginEmail) throw new GatewayError(ERR.ACCOUNT_NAME_MISSING);
    return { email: emailRecipient(name.loginEmail) };
  }
  const usId = name.usId?.trim();
  if (!usId) throw new GatewayError(ERR.ACCOUNT_NAME_MISSING);
  return { usId };
}
