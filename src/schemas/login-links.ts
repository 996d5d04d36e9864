import * as z from 'zod/mini';
import { emailSchema } from './auth';

/**
 * Wire contracts of the sign-in links:
 *
 * - /pass_email_login: a person asks for a one-time sign-in link by e-mail (passEmail/send) and opens it; the
 *   page signs in with the link's token on an explicit click (passEmail/login), so a mail scanner that
 *   fetches the link does not use it up.
 * - /share_login: a signed-in person makes a one-time link (shareLogin/create) that signs the same account
 *   in on another device, such as a phone (shareLogin/login).
 *
 * Both login calls answer the login response of the sign-in screen; the edge turns its oauthVO into cookies.
 */

/** A link token: 32 random bytes, base64url (43 characters). */
export const linkTokenSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/));

/** Query parameters that carry the token on each page. */
export const LINK_PARAM = { pass: 'pass', share: 'share' } as const;

// POST agg-web/user/passEmail/send → null. The same answer whether or not an account uses the address.
export const passEmailSendRequest = z.object({ loginEmail: emailSchema });
export type PassEmailSendRequest = z.infer<typeof passEmailSendRequest>;

// POST agg-web/user/passEmail/login → login response.
export const passEmailLoginRequest = z.object({ pass: linkTokenSchema });

// POST agg-web/user/shareLogin/create (session) {} → { url, expiresIn }.
export const shareLinkRequest = z.object({});
export const shareLinkAnswer = z.object({ url: z.string(), expiresIn: z.number() });
export type ShareLinkAnswer = z.infer<typeof shareLinkAnswer>;

// POST agg-web/user/shareLogin/login → login response.
export const shareLoginRequest = z.object({ share: linkTokenSchema });
