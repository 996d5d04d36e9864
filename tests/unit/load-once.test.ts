import { describe, expect, it } from 'vitest';
import { loadOnce } from '../../src/lib/load-once';

/** src/lib/load-once.ts: the code a form loads on first use is imported once, and a failed import is tried again. */
describe('loadOnce', () => {
  it('shares one import among 30 parallel callers, and imports nothing again once loaded', async () => {
    let imports = 0;
    const load = loadOnce(() => {
      imports++;
      return import('../../src/lib/return-path');
    });
    const loaded = await Promise.all(Array.from({ length: 30 }, () => load()));
    expect(imports).toBe(1);
    expect(new Set(loaded).size).toBe(1);
    expect(typeof loaded[0]!.returnPath).toBe('function');
    expect(await load()).toBe(loaded[0]);
    expect(imports).toBe(1);
  });

  it('a failed import fails every caller waiting on it, and the next call imports again', async () => {
    let imports = 0;
    const load = loadOnce(() => (++imports === 1 ? Promise.reject(new TypeError('Failed to fetch dynamically imported module')) : import('../../src/lib/return-path')));
    const first = await Promise.allSettled(Array.from({ length: 30 }, () => load()));
    expect(first.every((result) => result.status === 'rejected')).toBe(true);
    expect(imports).toBe(1);
    const again = await Promise.all(Array.from({ length: 30 }, () => load()));
    expect(imports).toBe(2);
    expect(new Set(again).size).toBe(1);
  });
});
