import { afterEach, describe, expect, it, vi } from 'vitest';
import { deviceOf } from '../../src/lib/device-name';
import { $passkeys, loadPasskeys } from '../../src/stores/passkeys';

describe('the passkeys store', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says the browser cannot use passkeys when WebAuthn is missing, and asks the gateway nothing', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    vi.stubGlobal('PublicKeyCredential', undefined);
    await loadPasskeys();
    expect($passkeys.get().phase).toBe('unsupported');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('lists the passkeys where WebAuthn is there', async () => {
    const item = { id: 'abc', name: 'Work laptop', createdAt: 1, lastUsedAt: null, synced: false };
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    vi.stubGlobal('fetch', vi.fn(async () => Response.json({ code: '0', message: 'success', data: [item] })));
    await loadPasskeys();
    expect($passkeys.get()).toMatchObject({ phase: 'ready', items: [item], busy: false });
  });
});

describe('deviceOf', () => {
  it('names the browser and system of common user agents (Edge and Opera before Chrome, Android before Linux)', () => {
    const cases: [string, { browser: string | null; os: string | null }][] = [
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Safari/537.36 Edg/142.0', { browser: 'Edge', os: 'Windows' }],
      ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15', { browser: 'Safari', os: 'macOS' }],
      ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Mobile Safari/537.36', { browser: 'Chrome', os: 'Android' }],
      ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/142.0 Mobile/15E148 Safari/604.1', { browser: 'Chrome', os: 'iOS' }],
      ['Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0', { browser: 'Firefox', os: 'Linux' }],
      ['curl/8.0', { browser: null, os: null }],
    ];
    for (const [userAgent, expected] of cases) expect(deviceOf(userAgent), userAgent).toEqual(expected);
  });
});
