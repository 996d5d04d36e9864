import { describe, expect, it } from 'vitest';
import { createGateway } from '../../functions/gateway/app';
import { LINK_LIFETIME_MS, LINK_SUBJECT_CAP } from '../../functions/gateway/login-links/service';
import { errorCatalogue } from '../../src/schemas/error-codes';
import { useWorkerEnv } from './gateway-client';

/**
 * Sign-in links (issue 6) through the whole Worker on a real local D1: /pass_email_login's e-mail link and
 * /share_login's shared link. Links are read from the dev outbox or the create answer, as a person would.
 */
// Links are built on the configured origin of the site, never on the request's Host.
const { worker, api } = useWorkerEnv('login-links', { PORTAL_ORIGIN: 'https://portal.example.com' }, { origin: 'https://portal.example.com' });

const newEmail = () => `link.${api.unique()}@example.com`;
const linkIn = (text: string) => new URL(/https?:\/\/\S+/.exec(text)![0]);
const askForPass = (email: string, options: { lang?: 'zh' | 'en'; from?: string } = {}) =>
  api.post('/agg-web/user/passEmail/send', { loginEmail: email }, options);
const usePass = (pass: string, lang?: 'zh' | 'en') => api.post('/agg-web/user/passEmail/login', { pass }, { lang });

async function mailedLink(email: string, lang?: 'zh' | 'en') {
  expect((await api.json(await askForPass(email, { lang }))).code).toBe('0');
  const [mail] = await api.outbox(email);
  return { mail: mail!, url: linkIn(mail!.text) };
}

describe('e-mail pass link', () => {
  it('mails a one-time link on the portal origin in the visitor language, and it signs the person in once', async () => {
    const email = newEmail();
    const userId = await api.seed({ email });
    const { mail, url } = await mailedLink(email, 'zh');
    expect(mail.subject).toBe('您的登录链接');
    expect(url.origin).toBe('https://portal.example.com');
    expect(url.pathname).toBe('/pass_email_login');
    expect(url.searchParams.get('lang')).toBe('zh');
    const pass = url.searchParams.get('pass')!;

    const res = await usePass(pass);
    const body = await api.json<{ userId: string; oauthVO?: unknown }>(res);
    expect(body.code).toBe('0');
    expect(body.data.userId).toBe(userId);
    // The token reaches the browser only as the HttpOnly cookie.
    expect(body.data.oauthVO).toBeUndefined();
    const me = await api.json<{ userId: string }>(
      await api.call('/agg-web/user/fetchMeByUserToken', { headers: { cookie: api.sessionCookie(res) } }),
    );
    expect(me.data.userId).toBe(userId);

    const again = await api.json(await usePass(pass, 'en'));
    expect(again.code).toBe('LK0003');
    expect(again.message).toBe(errorCatalogue.LK0003.en);
  });

  it('gives one session for a doubled click: exactly one of two parallel uses wins', async () => {
    const email = newEmail();
    await api.seed({ email });
    const pass = (await mailedLink(email)).url.searchParams.get('pass')!;
    const answers = await Promise.all([usePass(pass), usePass(pass)].map(async (res) => (await api.json(await res)).code));
    expect(answers.sort()).toEqual(['0', 'LK0003']);
  });

  it('answers an unknown address exactly like a known one, and sends nothing', async () => {
    const nobody = newEmail();
    const res = await askForPass(nobody);
    expect(res.status).toBe(200);
    expect((await api.json(res)).code).toBe('0');
    expect(await api.outbox(nobody)).toEqual([]);
    // The resend wait applies to it as well, so timing the second answer tells nothing either.
    expect((await api.json(await askForPass(nobody))).code).toBe('LK0010');
  });

  it('waits a minute between links and caps them per address, in the visitor language', async () => {
    const email = newEmail();
    await api.seed({ email });
    expect((await api.json(await askForPass(email))).code).toBe('0');
    const wait = await api.json(await askForPass(email, { lang: 'zh' }));
    expect(wait.code).toBe('LK0010');
    expect(wait.message).toBe(errorCatalogue.LK0010.zh);

    // On a clock that moves two minutes per request the wait never applies, only the hourly cap.
    let at = Date.now();
    const gateway = createGateway({ clock: () => (at += 2 * 60 * 1000) });
    const direct = () =>
      gateway.request(
        '/agg-web/user/passEmail/send',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-client-ip': api.ip() },
          body: JSON.stringify({ loginEmail: email }),
        },
        worker.env,
        worker.ctx,
      );
    const codes: string[] = [];
    for (let i = 0; i <= LINK_SUBJECT_CAP; i++) codes.push((await api.json(await direct())).code);
    expect(codes).toContain('LK0011');
  });

  it('refuses an expired link, a made-up one and a malformed one with clear errors', async () => {
    const email = newEmail();
    await api.seed({ email });
    const pass = (await mailedLink(email)).url.searchParams.get('pass')!;
    const later = createGateway({ clock: () => Date.now() + LINK_LIFETIME_MS.email_pass + 1 });
    const expired = await later.request(
      '/agg-web/user/passEmail/login',
      { method: 'POST', headers: { 'content-type': 'application/json', language: 'en' }, body: JSON.stringify({ pass }) },
      worker.env,
      worker.ctx,
    );
    expect((await api.json(expired)).code).toBe('LK0002');

    const madeUp = 'A'.repeat(43);
    expect((await api.json(await usePass(madeUp))).code).toBe('LK0001');
    const malformed = await usePass('not a token');
    expect(malformed.status).toBe(400);
    expect((await api.json(malformed)).code).toBe('GW0400');
  });

  it('never uses a share link as an e-mail pass, nor the other way round', async () => {
    const email = newEmail();
    await api.seed({ email });
    const pass = (await mailedLink(email)).url.searchParams.get('pass')!;
    expect((await api.json(await api.post('/agg-web/user/shareLogin/login', { share: pass }))).code).toBe('LK0001');
  });
});

describe('shared sign-in link', () => {
  async function signedInCookie() {
    const email = newEmail();
    const userId = await api.seed({ email });
    const { url } = await mailedLink(email);
    const res = await usePass(url.searchParams.get('pass')!);
    return { userId, cookie: api.sessionCookie(res) };
  }

  it('is made by a signed-in person for their own account and signs it in on another device once', async () => {
    const { userId, cookie } = await signedInCookie();
    const made = await api.json<{ url: string; expiresIn: number }>(
      await api.post('/agg-web/user/shareLogin/create', {}, { cookie, lang: 'en' }),
    );
    expect(made.code).toBe('0');
    expect(made.data.expiresIn).toBe(LINK_LIFETIME_MS.share / 1000);
    const url = new URL(made.data.url);
    expect(url.origin + url.pathname).toBe('https://portal.example.com/share_login');
    const share = url.searchParams.get('share')!;

    const other = await api.post('/agg-web/user/shareLogin/login', { share });
    const body = await api.json<{ userId: string }>(other);
    expect(body.data.userId).toBe(userId);
    expect(other.headers.getSetCookie().join('\n')).toMatch(/portal_token=[^;]+; .*HttpOnly/);
    expect((await api.json(await api.post('/agg-web/user/shareLogin/login', { share }))).code).toBe('LK0003');
  });

  it('cannot be made without a session', async () => {
    const res = await api.post('/agg-web/user/shareLogin/create', {}, { lang: 'zh' });
    expect(res.status).toBe(401);
    expect((await api.json(res)).code).toBe('TK00001');
  });
});
