import { askerOf } from '../authority/db';
import type { DestinationTokenAnswer } from '../../../src/schemas/handoff';
import { configOf } from '../../config';
import type { WorkerEnv } from '../../env';
import { createHandoffBlob, handoffClaims } from '../handoff/blob';
import { handoffKeys } from '../handoff/keys';
import { findSession, idleTimeoutMs } from '../sessions/service';
import { actingNow, onBehalfOf } from '../grants/service';
import { GatewayError } from '../errors';
import { ERR } from '../../../src/schemas/error-codes';
import type { SessionRow } from '../identity/db/sessions';

/** The session's on_behalf_of claim (grants/service.ts), or null when it acts for no one or may no longer. */
async function actingFor(db: D1Database, session: Pick<SessionRow, 'user_id' | 'acting_grant_id' | 'provider_mfa_company_id'>, at: number) {
  if (!session.acting_grant_id) return null;
  try {
    return onBehalfOf(await actingNow(db, askerOf(session), session.acting_grant_id, at, 'en'));
  } catch (error) {
    if (error instanceof GatewayError && error.code === ERR.ACTING_ENDED) return null;
    throw error;
  }
}

/**
 * A fresh 60-second session blob for the configured web app (WEB_APP_AUDIENCE) that speaks for the owner of
 * `sessionToken`, so the other site can open its own session; null without a live session or a hand-off key.
 */
export async function destinationToken(env: WorkerEnv, sessionToken: string | null, at: number): Promise<DestinationTokenAnswer> {
  const config = configOf(env);
  const [key] = await handoffKeys(config);
  if (!sessionToken || !key) return { token: null };
  const session = await findSession(env.DB, sessionToken, at, idleTimeoutMs(env));
  // A support "view as" (issue 44) does not travel to another site: the web app could not mark it or end it.
  if (!session || session.support_operator_id) return { token: null };
  const claims = handoffClaims({ sub: session.user_id, aud: config.webAppAudience, purpose: 'session', now: at });
  // The other site's session acts for the same company as this one, while the grant lets it (authority/ decides).
  const acting = await actingFor(env.DB, session, at);
  if (acting) claims.on_behalf_of = acting;
  return { token: await createHandoffBlob(key, claims) };
}
