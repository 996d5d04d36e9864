import type { Lang } from '../../../src/lib/lang';
import { configOf } from '../../config';
import { GatewayError } from '../errors';
import { newSecret, randomToken, tokenHash } from '../identity/tokens';
import type { UserRow } from '../identity/db/people';
import type { ClientInfo } from '../sessions/devices';
import { issueCode, type CodesEnv } from '../codes/service';
import { maskEmail, maskPhone } from '../webhooks/personal';
import { ERR } from '../../../src/schemas/error-codes';
import type { SignInMethod } from '../identity/db/sessions';
import { devicesOf, forgetDeviceStatement, insertDeviceStatement, knownDeviceStatement, touchDeviceStatement } from '../identity/db/devices';
import { parseDevice } from '../sessions/devices';
import { ownEventStatement } from '../audit/db';
import type { KnownDeviceEntry } from '../../../src/schemas/security';

/**
 * Known devices and the new-device challenge (issue 44).
 *
 * - A device is a random token in the edge's HttpOnly device cookie (forwarded as DEVICE_HEADER), stored only as its
 *   SHA-256 with the person it signed in (known_devices). Every sign-in that starts a session records its device:
 *   a token known for this person is touched (and its cookie renewed), any other gets a new token. A token copied to
 *   another account is not known there (the row is per person), and is replaced at that account's sign-in.
 * - A password, hand-off or partner sign-in (CHALLENGED_METHODS) of a person without two-step, from a device not
 *   known to the account within NEW_DEVICE_DAYS, starts no session: it ends like the second step, in a second-step
 *   challenge (second-step/service.ts, marked `newDevice`) and a one-time code to the account's e-mail, or phone
 *   where it has none, sent after the answer (codes/service.ts issueCode through delivery with failover). The code is
 *   the account's 'login' code: it proves the channel exactly as a code sign-in does, under the same waits and caps;
 *   of parallel sign-ins from one new device one code is sent (the 60 s resend wait refuses the others, whose
 *   challenges take that same newest code).
 * - Code, passkey and WeChat sign-ins have proved a channel already and are not asked; a person with two-step passes
 *   the second step instead. The device is forgotten with every session (sessions/service.ts revokeAllSessionsOfUser).
 */
export const CHALLENGED_METHODS: ReadonlySet<SignInMethod> = new Set(['password', 'handoff']);
const DAY_MS = 24 * 60 * 60 * 1000;

/** A device token as the edge forwards it; anything else is no token. */
const wellFormed = (token: string | undefined) => (token && /^[A-Za-z0-9_-]{16,256}$/.test(token) ? token : undefined);

/** The device of one sign-in request: the token it carries (if any) and its hash. */
export interface DeviceOfRequest {
  token?: string;
  hash?: string;
}

export async function deviceOfRequest(header: string | undefined): Promise<DeviceOfRequest> {
  const token = wellFormed(header);
  return token ? { token, hash: await tokenHash(token) } : {};
}

/** The read of "is this device known to the person", to batch with a sign-in's reads (null: no token, not known). */
export function knownDeviceRead(env: CodesEnv, userId: string, device: DeviceOfRequest, at: number): D1PreparedStatement | null {
  if (!device.hash) return null;
  return knownDeviceStatement(env.DB, userId, device.hash, at - configOf(env).newDeviceDays * DAY_MS);
}

/** What the sign-in history says of this sign-in (sign-in/db.ts signInRiskStatement). */
export interface SignInRisk {
  newCountry: boolean;
  riskyNetwork: boolean;
}

/** How far back failed sign-ins make a new network ask (NEW_DEVICE_RISKY_NETWORK). */
export const FAILURES_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Whether this sign-in owes the new-device challenge (the rules at the top of this file): a device not known, or, each
 * a setting, a known one from a new country (NEW_DEVICE_NEW_COUNTRY) or on a new network after failed sign-ins in the
 * last 24 h (NEW_DEVICE_RISKY_NETWORK).
 */
export function owesNewDeviceChallenge(env: CodesEnv, { method, twoStep, known, risk }: { method: SignInMethod; twoStep: boolean; known: boolean; risk: SignInRisk }): boolean {
  const config = configOf(env);
  if (!config.newDeviceChallenge || !CHALLENGED_METHODS.has(method) || twoStep) return false;
  return !known || (config.newDeviceNewCountry && risk.newCountry) || (config.newDeviceRiskyNetwork && risk.riskyNetwork);
}

