/**
 * The wait between two codes, or two sign-in links, to one recipient: the gateway refuses an earlier send
 * (CD0001, LK0010) and the browser counts the same wait down beside "Send code". One value for both.
 */
export const RESEND_WAIT_MS = 60_000;
