import ipaddr from 'ipaddr.js';

/**
 * The client network every per-IP limit counts by. An IPv4 address is itself; an IPv6 address is its /64
 * (`2001:db8:1:2::/64`), because one subscriber line or one cloud host usually gets a whole /64 and would
 * otherwise own 2^64 separate budgets. An IPv4-mapped IPv6 address is its IPv4 address. Anything that is
 * not an IP address gives undefined.
 */
export function networkBucket(raw: string | null | undefined): string | undefined {
  const text = raw?.trim();
  if (!text) return undefined;
  // Every call of a request reads its address at the edge and again in the gateway, and parsing one took about 3 %
  // of a signed-in call's CPU (issue 46's profile): the answers of the latest few hundred addresses are kept.
  const known = bucketOf.get(text);
  if (known !== undefined) return known ?? undefined;
  if (bucketOf.size >= BUCKETS_KEPT) bucketOf.clear();
  const bucket = parsedBucket(text);
  bucketOf.set(text, bucket ?? null);
  return bucket;
}

const BUCKETS_KEPT = 512;
/** networkBucket's answers by address text; null: not an address. */
const bucketOf = new Map<string, string | null>();

function parsedBucket(text: string): string | undefined {
  // An already bucketed value (the edge passes the bucket on) stays what it is.
  const bucketed = /^(.+)\/64$/.exec(text);
  if (bucketed && ipaddr.IPv6.isValid(bucketed[1]!)) return networkBucket(bucketed[1]);
  if (!ipaddr.isValid(text)) return undefined;
  const address = ipaddr.parse(text);
  // Only the dotted-quad form: `ipaddr.isValid` also takes `127.1` or `0x7f.1`, which name the same host.
  if (address.kind() === 'ipv4') return ipaddr.IPv4.isValidFourPartDecimal(text) ? address.toString() : undefined;
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const parts = v6.parts.slice(0, 4);
  const network = ipaddr.IPv6.parse(`${parts.map((p) => p.toString(16)).join(':')}::`);
  return `${network.toString()}/64`;
}
