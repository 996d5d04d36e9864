/**
 * What every api function returns, and the codes the stores compare with. No zod here: a store that only reads
 * results (the sign-in form's first load) does not need the schema library that client.ts parses with.
 */

/** What every api function returns: the data, or the gateway's code and its message (already localised). */
export type ApiResult<T> = { ok: true; data: T } | { ok: false; code: string; message: string; data?: unknown };

/** The answer could not be had or understood: shown as the 'network error' text by the caller. */
export const NETWORK_ERROR = 'NETWORK';
/** Code that means "fetch the salt and retry" on password sign-in, counted as success by the envelope. */
export const SALT_REQUIRED = 'SY9990';
