// zod/mini: these contracts ship to the operator pages' islands.
import * as z from 'zod/mini';
import { checked } from './checked';
import { passwordHashSchema } from './auth';
import { totpCodeSchema } from './two-step';
import { authenticationResponseSchema, registrationResponseSchema } from './passkey-requests';

export const OPERATOR_ROLE_NAMES = ['reviewer', 'support', 'admin'] as const;
export const operatorRole = z.enum(OPERATOR_ROLE_NAMES);

const loginSchema = checked(z.string(), z.minLength(1), z.maxLength(254));
/** An enrolment link's or a sign-in challenge's random token (base64url). */
const tokenSchema = checked(z.string(), z.regex(/^[A-Za-z0-9_-]{16,128}$/));

// POST ops/v1/login: the first factor → the challenge of the second step (no session yet).
export const operatorLoginRequest = z.object({ login: loginSchema, password: passwordHashSchema });
export const SECOND_STEP_METHODS = ['totp', 'passkey'] as const;
export const operatorChallenge = z.object({ challenge: z.string(), expiresIn: z.number(), methods: z.array(z.enum(SECOND_STEP_METHODS)) });

// POST ops/v1/login/totp: the second step → the operator session (the edge moves it into its cookie).
export const operatorTotpRequest = z.object({ challenge: tokenSchema, code: totpCodeSchema });

/** What an operator page knows of the signed-in operator (GET ops/v1/me). */
export const operatorSchema = z.object({
  id: z.string(),
  login: z.string(),
  name: z.string(),
  role: operatorRole,
  lang: z.enum(['zh', 'en']),
});
export type OperatorView = z.infer<typeof operatorSchema>;
export const operatorSignedIn = z.object({ operator: operatorSchema, operatorSession: z.object({ expiresIn: z.number() }) });

// POST ops/v1/enrolment/start: the link's token → who it is for and a new pending TOTP secret.
export const enrolmentTokenRequest = z.object({ token: tokenSchema });
export const operatorEnrolmentStart = z.object({ login: z.string(), name: z.string(), secret: z.string(), uri: z.string() });
// POST ops/v1/enrolment/finish: password (the client's hash) and one code of the pending secret.
export const operatorEnrolmentFinish = z.object({ token: tokenSchema, password: passwordHashSchema, code: totpCodeSchema });

// GET ops/v1/operators (admin): every operator, removed ones last.
export const operatorListItem = z.object({
  login: z.string(),
  name: z.string(),
  role: operatorRole,
  createdAt: z.number(),
  enrolled: z.boolean(),
  removedAt: z.nullable(z.number()),
  secondSteps: z.array(z.enum(SECOND_STEP_METHODS)),
});
export type OperatorListItem = z.infer<typeof operatorListItem>;
export const operatorList = z.array(operatorListItem);

// Operator passkeys. POST ops/v1/passkeys/options (operator) → registration options; POST ops/v1/passkeys
// {response} → the new passkey's id. POST ops/v1/login/passkey/options {challenge} → authentication options;
// POST ops/v1/login/passkey {challenge, response} → like ops/v1/login/totp.
export const operatorPasskeyRegister = z.object({ response: registrationResponseSchema });
export const operatorPasskeyOptionsRequest = z.object({ challenge: tokenSchema });
export const operatorPasskeyStepRequest = z.object({ challenge: tokenSchema, response: authenticationResponseSchema });
