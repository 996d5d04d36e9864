import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { decodeBase64 } from '../../../src/lib/base64';
import { configOf } from '../../config';
import { randomToken } from '../identity/tokens';
import { insertKey, publishedKeys, pruneKeys, type KeyRow } from './db';

/** The algorithms the provider signs with: ES256 (its own tokens, and ID tokens by default) and RS256 (OIDC Core §15.1). */
export const SIGNING_ALGS = ['ES256', 'RS256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

/**
 * The OpenID Provider's signing keys, one line of them per algorithm (ES256 and RS256) (security baseline "OpenID Provider": rotated by the cron, published
 * before use, kept until their last token expired).
 *
 * - A key signs for KEY_SIGNS_FOR (30 days). Its successor is made KEY_PUBLISHED_AHEAD (a day) before it takes
 *   over, so every relying party that caches the JWKS for up to a day already has it when the first token signed
 *   with it arrives. The very first key signs at once: nobody can hold a stale JWKS of a provider with no keys.
 * - A key stays published KEY_PUBLISHED_AFTER (an hour: longer than any token it signs lives) after it stops signing.
 * - The private half is kept in D1 sealed with AES-256-GCM under the secret OIDC_KEY (the kid as associated data).
 */
export const KEY_SIGNS_FOR_MS = 30 * 24 * 60 * 60 * 1000;
export const KEY_PUBLISHED_AHEAD_MS = 24 * 60 * 60 * 1000;
export const KEY_PUBLISHED_AFTER_MS = 60 * 60 * 1000;

/** A public key for local runs only (DEV_OUTBOX); a deployed Worker refuses to start without OIDC_KEY. */
const DEV_OIDC_KEY = 'ZGV2LW9ubHkgb2lkYyBzaWduaW5nLWtleSBzZWFsISE=';

async function sealingKey(env: object): Promise<CryptoKey> {
  const config = configOf(env);
  const raw = config.oidcKey ?? (config.devOidcKey ? DEV_OIDC_KEY : undefined);
  const bytes = raw ? decodeBase64(raw) : undefined;
  // Fail closed: without the key nothing is signed.
  if (!bytes) throw new Error('OIDC_KEY is not configured');
  return crypto.subtle.importKey('raw', bytes, 'AES-GCM', false, ['encrypt', 'decrypt']);
}

const b64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

async function seal(env: object, kid: string, jwk: JWK): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(kid) },
    await sealingKey(env),
    new TextEncoder().encode(JSON.stringify(jwk)),
  );
  return `v1.${b64url(iv)}.${b64url(new Uint8Array(sealed))}`;
}

async function unseal(env: object, kid: string, stored: string): Promise<JWK> {
  const [version, iv, sealed] = stored.split('.');
  const ivBytes = iv ? decodeBase64(iv) : undefined;
  const sealedBytes = sealed ? decodeBase64(sealed) : undefined;
  if (version !== 'v1' || !ivBytes || !sealedBytes) throw new Error('unreadable signing key');
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: ivBytes, additionalData: new TextEncoder().encode(kid) }, await sealingKey(env), sealedBytes);
  return JSON.parse(new TextDecoder().decode(plain)) as JWK;
}

async function makeKey(env: object, at: number, signsFrom: number, alg: SigningAlg): Promise<KeyRow> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' ? { modulusLength: 2048 } : {}) });
  const kid = randomToken().slice(0, 16);
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  const row: KeyRow = {
    kid,
    alg,
    public_jwk: JSON.stringify(publicJwk),
    sealed_private_jwk: await seal(env, kid, await exportJWK(privateKey)),
    created_at: at,
    signs_from: signsFrom,
    signs_until: signsFrom + KEY_SIGNS_FOR_MS,
    published_until: signsFrom + KEY_SIGNS_FOR_MS + KEY_PUBLISHED_AFTER_MS,
  };
  await insertKey((env as { DB: D1Database }).DB, row);
  return row;
}

/** The key of `alg` that signs at `at`: the one that took over last. */
const signerAt = (keys: KeyRow[], at: number, alg: SigningAlg) =>
  keys.filter((key) => (key.alg ?? 'ES256') === alg && key.signs_from <= at && key.signs_until > at).sort((a, b) => b.signs_from - a.signs_from)[0];

/**
 * The cron's rotation: a successor exists a day before the signing key's time ends, and keys whose last token
 * has expired are removed. Run hourly; running it twice in parallel at worst publishes a spare key.
 */
export async function rotateKeys(env: { DB: D1Database }, at: number): Promise<{ made: number; removed: number }> {
  const published = await publishedKeys(env.DB, at);
  let made = 0;
  for (const alg of SIGNING_ALGS) {
    const keys = published.filter((key) => (key.alg ?? 'ES256') === alg);
    if (!signerAt(keys, at, alg)) {
      await makeKey(env, at, at, alg);
      made++;
    } else {
      const lastEnd = Math.max(...keys.map((key) => key.signs_until));
      if (lastEnd - at <= KEY_PUBLISHED_AHEAD_MS) {
        await makeKey(env, at, lastEnd, alg);
        made++;
      }
    }
  }
  return { made, removed: await pruneKeys(env.DB, at) };
}

// Imported private keys by kid: importing costs more than signing, and a key never changes once made.
const imported = new Map<string, CryptoKey>();

/** The signing key of `alg` at `at` (made now when there is none, as on a fresh database): its kid and private key. */
export async function signingKey(env: { DB: D1Database }, at: number, alg: SigningAlg = 'ES256'): Promise<{ kid: string; key: CryptoKey; alg: SigningAlg }> {
  let signer = signerAt(await publishedKeys(env.DB, at), at, alg);
  if (!signer) signer = await makeKey(env, at, at, alg);
  let key = imported.get(signer.kid);
  if (!key) {
    key = (await importJWK(await unseal(env, signer.kid, signer.sealed_private_jwk), alg)) as CryptoKey;
    imported.set(signer.kid, key);
  }
  return { kid: signer.kid, key, alg };
}

/** The JWKS: every published public key (the signing one, its successor, and predecessors still in use). */
export async function jwks(db: D1Database, at: number): Promise<{ keys: JWK[] }> {
  return { keys: (await publishedKeys(db, at)).map((key) => JSON.parse(key.public_jwk) as JWK) };
}
