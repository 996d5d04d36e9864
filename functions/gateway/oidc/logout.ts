import { runBatch } from '../account/db';
import { fetchWithin, OutboundFailure } from '../../outbound';
import { revokeSession, findSession, idleTimeoutMs } from '../sessions/service';
import { claimDueSends, clientById, endGrantsOfEndedSessions, recordSendStatement } from './db';
import { issuerOf, parseList } from './clients';
import { logoutToken, verifiedIdTokenHint } from './tokens';

/**
 * Logout (OpenID Connect RP-Initiated Logout 1.0 and Back-Channel Logout 1.0).
 *
 * - RP-initiated: `/oidc/logout` with an `id_token_hint` this issuer signed ends the session it names (its `sid`)
 *   when that is the visitor's session, then goes to `post_logout_redirect_uri` only if the hint's client
 *   registered it exactly; otherwise to the portal's sign-in page. Without a valid hint nobody is signed out: a
 *   link on another site cannot end a person's session.
 * - Back-channel: whenever a person's session ends (sign-out, "sign out this device", a password change or reset,
 *   an operator's block, or its expiry), every grant made in it ends and each client that registered a
 *   back-channel logout URI is sent a signed logout token. `tellConnectedApps` finds those grants in one batch
 *   (db.ts endGrantsOfEndedSessions); it runs after each call that can end sessions and on the cron, which also
 *   retries failed sends with backoff (30 s, 1, 2, 4, 8 minutes, then the send is recorded as failed).
 */

const SEND_TIMEOUT_MS = 5_000;
const MAX_ATTEMPTS = 6;
const backoffMs = (attempts: number) => 30_000 * 2 ** (attempts - 1);

type Env = { DB: D1Database };

/** Ends grants of ended sessions and sends the logout tokens due now; what each send did is recorded. */
export async function tellConnectedApps(env: Env, at: number): Promise<{ sent: number; failed: number }> {
  await runBatch(env.DB, endGrantsOfEndedSessions(env.DB, at, idleTimeoutMs(env)));
  const due = await claimDueSends(env.DB, at, SEND_TIMEOUT_MS * 2);
  let sent = 0;
  let failed = 0;
  const issuer = issuerOf(env);
  await Promise.all(
    due.map(async (send) => {
      const attempts = send.attempts + 1;
      let result: string;
      let delivered = false;
      if (!send.uri) {
        result = 'no back-channel logout URI';
      } else {
        try {
          const token = await logoutToken(env, at, { issuer, clientId: send.client_id, subject: send.user_id, sid: send.sid });
          const answer = await fetchWithin(
            send.uri,
            { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ logout_token: token }), redirect: 'manual' },
            SEND_TIMEOUT_MS,
          );
          await answer.body?.cancel();
          delivered = answer.status === 200 || answer.status === 204;
          result = `HTTP ${answer.status}`;
        } catch (error) {
          result = error instanceof OutboundFailure ? error.reason : 'error';
        }
      }
      if (delivered) sent++;
      else failed++;
      const status = delivered ? 'sent' : attempts >= MAX_ATTEMPTS ? 'failed' : 'pending';
      await recordSendStatement(env.DB, send.grant_id, { status, attempts, nextAt: at + backoffMs(attempts), result, at }).run();
    }),
  );
  return { sent, failed };
}

/** RP-initiated logout: where to go next, and whether the visitor's session was ended. */
export async function endSession(
  env: Env,
  params: URLSearchParams,
  sessionToken: string | null,
  at: number,
): Promise<{ redirect: string; signedOut: boolean }> {
  const hintText = params.get('id_token_hint');
  const hint = hintText ? await verifiedIdTokenHint(env.DB, hintText, at, issuerOf(env)) : null;
  const clientId = typeof hint?.aud === 'string' ? hint.aud : null;
  if (!hint || !clientId || (params.get('client_id') && params.get('client_id') !== clientId)) return { redirect: '/login', signedOut: false };
  let signedOut = false;
  const session = sessionToken ? await findSession(env.DB, sessionToken, at, idleTimeoutMs(env)) : null;
  if (session && hint.sub === session.user_id && (hint.sid === undefined || hint.sid === session.public_id)) {
    await revokeSession(env.DB, session.token_hash, at);
    signedOut = true;
  }
  const client = await clientById(env.DB, clientId);
  const wanted = params.get('post_logout_redirect_uri');
  const registered = client && client.disabled_at === null ? parseList(client.post_logout_uris).find((uri) => uri === wanted) : undefined;
  if (!registered) return { redirect: '/login', signedOut };
  const url = new URL(registered);
  const state = params.get('state');
  if (state) url.searchParams.append('state', state);
  return { redirect: url.toString(), signedOut };
}
