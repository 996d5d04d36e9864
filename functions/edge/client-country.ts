import type { Config } from '../config';

export { CLIENT_COUNTRY_HEADER } from '../contract';
/** Local runs only (trustCountryHeader, DEV_TRUST_COUNTRY_HEADER): stands in for Cloudflare's country, which is a placeholder offline. */
export const DEBUG_COUNTRY_HEADER = 'x-debug-country';

/** The visitor's ISO country from Cloudflare's request data, or the debug header where that is allowed. */
export function clientCountry(request: Request, config: Pick<Config, 'trustCountryHeader'>): string | undefined {
  if (config.trustCountryHeader) {
    const debug = request.headers.get(DEBUG_COUNTRY_HEADER);
    if (debug && /^[A-Za-z]{2}$/.test(debug)) return debug.toUpperCase();
  }
  const country = (request as Request & { cf?: { country?: unknown } }).cf?.country;
  return typeof country === 'string' && /^[A-Z]{2}$/.test(country) ? country : undefined;
}
