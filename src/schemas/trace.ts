/**
 * The answer header that carries the edge's trace id of a call, which a person quotes when something fails.
 * Plain values, no zod: the browser's api results (src/api/result.ts) import it on every page.
 */
export const TRACE_ID_HEADER = 'x-trace-id';
