import { Hono } from 'hono';
import { passkeyEmptyRequest, passkeySecondStepRequest, passkeySignInRequest } from '../../../src/schemas/passkey-requests';
import { secondStepRequest } from '../../../src/schemas/two-step';
import { SECOND_STEP_HEADER } from '../../contract';
import { findUserById } from '../identity/db/people';
import { clientIp, GatewayError, ok } from '../errors';
import { now } from '../../contract';
import { authenticationOptions, passkeySiteOf, secondStepOptions, verifyPasskeySignIn } from '../passkeys/service';
import { liveSecondStep, passSecondStep, passSecondStepWith, type ChallengeOptions } from '../second-step/service';
import { maskedRecipient } from '../devices/service';
import type { OwedStepAnswer } from '../../../src/schemas/two-step';
import { completeSecondStep, signedIn, type SignInEnv } from './service';
import { validate } from '../validate';
import { ERR } from '../../../src/schemas/error-codes';

/**
 * The sign-ins that a passkey or the second step finish (rules in passkeys/service.ts, second-step/service.ts):
 * - `agg-web/passkeys/authentication/*`: anyone signs in with a passkey from /login;
 * - `agg-web/user/twoStep/verify` and `agg-web/passkeys/secondStep/*`: a sign-in that owes the second step passes
 *   it with an app or recovery code, or a passkey. No session yet: the challenge comes from the edge's HttpOnly
 *   cookie forwarded as SECOND_STEP_HEADER, and on success the session starts exactly as the first factor's would
 *   have (service.ts completeSecondStep).
 * Mounted before the passkey and two-step routes, whose guards (a session, a passkey site) are not these calls'.
 */
export const signInSecondStepRoutes = new Hono<SignInEnv>()
  .post('/agg-web/user/twoStep/verify', validate('json', secondStepRequest), async (c) => {
    const at = { ip: clientIp(c), now: now(c) };
    const { trust, ...factor } = c.req.valid('json');
    return completeSecondStep(c, await passSecondStep(c.env, c.req.header(SECOND_STEP_HEADER), factor, at), factor.kind, trust === true);
  })
  // What the second-step screen says and offers (issue 44): read from the live challenge, which the page never holds.
  .get('/agg-web/user/twoStep/challenge', async (c) => {
    const options = JSON.parse((await liveSecondStep(c.env.DB, c.req.header(SECOND_STEP_HEADER), now(c))).options) as ChallengeOptions;
    const answer: OwedStepAnswer = { newDevice: options.newDevice ? maskedRecipient(options.newDevice) : null, trustable: options.trustForbidden !== true };
    return ok(c, answer);
  })
  .post('/agg-web/passkeys/authentication/options', validate('json', passkeyEmptyRequest), async (c) => {
    const options = await authenticationOptions(c.env.DB, passkeySiteOf(c.get('config')), { ip: clientIp(c), now: now(c), cap: c.get('config').passkeySignInCap });
    return ok(c, { options });
  })
  .post('/agg-web/passkeys/authentication/verify', validate('json', passkeySignInRequest), async (c) => {
    const userId = await verifyPasskeySignIn(c.env.DB, passkeySiteOf(c.get('config')), c.req.valid('json').response, now(c));
    const user = await findUserById(c.env.DB, userId);
    // The passkey outlived its account (deleted with it by the foreign key, unless a race): as unknown.
    if (!user) throw new GatewayError(ERR.PASSKEY_NOT_REGISTERED);
    return signedIn(c, user, { method: 'passkey' });
  })
  // The second step of a sign-in (no session yet): the challenge comes as the TOTP verify reads it, from the
  // edge's HttpOnly cookie forwarded as SECOND_STEP_HEADER.
  .post('/agg-web/passkeys/secondStep/options', validate('json', passkeyEmptyRequest), async (c) => {
    const at = now(c);
    const challenge = await liveSecondStep(c.env.DB, c.req.header(SECOND_STEP_HEADER), at);
    const options = await secondStepOptions(c.env.DB, passkeySiteOf(c.get('config')), challenge.user_id, { ip: clientIp(c), now: at, cap: c.get('config').passkeySignInCap });
    return ok(c, { options });
  })
  .post('/agg-web/passkeys/secondStep/verify', validate('json', passkeySecondStepRequest), async (c) => {
    const at = now(c);
    const { response, trust } = c.req.valid('json');
    const passed = await passSecondStepWith(
      c.env.DB,
      c.req.header(SECOND_STEP_HEADER),
      async (userId) => void (await verifyPasskeySignIn(c.env.DB, passkeySiteOf(c.get('config')), response, at, userId)),
      at,
    );
    // Recorded as the first factor's sign-in with the passkey as its second step (also shown as the passkey's last use).
    return completeSecondStep(c, passed, 'passkey', trust === true);
  });
