import { fetchText, OutboundFailure, type TextAnswer } from '../../outbound';

/**
 * Why a provider did not take a message. deliver() logs it with the trace id and answers the person:
 * `unavailable` (down, slow, closed the connection, or refused our request) DL0001 "could not send, try again"
 * (DL0010 for an SMS: no SMS provider can send) once every provider of the channel's list failed;
 * `throttled` (the provider's own rate limit) DL0003; `invalid-recipient` (a number or address the provider
 * cannot reach) DL0002.
 */
export type FailureKind = 'unavailable' | 'throttled' | 'invalid-recipient';

export class DeliveryFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    /** The provider's status and error code, for the log: never the message or the recipient. */
    readonly detail: string,
  ) {
    super(`${kind}: ${detail}`);
    this.name = 'DeliveryFailure';
  }
}

/** A provider call within the delivery timeout; no answer at all is `unavailable`. */
export async function callProvider(url: string, init: RequestInit, timeoutMs: number): Promise<TextAnswer> {
  try {
    return await fetchText(url, init, timeoutMs);
  } catch (error) {
    if (error instanceof OutboundFailure) throw new DeliveryFailure('unavailable', `${error.reason}: ${error.message}`);
    throw error;
  }
}

/** The answer's JSON, or null when it is not JSON (a proxy's error page, say). */
export function jsonOf<T>(answer: TextAnswer): T | null {
  try {
    return JSON.parse(answer.text) as T;
  } catch {
    return null;
  }
}

/** The usual reading of an HTTP status where the body says no more: 429 throttled, anything else unavailable. */
export function statusFailure(answer: TextAnswer, code = ''): DeliveryFailure {
  return new DeliveryFailure(answer.status === 429 ? 'throttled' : 'unavailable', `HTTP ${answer.status}${code ? ` ${code}` : ''}`);
}
