import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../functions/config';
import { regionRedirectTarget, siteOfHost } from '../../functions/edge/region';
import { sessionRedirectTarget, signedOutRedirectTarget, type SessionRedirectInput } from '../../functions/edge/session-redirect';
import { returnPath } from '../../src/lib/routes';
import type { SourceOrigin } from '../../src/lib/source-origin';

const config = parseConfig({
  PORTAL_URL: 'https://portal.example.com/home',
  ZHOUSHAN_URL: 'https://zhoushan.example.com',
  INVITATION_LETTER_URL: 'https://www.example.com/invitation-letter-online',
  REDIRECT_ALLOWLIST: 'https://ops.example.com, https://shipping.example.net',
  DEV_OUTBOX: 'false',
});
const decide = (pathname: string, source: SourceOrigin, over: Partial<SessionRedirectInput> = {}) =>
  sessionRedirectTarget({ pathname, navigatorHost: false, hasSession: true, source, lang: 'en', config, ...over });

describe('session redirect decision', () => {
  it.each<[string, string, SourceOrigin, Partial<SessionRedirectInput>, string | undefined]>([
    ['no session: the page shows', '/login', { source: 'zhoushan' }, { hasSession: false }, undefined],
    ['/join is never a sign-in page', '/join', {}, {}, undefined],
    ['other pages show', '/user_center', {}, {}, undefined],
    ['an unknown path is not a sign-in page', '/nope', {}, {}, undefined],
    // The login page routes by login case itself when the visit recorded no origin.
    ['the login page without an origin shows (it routes by login case)', '/login', {}, {}, undefined],
    ['"/" is the login page too', '/', {}, {}, undefined],
    ['the default of the other sign-in pages is the portal', '/register', {}, {}, 'https://portal.example.com/home'],
    ['a recorded portal origin still wins on the login page', '/login', { source: 'portal' }, {}, 'https://portal.example.com/home'],
    ['"/" on the navigator host too', '/', {}, { navigatorHost: true }, 'https://portal.example.com/home'],
    ['register, forget and the partner pages too', '/navigator_forget', {}, {}, 'https://portal.example.com/home'],
    ['zhoushan', '/login', { source: 'zhoushan' }, {}, 'https://zhoushan.example.com/'],
    ['zhoushan with a page', '/register', { source: 'zhoushan', page: '/port/berths?x=1' }, {}, 'https://zhoushan.example.com/port/berths?x=1'],
    ['zhoushan page cannot name another host', '/login', { source: 'zhoushan', page: '//evil.example/x' }, {}, 'https://zhoushan.example.com/evil.example/x'],
    ['invitation letter in English', '/login', { source: 'invitationLetterOnline' }, {}, 'https://www.example.com/invitation-letter-online'],
    ['invitation letter in Chinese gets /zh', '/login', { source: 'invitation-letter-online' }, { lang: 'zh' }, 'https://www.example.com/zh/invitation-letter-online'],
    ['portal with an address', '/login', { source: 'portal', address: 'appointments/42' }, {}, 'https://portal.example.com/home/appointments/42'],
    ['an address without a source', '/login', { address: '/appointments/42' }, {}, 'https://portal.example.com/home/appointments/42'],
    ['an allow-listed redirect', '/login', { redirect: 'https://ops.example.com/board?id=1' }, {}, 'https://ops.example.com/board?id=1'],
    ['a same-site redirect path', '/login', { redirect: '/account' }, {}, '/account'],
    ['a foreign redirect falls back to the portal', '/login', { redirect: 'https://evil.example/' }, {}, 'https://portal.example.com/home'],
    ['a protocol-relative redirect falls back', '/login', { redirect: '//evil.example' }, {}, 'https://portal.example.com/home'],
    ['an unknown source uses redirect', '/login', { source: 'mail', redirect: 'https://shipping.example.net/' }, {}, 'https://shipping.example.net/'],
    ['zhoushan wins over redirect', '/login', { source: 'zhoushan', redirect: 'https://ops.example.com/' }, {}, 'https://zhoushan.example.com/'],
  ])('%s', (_, pathname, source, over, expected) => {
    expect(decide(pathname, source, over)).toBe(expected);
  });

  it('falls back to PORTAL_URL when a destination is not configured', () => {
    const bare = parseConfig({ PORTAL_URL: '/user_center' });
    expect(sessionRedirectTarget({ pathname: '/login', navigatorHost: false, hasSession: true, source: { source: 'zhoushan' }, lang: 'zh', config: bare })).toBe('/user_center');
    expect(sessionRedirectTarget({ pathname: '/login', navigatorHost: false, hasSession: true, source: { address: 'a/b' }, lang: 'zh', config: bare })).toBe('/user_center/a/b');
  });
});

