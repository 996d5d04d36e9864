import * as z from 'zod/mini';
import { loginAnswer } from '../schemas/sign-in-answers';
import type { PasskeyRegisterRequest } from '../schemas/passkey-requests';
import { passkeyListAnswer, passkeyOptionsAnswer, passkeySchema } from '../schemas/passkeys';
import { callGateway } from './client';

/** The passkey calls (contracts in src/schemas/passkeys.ts). Loaded on demand: /login's first load carries none of it. */
export const passkeyApi = {
  registrationOptions: () => callGateway('agg-web/passkeys/registration/options', passkeyOptionsAnswer, { body: {} }),
  register: (body: PasskeyRegisterRequest) => callGateway('agg-web/passkeys/registration/verify', passkeySchema, { body }),
  list: () => callGateway('agg-web/passkeys/list', passkeyListAnswer, { body: {} }),
  rename: (id: string, name: string) => callGateway('agg-web/passkeys/rename', passkeySchema, { body: { id, name } }),
  remove: (id: string) => callGateway('agg-web/passkeys/remove', z.unknown(), { body: { id } }),
  signInOptions: () => callGateway('agg-web/passkeys/authentication/options', passkeyOptionsAnswer, { body: {} }),
  /** `response` is @simplewebauthn/browser's AuthenticationResponseJSON; the gateway checks its shape. */
  signIn: (response: unknown) => callGateway('agg-web/passkeys/authentication/verify', loginAnswer, { body: { response } }),
  /** The second step of a sign-in (the edge adds the challenge from its HttpOnly cookie): options for the person's own passkeys. */
  secondStepOptions: () => callGateway('agg-web/passkeys/secondStep/options', passkeyOptionsAnswer, { body: {} }),
  passSecondStep: (response: unknown, trust = false) => callGateway('agg-web/passkeys/secondStep/verify', loginAnswer, { body: { response, ...(trust ? { trust } : {}) } }),
};
