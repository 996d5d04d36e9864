import { Hono, type MiddlewareHandler } from 'hono';
import { ownEventStatement } from '../audit/db';
import {
  passkeyEmptyRequest,
  passkeyRegisterRequest,
  passkeyRemoveRequest,
  passkeyRenameRequest,
  passkeySignInRequest,
} from '../../../src/schemas/passkey-requests';
import type { Passkey } from '../../../src/schemas/passkeys';
import type { PasskeySite } from '../../config';
import { SECOND_STEP_HEADER } from '../../contract';
import type { WorkerEnv } from '../../env';
import { passkeysOfUser, removePasskey, renamePasskey } from './db';
import { findUserById } from '../account/db';
import { clientIp, GatewayError, ok, requestLang } from '../errors';
import { requireFreshProof } from '../identity/proof';
import { now } from '../../contract';
import { authenticationOptions, passkeyView, registerPasskey, registrationOptions, secondStepOptions, verifyPasskeySignIn } from './service';
import { sendSecurityNotice } from '../account/security-notice';
import { requireSession, type SessionVariables } from '../sessions/service';
import { completeSecondStep, signedIn } from '../sign-in/service';
import { liveSecondStep, passSecondStepWith } from '../second-step/service';
import { validate } from '../validate';
import { ERR } from '../../../src/schemas/error-codes';

type PasskeyEnv = { Bindings: WorkerEnv; Variables: SessionVariables & { passkeySite: PasskeySite } };

/** Every passkey call needs a configured passkey site (config.passkeys); without one they answer PK0001. */
const passkeySite: MiddlewareHandler<PasskeyEnv> = async (c, next) => {
  const site = c.get('config').passkeys;
  if (!site) throw new GatewayError(ERR.PASSKEYS_UNAVAILABLE);
  c.set('passkeySite', site);
  await next();
};

/**
 * Passkeys are for platform accounts: a partner session (the navigator login) manages none, as the share link.
 * The partner login does not offer passkeys (its host is not a passkey origin).
 */
const platformSession: MiddlewareHandler<PasskeyEnv> = async (c, next) => {
  if (c.get('session').kind !== 'platform') throw new GatewayError(ERR.SESSION_ENDED);
  await next();
};

const own = [requireSession, platformSession] as const;
/** Adding or removing a passkey also needs a fresh proof of the person (identity/proof.ts). */
const ownProved = [requireSession, platformSession, requireFreshProof] as const;

/**
 * Passkeys (rules in passkeys/service.ts): a signed-in person registers, lists, renames and removes their own;
 * anyone signs in with one from /login, and a person whose sign-in owes the second step may pass it with one.
 * Ids of other people's passkeys answer PK0007 like unknown ones.
 */
export const passkeyRoutes = new Hono<PasskeyEnv>()
  .use('/agg-web/passkeys/*', passkeySite)
  .post('/agg-web/passkeys/registration/options', ...ownProved, validate('json', passkeyEmptyRequest), async (c) => {
    const options = await registrationOptions(c.env.DB, c.get('passkeySite'), c.get('user'), { ip: clientIp(c), now: now(c) });
    return ok(c, { options });
  })
  .post('/agg-web/passkeys/registration/verify', ...ownProved, validate('json', passkeyRegisterRequest), async (c) => {
    const at = now(c);
    const passkey: Passkey = await registerPasskey(c.env.DB, c.get('passkeySite'), c.get('user'), c.req.valid('json'), { now: at, network: clientIp(c) });
    await sendSecurityNotice(c.env, { userId: c.get('user').id, at, change: 'passkeyAdded', lang: requestLang(c) });
    return ok(c, passkey);
  })
  .post('/agg-web/passkeys/list', ...own, validate('json', passkeyEmptyRequest), async (c) => ok(c, (await passkeysOfUser(c.env.DB, c.get('user').id)).map(passkeyView)))
  .post('/agg-web/passkeys/rename', ...own, validate('json', passkeyRenameRequest), async (c) => {
    const { id, name } = c.req.valid('json');
    const renamed = await renamePasskey(c.env.DB, { id, userId: c.get('user').id, name });
    if (!renamed) throw new GatewayError(ERR.PASSKEY_NOT_FOUND);
    return ok(c, passkeyView(renamed));
  })
  .post('/agg-web/passkeys/remove', ...ownProved, validate('json', passkeyRemoveRequest), async (c) => {
    const { id } = c.req.valid('json');
    const userId = c.get('user').id;
    const removedEvent = ownEventStatement(c.env.DB, { at: now(c), userId, action: 'user.passkey_removed', network: clientIp(c) }, { onlyIfChanged: true });
    if (!(await removePasskey(c.env.DB, { id, userId }, [removedEvent]))) throw new GatewayError(ERR.PASSKEY_NOT_FOUND);
    return ok(c, null);
  })
  .post('/agg-web/passkeys/authentication/options', validate('json', passkeyEmptyRequest), async (c) => {
    const options = await authenticationOptions(c.env.DB, c.get('passkeySite'), { ip: clientIp(c), now: now(c), cap: c.get('config').passkeySignInCap });
    return ok(c, { options });
  })
  .post('/agg-web/passkeys/authentication/verify', validate('json', passkeySignInRequest), async (c) => {
    const userId = await verifyPasskeySignIn(c.env.DB, c.get('passkeySite'), c.req.valid('json').response, now(c));
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
    const options = await secondStepOptions(c.env.DB, c.get('passkeySite'), challenge.user_id, { ip: clientIp(c), now: at, cap: c.get('config').passkeySignInCap });
    return ok(c, { options });
  })
  .post('/agg-web/passkeys/secondStep/verify', validate('json', passkeySignInRequest), async (c) => {
    const at = now(c);
    const { response } = c.req.valid('json');
    const passed = await passSecondStepWith(
      c.env.DB,
      c.req.header(SECOND_STEP_HEADER),
      async (userId) => void (await verifyPasskeySignIn(c.env.DB, c.get('passkeySite'), response, at, userId)),
      at,
    );
    // Recorded as the first factor's sign-in with the passkey as its second step (also shown as the passkey's last use).
    return completeSecondStep(c, passed, 'passkey');
  });
