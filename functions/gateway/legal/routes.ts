import { Hono } from 'hono';
import type { EdgeBindings } from '../../env';
import { legalUrl, type LegalDoc } from '../../../src/lib/legal';
import { queryUserProtocolQuery, type UserProtocolAnswer } from '../../../src/schemas/legal';
import { ok } from '../errors';
import { now } from '../../contract';
import { recordConsent } from './consents';
import { requireSession } from '../sessions/service';
import { type SessionVariables } from '../identity/db/sessions';
import { legalVersions } from '../generated/legal-versions';
import { validate } from '../validate';
import { ERR } from '../../../src/schemas/error-codes';

/** queryUserProtocol `type` → document. */
const protocolDocs: Record<'0' | '1', LegalDoc> = { '0': 'privacy', '1': 'terms' };

/** Legal documents: where the agreement modal finds them (no session), and agreeing again after a change. */
export const legalRoutes = new Hono<EdgeBindings & { Variables: SessionVariables }>()
  // `?lang=` pins the language whatever the visitor's LANG cookie (functions/edge/shells.ts).
  .get('/agg-web/protocol/queryUserProtocol', validate('query', queryUserProtocolQuery, { code: ERR.AGREEMENT_UNKNOWN }), (c) => {
    const doc = protocolDocs[c.req.valid('query').type];
    const answer: UserProtocolAnswer = { urlCn: legalUrl(doc, 'zh'), urlEn: legalUrl(doc, 'en'), version: legalVersions[doc] };
    return ok(c, answer);
  })
  // The signed-in person agreed (again) in the agreement modal: record today's versions of terms and privacy.
  .post('/agg-web/protocol/agree', requireSession, async (c) => {
    await recordConsent(c.env.DB, c.get('user').id, now(c));
    return ok(c, null);
  });
