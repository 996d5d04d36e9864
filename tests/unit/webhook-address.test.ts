import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { endpointAddressProblem } from '../../functions/gateway/webhooks/address';

/** Where an event webhook may point (SSRF): https on the internet only, whatever spelling an address hides in. */
describe('endpointAddressProblem', () => {
  it('refuses every private, loopback, link-local, shared and reserved IPv4 address, in dotted, decimal and hex spellings', () => {
    const refused = fc.oneof(
      fc.tuple(fc.constant(10), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(127), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(169), fc.constant(254), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(192), fc.constant(168), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(0), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.integer({ min: 224, max: 255 }), fc.nat(255), fc.nat(255), fc.nat(255)),
    );
    fc.assert(
      fc.property(refused, ([a, b, c, d]) => {
        const decimal = ((a * 256 + b) * 256 + c) * 256 + d;
        for (const host of [`${a}.${b}.${c}.${d}`, String(decimal), `0x${decimal.toString(16)}`, `[::ffff:${a}.${b}.${c}.${d}]`]) {
          expect(endpointAddressProblem(`https://${host}/in`), host).toBe('private-address');
        }
      }),
    );
  });

  it('takes public addresses and names over https; refuses plain http, credentials, local names and non-global IPv6', () => {
    expect(endpointAddressProblem('https://8.8.8.8/in')).toBeNull();
    expect(endpointAddressProblem('https://hooks.example.com:8443/in?x=1')).toBeNull();
    expect(endpointAddressProblem('https://[2606:4700::1111]/in')).toBeNull();
    expect(endpointAddressProblem('http://hooks.example.com/in')).toBe('not-https');
    expect(endpointAddressProblem('https://a:b@hooks.example.com/in')).toBe('credentials');
    for (const host of ['localhost', 'printer.local', 'db.internal', 'intranet', 'x.home.arpa', '[::1]', '[::]', '[fe80::1]', '[fc00::1]', '[64:ff9b::a00:1]', '[2001:db8::1]'])
      expect(endpointAddressProblem(`https://${host}/in`), host).toBe('private-address');
    expect(endpointAddressProblem('not a url')).toBe('unreadable');
  });

  it('a local run (DEV_OUTBOX) takes plain http to 127.0.0.1 or localhost only: other private addresses stay refused', () => {
    expect(endpointAddressProblem('http://127.0.0.1:9000/in', { loopbackHttp: true })).toBeNull();
    expect(endpointAddressProblem('http://localhost:9000/in', { loopbackHttp: true })).toBeNull();
    expect(endpointAddressProblem('http://127.0.0.1:9000/in')).toBe('not-https');
    expect(endpointAddressProblem('http://10.0.0.1/in', { loopbackHttp: true })).toBe('not-https');
    expect(endpointAddressProblem('https://10.0.0.1/in', { loopbackHttp: true })).toBe('private-address');
  });
});