/** Whether the device is known to the person (one read, for a sign-in that did not batch it). */
export async function isKnownDevice(env: CodesEnv, userId: string, device: DeviceOfRequest, at: number): Promise<boolean> {
  const read = knownDeviceRead(env, userId, device, at);
  return read ? (await read.first()) !== null : false;
}

/**
 * What a session's start writes for its device, after the caller's statements (a new person's INSERT comes first),
 * and the token the edge keeps in the device cookie for NEW_DEVICE_DAYS.
 */
export async function deviceAtSessionStart(
  env: CodesEnv,
  { userId, device, known, at, client }: { userId: string; device: DeviceOfRequest; known: boolean; at: number; client: ClientInfo },
): Promise<{ statement: D1PreparedStatement; answer: { token: string; expiresIn: number } }> {
  const expiresIn = configOf(env).newDeviceDays * 24 * 60 * 60;
  if (known && device.token && device.hash) return { statement: touchDeviceStatement(env.DB, userId, device.hash, at), answer: { token: device.token, expiresIn } };
  const fresh = await newSecret();
  return {
    statement: insertDeviceStatement(env.DB, { tokenHash: fresh.hash, publicId: randomToken(), userId, at, userAgent: client.userAgent, country: client.country }),
    answer: { token: fresh.token, expiresIn },
  };
}

/** Where the new-device code goes: the account's e-mail, or its phone where it has none; null when it has neither. */
export function newDeviceRecipient(user: Pick<UserRow, 'email' | 'phone_e164'>): { channel: 'email' | 'sms'; recipient: string } | null {
  if (user.email) return { channel: 'email', recipient: user.email.toLowerCase() };
  if (user.phone_e164) return { channel: 'sms', recipient: user.phone_e164 };
  return null;
}

/**
 * Sends the new-device code after the answer (`background`, the route's waitUntil). A code sent to the same account
 * within the resend wait (a parallel sign-in from the same device) stands: that newest code passes this challenge
 * too, so no second code is sent. Answers where it went, masked. Any other refusal (the recipient's hourly cap, the
 * SMS budget) is the sign-in's answer.
 */
export async function sendNewDeviceCode(
  env: CodesEnv,
  recipient: { channel: 'email' | 'sms'; recipient: string },
  { ip, at, lang, background, traceId }: { ip: string; at: number; lang: Lang; background: (work: Promise<void>) => void; traceId?: string | null },
): Promise<{ channel: 'email' | 'sms'; to: string }> {
  try {
    await issueCode(env, { recipient: recipient.recipient, channel: recipient.channel, purpose: 'login', ip, now: at, lang, background, traceId });
  } catch (error) {
    if (!(error instanceof GatewayError && error.code === ERR.CODE_RESEND_WAIT)) throw error;
  }
  return { channel: recipient.channel, to: recipient.channel === 'email' ? maskEmail(recipient.recipient) : maskPhone(recipient.recipient) };
}

/** The person's known devices for the Security section: device, first and last use, country; this one marked. */
export async function knownDevicesOf(env: CodesEnv, userId: string, current: DeviceOfRequest, at: number): Promise<KnownDeviceEntry[]> {
  const rows = await devicesOf(env.DB, userId, at - configOf(env).newDeviceDays * DAY_MS);
  return rows.map((row) => ({
    id: row.public_id,
    current: row.token_hash === current.hash,
    firstUsedAt: row.created_at,
    lastUsedAt: row.last_used_at,
    country: row.country,
    ...parseDevice(row.user_agent),
  }));
}

/**
 * Forgets one of the person's devices ("Forget"), with its activity row in the same batch: the next password sign-in
 * from it owes the code again. ND0003 when the id names no device of theirs (another person's id alike).
 */
export async function forgetDevice(env: CodesEnv, userId: string, publicId: string, { at, network }: { at: number; network: string | null }): Promise<void> {
  const [forgotten] = await env.DB.batch([
    forgetDeviceStatement(env.DB, userId, publicId),
    ownEventStatement(env.DB, { at, userId, action: 'user.device_forgotten', network }, { onlyIfChanged: true }),
  ]);
  if ((forgotten?.results.length ?? 0) === 0) throw new GatewayError(ERR.DEVICE_NOT_FOUND);
}
