import * as z from 'zod/mini';
import { checked } from './checked';

/**
 * Wire contracts of passkeys (WebAuthn). The option objects are made by @simplewebauthn/server and handed to
 * @simplewebauthn/browser as they are; the responses are the browser library's JSON, checked here for shape and
 * size and then verified by the server library.
 *
 * - Registration (session only): registration/options → { options }, then registration/verify with the
 *   authenticator's response and the name the person gave → the new passkey.
 * - list, rename, remove: the person's own passkeys only.
 * - Sign-in (anonymous, /login): authentication/options → { options }, then authentication/verify → the login
 *   response of the sign-in screen (the edge turns its oauthVO into the session cookie).
 */

/** A base64url field of an authenticator response; 16 KB holds any real attestation. */
const base64url = (max = 16_384) => checked(z.string(), z.regex(/^[A-Za-z0-9_-]*$/), z.maxLength(max));
/** A credential id: browsers cap it at 1023 bytes (1364 base64url characters). */
export const credentialIdSchema = checked(z.string(), z.regex(/^[A-Za-z0-9_-]+$/), z.minLength(1), z.maxLength(1364));

/** The name a person gives a passkey ("Work laptop"), trimmed, 1 to 64 characters. */
export const PASSKEY_NAME_MAX = 64;
export const passkeyNameSchema = checked(z.string(), z.trim(), z.minLength(1), z.maxLength(PASSKEY_NAME_MAX));

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

// POST agg-web/passkeys/registration/options (session) {} → { options }.
// POST agg-web/passkeys/authentication/options {} → { options }.
export const passkeyOptionsRequest = z.object({});
/** The options for the browser's ceremony, passed to @simplewebauthn/browser unchanged. */
export const passkeyOptionsAnswer = z.object({ options: z.looseObject({ challenge: z.string() }) });
export type PasskeyOptionsAnswer = z.infer<typeof passkeyOptionsAnswer>;

// POST agg-web/passkeys/registration/verify (session) → the new passkey.
export const passkeyRegisterRequest = z.object({ name: passkeyNameSchema, response: registrationResponseSchema });
export type PasskeyRegisterRequest = z.infer<typeof passkeyRegisterRequest>;

// POST agg-web/passkeys/authentication/verify → login response.
export const passkeySignInRequest = z.object({ response: authenticationResponseSchema });

/** One passkey as its owner sees it; times are epoch milliseconds. */
export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.number(),
  lastUsedAt: z.nullable(z.number()),
  /** Synced to the person's other devices (a multi-device credential that is backed up). */
  synced: z.boolean(),
});
export type Passkey = z.infer<typeof passkeySchema>;

// POST agg-web/passkeys/list (session) {} → Passkey[], newest first.
export const passkeyListAnswer = z.array(passkeySchema);

// POST agg-web/passkeys/rename (session) → the renamed passkey.
export const passkeyRenameRequest = z.object({ id: credentialIdSchema, name: passkeyNameSchema });

// POST agg-web/passkeys/remove (session) → null.
export const passkeyRemoveRequest = z.object({ id: credentialIdSchema });
