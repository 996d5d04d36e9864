import * as z from 'zod/mini';
import { checked } from './checked';
import { displayText } from './display-text';
import { PASSKEY_NAME_MAX } from './passkeys';

/**
 * The requests of the passkey calls (contracts in passkeys.ts), read by the gateway routes: the authenticator
 * responses of @simplewebauthn/browser checked for shape and size before the server library verifies them.
 * Kept apart from passkeys.ts because zod object schemas are not tree-shaken: the browser loads none of these.
 */

/** A base64url field of an authenticator response; 16 KB holds any real attestation. */
const base64url = (max = 16_384) => checked(z.string(), z.regex(/^[A-Za-z0-9_-]*$/), z.maxLength(max));
/** A credential id: browsers cap it at 1023 bytes (1364 base64url characters). */
export const credentialIdSchema = checked(z.string(), z.regex(/^[A-Za-z0-9_-]+$/), z.minLength(1), z.maxLength(1364));


const transportsSchema = z.optional(checked(z.array(checked(z.string(), z.maxLength(32))), z.maxLength(10)));
const extensionResultsSchema = z.record(z.string(), z.unknown());
const attachmentSchema = z.optional(z.enum(['platform', 'cross-platform']));

export const registrationResponseSchema = z.object({
  id: credentialIdSchema,
  rawId: credentialIdSchema,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(),
    attestationObject: base64url(),
    authenticatorData: z.optional(base64url()),
    transports: transportsSchema,
    publicKeyAlgorithm: z.optional(z.number()),
    publicKey: z.optional(base64url()),
  }),
  authenticatorAttachment: attachmentSchema,
  clientExtensionResults: extensionResultsSchema,
});

export const authenticationResponseSchema = z.object({
  id: credentialIdSchema,
  rawId: credentialIdSchema,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(),
    authenticatorData: base64url(),
    signature: base64url(),
    userHandle: z.optional(base64url(1024)),
  }),
  authenticatorAttachment: attachmentSchema,
  clientExtensionResults: extensionResultsSchema,
});

export const passkeyNameSchema = checked(z.string(), z.trim(), z.minLength(1), z.maxLength(PASSKEY_NAME_MAX), displayText());

/** {} for the calls that take nothing (registration and authentication options, list). */
export const passkeyEmptyRequest = z.object({});

// POST agg-web/passkeys/registration/verify (session) → the new passkey.
export const passkeyRegisterRequest = z.object({ name: passkeyNameSchema, response: registrationResponseSchema });
export type PasskeyRegisterRequest = z.infer<typeof passkeyRegisterRequest>;

// POST agg-web/passkeys/authentication/verify and agg-web/passkeys/secondStep/verify → login response.
export const passkeySignInRequest = z.object({ response: authenticationResponseSchema });
/** The second step passed with a passkey, with "Trust this device for 30 days" (issue 44). */
export const passkeySecondStepRequest = z.object({ response: authenticationResponseSchema, trust: z.optional(z.boolean()) });

// POST agg-web/passkeys/rename (session) → the renamed passkey.
export const passkeyRenameRequest = z.object({ id: credentialIdSchema, name: passkeyNameSchema });

// POST agg-web/passkeys/remove (session) → null.
export const passkeyRemoveRequest = z.object({ id: credentialIdSchema });
