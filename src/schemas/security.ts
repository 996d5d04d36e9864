import * as z from 'zod/mini';

/**
 * Wire contracts of the Security section of the user center (all session-only):
 *
 * - GET  agg-web/user/security/sessions → SessionEntry[]: the person's live sessions, this one marked `current`.
 * - POST agg-web/user/security/sessions/signOut { id } → null: ends one of the person's own sessions (SS0001 when
 *   the id names no live session of theirs).
 * - POST agg-web/user/security/sessions/signOutOthers {} → { ended }: ends every other session of the person.
 * - GET  agg-web/user/security/signIns → SignInEntry[]: the last 90 days of sign-in attempts, newest first.
 *
 * A session is named by its public id, a random id that is neither its token nor the token's hash.
 */

export const sessionIdSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{16,64}$/));

export const signOutSessionRequest = z.object({ id: sessionIdSchema });
export type SignOutSessionRequest = z.infer<typeof signOutSessionRequest>;
export const signOutOthersRequest = z.object({});

/** Browser family, OS and kind of device parsed from the user agent; null where it did not say. */
const device = {
  browser: z.nullable(z.string()),
  os: z.nullable(z.string()),
  type: z.nullable(z.string()),
};

// GET agg-web/user/security/devices → KnownDeviceEntry[] (issue 44): the devices the person signed in from within
// NEW_DEVICE_DAYS, this one marked; POST agg-web/user/security/devices/forget { id } → null (ND0003: no such device).
export const knownDeviceEntry = z.object({
  id: z.string(),
  current: z.boolean(),
  firstUsedAt: z.number(),
  lastUsedAt: z.number(),
  country: z.nullable(z.string()),
  /** Until when the person trusts it ("Trust this device for 30 days"): it skips the second step; null when not trusted. */
  trustedUntil: z.optional(z.nullable(z.number())),
  ...device,
});
export type KnownDeviceEntry = z.infer<typeof knownDeviceEntry>;
export const knownDevicesAnswer = z.array(knownDeviceEntry);
export const forgetDeviceRequest = z.object({ id: sessionIdSchema });

export const sessionEntry = z.object({
  id: z.string(),
  current: z.boolean(),
  ...device,
  /** ISO 3166-1 alpha-2 as the edge saw it, or null. */
  country: z.nullable(z.string()),
  /** Epoch milliseconds of the sign-in and of the last call (to the minute). */
  createdAt: z.number(),
  lastSeenAt: z.number(),
  partner: z.boolean(),
});
export type SessionEntry = z.infer<typeof sessionEntry>;
export const sessionsAnswer = z.array(sessionEntry);

export const SIGN_IN_METHODS = ['code', 'password', 'link', 'handoff', 'passkey', 'wechat', 'wecom', 'company-sso'] as const;
/**
 * The second step a sign-in passed after its first factor: with two-step on an app code, passkey or recovery code;
 * 'code' the new-device challenge's one-time code (issue 44).
 */
export const SECOND_STEPS = ['totp', 'passkey', 'recovery', 'code'] as const;
export type SecondStep = (typeof SECOND_STEPS)[number];

export const signInEntry = z.object({
  at: z.number(),
  method: z.enum(SIGN_IN_METHODS),
  /** The second step passed after `method`, or null when none was asked. */
  secondStep: z.nullable(z.enum(SECOND_STEPS)),
  /** A sign-in on the partner (navigator) site. */
  partner: z.boolean(),
  success: z.boolean(),
  country: z.nullable(z.string()),
  /** The client network: an IPv4 address or an IPv6 /64. */
  network: z.nullable(z.string()),
  ...device,
  /** A success from a device (country) this account had not signed in from before. */
  newDevice: z.boolean(),
  newCountry: z.boolean(),
  /** A failure in a run of three or more failures in a row. */
  failureStreak: z.boolean(),
});
export type SignInEntry = z.infer<typeof signInEntry>;
export const signInsAnswer = z.array(signInEntry);

export const signOutOthersAnswer = z.object({ ended: z.number() });
