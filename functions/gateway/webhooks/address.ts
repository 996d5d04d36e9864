/**
 * Where an endpoint may point (SSRF): HTTPS only, no user name or password in it, and never a private, loopback,
 * link-local, shared, multicast or reserved address, written as a name (localhost, *.local, *.internal, a name
 * without a dot) or as an IP literal in any of its spellings (the URL parser turns 0x7f.1, 2130706433 and 0177.0.0.1
 * into 127.0.0.1 before this looks). Deliveries follow no redirects (a 3xx is a failed attempt), so an allowed
 * address cannot hand the request on to a refused one. A deployed Worker's fetch leaves through Cloudflare's
 * network, which reaches no private network, so a public name that resolves to a private address reaches nothing.
 *
 * `loopbackHttp` (a local run, DEV_OUTBOX "true"): plain http to 127.0.0.1 or localhost is allowed, for the stand-in
 * receivers of tests and local development; every other refusal holds.
 */
export type AddressProblem = 'not-https' | 'credentials' | 'private-address' | 'unreadable';

export function endpointAddressProblem(text: string, { loopbackHttp = false } = {}): AddressProblem | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'unreadable';
  }
  if (url.username || url.password) return 'credentials';
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (loopbackHttp && url.protocol === 'http:' && (host === '127.0.0.1' || host === 'localhost')) return null;
  if (url.protocol !== 'https:') return 'not-https';
  if (host.startsWith('[')) return ipv6Refused(host.slice(1, -1)) ? 'private-address' : null;
  const v4 = ipv4(host);
  if (v4) return ipv4Refused(v4) ? 'private-address' : null;
  if (!host.includes('.') || /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain)$/.test(host)) return 'private-address';
  return null;
}

const ipv4 = (host: string): number[] | null => {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return null;
  const bytes = parts.map(Number);
  return bytes.every((byte) => byte <= 255) ? bytes : null;
};

/** 0/8, 10/8, 100.64/10, 127/8, 169.254/16, 172.16/12, 192.0.0/24, 192.0.2/24, 192.168/16, 198.18/15, 198.51.100/24, 203.0.113/24, 224/3. */
function ipv4Refused([a, b, c]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    (a === 100 && b! >= 64 && b! <= 127) ||
    a === 127 ||
    (a === 169 && b === 254) ||
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113) ||
    a! >= 224
  );
}

/** Only global unicast (2000::/3) outside the documentation, NAT64 and 6to4-of-private ranges; an IPv4-mapped address by its IPv4 rule. */
function ipv6Refused(host: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host) ?? /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) {
    if (mapped.length === 2) return ipv4Refused(ipv4(mapped[1]!) ?? [0]);
    const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    return ipv4Refused([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  }
  const first = parseInt(host.split(':')[0] || '0', 16);
  if (first < 0x2000 || first > 0x3fff) return true;
  if (host.startsWith('2001:db8') || host.startsWith('2001:0db8') || host.startsWith('2002:')) return true;
  return false;
}