describe('signed-out visit to a page that needs a session', () => {
  const signedOut = (pathname: string, search = '', over = {}) =>
    signedOutRedirectTarget({ pathname, search, navigatorHost: false, hasSession: false, ...over });

  it('goes to sign-in with the page (and its query) as the return path', () => {
    expect(signedOut('/create_account')).toBe('/login?next=%2Fcreate_account');
    expect(signedOut('/join', '?code=AB12CD')).toBe('/login?next=%2Fjoin%3Fcode%3DAB12CD');
    expect(signedOut('/change_password', '', { navigatorHost: true })).toBe('/?next=%2Fchange_password');
  });

  it('leaves sign-in pages, unknown paths and signed-in visitors alone', () => {
    for (const path of ['/login', '/register', '/forget', '/share_login', '/nope', '/']) expect(signedOut(path)).toBeUndefined();
    expect(signedOut('/user_center', '', { hasSession: true })).toBeUndefined();
  });

  it('drops a nested return path rather than chaining it', () => {
    expect(signedOut('/account', '?next=%2Fuser_center&redirect=x')).toBe('/login?next=%2Faccount%3Fredirect%3Dx');
  });
});

describe('return path after sign-in', () => {
  it.each<[string, string | undefined]>([
    ['/create_account', '/create_account'],
    ['/join?code=AB12CD', '/join?code=AB12CD'],
    ['/user_center?a=1&b=%2F%2Fevil', '/user_center?a=1&b=%2F%2Fevil'],
    ['/login', undefined],
    ['/share_login', undefined],
    ['//evil.example/create_account', undefined],
    ['/\\evil.example', undefined],
    ['https://evil.example/account', undefined],
    ['/account#frag', undefined],
    ['/%2F%2Fevil.example', undefined],
    ['/account/../../evil', undefined],
    ['javascript:alert(1)', undefined],
    ['', undefined],
  ])('%s → %s', (raw, expected) => {
    expect(returnPath(raw)).toBe(expected);
  });
});

describe('region redirect decision', () => {
  const sites = { enabled: true, siteCn: 'https://portal.example.cn', siteCom: 'https://portal.example.com' };
  const target = (url: string, country: string | undefined, over = {}) => regionRedirectTarget(new URL(url), country, { ...sites, ...over });

  it.each<[string, string, string | undefined, string | undefined]>([
    ['outside China on .cn goes to .com, path and query kept', 'https://portal.example.cn/register?source=zhoushan&page=a', 'DE', 'https://portal.example.com/register?source=zhoushan&page=a'],
    ['inside China on .com goes to .cn', 'https://portal.example.com/login?x=1', 'CN', 'https://portal.example.cn/login?x=1'],
    ['inside China on .cn stays', 'https://portal.example.cn/login', 'CN', undefined],
    ['outside China on .com stays', 'https://portal.example.com/login', 'US', undefined],
    ['an unknown country stays', 'https://portal.example.cn/login', undefined, undefined],
    ['/api never moves', 'https://portal.example.cn/api/agg-web/ip/queryIPRegion', 'DE', undefined],
    ['any .cn host is the Chinese site', 'https://other.example.cn/', 'FR', 'https://portal.example.com/'],
    ['a host of neither site stays', 'http://127.0.0.1:8787/login', 'CN', undefined],
  ])('%s', (_, url, country, expected) => {
    expect(target(url, country)).toBe(expected);
  });

  it('does nothing when off, and never loops on a pair that points back', () => {
    expect(target('https://portal.example.cn/login', 'DE', { enabled: false })).toBeUndefined();
    expect(target('https://portal.example.com/login', 'CN', { siteCn: 'https://portal.example.com' })).toBeUndefined();
  });

  it('reads .cn hosts as the Chinese site', () => {
    expect(siteOfHost('Portal.Example.CN.')).toBe('cn');
    expect(siteOfHost('portal.example.cn.evil.com')).toBe('com');
    expect(siteOfHost('127.0.0.1')).toBeUndefined();
    expect(siteOfHost('portal.example.workers.dev')).toBeUndefined();
  });
});
