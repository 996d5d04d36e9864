import type { Config } from '../config';
import { networkBucket } from '../../src/lib/client-network';

/**
 * Local runs only (DEV_TRUST_CLIENT_IP_HEADER "true"): names the client, so tests and scripts can act as many
 * networks. A deployed Worker refuses to start with that flag.
 */
export const TEST_CLIENT_IP_HEADER = 'x-test-client-ip';

/**
 * The client network every per-IP limit counts by (an IPv4 address, or an IPv6 /64), or undefined when the
 * request names none. The address comes from CF-Connecting-IP, which Cloudflare sets and a client cannot
 * forge; X-Forwarded-For, X-Real-IP and the like are never read, since any client can send them. In a local
 * run the test header comes first.
 */
export function clientNetwork(headers: Headers, config: Pick<Config, 'trustClientIpHeader'>): string | undefined {
  // Parsed once per request's headers: an /api call asks twice, and parsing an address is not free.
  const known = networkOfHeaders.get(headers);
  if (known !== undefined) return known ?? undefined;
  const network = (config.trustClientIpHeader && networkBucket(headers.get(TEST_CLIENT_IP_HEADER))) || networkBucket(headers.get('cf-connecting-ip'));
  networkOfHeaders.set(headers, network ?? null);
  return network;
}

/** clientNetwork's answer per request headers; null: the request names no network. */
const networkOfHeaders = new WeakMap<Headers, string | null>();
