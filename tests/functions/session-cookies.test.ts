import { describe, expect, it } from 'vitest';
import {
  clearedSessionCookies,
  cookiesAreSecure,
  endsSession,
  sessionCookies,
  takeSession,
  tokenCookieName,
  withSessionCookies,
} from '../../functions/edge/session-cookies';

const TOKEN = 'A'.repeat(43);

describe('session cookie rules', () => {
  it('names the cookie by host', () => {
    expect(tokenCookieName('portal.example.com', 'navigator')).toBe('portal_token');
    expect(tokenCookieName('navigator.example.com', 'navigator')).toBe('navigator_token');
  });

  it('is Secure except on plain-http localhost', () => {
    expect(cookiesAreSecure(new URL('http://localhost:8787/'))).toBe(false);
    expect(cookiesAreSecure(new URL('http://127.0.0.1:8787/'))).toBe(false);
    expect(cookiesAreSecure(new URL('https://localhost/'))).toBe(true);
    expect(cookiesAreSecure(new URL('http://portal.example.com/'))).toBe(true);
  });

  it('sets an HttpOnly token and a readable marker for 604,799 s', () => {
    expect(sessionCookies('portal_token', TOKEN, true)).toEqual([
      `portal_token=${TOKEN}; Max-Age=604799; Path=/; HttpOnly; Secure; SameSite=Lax`,
      'portal_signed_in=1; Max-Age=604799; Path=/; Secure; SameSite=Lax',
    ]);
    expect(clearedSessionCookies('navigator_token', false)).toEqual([
      'navigator_token=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax',
      'portal_signed_in=; Max-Age=0; Path=/; SameSite=Lax',
    ]);
  });

  it('takes the token out of a login answer and leaves the rest', () => {
    const answer = { code: '0', message: 'success', data: { userId: 'u1', oauthVO: { access_token: TOKEN, refresh_token: 'r' } } };
    expect(takeSession(answer)).toEqual({ token: TOKEN, body: { code: '0', message: 'success', data: { userId: 'u1' } } });
    expect(takeSession({ code: '0', data: { userId: 'u1' } })).toBeNull();
    expect(takeSession({ code: '0', data: { oauthVO: { access_token: 'bad token;' } } })).toBeNull();
    expect(takeSession('text')).toBeNull();
  });

  it('ends the session on TK00001, HTTP 401 and logout', () => {
    expect(endsSession('/agg-web/x', 200, { code: 'TK00001' })).toBe(true);
    expect(endsSession('/agg-web/x', 401, null)).toBe(true);
    expect(endsSession('/c/user/v2/loginout', 200, { code: '0', data: true })).toBe(true);
    expect(endsSession('/agg-web/x', 200, { code: '0' })).toBe(false);
    expect(endsSession('/agg-web/x', 400, { code: 'US0010' })).toBe(false);
  });
});

describe('withSessionCookies', () => {
  const context = { path: '/agg-web/quick/user/login', cookieName: 'portal_token', secure: true };

  it('turns oauthVO into cookies, strips it and forbids caching', async () => {
    const answer = Response.json({ code: '0', message: 'success', data: { userId: 'u1', oauthVO: { access_token: TOKEN } } });
    const res = await withSessionCookies(answer, context);
    expect(res.headers.getSetCookie()).toEqual(sessionCookies('portal_token', TOKEN, true));
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    expect(text).not.toContain(TOKEN);
    expect(JSON.parse(text)).toEqual({ code: '0', message: 'success', data: { userId: 'u1' } });
  });

  it('clears the cookies on TK00001', async () => {
    const answer = Response.json({ code: 'TK00001', message: 'x', data: null }, { status: 401 });
    const res = await withSessionCookies(answer, context);
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual(clearedSessionCookies('portal_token', true));
    expect(await res.json()).toMatchObject({ code: 'TK00001' });
  });

  it('passes other answers through untouched', async () => {
    const res = await withSessionCookies(new Response('plain', { headers: { 'content-type': 'text/plain' } }), context);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await res.text()).toBe('plain');
    const json = await withSessionCookies(Response.json({ code: '0', data: [1] }), context);
    expect(json.headers.getSetCookie()).toEqual([]);
    expect(await json.json()).toEqual({ code: '0', data: [1] });
  });
});
