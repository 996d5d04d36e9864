import type { DestinationTokenAnswer } from '../../../src/schemas/handoff';
import { configOf } from '../../config';
import type { WorkerEnv } from '../../env';
import { createHandoffBlob, handoffClaims } from '../handoff/blob';
import { handoffKeys } from '../handoff/keys';
import { findSession, idleTimeoutMs } from '../sessions/service';

/**
 * A fresh 60-second session blob for the configured web app (WEB_APP_AUDIENCE) that speaks for the owner of
 * `sessionToken`, so the other site can open its own session; null without a live session or a hand-off key.
 */
export async function destinationToken(env: WorkerEnv, sessionToken: string | null, at: number): Promise<DestinationTokenAnswer> {
  const config = configOf(env);
  const [key] = await handoffKeys(config);
  if (!sessionToken || !key) return { token: null };
  const session = await findSession(env.DB, sessionToken, at, idleTimeoutMs(env));
  if (!session) return { token: null };
  const claims = handoffClaims({ sub: session.user_id, aud: config.webAppAudience, purpose: 'session', now: at });
  return { token: await createHandoffBlob(key, claims) };
}
