import { describe, expect, it } from 'vitest';
import {
  DEV_HANDOFF_KEY,
  createHandoffBlob,
  handoffClaims,
  importHandoffKey,
  openHandoffBlob,
  type HandoffClaims,
  type HandoffKey,
} from '../../functions/gateway/handoff/blob';
import { encodeBase64Url } from '../../src/lib/base64';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const randomKey = () => importHandoffKey(encodeBase64Url(crypto.getRandomValues(new Uint8Array(32))));
const session = (over: Partial<Parameters<typeof handoffClaims>[0]> = {}) =>
  handoffClaims({ sub: 'user-1', aud: 'portal', purpose: 'session', now: NOW, ...over });
const open = (blob: string, keys: HandoffKey[], over: { audience?: string; purpose?: 'session' | 'credentials'; now?: number } = {}) =>
  openHandoffBlob(blob, { keys, audience: 'portal', purpose: 'session', now: NOW + 1000, ...over });
const bytesOf = (blob: string) => Uint8Array.from(atob(blob.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

describe('hand-off blobs', () => {
  it('round-trips claims, and the layout is version | key id | IV | ciphertext+tag', async () => {
    const key = await importHandoffKey(DEV_HANDOFF_KEY);
    const claims = session();
    const blob = await createHandoffBlob(key, claims);
    expect(blob).toMatch(/^[A-Za-z0-9_-]+$/);
    const bytes = bytesOf(blob);
    expect(bytes[0]).toBe(1);
    expect(bytes[1]).toBe(key.id);
    expect(bytes.length).toBe(2 + 12 + new TextEncoder().encode(JSON.stringify(claims)).length + 16);
    expect(await open(blob, [key])).toEqual({ ok: true, claims });
    expect(claims.exp - claims.iat).toBe(60);
    expect(claims.jti).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('uses a fresh IV and jti every time', async () => {
    const key = await randomKey();
    const a = await createHandoffBlob(key, session());
    const b = await createHandoffBlob(key, session());
    expect(bytesOf(a).slice(2, 14)).not.toEqual(bytesOf(b).slice(2, 14));
    expect(a).not.toBe(b);
  });

  it('refuses every single flipped bit', async () => {
    const key = await randomKey();
    const bytes = bytesOf(await createHandoffBlob(key, session()));
    for (let i = 0; i < bytes.length * 8; i += 7) {
      const tampered = bytes.slice();
      tampered[i >> 3]! ^= 1 << (i & 7);
      expect(await open(encodeBase64Url(tampered), [key]), `bit ${i}`).toEqual({ ok: false, reason: 'invalid' });
    }
  });

  it('refuses a wrong audience and a wrong purpose', async () => {
    const key = await randomKey();
    const blob = await createHandoffBlob(key, session({ aud: 'navigator' }));
    expect(await open(blob, [key])).toEqual({ ok: false, reason: 'invalid' });
    expect(await open(blob, [key], { audience: 'navigator' })).toMatchObject({ ok: true });
    expect(await open(blob, [key], { audience: 'navigator', purpose: 'credentials' })).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses an expired blob by the injected clock, and one from the future', async () => {
    const key = await randomKey();
    const blob = await createHandoffBlob(key, session({ ttl: 60 }));
    expect(await open(blob, [key], { now: NOW + 59_000 })).toMatchObject({ ok: true });
    expect(await open(blob, [key], { now: NOW + 60_000 })).toEqual({ ok: false, reason: 'expired' });
    expect(await open(blob, [key], { now: NOW - 60_000 })).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses truncated, padded, empty, oversized and non-base64url blobs', async () => {
    const key = await randomKey();
    const blob = await createHandoffBlob(key, session());
    for (const bad of [blob.slice(0, -1), blob.slice(0, 20), blob.slice(0, 2), '', `${blob}A`, `${blob}==`, blob.replace(/.$/, '+'), 'A'.repeat(5000)]) {
      expect(await open(bad, [key])).toEqual({ ok: false, reason: 'invalid' });
    }
  });

  it('refuses another key, and accepts the previous key during a rotation', async () => {
    const [oldKey, newKey] = [await randomKey(), await randomKey()];
    const blob = await createHandoffBlob(oldKey, session());
    expect(await open(blob, [newKey])).toEqual({ ok: false, reason: 'invalid' });
    expect(await open(blob, [newKey, oldKey])).toMatchObject({ ok: true });
    // Two keys that share an id byte: both are tried.
    expect(await open(blob, [{ ...newKey, id: oldKey.id }, oldKey])).toMatchObject({ ok: true });
  });

  it('will not seal claims that break the format', async () => {
    const key = await randomKey();
    const good = session();
    const bad: HandoffClaims[] = [
      { ...good, exp: good.iat + 61 },
      { ...good, exp: good.iat },
      { ...good, sub: '' },
      { ...good, jti: 'short' },
      { ...good, purpose: 'credentials' },
      { ...good, loginName: 'x' },
    ];
    for (const claims of bad) await expect(createHandoffBlob(key, claims)).rejects.toThrow();
    await expect(importHandoffKey('c2hvcnQ=')).rejects.toThrow();
  });

  it('carries a login name and password hash for the credentials purpose', async () => {
    const key = await randomKey();
    const claims = handoffClaims({ sub: 'u', aud: 'portal', purpose: 'credentials', now: NOW, loginName: 'a@b.example', passwordHash: 'ab'.repeat(32) });
    const opened = await open(await createHandoffBlob(key, claims), [key], { purpose: 'credentials' });
    expect(opened).toEqual({ ok: true, claims });
  });
});
