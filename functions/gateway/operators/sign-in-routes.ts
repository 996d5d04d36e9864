import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { Hono, type Context } from 'hono';
import {
  enrolmentTokenRequest,
  operatorPasskeyOptionsRequest,
  operatorPasskeyRegister,
  operatorPasskeyStepRequest,
  operatorEnrolmentFinish,
  operatorLoginRequest,
  operatorTotpRequest,
  type OperatorListItem,
} from '../../../src/schemas/ops';
import type { WorkerEnv } from '../../env';
import type { Config } from '../../config';
import { clientIp, GatewayError, ok } from '../errors';
import { operatorPasskeyStep, operatorPasskeyStepOptions, operatorRegistrationOptions, registerOperatorPasskey } from './passkeys';
import { now } from '../../contract';
import { finishOperatorEnrolment, listOperators, passwordStep, startOperatorEnrolment, totpStep } from './sign-in';
import { operatorView, requireOperator, type OperatorVariables } from './service';
import { validate } from '../validate';
import { ERR } from '../../../src/schemas/error-codes';

/** The configured passkey site, or PK0001 (passkeys are not offered here). */
function passkeySite(c: Context): NonNullable<Config['passkeys']> {
  const site = (c.var as { config: Config }).config.passkeys;
  if (!site) throw new GatewayError(ERR.PASSKEYS_UNAVAILABLE);
  return site;
}

const clientOf = (c: Context) => ({ network: clientIp(c), at: now(c), userAgent: c.req.header('user-agent') });

/** The answer that starts an operator session: the edge moves `operatorSession.token` into the operator cookie. */
const sessionAnswer = (c: Context, signedIn: { operator: Parameters<typeof operatorView>[0]; token: string; expiresIn: number }) =>
  ok(c, { operator: operatorView(signedIn.operator), operatorSession: { token: signedIn.token, expiresIn: signedIn.expiresIn } });

/**
 * Operator sign-in, enrolment and the admin's list of operators (rules in operators/sign-in.ts).
 * Sign-in and enrolment take no session; only `ops/v1/login/totp` starts one, answered as
 * `data.operatorSession` for the edge to move into the operator cookie.
 */
export const opsAuthRoutes = new Hono<{ Bindings: WorkerEnv; Variables: OperatorVariables }>()
  .post('/ops/v1/login', validate('json', operatorLoginRequest), async (c) => {
    const { login, password } = c.req.valid('json');
    return ok(c, await passwordStep(c.env, login, password, { network: clientIp(c), at: now(c) }));
  })

  .post('/ops/v1/login/totp', validate('json', operatorTotpRequest), async (c) => {
    const { challenge, code } = c.req.valid('json');
    return sessionAnswer(c, await totpStep(c.env, challenge, code, clientOf(c)));
  })

  .post('/ops/v1/login/passkey/options', validate('json', operatorPasskeyOptionsRequest), async (c) =>
    ok(c, await operatorPasskeyStepOptions(c.env.DB, passkeySite(c), c.req.valid('json').challenge, now(c))),
  )

  .post('/ops/v1/login/passkey', validate('json', operatorPasskeyStepRequest), async (c) => {
    const { challenge, response } = c.req.valid('json');
    return sessionAnswer(c, await operatorPasskeyStep(c.env.DB, passkeySite(c), challenge, response as AuthenticationResponseJSON, clientOf(c)));
  })

  .post('/ops/v1/passkeys/options', requireOperator(), async (c) => ok(c, await operatorRegistrationOptions(c.env.DB, passkeySite(c), c.get('operator'), now(c))))

  .post('/ops/v1/passkeys', requireOperator(), validate('json', operatorPasskeyRegister), async (c) =>
    ok(c, await registerOperatorPasskey(c.env.DB, passkeySite(c), c.get('operator'), c.req.valid('json').response as RegistrationResponseJSON, clientOf(c))),
  )

  .post('/ops/v1/enrolment/start', validate('json', enrolmentTokenRequest), async (c) =>
    ok(c, await startOperatorEnrolment(c.env, c.req.valid('json').token, now(c))),
  )

  .post('/ops/v1/enrolment/finish', validate('json', operatorEnrolmentFinish), async (c) =>
    ok(c, await finishOperatorEnrolment(c.env, c.req.valid('json'), { network: clientIp(c), at: now(c) })),
  )

  .get('/ops/v1/operators', requireOperator('admin'), async (c) => {
    const list: OperatorListItem[] = await listOperators(c.env.DB);
    return ok(c, list);
  });
