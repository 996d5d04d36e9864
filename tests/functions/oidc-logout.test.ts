import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { addClientSql } from '../../scripts/operator-sql.mjs';
import { useWorkerEnv } from './gateway-client';
import { splitStatements } from './oidc-sql';
import { ISSUER, RP, useTrustedApp } from './trusted-app';

/**
 * The OpenID Provider's RP-initiated logout asks the person before it signs anyone out, unless the app proves
 * that it is their session (an ID token hint of this very session).
 */
const { worker: env, api } = useWorkerEnv('oidc-logout', { PORTAL_ORIGIN: ISSUER });
const { app, browse, idTokenFor } = useTrustedApp(env);

const stillSignedIn = async (cookie: string) => (await api.json(await api.get('/c/user/v2/getCompanyListByToken', { cookie }))).code !== 'TK00001';
const requestOf = (location: string | null) => {
  const url = new URL(location ?? '', ISSUER);
  expect(url.pathname).toBe('/sign_out');
  return url.searchParams.get('request')!;
};

describe('RP-initiated logout asks first', () => {
  it('a bare GET (a link or an image on another site) signs nobody out: it asks, naming the app, and "Sign out" ends the session and returns with state', async () => {
    const person = await api.person();
    const bare = await browse(`${ISSUER}/oidc/logout`, person.cookie);
    expect(bare.status).toBe(302);
    const unnamed = requestOf(bare.headers.get('location'));
    expect(await stillSignedIn(person.cookie)).toBe(true);
    expect((await api.json(await api.get(`/oidc/v1/logouts/${unnamed}`, { cookie: person.cookie }))).data).toEqual({ app: null });

    const asked = await browse(`${ISSUER}/oidc/logout?${new URLSearchParams({ client_id: app.clientId, post_logout_redirect_uri: `${RP}/signed-out`, state: 'bye' })}`, person.cookie);
    const id = requestOf(asked.headers.get('location'));
    expect(asked.headers.get('location')).not.toContain('signed-out');
    const view = await api.json<{ app: string | null }>(await api.get(`/oidc/v1/logouts/${id}`, { cookie: person.cookie, lang: 'zh' }));
    expect(view.data).toEqual({ app: 'Voyage planner' });

    const confirmed = await api.post(`/oidc/v1/logouts/${id}/decision`, { signOut: true }, { cookie: person.cookie });
    expect((await api.json(confirmed)).data).toEqual({ redirectTo: `${RP}/signed-out?state=bye`, signedOut: true });
    // The edge clears the session cookie with the answer, and the session is over on the server.
    expect(confirmed.headers.getSetCookie().join('\n')).toMatch(/portal_token=;/);
    expect(await stillSignedIn(person.cookie)).toBe(false);
  });

  it('"Stay signed in" keeps the session and still returns to the app; an unregistered address is never used', async () => {
    const person = await api.person();
    const stay = requestOf((await browse(`${ISSUER}/oidc/logout?${new URLSearchParams({ client_id: app.clientId, post_logout_redirect_uri: `${RP}/signed-out`, state: 'st' })}`, person.cookie)).headers.get('location'));
    expect((await api.json(await api.post(`/oidc/v1/logouts/${stay}/decision`, { signOut: false }, { cookie: person.cookie }))).data).toEqual({ redirectTo: `${RP}/signed-out?state=st`, signedOut: false });
    expect(await stillSignedIn(person.cookie)).toBe(true);

    const evil = requestOf((await browse(`${ISSUER}/oidc/logout?${new URLSearchParams({ client_id: app.clientId, post_logout_redirect_uri: 'https://evil.example/x', state: 'st' })}`, person.cookie)).headers.get('location'));
    expect((await api.json(await api.post(`/oidc/v1/logouts/${evil}/decision`, { signOut: true }, { cookie: person.cookie }))).data).toEqual({ redirectTo: '/login', signedOut: true });
  });

  it('a hint of another session (the same person elsewhere) asks too; a hint of this session signs out at once', async () => {
    const person = await api.person();
    const elsewhere = await api.signIn(person.email);
    const otherHint = await idTokenFor(elsewhere.cookie);
    const asked = await browse(oidc.buildEndSessionUrl(app.config, { id_token_hint: otherHint, post_logout_redirect_uri: `${RP}/signed-out`, state: 'x' }).href, person.cookie);
    requestOf(asked.headers.get('location'));
    expect(await stillSignedIn(person.cookie)).toBe(true);
    expect(await stillSignedIn(elsewhere.cookie)).toBe(true);

    const ownHint = await idTokenFor(person.cookie);
    const direct = await browse(oidc.buildEndSessionUrl(app.config, { id_token_hint: ownHint, post_logout_redirect_uri: `${RP}/signed-out`, state: 'x' }).href, person.cookie);
    expect(direct.headers.get('location')).toBe(`${RP}/signed-out?state=x`);
    expect(await stillSignedIn(person.cookie)).toBe(false);
    expect(await stillSignedIn(elsewhere.cookie)).toBe(true);
  });

  it('a forged hint, or a hint of one app with the client_id of another, signs nobody out and names no app', async () => {
    const person = await api.person();
    const forged = requestOf((await browse(`${ISSUER}/oidc/logout?${new URLSearchParams({ id_token_hint: 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln', post_logout_redirect_uri: 'https://evil.example/' })}`, person.cookie)).headers.get('location'));
    expect((await api.json(await api.get(`/oidc/v1/logouts/${forged}`, { cookie: person.cookie }))).data).toEqual({ app: null });
    const hint = await idTokenFor(person.cookie);
    const mixed = await browse(oidc.buildEndSessionUrl(app.config, { id_token_hint: hint, client_id: 'another-app', post_logout_redirect_uri: `${RP}/signed-out` }).href, person.cookie);
    const id = requestOf(mixed.headers.get('location'));
    expect((await api.json(await api.get(`/oidc/v1/logouts/${id}`, { cookie: person.cookie }))).data).toEqual({ app: null });
    expect(await stillSignedIn(person.cookie)).toBe(true);
  });

  it('the confirmation works once, only in the browser that opened it, and never from another site', async () => {
    const [person, other] = [await api.person(), await api.person()];
    const id = requestOf((await browse(`${ISSUER}/oidc/logout`, person.cookie)).headers.get('location'));
    // Another site posting the form with the person's cookies: refused by the edge's cross-site rule.
    const forged = await api.json(await api.post(`/oidc/v1/logouts/${id}/decision`, { signOut: true }, { cookie: person.cookie, headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } }));
    expect(forged.code).toBe('GW0403');
    // Another session (someone who got the link): nothing to see, nothing to decide, in their language.
    expect((await api.json(await api.get(`/oidc/v1/logouts/${id}`, { cookie: other.cookie }))).code).toBe('OI0900');
    const replayed = await api.json(await api.post(`/oidc/v1/logouts/${id}/decision`, { signOut: true }, { cookie: other.cookie, lang: 'zh' }));
    expect(replayed.code).toBe('OI0900');
    expect(replayed.message).toMatch(/退出请求/);
    expect(await stillSignedIn(other.cookie)).toBe(true);
    expect(await stillSignedIn(person.cookie)).toBe(true);
    // Its own browser decides once; a second answer finds it spent.
    const parallel = await Promise.all(Array.from({ length: 5 }, () => api.post(`/oidc/v1/logouts/${id}/decision`, { signOut: false }, { cookie: person.cookie })));
    expect((await Promise.all(parallel.map(async (res) => (await api.json(res)).code))).sort()).toEqual(['0', 'OI0900', 'OI0900', 'OI0900', 'OI0900']);
  });

  it('without a session there is nothing to end: back to the app only with a hint it verified, else to the sign-in page', async () => {
    // A bare client_id must not let any site bounce visitors through the portal to an app with a state of its choosing.
    const bare = await browse(`${ISSUER}/oidc/logout?${new URLSearchParams({ client_id: app.clientId, post_logout_redirect_uri: `${RP}/signed-out`, state: 'z' })}`);
    expect(bare.headers.get('location')).toBe('/login');
    const person = await api.person();
    const hint = await idTokenFor(person.cookie);
    await browse(oidc.buildEndSessionUrl(app.config, { id_token_hint: hint }).href, person.cookie);
    expect(await stillSignedIn(person.cookie)).toBe(false);
    const back = await browse(oidc.buildEndSessionUrl(app.config, { id_token_hint: hint, post_logout_redirect_uri: `${RP}/signed-out`, state: 'z' }).href);
    expect(back.headers.get('location')).toBe(`${RP}/signed-out?state=z`);
    const unknown = await browse(`${ISSUER}/oidc/logout?${new URLSearchParams({ client_id: 'nobody', post_logout_redirect_uri: `${RP}/signed-out`, state: 'z' })}`);
    expect(unknown.headers.get('location')).toBe('/login');
  });

  it('names only an app a person signs in to: a machine client named by client_id is "a site"', async () => {
    // A client's name is shown as the portal's own words; a machine client (or a company's API client, named by a
    // company administrator) signs nobody in, so it has nothing to ask.
    const machine = addClientSql({ name: 'Portal security: call +86 400 000 0000' });
    await env.env.DB.batch(splitStatements(machine.sql).map((statement) => env.env.DB.prepare(statement)));
    const person = await api.person();
    const id = requestOf((await browse(`${ISSUER}/oidc/logout?client_id=${machine.clientId}`, person.cookie)).headers.get('location'));
    expect((await api.json(await api.get(`/oidc/v1/logouts/${id}`, { cookie: person.cookie }))).data).toEqual({ app: null });
  });
});
