/**
 * The session token lives in an HttpOnly cookie set by the edge; the page only learns *that* a session
 * exists from this non-secret marker cookie, set and cleared together with it (it drives the logout icon).
 */
export const SESSION_MARKER_COOKIE = 'portal_signed_in';
/** Session and user-token cookies live 604,799 s (one week less a second). */
export const SESSION_MAX_AGE = 604_799;
/**
 * Support "view as" (issue 44): a readable marker beside the session cookies of a view, `<until ms>~<operator's name>`
 * (URI-encoded by hono/cookie), from which every page draws "Support (<operator>) is viewing as you until hh:mm" with End. The edge
 * sets it from the view's start and clears it with the session cookies; it is display only and opens nothing (a forged
 * one draws a banner, no more: the session cookie alone says what the browser may do).
 */
export const SUPPORT_MARKER_COOKIE = 'portal_support';
