import type { ErrorCode } from '../../src/schemas/error-codes';

/** Thrown anywhere in the gateway; `onError` turns it into the envelope with its status. */
export class GatewayError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly data: unknown = null,
  ) {
    super(code);
  }
}

// The envelope and the readers of the edge's headers are the wire contract (functions/contract.ts); routes
// keep importing them from here beside GatewayError.
export { clientIp, CLIENT_IP_HEADER, fail, ok, requestLang, traceIdOf } from '../contract';
