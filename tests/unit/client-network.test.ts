import { describe, expect, it } from 'vitest';
import { networkBucket } from '../../src/lib/client-network';

describe('networkBucket: the client network of every per-IP limit', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    [' 203.0.113.9 ', '203.0.113.9'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2:ffff::1', '2001:db8:1:2::/64'],
    ['2001:db8:0:0:1::1', '2001:db8::/64'],
    ['2001:db8:1:2::/64', '2001:db8:1:2::/64'],
    ['::1', '::/64'],
    ['::ffff:198.51.100.7', '198.51.100.7'],
  ])('%s -> %s', (raw, bucket) => {
    expect(networkBucket(raw)).toBe(bucket);
  });

  it.each(['', '   ', 'unknown', '127.1', '0x7f.0.0.1', '2130706433', '1.2.3.4, 5.6.7.8', '2001:db8::/48', '999.1.1.1', undefined, null])(
    'names no network for %j',
    (raw) => {
      expect(networkBucket(raw)).toBeUndefined();
    },
  );
});
