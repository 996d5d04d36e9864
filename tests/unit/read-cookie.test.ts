import { describe, expect, it } from 'vitest';
import { readCookie } from '../../src/lib/read-cookie';

describe('readCookie', () => {
  it('finds a cookie by its exact name and decodes what js-cookie encoded', () => {
    const cookies = 'LANG=en; portal_signed_in=1; SOURCE_FROM=%7B%22source%22%3A%22zhoushan%22%7D';
    expect(readCookie(cookies, 'portal_signed_in')).toBe('1');
    expect(readCookie(cookies, 'SOURCE_FROM')).toBe('{"source":"zhoushan"}');
    expect(readCookie(cookies, 'signed_in')).toBeUndefined();
    expect(readCookie('', 'LANG')).toBeUndefined();
  });

  it('keeps a value that is not valid percent-encoding as it is', () => {
    expect(readCookie('a=100%', 'a')).toBe('100%');
  });
});
