import type { MiddlewareHandler, ValidationTargets } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { every } from 'hono/combine';
import { zValidator } from '@hono/zod-validator';
import * as z from 'zod/mini';
import '../zod-english';
import { HIDDEN_CHARACTER_CODES } from '../../src/schemas/display-text';
import { ERR, type ErrorCode } from '../../src/schemas/error-codes';
import { GatewayError } from './errors';

/** Security baseline: JSON bodies are capped at 64 KB, counted while reading (not from Content-Length). */
export const MAX_JSON_BYTES = 64 * 1024;

/** The envelope's `data` for a schema miss: one `{ path, message }` per issue. */
export function issuesOf(error: z.core.$ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

/**
 * The guard in front of every JSON route: another content type is GW0415, more than MAX_JSON_BYTES is GW0413
 * (Hono's bodyLimit counts the stream), text that is not JSON is GW0401. An empty body reads as `{}`.
 * The parsed value is left in Hono's body cache, where the validator picks it up.
 */
const jsonBody: MiddlewareHandler = every(
  createMiddleware(async (c, next) => {
    if (!/^application\/([\w.-]+\+)?json\b/i.test(c.req.header('content-type') ?? '')) throw new GatewayError(ERR.JSON_REQUIRED);
    await next();
  }),
  bodyLimit({
    maxSize: MAX_JSON_BYTES,
    onError: () => {
      throw new GatewayError(ERR.BODY_TOO_LARGE);
    },
  }),
  createMiddleware(async (c, next) => {
    const text = await c.req.text();
    let parsed: unknown;
    try {
      parsed = text.trim() === '' ? {} : JSON.parse(text);
    } catch {
      throw new GatewayError(ERR.BODY_NOT_JSON);
    }
    c.req.bodyCache.json = Promise.resolve(parsed);
    await next();
  }),
);

type Target = keyof Pick<ValidationTargets, 'json' | 'query' | 'form' | 'param' | 'header' | 'cookie'>;

/**
 * The one validator of the gateway: `validate('json', schema)` in front of a handler, which then reads
 * `c.req.valid('json')`. A schema miss throws `code` (GW0400 unless the route's contract names a more
 * specific one, or picks it from the issues) with the issues as data, so `onError` builds the envelope. Takes any zod
 * schema; the gateway's own and the contracts shared with the browser are all zod/mini.
 */
export function validate<T extends Target, S extends z.core.$ZodType>(
  target: T,
  schema: S,
  options: { code?: ErrorCode | ((issues: z.core.$ZodIssue[]) => ErrorCode) } = {},
) {
  const check = zValidator(
    target,
    schema as never as z.core.$ZodType<z.output<S>, z.input<S>>,
    (result) => {
      if (result.success) return;
      const error = result.error as z.core.$ZodError;
      // A name with a hidden character answers the display-text rule's own code (src/schemas/display-text.ts).
      const hidden = error.issues.find((issue) => HIDDEN_CHARACTER_CODES.includes(issue.message as ErrorCode))?.message as ErrorCode | undefined;
      const code = hidden ?? (typeof options.code === 'function' ? options.code(error.issues) : options.code);
      throw new GatewayError(code ?? ERR.REQUEST_INVALID, issuesOf(error));
    },
    { validationFunction: (s, value) => z.safeParseAsync(s as never as S, value) as never },
  );
  return target === 'json' ? (every(jsonBody, check) as typeof check) : check;
}

