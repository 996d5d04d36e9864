import { describe, expect, it } from 'vitest';
import { gatewayPath, gatewayRequestHeaders, gatewayTarget } from '../../functions/edge/proxy-rules';
import { shellForPath, headerChrome } from '../../src/lib/routes';
import { needsCountry } from '../../functions/edge/gateway-call';

describe('gatewayPath', () => {
  it('removes the /api prefix and nothing else', () => {
    expect(gatewayPath('/api/agg-web/country/selectPhoneCode')).toBe('/agg-web/country/selectPhoneCode');
    expect(gatewayPath('/api')).toBe('/');
    expect(gatewayPath('/api/')).toBe('/');
    expect(gatewayPath('/apix/agg-web')).toBe('/apix/agg-web');
    expect(gatewayPath('/api/api/x')).toBe('/api/x');
  });
});

describe('needsCountry', () => {
  it("tells the gateway the visitor's country for calls that change something and the region query, not for other reads", () => {
    expect(needsCountry({ method: 'POST', path: '/agg-web/user/v3/userLogin' })).toBe(true);
    expect(needsCountry({ method: 'DELETE', path: '/agg-web/user/sessions/x' })).toBe(true);
    expect(needsCountry({ method: 'GET', path: '/agg-web/ip/queryIPRegion' })).toBe(true);
    expect(needsCountry({ method: 'GET', path: '/agg-web/ip/queryIPRegio%6E' })).toBe(true);
    expect(needsCountry({ method: 'GET', path: '/agg-web/ip/%E0%A4%A' })).toBe(false);
    expect(needsCountry({ method: 'GET', path: '/agg-web/user/fetchMeByUserToken' })).toBe(false);
    expect(needsCountry({ method: 'HEAD', path: '/agg-web/user/fetchMeByUserToken' })).toBe(false);
  });
});

describe('gatewayTarget', () => {
  it('keeps every call on the configured gateway, under its base path', () => {
    expect(gatewayTarget('https://gw.example.com', '/agg-web/x', '?a=1')).toBe('https://gw.example.com/agg-web/x?a=1');
    expect(gatewayTarget('https://gw.example.com/base/', '/agg-web/x', '')).toBe('https://gw.example.com/base/agg-web/x');
    for (const hostile of ['//evil.example/x', '/\\evil.example/x', '//user@evil.example', '/%2F%2Fevil.example']) {
      const target = new URL(gatewayTarget('https://gw.example.com/base', hostile, '?q=//evil.example'));
      expect(target.origin, hostile).toBe('https://gw.example.com');
      expect(target.pathname.startsWith('/base/'), hostile).toBe(true);
    }
  });
});

describe('gatewayRequestHeaders', () => {
  const context = { lang: 'zh' as const, traceId: 'trace-1', token: 'tok', country: 'CN', clientIp: '203.0.113.9', site: 'portal' as const };

  it('adds language, trace id, bearer token, country and client address', () => {
    const headers = gatewayRequestHeaders(new Headers({ 'content-type': 'application/json' }), context);
    expect(headers.get('language')).toBe('zh');
    expect(headers.get('traceid')).toBe('trace-1');
    expect(headers.get('authorization')).toBe('Bearer tok');
    expect(headers.get('x-client-country')).toBe('CN');
    expect(headers.get('x-client-ip')).toBe('203.0.113.9');
    expect(headers.get('x-portal-site')).toBe('portal');
    expect(headers.get('content-type')).toBe('application/json');
  });

  it('never forwards the browser cookies or a client-chosen authorization, language or country', () => {
    const incoming = new Headers({
      cookie: 'portal_token=secret',
      authorization: 'Bearer forged',
      language: 'fr',
      'x-client-country': 'CN',
      'x-client-ip': '10.0.0.1',
      'x-portal-site': 'navigator',
    });
    const headers = gatewayRequestHeaders(incoming, { ...context, token: undefined, country: undefined });
    expect(headers.get('cookie')).toBeNull();
    expect(headers.get('authorization')).toBeNull();
    expect(headers.get('language')).toBe('zh');
    expect(headers.get('x-client-country')).toBeNull();
    expect(headers.get('x-client-ip')).toBe('203.0.113.9');
    expect(headers.get('x-portal-site')).toBe('portal');
  });
});

describe('routes', () => {
  it('maps exact paths only', () => {
    expect(shellForPath('/')).toBe('login');
    expect(shellForPath('/join')).toBe('join');
    expect(shellForPath('/join/')).toBeUndefined();
    expect(shellForPath('/Join')).toBeUndefined();
    expect(shellForPath('/en/login')).toBeUndefined();
    expect(shellForPath('/not_found')).toBeUndefined();
  });

  it('hides the header logout where the page has its own, and the chrome on link sign-ins', () => {
    expect(headerChrome('login')).toEqual({ showLanguageToggle: true, showLogout: true, showBrowserNotice: true });
    // The header's sign-out is where a person looks for it on every page of their session (issue 47).
    expect(headerChrome('user_center').showLogout).toBe(true);
    expect(headerChrome('account').showLogout).toBe(false);
    expect(headerChrome('sign_out').showLogout).toBe(false);
    expect(headerChrome('share_login')).toEqual({ showLanguageToggle: false, showLogout: false, showBrowserNotice: false });
  });
});
