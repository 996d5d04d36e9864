import { meetsPasswordRule } from '../../../src/schemas/auth';
import { COMMON_PASSWORD_PREFIX_HEX, isBlockedHashPrefix } from './db/common-passwords';
import { configOf } from '../../config';
import { GatewayError } from '../errors';
import { ERR } from '../../../src/schemas/error-codes';

/**
 * Password storage (security baseline "Passwords").
 *
 * The browser never sends a password: it sends SHA-256 hex of the password (passwordVersion 2), or of
 * password + legacy salt for legacy records (version 1, the SY9990 round trip). The server treats that
 * hex string as the secret and stores PBKDF2-HMAC-SHA256 over HMAC(pepper, secret), 100,000 iterations
 * (the Workers ceiling), with a 16-byte random salt. Algorithm and parameters are stored with each hash
 * so they can be raised later: `verifyPassword` reports `needsRehash` when they differ from CURRENT.
 *
 * The rule "6 to 18 letters and digits" (PASSWORD_RULE) can only be checked in the browser, because the
 * server sees hashes; the server enforces the blocklist of common passwords on the hash instead, and the
 * whole rule where it does see a plain password (assertPlainPasswordAllowed).
 */

export const PASSWORD_ALGO = 'pbkdf2-sha256';
export interface PasswordParams {
  iterations: number;
  /** Which pepper was mixed in, so a rotated pepper can still verify old hashes while they are rehashed. */
  pepper: string;
}
export const CURRENT_PARAMS: PasswordParams = { iterations: 100_000, pepper: 'p1' };

/** The columns stored for a password. */
export interface StoredPassword {
  hash: string;
  salt: string;
  algo: string;
  params: string;
}

/** Fixed pepper for a local run only (devPepper); a deployment must set the PASSWORD_PEPPER secret. */
const DEV_PEPPER = 'dev-only-pepper-not-for-production';

/** The Worker's bindings, whose typed configuration (configOf) holds the pepper. */
export type PepperEnv = object;

export function pepperOf(env: PepperEnv): string {
  const config = configOf(env);
  if (config.passwordPepper) return config.passwordPepper;
  if (config.devPepper) return DEV_PEPPER;
  // Fail closed: hashing without the secret pepper would store weaker hashes silently.
  throw new Error('PASSWORD_PEPPER is not set');
}

const encoder = new TextEncoder();

/** The 256 two-digit hex pairs, so that a hash becomes text by concatenation (every signed-in call hashes its token). */
const HEX_PAIRS = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let hex = '';
  for (let i = 0; i < view.length; i++) hex += HEX_PAIRS[view[i]!];
  return hex;
}

function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** SHA-256 hex of a UTF-8 string: what the browser sends for a password (and for password + salt). */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

export async function hmacSha256(key: string, message: string): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey('raw', encoder.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, encoder.encode(message)));
}

/** Compares equal-length byte strings without an early exit. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

async function derive(secret: string, salt: Uint8Array, params: PasswordParams, pepper: string): Promise<Uint8Array> {
  const peppered = await hmacSha256(pepper, secret);
  const key = await crypto.subtle.importKey('raw', peppered, 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations: params.iterations }, key, 256);
  return new Uint8Array(bits);
}

/** Hashes the client's SHA-256 hex for storage with the current parameters. */
export async function hashPassword(clientHash: string, env: PepperEnv): Promise<StoredPassword> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(clientHash, salt, CURRENT_PARAMS, pepperOf(env));
  return { hash: toHex(hash), salt: toHex(salt), algo: PASSWORD_ALGO, params: JSON.stringify(CURRENT_PARAMS) };
}

function parseParams(text: string): PasswordParams | null {
  try {
    const p = JSON.parse(text) as Partial<PasswordParams>;
    return typeof p.iterations === 'number' && p.iterations > 0 && typeof p.pepper === 'string' ? { iterations: p.iterations, pepper: p.pepper } : null;
  } catch {
    return null;
  }
}

/**
 * Checks the client's hash against a stored one. `needsRehash` is true after a match whose algorithm or
 * parameters are not CURRENT; the caller then stores `hashPassword(clientHash)`.
 */
export async function verifyPassword(
  clientHash: string,
  stored: StoredPassword | null,
  env: PepperEnv,
): Promise<{ ok: boolean; needsRehash: boolean }> {
  const params = stored && stored.algo === PASSWORD_ALGO ? parseParams(stored.params) : null;
  if (!stored || !params) {
    // Same work as a real check, so a missing account or password does not answer faster.
    await derive(clientHash, new Uint8Array(16), CURRENT_PARAMS, pepperOf(env));
    return { ok: false, needsRehash: false };
  }
  const actual = await derive(clientHash, fromHex(stored.salt), params, pepperOf(env));
  const ok = constantTimeEqual(actual, fromHex(stored.hash));
  const needsRehash = ok && (params.iterations !== CURRENT_PARAMS.iterations || params.pepper !== CURRENT_PARAMS.pepper);
  return { ok, needsRehash };
}

/**
 * A salt for getUserSalt that is the same for the same identity on every call and looks like a real legacy
 * salt (32 hex digits), so the answer never tells whether an account exists or is a legacy record.
 */
export async function decoySalt(identity: string, env: PepperEnv): Promise<string> {
  return toHex(await hmacSha256(pepperOf(env), `legacy-salt:${identity}`)).slice(0, LEGACY_SALT_HEX_LENGTH);
}
export const LEGACY_SALT_HEX_LENGTH = 32;

/**
 * True when the client's SHA-256 hex is that of a common password. The blocklist (which words:
 * scripts/common-passwords.ts) is a D1 table of the first 64 bits of each word's SHA-256, read by primary key.
 */
export async function isCommonPassword(db: D1Database, clientHash: string): Promise<boolean> {
  // Only lower-case hex is what the browser sends (and all the list held before it was hashed down).
  if (!/^[0-9a-f]{64}$/.test(clientHash)) return false;
  return isBlockedHashPrefix(db, clientHash.slice(0, COMMON_PASSWORD_PREFIX_HEX));
}

/**
 * The whole rule for a plain password the server sees (the dev seeding call): 6 to 18 letters and digits
 * (PW0001) and not on the blocklist (PW0002). Hashed passwords can only be held against the blocklist.
 */
export async function assertPlainPasswordAllowed(db: D1Database, password: string): Promise<void> {
  if (!meetsPasswordRule(password)) throw new GatewayError(ERR.PASSWORD_FORMAT_INVALID);
  await assertNewPasswordAllowed(db, await sha256Hex(password));
}

/** Refuses a new password that is on the blocklist (PW0002). */
export async function assertNewPasswordAllowed(db: D1Database, clientHash: string): Promise<void> {
  if (await isCommonPassword(db, clientHash)) throw new GatewayError(ERR.PASSWORD_TOO_COMMON);
}
