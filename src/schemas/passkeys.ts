import * as z from 'zod/mini';

/**
 * Wire contracts of passkeys (WebAuthn). The option objects are made by @simplewebauthn/server and handed to
 * @simplewebauthn/browser as they are; the responses are the browser library's JSON, checked here for shape and
 * size (passkey-requests.ts) and then verified by the server library.
 *
 * - Registration (session only): registration/options → { options }, then registration/verify with the
 *   authenticator's response and the name the person gave → the new passkey.
 * - list, rename, remove: the person's own passkeys only.
 * - Sign-in (anonymous, /login): authentication/options → { options }, then authentication/verify → the login
 *   response of the sign-in screen (the edge turns its oauthVO into the session cookie).
 * - Second step (the second-step cookie, no session): secondStep/options → { options } for the person's own
 *   passkeys (PK0013 when they have none), then secondStep/verify → the login response, as twoStep/verify.
 */

/** The name a person gives a passkey ("Work laptop"): trimmed, 1 to PASSKEY_NAME_MAX characters. */
export const PASSKEY_NAME_MAX = 64;

// POST agg-web/passkeys/registration/options (session) {} → { options }.
// POST agg-web/passkeys/authentication/options {} → { options }.
// POST agg-web/passkeys/secondStep/options {} (the second-step cookie) → { options }.
// The requests of the other calls are in passkey-requests.ts (the browser does not load them).
/** The options for the browser's ceremony, passed to @simplewebauthn/browser unchanged. */
export const passkeyOptionsAnswer = z.object({ options: z.looseObject({ challenge: z.string() }) });
export type PasskeyOptionsAnswer = z.infer<typeof passkeyOptionsAnswer>;

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

