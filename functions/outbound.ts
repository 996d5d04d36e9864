/**
 * Calls from the Worker to services outside it (GATEWAY_URL, SMS and e-mail providers, the delivery webhook,
 * Turnstile's siteverify). Each has a configured time limit (functions/config.ts *_TIMEOUT_MS): a service that
 * accepts the connection and never answers must not leave a person before a spinner that never ends.
 */

/** No answer: `timeout` when the time ran out, `unreachable` when the connection failed or was closed. */
export class OutboundFailure extends Error {
  constructor(
    readonly reason: 'timeout' | 'unreachable',
    message: string,
  ) {
    super(message);
    this.name = 'OutboundFailure';
  }
}

const failure = (signal: AbortSignal, timeoutMs: number, error: unknown) =>
  signal.aborted
    ? new OutboundFailure('timeout', `no answer within ${timeoutMs} ms`)
    : new OutboundFailure('unreachable', error instanceof Error ? `${error.message}${error.cause ? ` (${String(error.cause)})` : ''}` : String(error));

/**
 * fetch that gives up when the answer's status and headers have not come within `timeoutMs`. The body then
 * streams without a limit, so a large file passed through the gateway proxy is not cut off.
 */
export async function fetchWithin(url: string, init: RequestInit, timeoutMs: number): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    return await fetch(url, { ...init, signal: controller.signal });
  } catch (error) {
    throw failure(controller.signal, timeoutMs, error);
  } finally {
    clearTimeout(timer);
  }
}

export interface TextAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** fetch whose whole answer, body included, must arrive within `timeoutMs` (small API answers). */
export async function fetchText(url: string, init: RequestInit, timeoutMs: number): Promise<TextAnswer> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, { ...init, signal });
    return { status: response.status, headers: response.headers, text: await response.text() };
  } catch (error) {
    throw failure(signal, timeoutMs, error);
  }
}
