import { Hono } from 'hono';
import type * as z from 'zod/mini';
import { relatedPortsQuery, SEARCH_RESULT_MAX, searchCountryQuery, searchPortQuery, type CountryItem } from '../../../src/schemas/onboarding';
import type { EdgeBindings } from '../../env';
import { GatewayError, ok } from '../errors';
import { phoneCodeList } from './countries';
import { relatedPorts, searchPorts } from './ports';
import { validate } from '../validate';
import { ERR } from '../../../src/schemas/error-codes';

/**
 * Country and port search for the administrator form (no session: public dictionaries). Both run in memory
 * over small static lists (≈ 245 countries, ≈ 240 ports): a search storm costs a linear scan per request and no
 * D1 work, answers are capped at 20, and keys are 1..64 characters (PL0001). Cacheable for an hour.
 */

/** A search key outside 1..64 characters answers PL0001. */
const searchQuery = <T extends z.core.$ZodType>(schema: T) => validate('query', schema, { code: ERR.PLACE_SEARCH_INVALID });

const fold = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

let countryIndex: { item: CountryItem; name: string; nameCn: string }[] | undefined;

/** Countries by English or Chinese name (prefix before substring) or exact ISO code. */
export function searchCountries(key: string): CountryItem[] {
  countryIndex ??= phoneCodeList().map(({ id, name, nameCn }) => ({ item: { id, name, nameCn }, name: fold(name), nameCn }));
  const q = fold(key.trim());
  const raw = key.trim();
  const ranked: { item: CountryItem; rank: number }[] = [];
  for (const row of countryIndex) {
    let rank = -1;
    if (row.item.id.toLowerCase() === q) rank = 0;
    else if (row.name.startsWith(q) || row.nameCn.startsWith(raw)) rank = 1;
    else if (row.name.includes(q) || row.nameCn.includes(raw)) rank = 2;
    if (rank >= 0) ranked.push({ item: row.item, rank });
  }
  return ranked
    .sort((a, b) => a.rank - b.rank || a.item.name.localeCompare(b.item.name, 'en'))
    .slice(0, SEARCH_RESULT_MAX)
    .map((r) => r.item);
}

export const placeRoutes = new Hono<EdgeBindings>()
  .get('/agg-web/country/searchCountry', searchQuery(searchCountryQuery), (c) => {
    const { name } = c.req.valid('query');
    c.header('Cache-Control', 'public, max-age=3600');
    return ok(c, searchCountries(name));
  })
  .get('/agg-web/port/searchPortByNameOrCode', searchQuery(searchPortQuery), (c) => {
    const { searchKey: key } = c.req.valid('query');
    c.header('Cache-Control', 'public, max-age=3600');
    return ok(c, searchPorts(key));
  })
  .get('/agg-web/port/getRelatedPorts', searchQuery(relatedPortsQuery), (c) => {
    const { portId } = c.req.valid('query');
    const ports = relatedPorts(portId);
    if (!ports) throw new GatewayError(ERR.PORT_UNKNOWN);
    c.header('Cache-Control', 'public, max-age=3600');
    return ok(c, ports);
  });
