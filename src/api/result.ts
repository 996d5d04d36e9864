/**
 * What every api function returns, and the codes the stores compare with. No zod here: a store that only reads
 * results (the sign-in form's first load) does not need the schema library that client.ts parses with.
 */

/**
 * What every api function returns: the data, or the gateway's code and its message (already localised). A
 * failure on the server's side (HTTP 5xx, or an answer that is not the envelope) carries the call's trace id,
 * which the person is shown to quote.
 */
export type ApiResult<T> = { ok: true; data: T } | { ok: false; code: string; message: string; data?: unknown; traceId?: string };

/** No answer at all (offline, connection lost): "check your connection and try again". */
export const NETWORK_ERROR = 'NETWORK';
/** No answer within the call's time limit (CALL_TIMEOUT_MS of client.ts): "this is taking longer than usual". */
export const TIMEOUT_ERROR = 'TIMEOUT';
/** The connection broke off (reset or closed) while the browser says it is online: not "you seem to be offline". */
export const CONNECTION_ERROR = 'CONNECTION';
/** An answer that is not the gateway's envelope (a proxy's error page): "something went wrong on our side". */
export const SERVER_ERROR = 'SERVER';

/** Whether a failed call is the gateway's own answer, not one of the page's codes for no (usable) answer above. */
export const isGatewayAnswer = (code: string) =>
  code !== NETWORK_ERROR && code !== TIMEOUT_ERROR && code !== CONNECTION_ERROR && code !== SERVER_ERROR;
/** The response header naming the call's trace id (set by the edge's /api proxy). */
export { TRACE_ID_HEADER } from '../schemas/trace';
/** Code that means "fetch the salt and retry" on password sign-in, counted as success by the envelope. */
export const SALT_REQUIRED = 'SY9990';
