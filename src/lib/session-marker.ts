/**
 * The session token lives in an HttpOnly cookie set by the edge; the page only learns *that* a session
 * exists from this non-secret marker cookie, set and cleared together with it (it drives the logout icon).
 */
export const SESSION_MARKER_COOKIE = 'portal_signed_in';
/** Session and user-token cookies live 604,799 s (one week less a second). */
export const SESSION_MAX_AGE = 604_799;
