import { Hono, type MiddlewareHandler } from 'hono';
import {
  passkeyEmptyRequest,
  passkeyRegisterRequest,
  passkeyRemoveRequest,
  passkeyRenameRequest,
} from '../../../src/schemas/passkey-requests';
import type { Passkey } from '../../../src/schemas/passkeys';
import type { PasskeySite } from '../../config';
import type { WorkerEnv } from '../../env';
import { passkeysOfUser, renamePasskey } from './db';
import { clientIp, GatewayError, ok, requestLang } from '../errors';
import { requireFreshProof } from '../identity/proof';
import { now } from '../../contract';
import { passkeySiteOf, passkeyView, removeOwnPasskey, registerPasskey, registrationOptions } from './service';
import { sendSecurityNotice } from '../delivery/security-notice';
import { requireSession } from '../sessions/service';
import { type SessionVariables } from '../identity/db/sessions';
import { validate } from '../validate';
import { ERR } from '../../../src/schemas/error-codes';

type PasskeyEnv = { Bindings: WorkerEnv; Variables: SessionVariables & { passkeySite: PasskeySite } };

/** Every passkey call needs a configured passkey site (config.passkeys); without one they answer PK0001. */
const passkeySite: MiddlewareHandler<PasskeyEnv> = async (c, next) => {
  c.set('passkeySite', passkeySiteOf(c.get('config')));
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
 * Passkeys (rules in passkeys/service.ts): a signed-in person registers, lists, renames and removes their own.
 * Signing in with one, and passing a sign-in's second step with one, are sign-in/second-step-routes.ts.
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
    if (!(await removeOwnPasskey(c.env.DB, { id, userId: c.get('user').id }, now(c), clientIp(c)))) throw new GatewayError(ERR.PASSKEY_NOT_FOUND);
    return ok(c, null);
  });
