/**
 * The hand-off blob format (security baseline, "Redirects and the hand-off between sites"), WebCrypto only.
 *
 *   blob = base64url( version 0x01 | key id (1 byte) | IV (12 random bytes) | AES-256-GCM ciphertext + 16-byte tag )
 *   additional data = UTF-8 of the JSON array ["portal-handoff", version, aud, purpose]
 *   plaintext = UTF-8 JSON claims { sub, aud, purpose, iat, exp, jti } (+ loginName, passwordHash for 'credentials')
 *
 * Times are Unix seconds; exp is at most 60 s after iat. The key id is the first byte of SHA-256 of the raw
 * key, so sender and receiver agree on it without configuration and a rotated-out key stays usable.
 *
 * Its imports name their `.ts` file so that `scripts/handoff.mjs` can load it with Node's type stripping.
 */

import { decodeBase64, encodeBase64Url } from '../../../src/lib/base64.ts';

export const HANDOFF_VERSION = 1;
/** Longest lifetime a blob may claim (seconds). */
export const HANDOFF_MAX_TTL = 60;
/** How far a sender's clock may run ahead of ours (seconds). */
const CLOCK_SKEW = 30;
/** A blob is a short URL parameter; anything longer is refused before any decoding. */
export const HANDOFF_MAX_BLOB_LENGTH = 4096;
const IV_LENGTH = 12;
const TAG_LENGTH = 16;
const HEADER_LENGTH = 2 + IV_LENGTH;

/**
 * A development-only key, used when no HANDOFF_KEY secret is set and DEV_OUTBOX is "true" (and by
 * `npm run handoff` by default). Public by design: never accepted in production.
 */
export const DEV_HANDOFF_KEY = 'zuiqE9jfleZdxpPDwWhU2NYSu3D2TcoSo14VneEHAEE=';

export type HandoffPurpose = 'session' | 'credentials';

export interface HandoffClaims {
  /** User id (users.id) the blob speaks for. */
  sub: string;
  /** Audience: the receiving site's HANDOFF_AUDIENCE. */
  aud: string;
  purpose: HandoffPurpose;
  iat: number;
  exp: number;
  /** Single-use id, recorded by the receiver. */
  jti: string;
  /** 'credentials' only: the sign-in name and the client-side SHA-256 hex password hash (what the browser sends as a password). */
  loginName?: string;
  passwordHash?: string;
  /** 'session' only, while the person acts for another company (issue 41): the principal and the grant, as in tokens. */
  on_behalf_of?: Record<string, unknown>;
}

export interface HandoffKey {
  id: number;
  key: CryptoKey;
}

/** Imports a base64 (standard or url-safe) 32-byte key; throws on anything else. */
export async function importHandoffKey(base64: string): Promise<HandoffKey> {
  const raw = decodeBase64(base64.trim());
  if (!raw || raw.length !== 32) throw new Error('A hand-off key is base64 of exactly 32 bytes.');
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', raw));
  const key = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
  return { id: digest[0]!, key };
}

/** Fresh claims for an outgoing blob: iat now, exp ttl seconds later, a random 128-bit jti. */
export function handoffClaims(input: {
  sub: string;
  aud: string;
  purpose: HandoffPurpose;
  ttl?: number;
  /** The sender's clock (ms): the Worker passes `now(c)`; a script may leave it to the system clock. */
  now?: number;
  loginName?: string;
  passwordHash?: string;
}): HandoffClaims {
  const iat = Math.floor((input.now ?? Date.now()) / 1000);
  const ttl = input.ttl ?? HANDOFF_MAX_TTL;
  const claims: HandoffClaims = {
    sub: input.sub,
    aud: input.aud,
    purpose: input.purpose,
    iat,
    exp: iat + ttl,
    jti: encodeBase64Url(crypto.getRandomValues(new Uint8Array(16))),
  };
  if (input.purpose === 'credentials') {
    claims.loginName = input.loginName;
    claims.passwordHash = input.passwordHash;
  }
  return claims;
}

