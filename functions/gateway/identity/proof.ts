import type { Context, MiddlewareHandler } from 'hono';
import { configOf } from '../../config';
import type { WorkerEnv } from '../../env';
import { GatewayError } from '../errors';
import { now } from '../../contract';
import type { SessionRow, SessionVariables } from './db/sessions';
import { ERR } from '../../../src/schemas/error-codes';

/**
 * Whether a session holds a FRESH PROOF of its person (security baseline "Proving it's you again (step-up)"):
 * the check every sensitive change makes. Making a proof (password, code, second factor, passkey) is
 * step-up/service.ts; a sign-in writes one with its session. A proof belongs to the session that made it and is
 * fresh for STEP_UP_MAX_AGE seconds.
 */

/** Milliseconds a proof stays fresh (STEP_UP_MAX_AGE). */
export const proofMaxAgeMs = (env: object) => configOf(env).stepUpMaxAge * 1000;

/** The end of the session's fresh proof (epoch ms), or null when it has none at `at`. */
export function freshUntil(env: object, session: Pick<SessionRow, 'proved_at'>, at: number): number | null {
  if (session.proved_at === null) return null;
  const until = session.proved_at + proofMaxAgeMs(env);
  return until > at ? until : null;
}

/** SU0001 (403) unless this call's session proved its person within STEP_UP_MAX_AGE (for a change that needs it only sometimes). */
export function assertFreshProof(c: Context<{ Bindings: WorkerEnv; Variables: SessionVariables }>): void {
  if (freshUntil(c.env, c.get('session'), now(c)) === null) throw new GatewayError(ERR.PROOF_REQUIRED);
}

/**
 * The guard of every sensitive change, after requireSession: SU0001 (403) unless this session proved its person
 * within STEP_UP_MAX_AGE. The session row is the one requireSession read for this very request.
 */
export const requireFreshProof: MiddlewareHandler<{ Bindings: WorkerEnv; Variables: SessionVariables }> = async (c, next) => {
  assertFreshProof(c);
  await next();
};

