import * as z from 'zod/mini';

/**
 * The gateway's answer envelope: code '0' is success; any other code carries a message
 * in the caller's language. 'SY9990' also counts as success at the general level: it asks the password
 * sign-in to fetch the salt and retry.
 */
export const envelopeSchema = <T extends z.ZodMiniType>(data: T) =>
  z.object({ code: z.string(), message: z.string(), data: z.nullable(data) });

export type Envelope<T> = { code: string; message: string; data: T | null };

export const SUCCESS_CODE = '0';