/** Seals claims into a blob for their audience and purpose. Throws when the claims break the format. */
export async function createHandoffBlob(key: HandoffKey, claims: HandoffClaims): Promise<string> {
  if (!wellFormedClaims(claims)) throw new Error('Hand-off claims are not well formed.');
  const iv = crypto.getRandomValues(new Uint8Array(IV_LENGTH));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: additionalData(claims.aud, claims.purpose), tagLength: TAG_LENGTH * 8 },
      key.key,
      new TextEncoder().encode(JSON.stringify(claims)),
    ),
  );
  const blob = new Uint8Array(HEADER_LENGTH + sealed.length);
  blob[0] = HANDOFF_VERSION;
  blob[1] = key.id;
  blob.set(iv, 2);
  blob.set(sealed, HEADER_LENGTH);
  return encodeBase64Url(blob);
}

/** Why a blob was refused: unreadable (tampered, truncated, wrong key or audience or purpose) or too old. */
export type HandoffRefusal = 'invalid' | 'expired';
export type OpenedHandoff = { ok: true; claims: HandoffClaims } | { ok: false; reason: HandoffRefusal };

/**
 * Verifies and decrypts a blob meant for `audience` and `purpose`, checking its times against `now` (ms).
 * It does not record the jti: the caller consumes it (see handoff.ts), so a blob is still single use.
 */
export async function openHandoffBlob(
  blob: string,
  expect: { keys: readonly HandoffKey[]; audience: string; purpose: HandoffPurpose; now: number },
): Promise<OpenedHandoff> {
  const invalid = { ok: false, reason: 'invalid' } as const;
  if (blob.length > HANDOFF_MAX_BLOB_LENGTH || !/^[A-Za-z0-9_-]+$/.test(blob)) return invalid;
  const bytes = decodeBase64(blob);
  if (!bytes || bytes.length < HEADER_LENGTH + TAG_LENGTH + 2 || bytes[0] !== HANDOFF_VERSION) return invalid;
  const iv = bytes.subarray(2, HEADER_LENGTH);
  const sealed = bytes.subarray(HEADER_LENGTH);
  let plaintext: ArrayBuffer | undefined;
  // Key ids are one byte of a hash, so a current and a previous key may share one: try each holder.
  for (const candidate of expect.keys.filter((k) => k.id === bytes[1])) {
    try {
      plaintext = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv, additionalData: additionalData(expect.audience, expect.purpose), tagLength: TAG_LENGTH * 8 },
        candidate.key,
        sealed,
      );
      break;
    } catch {
      // Not this key (or not authentic); the next candidate, if any, decides.
    }
  }
  if (!plaintext) return invalid;
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(plaintext));
  } catch {
    return invalid;
  }
  if (!wellFormedClaims(claims) || claims.aud !== expect.audience || claims.purpose !== expect.purpose) return invalid;
  const now = Math.floor(expect.now / 1000);
  if (claims.iat > now + CLOCK_SKEW) return invalid;
  if (now >= claims.exp) return { ok: false, reason: 'expired' };
  return { ok: true, claims };
}

function additionalData(audience: string, purpose: HandoffPurpose): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(['portal-handoff', HANDOFF_VERSION, audience, purpose]));
}

const isText = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= max;

function wellFormedClaims(value: unknown): value is HandoffClaims {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Record<string, unknown>;
  if (!isText(c.sub, 128) || !isText(c.aud, 64) || (c.purpose !== 'session' && c.purpose !== 'credentials')) return false;
  if (!Number.isSafeInteger(c.iat) || !Number.isSafeInteger(c.exp)) return false;
  const ttl = (c.exp as number) - (c.iat as number);
  if (ttl <= 0 || ttl > HANDOFF_MAX_TTL) return false;
  if (typeof c.jti !== 'string' || !/^[A-Za-z0-9_-]{16,64}$/.test(c.jti)) return false;
  if (c.purpose === 'credentials') {
    return isText(c.loginName, 254) && typeof c.passwordHash === 'string' && /^[0-9a-f]{64}$/.test(c.passwordHash);
  }
  return c.loginName === undefined && c.passwordHash === undefined;
}
