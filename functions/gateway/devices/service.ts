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
import { type MembershipRow, type Asker } from '../authority/db';
import { companyAuthority } from '../authority/service';
import { companyDeviceRulesOf, setCompanyDeviceRules } from './db';
import type { CompanyDevicesAnswer } from '../../../src/schemas/two-step';

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
 * - A company may ask it of its active members ("confirm new devices", companies.confirm_new_devices) even where
 *   NEW_DEVICE_CHALLENGE is off: read with the company's two-step rule in the sign-in's first round trip.
 * - "Trust this device for 30 days" (TRUST_DAYS), ticked on the second step or the challenge: the device's row (still
 *   only the hash of the cookie's token, per person) gets `trusted_until`, with an activity row in the session's batch
 *   and a security notice; until then the device skips the second step and the challenge. A token copied to another
 *   account is not known, let alone trusted, there. A password change or reset, "sign out everywhere", an operator's
 *   two-step reset or block end every trust of the person in the batch of that change (endTrustStatement); a company
 *   that requires two-step may forbid trusted devices (companies.forbid_trusted_devices): then none of its members'
 *   devices skips a step, whatever was trusted before.
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
  return knownDeviceStatement(env.DB, userId, device.hash, at - configOf(env).newDeviceDays * DAY_MS, at);
}

/** How long "Trust this device" holds (issue 44). */
export const TRUST_DAYS = 30;

/** The device rules of the person's companies (read with their two-step rule, companies/db.ts MEMBERSHIP_COLUMNS). */
export interface CompanyDeviceRules {
  /** A company of theirs confirms new devices: the challenge is owed even where NEW_DEVICE_CHALLENGE is off. */
  confirmNewDevices: boolean;
  /** A company of theirs requires two-step and forbids trusted devices: no device of theirs skips a step. */
  trustForbidden: boolean;
}

/** The rules of the companies the person is an active member of. */
export function companyDeviceRules(memberships: readonly Pick<MembershipRow, 'member_status' | 'confirm_new_devices' | 'trust_forbidden'>[]): CompanyDeviceRules {
  const active = memberships.filter((m) => m.member_status === 'active');
  return { confirmNewDevices: active.some((m) => m.confirm_new_devices === 1), trustForbidden: active.some((m) => m.trust_forbidden === 1) };
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
export function owesNewDeviceChallenge(
  env: CodesEnv,
  { method, twoStep, known, trusted, companyConfirms, risk }: { method: SignInMethod; twoStep: boolean; known: boolean; trusted: boolean; companyConfirms: boolean; risk: SignInRisk },
): boolean {
  const config = configOf(env);
  // A company's "confirm new devices" asks of its members where the setting is off (issue 44); a trusted device is not asked.
  if (!(config.newDeviceChallenge || companyConfirms) || !CHALLENGED_METHODS.has(method) || twoStep || trusted) return false;
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
  { userId, device, known, at, client, trust = false }: { userId: string; device: DeviceOfRequest; known: boolean; at: number; client: ClientInfo; trust?: boolean },
): Promise<{ statements: D1PreparedStatement[]; answer: { token: string; expiresIn: number } }> {
  const expiresIn = configOf(env).newDeviceDays * 24 * 60 * 60;
  const trustedUntil = trust ? at + TRUST_DAYS * DAY_MS : null;
  // Each trust is an activity row, written only when the device's statement wrote (its batch).
  const trusted = trust ? [ownEventStatement(env.DB, { at, userId, action: 'user.device_trusted', network: client.network ?? null }, { onlyIfChanged: true })] : [];
  if (known && device.token && device.hash) {
    return { statements: [touchDeviceStatement(env.DB, userId, device.hash, at, trustedUntil), ...trusted], answer: { token: device.token, expiresIn } };
  }
  const fresh = await newSecret();
  return {
    statements: [insertDeviceStatement(env.DB, { tokenHash: fresh.hash, publicId: randomToken(), userId, at, userAgent: client.userAgent, country: client.country, trustedUntil }), ...trusted],
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
  return maskedRecipient(recipient);
}

/** Where a new-device code goes, as the screen shows it (masked). */
export const maskedRecipient = (recipient: { channel: 'email' | 'sms'; recipient: string }): { channel: 'email' | 'sms'; to: string } => ({
  channel: recipient.channel,
  to: recipient.channel === 'email' ? maskEmail(recipient.recipient) : maskPhone(recipient.recipient),
});

/** The person's known devices for the Security section: device, first and last use, country; this one marked. */
export async function knownDevicesOf(env: CodesEnv, userId: string, current: DeviceOfRequest, at: number): Promise<KnownDeviceEntry[]> {
  const rows = await devicesOf(env.DB, userId, at - configOf(env).newDeviceDays * DAY_MS);
  return rows.map((row) => ({
    id: row.public_id,
    current: row.token_hash === current.hash,
    firstUsedAt: row.created_at,
    lastUsedAt: row.last_used_at,
    country: row.country,
    trustedUntil: row.trusted_until !== null && row.trusted_until > at ? row.trusted_until : null,
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

/**
 * An administrator sets the company's device rules ("confirm new devices", and forbid trusted devices while it
 * requires two-step): decided in the UPDATE itself (devices/db.ts). Refused: the reason, read afterwards from
 * companyAuthority (MF0021 kept out by the two-step rule; MF0020 anyone but its administrator), else ND0004 (forbidding
 * trust of a company that does not require two-step).
 */
export async function setCompanyDevices(
  env: CodesEnv,
  change: Asker & { companyId: string; confirmNewDevices?: boolean; forbidTrustedDevices?: boolean },
): Promise<CompanyDevicesAnswer> {
  const row = await setCompanyDeviceRules(env.DB, change);
  if (row) return { confirmNewDevices: row.confirm_new_devices === 1, forbidTrustedDevices: row.forbid_trusted_devices === 1 };
  try {
    await companyAuthority(env.DB, change, change.companyId, 'manage');
  } catch (error) {
    if (error instanceof GatewayError && error.code === ERR.TWO_STEP_REQUIRED_BY_COMPANY) throw error;
    throw new GatewayError(ERR.TWO_STEP_POLICY_ADMINISTRATOR_ONLY);
  }
  throw new GatewayError(ERR.TRUST_RULE_NEEDS_TWO_STEP);
}

/** The company's device rules, for its administrator (companyAuthority 'manage': CO0009, CO0008, MF0021 otherwise). */
export async function companyDevices(env: CodesEnv, companyId: string, asker: Asker): Promise<CompanyDevicesAnswer> {
  await companyAuthority(env.DB, asker, companyId, 'manage');
  const row = await companyDeviceRulesOf(env.DB, companyId);
  return { confirmNewDevices: row?.confirm_new_devices === 1, forbidTrustedDevices: row?.forbid_trusted_devices === 1 };
}
