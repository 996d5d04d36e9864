import { Hono, type Context } from 'hono';
import { passkeySignInRequest } from '../../../src/schemas/passkey-requests';
import { proofCodeRequest, proofEmptyRequest, proofPasswordRequest, proofSecondFactorRequest, type PasskeyReview } from '../../../src/schemas/step-up';
import type { WorkerEnv } from '../../env';
import { clientIp, ok, requestLang, traceIdOf } from '../errors';
import { proofPasskeyOptions, proofStart, proveSecondFactor, proveWithCode, proveWithPasskey, proveWithPassword, sendProofCode } from './service';
import { requireFreshProof } from '../identity/proof';
import { endPasskeyReview, passkeyReviewSince } from '../identity/db/proof';
import { now } from '../../contract';
import { requireSession } from '../sessions/service';
import { type SessionVariables } from '../identity/db/sessions';
import { validate } from '../validate';
import { passkeySiteOf as passkeySiteFrom } from '../passkeys/service';

type ProofEnv = { Bindings: WorkerEnv; Variables: SessionVariables };

/** The signed-in person and this call, as identity/proof.ts takes them. */
const proofContext = (c: Context<ProofEnv>) => ({ env: c.env, user: c.get('user'), session: c.get('session'), ip: clientIp(c), now: now(c) });

const passkeySiteOf = (c: Context<ProofEnv>) => passkeySiteFrom(c.get('config'));

/**
 * "Confirm it's you": the calls that make a fresh proof for this session (contracts in src/schemas/step-up.ts,
 * rules in identity/proof.ts). Every one needs the session; none of them changes anything else.
 */
export const proofRoutes = new Hono<ProofEnv>()
  .use('/agg-web/user/proof/*', requireSession)
  .post('/agg-web/user/proof/start', validate('json', proofEmptyRequest), async (c) => ok(c, await proofStart(c.env, c.get('user'), c.get('session'), now(c))))
  .post('/agg-web/user/proof/sendCode', validate('json', proofEmptyRequest), async (c) => {
    await sendProofCode(proofContext(c), { lang: requestLang(c), traceId: traceIdOf(c) });
    return ok(c, null);
  })
  .post('/agg-web/user/proof/password', validate('json', proofPasswordRequest), async (c) => ok(c, await proveWithPassword(proofContext(c), c.req.valid('json').password)))
  .post('/agg-web/user/proof/code', validate('json', proofCodeRequest), async (c) => ok(c, await proveWithCode(proofContext(c), c.req.valid('json').code)))
  .post('/agg-web/user/proof/secondFactor', validate('json', proofSecondFactorRequest), async (c) => {
    const { challenge, ...factor } = c.req.valid('json');
    return ok(c, await proveSecondFactor(proofContext(c), challenge, factor));
  })
  .post('/agg-web/user/proof/passkey/options', validate('json', proofEmptyRequest), async (c) => ok(c, { options: await proofPasskeyOptions(proofContext(c), passkeySiteOf(c)) }))
  .post('/agg-web/user/proof/passkey/verify', validate('json', passkeySignInRequest), async (c) =>
    ok(c, await proveWithPasskey(proofContext(c), passkeySiteOf(c), c.req.valid('json').response)),
  )
  // After a password reset by code: the passkeys to review (the user center lists them with a notice), and "all mine".
  .post('/agg-web/user/proof/passkeyReview', validate('json', proofEmptyRequest), async (c) => {
    const answer: PasskeyReview = { since: await passkeyReviewSince(c.env.DB, c.get('user').id) };
    return ok(c, answer);
  })
  // Dismissing the review hides the only warning a reset leaves: a stolen session must not be able to.
  .post('/agg-web/user/proof/passkeyReview/done', requireFreshProof, validate('json', proofEmptyRequest), async (c) => {
    await endPasskeyReview(c.env.DB, c.get('user').id);
    return ok(c, null);
  });
