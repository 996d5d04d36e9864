import * as z from 'zod/mini';
import {
  operatorChallenge,
  operatorEnrolmentStart,
  operatorList,
  operatorSchema,
  operatorSignedIn,
} from '../schemas/ops';
import { callGateway } from './client';

/** One function per gateway call of the operators' sign-in, enrolment and shell (the edge keeps the operator cookie). */
export const opsApi = {
  login: (login: string, password: string) => callGateway('ops/v1/login', operatorChallenge, { body: { login, password } }),
  totp: (challenge: string, code: string) => callGateway('ops/v1/login/totp', operatorSignedIn, { body: { challenge, code } }),
  me: () => callGateway('ops/v1/me', operatorSchema, { method: 'GET' }),
  logout: () => callGateway('ops/v1/logout', z.null()),
  enrolStart: (token: string) => callGateway('ops/v1/enrolment/start', operatorEnrolmentStart, { body: { token } }),
  enrolFinish: (token: string, password: string, code: string) =>
    callGateway('ops/v1/enrolment/finish', z.object({ login: z.string() }), { body: { token, password, code } }),
  operators: () => callGateway('ops/v1/operators', operatorList, { method: 'GET' }),
  /** WebAuthn options are passed to @simplewebauthn/browser as the server made them. */
  passkeyStepOptions: (challenge: string) => callGateway('ops/v1/login/passkey/options', z.record(z.string(), z.unknown()), { body: { challenge } }),
  passkeyStep: (challenge: string, response: unknown) => callGateway('ops/v1/login/passkey', operatorSignedIn, { body: { challenge, response } }),
  passkeyRegisterOptions: () => callGateway('ops/v1/passkeys/options', z.record(z.string(), z.unknown())),
  passkeyRegister: (response: unknown) => callGateway('ops/v1/passkeys', z.object({ id: z.string() }), { body: { response } }),
};
