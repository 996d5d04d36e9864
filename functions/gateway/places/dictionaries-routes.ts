import { Hono } from 'hono';
import type { EdgeBindings } from '../../env';
import { ok } from '../errors';
import { isChinaRegion, phoneCodeList } from './countries';
import { CLIENT_COUNTRY_HEADER, IP_REGION_PATH } from '../../contract';

/** Dictionaries that need no session: phone codes and the visitor's region. */
export const dictionaryRoutes = new Hono<EdgeBindings>()
  .get('/agg-web/country/selectPhoneCode', (c) => {
    c.header('Cache-Control', 'public, max-age=3600');
    return ok(c, phoneCodeList());
  })
  // The edge resolved the visitor's country and passed it on (COUNTRY_READ_PATHS); the gateway never reads it from the client.
  .get(IP_REGION_PATH, (c) => ok(c, isChinaRegion(c.req.header(CLIENT_COUNTRY_HEADER)) ? 1 : 0));
