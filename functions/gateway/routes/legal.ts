import { Hono } from 'hono';
import type { EdgeBindings } from '../../env';
import { legalUrl, type LegalDoc } from '../../../src/lib/legal';
import { queryUserProtocolQuery, type UserProtocolAnswer } from '../../../src/schemas/legal';
import { fail, ok } from '../errors';
import { legalVersions } from '../services/legal-versions';

/** queryUserProtocol `type` → document. */
const protocolDocs: Record<'0' | '1', LegalDoc> = { '0': 'privacy', '1': 'terms' };

/** Legal documents: where the agreement modal finds them. No session needed. */
export const legalRoutes = new Hono<EdgeBindings>()
  // `?lang=` pins the language whatever the visitor's LANG cookie (functions/edge/shells.ts).
  .get('/agg-web/protocol/queryUserProtocol', (c) => {
    const query = queryUserProtocolQuery.safeParse(c.req.query());
    if (!query.success) return fail(c, 'LG0001');
    const doc = protocolDocs[query.data.type];
    const answer: UserProtocolAnswer = { urlCn: legalUrl(doc, 'zh'), urlEn: legalUrl(doc, 'en'), version: legalVersions[doc] };
    return ok(c, answer);
  });
