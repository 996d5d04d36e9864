import * as z from 'zod/mini';

/**
 * The portal as an OpenID Provider (issue 27): what a client may ask for, and what the consent page and the
 * user center's "Connected apps" receive. Shared by the gateway, the islands and the operator command line.
 */

export const OIDC_SCOPES = ['openid', 'profile', 'email', 'phone', 'company', 'offline_access'] as const;
export type OidcScope = (typeof OIDC_SCOPES)[number];

/** Authentication context classes: one factor, or two (a second step passed, or a passkey). */
export const ACR = { oneFactor: 'urn:portal:acr:1fa', twoFactors: 'urn:portal:acr:2fa' } as const;

/**
 * A redirect or post-logout URI a client may register (RFC 9700 §4.1): absolute, https (http only for a loopback
 * host, as native apps use), no fragment, no wildcard, no user info. It is then matched exactly, as a string. The
 * rule lives in src/lib/client-uri.mjs, which the operator command line uses too.
 */
export { redirectUriProblem } from '../lib/client-uri.mjs';

/** One waiting sign-in request as the consent page shows it. */
export const connectRequestAnswer = z.object({
  /** The app: its name, the host it answers at, and the company that made it (null: the platform's own app). */
  client: z.object({ id: z.string(), name: z.string(), address: z.string(), owner: z.nullable(z.string()) }),
  /** The account that would sign in: its name, and the e-mail or phone it signs in with. */
  account: z.object({ name: z.nullable(z.string()), signIn: z.string() }),
  /** The company the `company` scope would name, in the page's language; null when it names none. */
  company: z.nullable(z.string()),
  /** The scopes that give the app something for this account (no phone number for an account without one). */
  scopes: z.array(z.enum(OIDC_SCOPES)),
  /**
   * What stands between the person and the app: nothing ('ready': the page continues by itself), their consent,
   * a fresh proof ('proof'; `twoFactors` when it must be a two-factor one), or setting up two-step first.
   */
  needs: z.enum(['ready', 'consent', 'proof', 'two-step-setup']),
  twoFactors: z.boolean(),
});
export type ConnectRequestAnswer = z.infer<typeof connectRequestAnswer>;

export const connectDecision = z.object({ allow: z.boolean() });
export const connectDecisionAnswer = z.object({ redirectTo: z.string() });

/** A sign-out an app asked for that waits for the person (/sign_out?request=ID): the app's name, when known. */
export const logoutRequestAnswer = z.object({ app: z.nullable(z.string()) });
export const logoutDecision = z.object({ signOut: z.boolean() });
export const logoutDecisionAnswer = z.object({ redirectTo: z.string(), signedOut: z.boolean() });

/**
 * An authorization request's `login_hint` as the sign-in form's fields (GET /oidc/v1/hints/:id): a phone number
 * or an e-mail address the portal would accept, else null. The page reads it without zod (it loads with /login).
 */
export type LoginHint = { channel: 'phone'; areaId: string; callingCode: string; mobile: string } | { channel: 'email'; email: string } | null;

export const connectedApp = z.object({
  clientId: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  grantedAt: z.nullable(z.number()),
  lastUsedAt: z.nullable(z.number()),
});
export const connectedAppsAnswer = z.array(connectedApp);
export type ConnectedApp = z.infer<typeof connectedApp>;
