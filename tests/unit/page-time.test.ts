import { describe, expect, it } from 'vitest';
import { pageTime } from '../../src/lib/notice-time';

/** A page names the zone of every time it writes, in the browser's zone (issue 47). */
describe('pageTime', () => {
  const at = Date.UTC(2026, 10, 30, 17, 5);
  it('names Beijing time on Chinese pages in a Beijing browser', () => {
    expect(pageTime(at, 'zh', { timeZone: 'Asia/Shanghai' })).toBe('2026年12月1日 01:05（北京时间）');
    expect(pageTime(at, 'zh', { timeZone: 'Asia/Shanghai', timeOnly: true })).toBe('01:05（北京时间）');
  });
  it('names UTC, or else the offset of the browser’s zone', () => {
    expect(pageTime(at, 'en', { timeZone: 'UTC' })).toBe('30 Nov 2026, 17:05 UTC');
    expect(pageTime(at, 'en', { timeZone: 'Europe/Berlin' })).toBe('30 Nov 2026, 18:05 GMT+1');
    expect(pageTime(at, 'en', { timeZone: 'Asia/Shanghai', timeOnly: true })).toBe('01:05 GMT+8');
    expect(pageTime(at, 'zh', { timeZone: 'Europe/Berlin' })).toBe('2026年11月30日 18:05（GMT+1）');
  });
});
