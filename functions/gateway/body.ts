import type { Context } from 'hono';
import { z } from 'zod';
import { GatewayError } from './errors';

/** Security baseline: JSON bodies are capped at 64 KB, counted while reading (not from Content-Length). */
export const MAX_JSON_BYTES = 64 * 1024;

async function readCapped(request: Request, limit: number): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new GatewayError('GW0413');
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Reads a JSON body, refusing other content types, oversized or malformed bodies, and schema misses.
 * Takes any zod schema: the shared contracts are zod/mini (they ship to the browser), local ones classic.
 */
export async function readJson<T extends z.core.$ZodType>(c: Context, schema: T): Promise<z.output<T>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) throw new GatewayError('GW0415');
  const text = await readCapped(c.req.raw, MAX_JSON_BYTES);
  let parsed: unknown;
  try {
    parsed = text === '' ? {} : JSON.parse(text);
  } catch {
    throw new GatewayError('GW0401');
  }
  const result = z.safeParse(schema, parsed);
  if (!result.success) {
    throw new GatewayError('GW0400', result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
  }
  return result.data;
}
