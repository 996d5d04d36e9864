import * as z from 'zod/mini';

/**
 * `schema.check(...checks)` as a call bundlers may drop when its result is unused. A method call counts as a
 * side effect, so every exported contract written with `.check` would reach each page that imports its module.
 */
export const checked = /* @__NO_SIDE_EFFECTS__ */ <T extends z.ZodMiniType>(schema: T, ...checks: z.core.$ZodCheck<z.output<T>>[]): T =>
  schema.check(...checks);
