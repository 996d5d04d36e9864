import type * as z from 'zod/mini';
import { signInPathFrom } from '../lib/routes';
import { envelopeSchema, SUCCESS_CODE } from '../schemas/envelope';
import { NETWORK_ERROR, type ApiResult } from './result';

export { NETWORK_ERROR, SALT_REQUIRED, type ApiResult } from './result';

const SESSION_ENDED = 'TK00001';

/**
 * Calls the gateway through the edge's `/api` proxy and parses the envelope and its data with the schema.
 * A session that ended (TK00001 or HTTP 401) sends the person back to sign-in, rather than leaving them on a
 * page whose calls can only fail; sign-in then returns to this page.
 */
export async function callGateway<T extends z.ZodMiniType>(
  path: string,
  dataSchema: T,
  init: { method?: 'GET' | 'POST'; body?: unknown; query?: Record<string, string> } = {},
): Promise<ApiResult<z.infer<T>>> {
  const method = init.method ?? 'POST';
  const query = init.query ? `?${new URLSearchParams(init.query)}` : '';
  let response: Response;
  try {
    response = await fetch(`/api/${path}${query}`, {
      method,
      headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
      body: method === 'POST' ? JSON.stringify(init.body ?? {}) : undefined,
      credentials: 'same-origin',
    });
  } catch {
    return { ok: false, code: NETWORK_ERROR, message: '' };
  }
  const json: unknown = await response.json().catch(() => undefined);
  const envelope = envelopeSchema(dataSchema).safeParse(json);
  if (!envelope.success) {
    const { code, data } = (json ?? {}) as { code?: unknown; data?: unknown };
    if (typeof code === 'string' && code !== SUCCESS_CODE) return sessionAware({ ok: false, code, message: messageOf(json), data }, response.status);
    return { ok: false, code: NETWORK_ERROR, message: '' };
  }
  const { code, message } = envelope.data;
  const data = (envelope.data as unknown as { data: unknown }).data;
  if (code === SUCCESS_CODE) return { ok: true, data: data as z.infer<T> };
  return sessionAware({ ok: false, code, message, data }, response.status);
}

/** The message of an error envelope (`message`, or the older `msg`). */
export function messageOf(json: unknown): string {
  const { message, msg } = (json ?? {}) as { message?: unknown; msg?: unknown };
  return typeof message === 'string' ? message : typeof msg === 'string' ? msg : '';
}

/** A refusal as the caller gets it; one that says the session ended first sends the person to sign-in. */
export function sessionAware<T>(result: { ok: false; code: string; message: string; data?: unknown }, status: number): ApiResult<T> {
  if ((result.code === SESSION_ENDED || status === 401) && !location.pathname.endsWith('login')) {
    // The edge has already cleared the cookies on this answer.
    location.assign(signInPathFrom(location.pathname, location.search));
  }
  return result;
}
