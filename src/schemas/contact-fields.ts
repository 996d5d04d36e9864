import * as z from 'zod/mini';
import { stripSpacesAndCommas } from './auth-rules';
import { checked } from './checked';

/**
 * A person's contact fields as the sign-in and onboarding contracts check them. A module of its own (re-exported
 * by auth.ts) so the company form's checks load them without the sign-in contracts (issue 31).
 */

/** Calling code as the picker shows it, such as "+86". */
export const callingCodeSchema = checked(z.string(), z.regex(/^\+\d{1,4}$/));
/** National number digits after stripping; the mainland mobile pattern is checked by the gateway with libphonenumber. */
export const mobileSchema = z.pipe(z.pipe(z.string(), z.transform(stripSpacesAndCommas)), checked(z.string(), z.regex(/^\d{4,15}$/)));
/** A mainland (+86) mobile number: 11 digits, starting 13 to 19 (the gateway checks it again with libphonenumber). */
export const mainlandMobileSchema = z.pipe(z.pipe(z.string(), z.transform(stripSpacesAndCommas)), checked(z.string(), z.regex(/^1[3-9]\d{9}$/)));
export const emailSchema = z.pipe(z.pipe(z.string(), z.transform(stripSpacesAndCommas)), checked(z.email(), z.maxLength(254)));

/** Code length: 6 digits by default, configurable to 4 for the legacy gateway (security baseline). */
export const codeSchema = checked(z.string(), z.regex(/^\d{4,8}$/));
