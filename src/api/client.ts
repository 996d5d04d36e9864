import type * as z from 'zod/mini';
import { opsPublicShells, opsSignInPathFrom, SESSION_ENDED_MARK, signInPathFrom } from '../lib/routes';
import { envelopeSchema, SUCCESS_CODE } from '../schemas/envelope';
import { CONNECTION_ERROR, NETWORK_ERROR, SERVER_ERROR, TIMEOUT_ERROR, TRACE_ID_HEADER, type ApiResult } from './result';

export { NETWORK_ERROR, SALT_REQUIRED, SERVER_ERROR, type ApiResult } from './result';

const SESSION_ENDED = 'TK00001';
/** No live operator session: an operator page sends the operator to /ops/login instead. */
const OPERATOR_SESSION_ENDED = 'OP0001';
/** Dispatched on the window just before a page whose session ended goes to sign-in. */
export const SESSION_ENDED_EVENT = 'portal:session-ended';

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
  // Every call has a time limit, its answer's body included (issue 33): a call that never answers says so
  // and leaves the form as it was. A timer (not AbortSignal.timeout) so that a test's fake clock can run it.
  const limit = new AbortController();
  const timer = setTimeout(() => limit.abort(), CALL_TIMEOUT_MS);
  try {
    response = await fetch(`/api/${path}${query}`, {
      method,
      headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
      body: method === 'POST' ? JSON.stringify(init.body ?? {}) : undefined,
      credentials: 'same-origin',
      signal: limit.signal,
    });
  } catch {
    clearTimeout(timer);
    return { ok: false, code: noAnswerCode(limit.signal), message: '' };
  }
  const json: unknown = await response.json().catch(() => undefined);
  clearTimeout(timer);
  if (json === undefined && limit.signal.aborted) return { ok: false, code: TIMEOUT_ERROR, message: '' };
  const envelope = envelopeSchema(dataSchema).safeParse(json);
  if (!envelope.success) {
    const { code, data } = (json ?? {}) as { code?: unknown; data?: unknown };
    if (typeof code === 'string' && code !== SUCCESS_CODE) return refusal({ ok: false, code, message: messageOf(json), data }, response);
    return unreadable(response);
  }
  const { code, message } = envelope.data;
  const data = (envelope.data as unknown as { data: unknown }).data;
  if (code === SUCCESS_CODE) return { ok: true, data: data as z.infer<T> };
  return refusal({ ok: false, code, message, data }, response);
}

/** How long a call may take, its answer's body included, before the page says it is taking too long. */
export const CALL_TIMEOUT_MS = 20_000;

/** Why a call got no answer: our time limit, the browser offline, or a connection the server broke off. */
function noAnswerCode(signal: AbortSignal): string {
  if (signal.aborted) return TIMEOUT_ERROR;
  return typeof navigator !== 'undefined' && navigator.onLine === false ? NETWORK_ERROR : CONNECTION_ERROR;
}

/** The message of an error envelope (`message`, or the older `msg`). */
export function messageOf(json: unknown): string {
  const { message, msg } = (json ?? {}) as { message?: unknown; msg?: unknown };
  return typeof message === 'string' ? message : typeof msg === 'string' ? msg : '';
}

/**
 * A refusal as the caller gets it: one from the server's side (5xx) carries the call's trace id; one that says
 * the session ended first sends the person to sign-in, with this page to return to.
 */
export function refusal<T>(result: { ok: false; code: string; message: string; data?: unknown }, response: Response): ApiResult<T> {
  // Operator pages know only the operator session (a wrong operator password's 401 is no ended session).
  const onOpsPage = () => location.pathname === '/ops' || location.pathname.startsWith('/ops/');
  if (result.code === OPERATOR_SESSION_ENDED) {
    const onPublicPage = (opsPublicShells as readonly string[]).includes(location.pathname.slice(1));
    if (onOpsPage() && !onPublicPage) location.assign(opsSignInPathFrom(location.pathname, location.search));
  } else if ((result.code === SESSION_ENDED || response.status === 401) && !onOpsPage() && !location.pathname.endsWith('login')) {
    // The edge has already cleared the cookies on this answer. The open forms keep what was typed, to give it
    // back after sign-in (src/lib/kept-forms.ts listens; an event, so that neither module loads the other).
    dispatchEvent(new Event(SESSION_ENDED_EVENT));
    // The sign-in page says why the person is back (read once there: src/islands/sign-in/SignIn.tsx).
    try {
      sessionStorage.setItem(SESSION_ENDED_MARK, '1');
    } catch {
      // Storage blocked: the page then only says "Sign in to continue".
    }
    location.assign(signInPathFrom(location.pathname, location.search));
  }
  return response.status >= 500 ? { ...result, traceId: traceIdOf(response) } : result;
}

/** An answer that is not the envelope (a proxy's error page, a contract mismatch): a failure on our side. */
export function unreadable<T>(response: Response): ApiResult<T> {
  return { ok: false, code: SERVER_ERROR, message: '', traceId: traceIdOf(response) };
}

const traceIdOf = (response: Response) => response.headers.get(TRACE_ID_HEADER) ?? undefined;
