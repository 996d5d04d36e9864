import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { countIn } from '../../functions/gateway/identity/breached-passwords';
import { normaliseRange, rangesOf, SYNTHETIC_BREACHED, syntheticRanges } from '../../scripts/pwned-ranges';

/** The Pwned Passwords range format as `npm run pwned:import` writes it and the Worker reads it (issue 44). */
describe('range files', () => {
  it('are normalised as downloaded: CRLF, any case, padding of count 0 dropped, sorted; anything else refused', () => {
    const suffix = (c: string) => c.repeat(35);
    const { text, count } = normaliseRange(`${suffix('b')}:3\r\n${suffix('A')}:0\r\n${suffix('a')}:12\r\n`);
    expect(text).toBe(`${suffix('A')}:12\n${suffix('B')}:3`);
    expect(count).toBe(2);
    expect(() => normaliseRange('not a hash:1')).toThrow(/not a range line/);
  });

  it('are read by the Worker: a suffix only at the start of a line, its count, 0 when absent', () => {
    for (const [password, count] of SYNTHETIC_BREACHED) {
      const hash = createHash('sha1').update(password).digest('hex').toUpperCase();
      const range = syntheticRanges().get(hash.slice(0, 5))!;
      expect(countIn(range, hash.slice(5))).toBe(count);
      // The tail of a suffix is no suffix.
      expect(countIn(range, hash.slice(6))).toBe(0);
    }
    const [prefix, range] = [...rangesOf([['x', 1]])][0]!;
    expect(prefix).toHaveLength(5);
    expect(countIn(range, '0'.repeat(35))).toBe(0);
  });
});
