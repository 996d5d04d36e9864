// zod/mini: these contracts ship to the browser (the second-step screen of /login loads them on demand).
import * as z from 'zod/mini';
import { checked } from './checked';

/**
 * What a person types as a second factor: a 6-digit app code, or a recovery code (XXXXX-XXXXX, any case); 'code' the
 * new-device challenge's one-time code.
 */
export const SECOND_FACTOR_KINDS = ['totp', 'recovery', 'code'] as const;
export type SecondFactorKind = (typeof SECOND_FACTOR_KINDS)[number];
export const totpCodeSchema = checked(z.string(), z.regex(/^\d{6}$/));
export const recoveryCodeSchema = checked(z.string(), z.regex(/^[A-Za-z0-9\s-]{10,16}$/));

/** The one-time code of a new-device challenge, sent to the account's e-mail or phone (4 to 8 digits, CODE_LENGTH). */
export const deviceCodeSchema = checked(z.string(), z.regex(/^\d{4,8}$/));

export const secondFactor = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('totp'), code: totpCodeSchema }),
  z.object({ kind: z.literal('recovery'), code: recoveryCodeSchema }),
  // The new-device challenge's code (issue 44): passes only a new-device challenge, never a two-step one.
  z.object({ kind: z.literal('code'), code: deviceCodeSchema }),
]);

/** "Trust this device for 30 days" (issue 44), ticked on the second step or the new-device challenge. */
const trust = { trust: z.optional(z.boolean()) };

// POST agg-web/user/twoStep/verify (the second-step cookie, no session) → loginAnswer (+ the session cookie).
export const secondStepRequest = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('totp'), code: totpCodeSchema, ...trust }),
  z.object({ kind: z.literal('recovery'), code: recoveryCodeSchema, ...trust }),
  z.object({ kind: z.literal('code'), code: deviceCodeSchema, ...trust }),
]);

/** In a first factor's login answer when the second step is owed: no session yet (the edge keeps the challenge). */
export const secondStepMarker = z.object({
  expiresIn: z.number(),
  /**
   * Set when the step owed is the new-device challenge (issue 44) rather than two-step: a one-time code went to the
   * account's e-mail or phone, shown masked.
   */
  newDevice: z.optional(z.object({ channel: z.enum(['email', 'sms']), to: z.string() })),
});

// GET agg-web/user/twoStep/challenge (the second-step cookie, no session; issue 44): what the second-step screen says
// and offers: the new-device challenge's masked address (null for two-step), and whether "Trust this device" may be
// offered (false when a company of the person forbids trusted devices).
export const owedStepAnswer = z.object({
  newDevice: z.nullable(z.object({ channel: z.enum(['email', 'sms']), to: z.string() })),
  trustable: z.boolean(),
});
export type OwedStepAnswer = z.infer<typeof owedStepAnswer>;

// GET agg-web/user/twoStep/status (session).
export const twoStepStatus = z.object({
  enabled: z.boolean(),
  recoveryCodesLeft: z.number(),
  /** The person has a password, so it may prove them; `passwordSalt` is the legacy salt it is hashed with (null: none). */
  hasPassword: z.boolean(),
  passwordSalt: z.nullable(z.string()),
});
export type TwoStepStatus = z.infer<typeof twoStepStatus>;

// POST agg-web/user/twoStep/enrol/start (session) → the pending secret (base32) and its otpauth:// URI.
export const enrolmentStart = z.object({ secret: z.string(), uri: z.string() });
export type EnrolmentStart = z.infer<typeof enrolmentStart>;

// POST agg-web/user/twoStep/enrol/finish (session) → the ten recovery codes, shown once.
export const enrolmentFinishRequest = z.object({ code: totpCodeSchema });
export const recoveryCodesAnswer = z.object({ recoveryCodes: z.array(z.string()) });

// POST agg-web/user/twoStep/disable and agg-web/user/twoStep/recoveryCodes (session and a fresh proof of the
// person, src/schemas/step-up.ts): nothing else to send.
export const twoStepChangeRequest = z.object({});

// POST agg-web/company/devices (session, an administrator of the company; issue 44): "confirm new devices" of its
// members, and (while it requires two-step) forbid trusted devices. Either may be left out (unchanged).
export const companyDevicesRequest = z.object({
  companyId: checked(z.string(), z.minLength(1), z.maxLength(64)),
  confirmNewDevices: z.optional(z.boolean()),
  forbidTrustedDevices: z.optional(z.boolean()),
});
export const companyDevicesAnswer = z.object({ confirmNewDevices: z.boolean(), forbidTrustedDevices: z.boolean() });
// GET agg-web/company/devices?companyId= (session, an administrator of the company) → companyDevicesAnswer.
export const companyDevicesQuery = z.object({ companyId: checked(z.string(), z.minLength(1), z.maxLength(64)) });
export type CompanyDevicesAnswer = z.infer<typeof companyDevicesAnswer>;

// POST agg-web/company/twoStep (session, an administrator of the company).
export const companyTwoStepRequest = z.object({ companyId: checked(z.string(), z.minLength(1), z.maxLength(64)), required: z.boolean() });
