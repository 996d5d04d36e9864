import Bowser from 'bowser';
import type { Context } from 'hono';
import { CLIENT_COUNTRY_HEADER } from '../../contract';
import { clientIp } from '../errors';

/**
 * Where a sign-in or a session comes from: the browser's user agent (cut to USER_AGENT_MAX characters), the
 * country the edge saw (never a client's own header: the edge overwrites CLIENT_COUNTRY_HEADER) and the client
 * network (an IPv4 address or an IPv6 /64, the one every per-IP limit counts by).
 */
export interface ClientInfo {
  userAgent: string | null;
  country: string | null;
  network: string | null;
}

export const USER_AGENT_MAX = 512;

const countryOf = (value: string | null | undefined) => (value && /^[A-Z]{2}$/.test(value) ? value : null);

/**
 * The client of a gateway call, as the edge passed it on. The edge sends the country with calls that change
 * something only (contract.ts CLIENT_COUNTRY_HEADER): read it in a POST route.
 */
export function clientInfo(c: Context): ClientInfo {
  return clientInfoOf(c.req.header('user-agent'), c.req.header(CLIENT_COUNTRY_HEADER), clientIp(c));
}

/** The same from parts (the edge's hand-off reads them from the browser's own request). */
export function clientInfoOf(userAgent: string | null | undefined, country: string | null | undefined, network: string | null | undefined): ClientInfo {
  return { userAgent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null, country: countryOf(country), network: network ?? null };
}

/** What a person recognises a device by: browser family, operating system and kind of device (no versions). */
export interface Device {
  browser: string | null;
  os: string | null;
  /** desktop, mobile, tablet, tv, bot; null when the user agent does not say. */
  type: string | null;
}

export function parseDevice(userAgent: string | null): Device {
  if (!userAgent) return { browser: null, os: null, type: null };
  const parsed = Bowser.parse(userAgent);
  return { browser: parsed.browser.name || null, os: parsed.os.name || null, type: parsed.platform.type || null };
}

/**
 * The key "a device never seen for this account" compares: browser family + OS + device type, without versions
 * (an update is the same device). A request with no user agent has the key '||' like every other such request.
 */
export function deviceKey(userAgent: string | null): string {
  const { browser, os, type } = parseDevice(userAgent);
  return [browser ?? '', os ?? '', type ?? ''].join('|').toLowerCase();
}
