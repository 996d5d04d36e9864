import { runBatch } from '../identity/db/batch';
import { fetchWithin, OutboundFailure } from '../../outbound';
import { revokeSession, findSession, idleTimeoutMs } from '../sessions/service';
import { ERR } from '../../../src/schemas/error-codes';
import { GatewayError } from '../errors';
import { consume, SINGLE_USE } from '../identity/db/single-use';
import { randomToken } from '../identity/tokens';
import { claimDueSends, clientById, type ClientRow, endGrantsOfEndedSessions, insertLogoutRequest, liveLogoutRequest, recordSendStatement } from './db';
import { issuerOf, parseList } from './clients';
import { logoutToken, verifiedIdTokenHint } from './tokens';

/**
 * Logout (OpenID Connect RP-Initiated Logout 1.0 and Back-Channel Logout 1.0).
 *
 * - RP-initiated: `/oidc/logout` with an `id_token_hint` this issuer signed ends the session it names (its `sid`)
 *   when that is the visitor's session, then goes to `post_logout_redirect_uri` only if the app registered it
 *   exactly; otherwise to the portal's sign-in page. Without such a hint nobody is signed out by the link: the
 *   person is asked on /sign_out first (endSession), so a link on another site cannot end a person's session.
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
          const token = await logoutToken(env, at, { issuer, clientId: send.client_id, subject: send.user_id, sid: send.sid }, send.alg === 'RS256' ? 'RS256' : 'ES256');
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

/** How long a sign-out waits for the person's answer. */
const LOGOUT_REQUEST_TTL_MS = 10 * 60_000;

/** The sign-out confirmation page of a waiting request. */
export const signOutPath = (id: string) => `/sign_out?${new URLSearchParams({ request: id })}`;

/**
 * RP-initiated logout (RP-Initiated Logout 1.0 §2, §3, §6): where to go next, and whether the visitor's session
 * was ended. A valid `id_token_hint` of the visitor's own session ends it at once. Anything else that meets a
 * session (no hint, a hint of another session or person, a forged one) ends nothing: the person is asked on
 * /sign_out, so a link or an image on another site never signs anyone out. Without a session there is nothing
 * to end. The app is the hint's audience, else `client_id`; its `post_logout_redirect_uri` is used only when it
 * registered that exact address, with `state` passed back; otherwise the person lands on the sign-in page.
 */
export async function endSession(
  env: Env,
  params: URLSearchParams,
  sessionToken: string | null,
  at: number,
): Promise<{ redirect: string; signedOut: boolean }> {
  const hintText = params.get('id_token_hint');
  const verified = hintText ? await verifiedIdTokenHint(env.DB, hintText, at, issuerOf(env)) : null;
  const named = params.get('client_id');
  // A hint for one app with another app's client_id (§2: they must agree) is no hint and names no app: the person is asked.
  const mismatched = typeof verified?.aud === 'string' && named !== null && named !== verified.aud;
  const hint = mismatched ? null : verified;
  const clientId = mismatched ? null : typeof hint?.aud === 'string' ? hint.aud : named;
  const client = clientId ? await clientById(env.DB, clientId) : null;
  const live = client && isSignInApp(client, at) ? client : null;
  const wanted = params.get('post_logout_redirect_uri');
  const registered = live ? parseList(live.post_logout_uris).find((uri) => uri === wanted) : undefined;
  const back = registered ? answerAt(registered, params.get('state')) : null;

  const session = sessionToken ? await findSession(env.DB, sessionToken, at, idleTimeoutMs(env)) : null;
  // No session, nothing to end. Only a verified hint earns the trip back to the app (§3): a bare client_id must not
  // let any site bounce visitors through the portal to an app's address with a state of its choosing.
  if (!session) return { redirect: (hint && back) || '/login', signedOut: false };
  if (hint && hint.sub === session.user_id && (hint.sid === undefined || hint.sid === session.public_id)) {
    await revokeSession(env.DB, session, at);
    return { redirect: back ?? '/login', signedOut: true };
  }
  const id = randomToken();
  await insertLogoutRequest(env.DB, {
    id,
    session_hash: session.token_hash,
    client_id: live?.id ?? null,
    redirect_uri: registered ?? null,
    state: registered ? (params.get('state')?.slice(0, 1024) ?? null) : null,
    created_at: at,
    expires_at: at + LOGOUT_REQUEST_TTL_MS,
  });
  return { redirect: signOutPath(id), signedOut: false };
}

/**
 * A client a person can have signed in to, so the only kind whose name /sign_out may show and whose registered
 * address it may return to: live, the platform's own (a company's API client carries a name its administrator
 * chose and signs nobody in) and allowed the authorization code flow.
 */
function isSignInApp(client: ClientRow, at: number): boolean {
  return (
    client.disabled_at === null &&
    !client.revoked_at &&
    (client.expires_at == null || client.expires_at > at) &&
    !client.company_id &&
    parseList(client.grant_types).includes('authorization_code')
  );
}

const answerAt = (uri: string, state: string | null) => {
  const url = new URL(uri);
  if (state) url.searchParams.append('state', state);
  return url.toString();
};

/** GET /oidc/v1/logouts/:id — what /sign_out shows: the app that asked, when known. OI0900 when gone or another session's. */
export async function logoutRequestView(env: Env, id: string, sessionToken: string | null, at: number): Promise<{ app: string | null }> {
  const session = sessionToken ? await findSession(env.DB, sessionToken, at, idleTimeoutMs(env)) : null;
  const request = session ? await liveLogoutRequest(env.DB, id, session.token_hash, at) : null;
  if (!request) throw new GatewayError(ERR.OIDC_LOGOUT_GONE);
  return { app: request.client_name };
}

/**
 * POST /oidc/v1/logouts/:id/decision — the person's answer, through /api (the edge refuses it cross-site). The
 * request is spent in one statement matched on this session, so it works once and only in the browser that
 * opened it. "Sign out" ends the session (the edge clears the cookies on `signedOut`); either answer returns to
 * the app's registered address with its state, else to the sign-in page ("Sign out") or the user center.
 */
export async function decideLogout(env: Env, id: string, sessionToken: string | null, signOut: boolean, at: number): Promise<{ redirectTo: string; signedOut: boolean }> {
  const session = sessionToken ? await findSession(env.DB, sessionToken, at, idleTimeoutMs(env)) : null;
  const spent = session
    ? await consume<{ redirect_uri: string | null; state: string | null }>(env.DB, SINGLE_USE.oidcLogout, { id, session_hash: session.token_hash }, at, { returning: 'redirect_uri, state' })
    : null;
  if (!session || !spent) throw new GatewayError(ERR.OIDC_LOGOUT_GONE);
  if (signOut) await revokeSession(env.DB, session, at);
  const back = spent.redirect_uri ? answerAt(spent.redirect_uri, spent.state) : null;
  return { redirectTo: back ?? (signOut ? '/login' : '/user_center'), signedOut: signOut };
}
