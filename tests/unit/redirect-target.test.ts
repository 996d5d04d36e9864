import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildRedirect, safeRedirect, type RedirectAllowance } from '../../functions/edge/redirect-target';
import { BASELINE_TARGETS, HOSTILE_PATHS } from '../fixtures/redirect-corpus';

const allow: RedirectAllowance = {
  origins: ['https://good.example', 'https://portal.example.com:8443', 'http://127.0.0.1:8787'],
  fallback: '/user_center',
  allowHttpLocalhost: true,
};
const strict: RedirectAllowance = { ...allow, allowHttpLocalhost: false };

describe('safeRedirect: the security baseline corpus lands on the fallback', () => {
  const corpus = [...BASELINE_TARGETS, ...HOSTILE_PATHS, `https://good.example/${'a'.repeat(10_240)}`];
  it.each(corpus.map((item) => [item.length > 60 ? `${item.slice(0, 40)}… (${item.length} chars)` : item, item]))('%s', (_, item) => {
    expect(safeRedirect(item, allow)).toBe('/user_center');
    expect(safeRedirect(item, strict)).toBe('/user_center');
  });
});

describe('safeRedirect: more ways out that must fail', () => {
  it.each([
    ['a credential-only userinfo', 'https://:x@good.example/'],
    ['a userinfo on an allowed origin', 'https://user:pw@good.example/'],
    ['plain http on an allowed host', 'http://good.example/'],
    ['https:/ with one slash', 'https:/good.example/'],
    ['a tab inside the scheme', 'java\tscript:alert(1)'],
    ['a newline before the host', 'https://\ngood.example'],
    ['leading spaces', '  https://good.example/'],
    ['a backslash authority', 'https:\\\\good.example'],
    ['a double-encoded protocol-relative path', '/%252F%252Fevil.example'],
    ['an encoded backslash path', '/%5Cevil.example'],
    ['an allowed host on another port', 'https://good.example:444/'],
    ['an allowed host with a trailing dot', 'https://good.example./'],
    ['a lookalike with a port trick', 'https://good.example:443@evil.example/'],
    ['an octal IP for localhost', 'http://0177.0.0.1:8787/'],
    ['a relative path without a slash', 'user_center'],
    ['a dot-relative path', './user_center'],
    ['ftp', 'ftp://good.example/'],
    ['vbscript', 'vbscript:msgbox(1)'],
    ['empty', ''],
    ['null', null],
    ['undefined', undefined],
  ])('%s', (_, item) => {
    expect(safeRedirect(item, allow)).toBe('/user_center');
  });

  it('refuses plain-http localhost unless local development allows it', () => {
    expect(safeRedirect('http://127.0.0.1:8787/login', allow)).toBe('http://127.0.0.1:8787/login');
    expect(safeRedirect('http://127.0.0.1:8787/login', strict)).toBe('/user_center');
  });
});

describe('safeRedirect: allowed targets come back re-serialised', () => {
  it.each([
    ['https://good.example', 'https://good.example/'],
    ['https://GOOD.example/a/../b?x=1#h', 'https://good.example/b?x=1#h'],
    ['https://good.example:443/p', 'https://good.example/p'],
    ['https://portal.example.com:8443/appointments?id=7', 'https://portal.example.com:8443/appointments?id=7'],
    ['https://good.example/a b'.replace(' ', '%20'), 'https://good.example/a%20b'],
    ['/user_center', '/user_center'],
    ['/account?redirect=x#top', '/account?redirect=x#top'],
    ['/a/../b', '/b'],
    ['/%E4%B8%AD', '/%E4%B8%AD'],
  ])('%s', (item, expected) => {
    expect(safeRedirect(item, allow)).toBe(expected);
  });
});

describe('safeRedirect: properties', () => {
  const allowedOrigins = new Set(allow.origins.map((o) => new URL(o).origin));
  /** The contract: the fallback, an allow-listed absolute URL, or a path no browser reads as another host. */
  const isSafe = (result: string) => {
    if (result === allow.fallback) return true;
    if (result.startsWith('/')) {
      if (/^\/[/\\]/.test(result) || /[\s\\]/.test(result)) return false;
      // However often it is decoded, it stays a path on this site.
      let form = result;
      for (let i = 0; i < 4; i++) {
        form = decodeURIComponent(form);
        if (/^\/[/\\]/.test(form) || !form.startsWith('/')) return false;
      }
      return new URL(result, 'https://here.invalid').origin === 'https://here.invalid';
    }
    const url = new URL(result);
    return allowedOrigins.has(url.origin) && !url.username && !url.password && url.href === result;
  };

  it('maps any string to a safe answer', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (raw) => isSafe(safeRedirect(raw, allow))), { numRuns: 2000 });
  });

  it('maps any URL-ish string to a safe answer', () => {
    const piece = fc.constantFrom(
      'https:', 'http:', 'javascript:', '//', '/', '\\', '@', ':', '.', '%2F', '%5C', '%25', '?', '#',
      'good.example', 'evil.example', '127.0.0.1', 'localhost', ':8787', ':443', 'user', ' ', '\t', 'a',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => isSafe(safeRedirect(pieces.join(''), allow))),
      { numRuns: 5000 },
    );
  });

  it('keeps allow-listed URLs on their origin', () => {
    fc.assert(
      fc.property(fc.constantFrom(...allow.origins), fc.webPath(), fc.webQueryParameters(), (origin, path, query) => {
        const result = safeRedirect(`${origin}${path}${query ? `?${query}` : ''}`, allow);
        return result === allow.fallback || new URL(result).origin === new URL(origin).origin;
      }),
    );
  });

  it('never lets any web URL off the allow-list through', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (raw) => {
        const result = safeRedirect(raw, allow);
        return result === allow.fallback || allowedOrigins.has(new URL(result).origin);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('buildRedirect: the one builder of every Location', () => {
  const site: RedirectAllowance = { origins: ['https://portal.example.com'], fallback: 'https://portal.example.com/', allowHttpLocalhost: false };

  it.each([...HOSTILE_PATHS, 'evil.example', ''])('refuses the path %j', (path) => {
    expect(buildRedirect({ origin: 'https://portal.example.com', path }, site)).toBe(site.fallback);
    expect(buildRedirect({ path }, site)).toBe(site.fallback);
  });

  it('refuses an origin that is not configured, and a query or fragment with raw whitespace', () => {
    expect(buildRedirect({ origin: 'https://evil.example', path: '/login' }, site)).toBe(site.fallback);
    expect(buildRedirect({ origin: 'https://portal.example.com', path: '/login', query: '?a=\n' }, site)).toBe(site.fallback);
    expect(buildRedirect({ origin: 'https://portal.example.com', path: '/login', hash: '#a b' }, site)).toBe(site.fallback);
  });

  it('writes origin, path, query and fragment out as given', () => {
    expect(buildRedirect({ origin: 'https://portal.example.com', path: '/a%20b', query: '?x=1&y=%2F%2F' }, site)).toBe('https://portal.example.com/a%20b?x=1&y=%2F%2F');
    expect(buildRedirect({ path: '/login', query: new URLSearchParams({ token: 'a/b c' }) }, site)).toBe('/login?token=a%2Fb+c');
    expect(buildRedirect({ path: '/login', query: new URLSearchParams() }, site)).toBe('/login');
  });
});
