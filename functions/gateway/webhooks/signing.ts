import { Webhook } from 'standardwebhooks';
import { decodeBase64, encodeBase64Url } from '../../../src/lib/base64';
import { configOf } from '../../config';
import { toHex } from '../identity/passwords';

/**
 * Standard Webhooks 1.0 (https://www.standardwebhooks.com): each endpoint's secret is `whsec_` and 32 random bytes
 * in base64, shown once and kept in D1 sealed (AES-256-GCM, the endpoint id as associated data) under a key derived
 * with HKDF-SHA256 from the secret OIDC_KEY ("webhook-endpoint-secrets"), so no new secret must be deployed and the
 * OpenID keys' sealing key is never itself used for this. Signatures come from the `standardwebhooks` package:
 * `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, one per live secret, space separated.
 */

/** The dev key of oidc/keys.ts's local runs (DEV_OUTBOX), public; a deployed Worker refuses to start without OIDC_KEY. */
const DEV_OIDC_KEY = 'ZGV2LW9ubHkgb2lkYyBzaWduaW5nLWtleSBzZWFsISE=';

async function derivedKey(env: object, info: string, usage: 'seal' | 'hash'): Promise<CryptoKey> {
  const config = configOf(env);
  const raw = config.oidcKey ?? (config.devOidcKey ? DEV_OIDC_KEY : undefined);
  // Fail closed: without the key no secret is sealed or opened.
  if (!raw) throw new Error('OIDC_KEY is not configured');
  const base = await crypto.subtle.importKey('raw', decodeBase64(raw)!, 'HKDF', false, ['deriveKey']);
  const params = { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: new TextEncoder().encode(info) };
  return usage === 'seal'
    ? crypto.subtle.deriveKey(params, base, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
    : crypto.subtle.deriveKey(params, base, { name: 'HMAC', hash: 'SHA-256', length: 256 }, false, ['sign']);
}

export function newEndpointSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

export async function sealSecret(env: object, endpointId: string, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(endpointId) },
    await derivedKey(env, 'webhook-endpoint-secrets', 'seal'),
    new TextEncoder().encode(secret),
  );
  return `v1.${encodeBase64Url(iv)}.${encodeBase64Url(new Uint8Array(sealed))}`;
}

export async function openSecret(env: object, endpointId: string, stored: string): Promise<string> {
  const [version, iv, sealed] = stored.split('.');
  const ivBytes = iv ? decodeBase64(iv) : undefined;
  const sealedBytes = sealed ? decodeBase64(sealed) : undefined;
  if (version !== 'v1' || !ivBytes || !sealedBytes) throw new Error('unreadable webhook secret');
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: ivBytes, additionalData: new TextEncoder().encode(endpointId) },
    await derivedKey(env, 'webhook-endpoint-secrets', 'seal'),
    sealedBytes,
  );
  return new TextDecoder().decode(plain);
}

/** The three headers of one attempt: the same webhook-id on every attempt, a new timestamp and signature each time. */
export function signedHeaders(secrets: readonly string[], messageId: string, at: number, body: string): Record<string, string> {
  const when = new Date(at);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, when, body)).join(' '),
  };
}

/**
 * A company's key for hashing personal fields (personalFields "hashed"): HMAC-SHA256 under a key derived for that
 * company, so one person hashes alike in every export and event of the company (a SIEM can still join them) but
 * differently in another company's, and a list of phone numbers cannot be hashed to find them.
 */
export async function personalHasher(env: object, companyId: string | null): Promise<(value: string) => Promise<string>> {
  const key = await derivedKey(env, `webhook-personal-fields:${companyId ?? 'platform'}`, 'hash');
  return async (value) => {
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(value.trim().toLowerCase())));
    return `hmac:${toHex(mac.slice(0, 16))}`;
  };
}
