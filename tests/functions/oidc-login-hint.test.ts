import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { useWorkerEnv } from './gateway-client';
import { ISSUER, RP, useTrustedApp } from './trusted-app';

/** An OpenID login_hint fills the sign-in form, without ever being in a URL. */
const { worker: env, api } = useWorkerEnv('oidc-login-hint', { PORTAL_ORIGIN: ISSUER });
const { app, browse } = useTrustedApp(env);

describe('login_hint prefills the sign-in page', () => {
  /** A signed-out authorization request with `hint`: the sign-in page it leads to, and the request id. */
  async function signInPageFor(hint: string) {
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(app.config, { redirect_uri: `${RP}/callback`, scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', login_hint: hint });
    const connect = (await browse(url.href)).headers.get('location')!;
    const login = (await browse(new URL(connect, ISSUER).href)).headers.get('location')!;
    const id = new URL(connect, ISSUER).searchParams.get('request')!;
    // The URLs with the random request id taken out: 43 random characters can spell "Wei" or "138" by chance.
    const urls = `${connect} ${login}`.replaceAll(id, '<request>');
    return { connect, login, id, urls };
  }
  const hintOf = async (id: string, cookie?: string) => (await api.json(await api.get(`/oidc/v1/hints/${id}`, { cookie }))).data;

  it('answers a phone or an e-mail hint as the form fields, and never puts it in a URL', async () => {
    const phone = await signInPageFor('138 0013 8000');
    expect(new URL(phone.login, ISSUER).pathname).toBe('/login');
    expect(phone.urls).not.toMatch(/138|0013|8000|hint/);
    expect(await hintOf(phone.id)).toEqual({ channel: 'phone', areaId: 'CN', callingCode: '+86', mobile: '13800138000' });

    expect(await hintOf((await signInPageFor('+44 7400 123456')).id)).toEqual({ channel: 'phone', areaId: 'GB', callingCode: '+44', mobile: '7400123456' });
    const email = await signInPageFor('Li.Wei@Example.com');
    expect(email.urls).not.toMatch(/Wei|example/i);
    expect(await hintOf(email.id)).toEqual({ channel: 'email', email: 'li.wei@example.com' });
  });

  it('ignores a hint that is not a phone number or an e-mail address (markup included)', async () => {
    for (const hint of ['<img src=x onerror=alert(1)>', '"><script>alert(1)</script>@example.com', 'user-4711', '+999 123']) {
      expect(await hintOf((await signInPageFor(hint)).id), hint).toBeNull();
    }
  });

  it('answers nothing once a session has opened the request, or for an unknown one', async () => {
    const { id } = await signInPageFor('li.na@example.com');
    const person = await api.person();
    expect((await api.json(await api.get(`/oidc/v1/requests/${id}`, { cookie: person.cookie }))).code).toBe('0');
    expect(await hintOf(id)).toBeNull();
    expect(await hintOf('x'.repeat(43))).toBeNull();
  });
});
