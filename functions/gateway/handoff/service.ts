import { HANDOFF_PARAMS, type HandoffBlobs, type HandoffFailure, type HandoffIntakeAnswer, type HandoffParam } from '../../../src/schemas/handoff';
import type { WorkerEnv } from '../../env';
import { configOf } from '../../config';
import { findUserById, type LoginIdentity } from '../identity/db/people';
import { runBatch } from '../identity/db/batch';
import { GatewayError } from '../errors';
import type { ClientInfo } from '../sessions/devices';
import { emailRecipient, phoneRecipientFromE164 } from '../identity/sign-in-names';
import { isCommonPassword, verifyPassword } from '../identity/passwords';
import { findSession, idleTimeoutMs } from '../sessions/service';
import { checkPassword, owedStep, readAccountAtSignIn, startSession } from '../sign-in/service';
import { deviceOfRequest } from '../devices/service';
import { openHandoffBlob, type HandoffClaims, type HandoffPurpose } from './blob';
import { handoffKeys } from './keys';
import { reserveStatement } from '../identity/db/single-use';
import { ERR } from '../../../src/schemas/error-codes';
import { pruneHandoffJtisStatement } from './db';

const paramNames = Object.keys(HANDOFF_PARAMS) as HandoffParam[];

export type ConsumedHandoff = { ok: true; claims: HandoffClaims } | { ok: false; reason: HandoffFailure };

/** Rows stay this long after their blob expired, so clock skew never lets a pruned jti be used again. */
const PRUNE_MARGIN_S = 300;

/**
 * Records a blob's jti; false when it was recorded before (a replay). One INSERT against the primary key, so
 * of any number of parallel uses exactly one wins. Long-expired rows are pruned in the same batch.
 */
export async function recordHandoffJti(db: D1Database, claims: HandoffClaims, nowMs: number): Promise<boolean> {
  const now = Math.floor(nowMs / 1000);
  const [, insert] = await db.batch([
    pruneHandoffJtisStatement(db, now - PRUNE_MARGIN_S),
    reserveStatement(db, 'handoff_jtis', 'jti', { jti: claims.jti, purpose: claims.purpose, expires_at: claims.exp, used_at: now }),
  ]);
  return insert?.meta.changes === 1;
}

/** Verifies and decrypts one blob meant for this site (HANDOFF_AUDIENCE) and `purpose`, without using it up. */
async function openHandoff(env: WorkerEnv, blob: string, purpose: HandoffPurpose, at: number) {
  // The keys' form (base64 of 32 bytes) is checked when the configuration is parsed.
  const config = configOf(env);
  const keys = await handoffKeys(config);
  return openHandoffBlob(blob, { keys, audience: config.handoffAudience, purpose, now: at });
}

/** Verifies, decrypts and consumes one blob meant for this site (HANDOFF_AUDIENCE) and `purpose`. */
export async function consumeHandoff(env: WorkerEnv, blob: string, purpose: HandoffPurpose, at: number): Promise<ConsumedHandoff> {
  const opened = await openHandoff(env, blob, purpose, at);
  if (!opened.ok) return opened;
  if (!(await recordHandoffJti(env.DB, opened.claims, at))) return { ok: false, reason: 'replayed' };
  return opened;
}

/**
 * Verifies and consumes a `userNameAndPwd` blob and returns its `loginName` and `passwordHash` (the
 * client-side SHA-256 hex the browser sends as a password). The caller uses them for exactly one sign-in and
 * must never store or log them.
 */
export async function consumeCredentialsHandoff(env: WorkerEnv, blob: string, at: number) {
  const consumed = await consumeHandoff(env, blob, 'credentials', at);
  if (!consumed.ok) return consumed;
  const { sub, loginName, passwordHash } = consumed.claims;
  return { ok: true as const, credentials: { sub, loginName: loginName!, passwordHash: passwordHash! } };
}

/** A `loginName` is an e-mail address, an E.164 phone number ('+8613800138000') or a chain-partner usId. */
function identityOfLoginName(loginName: string): LoginIdentity | undefined {
  try {
    if (loginName.includes('@')) return { email: emailRecipient(loginName) };
    if (loginName.startsWith('+')) return { phone: phoneRecipientFromE164(loginName) };
    return { usId: loginName };
  } catch {
    return undefined;
  }
}

/**
 * The password sign-in of a `userNameAndPwd` blob: the password sign-in of the sign-in screens
 * (sign-in/service.ts: same failure count per name and network, lock, decoy KDF), admitting only the blob's
 * `sub` (and on the partner site only a partner). What a redirect cannot carry is refused without a session:
 * the human check (there is no slider to show), the SY9990 salt round trip, and the insecure-password change a
 * password on the blocklist needs (the hash shows only that part of the password rule). The user id on success.
 */
async function credentialsSignIn(
  env: WorkerEnv,
  credentials: { sub: string; loginName: string; passwordHash: string },
  { partner, network, now, client, background }: { partner: boolean; network: string; now: number; client: ClientInfo; background: Background },
): Promise<string | undefined> {
  const identity = identityOfLoginName(credentials.loginName);
  if (!identity || (await isCommonPassword(env.DB, credentials.passwordHash))) {
    // The same KDF work as a real check, so a refusal never answers faster than a wrong password.
    await verifyPassword(credentials.passwordHash, null, env);
    return undefined;
  }
  try {
    const result = await checkPassword(env, identity, { password: credentials.passwordHash, passwordVersion: 2 }, {
      network,
      now,
      admits: (user) => user.id === credentials.sub && (!partner || user.is_partner === 1),
      history: { method: 'handoff', partner, client, background },
    });
    if (result.outcome !== 'signed-in') return undefined;
    if (result.before.length) await runBatch(env.DB, result.before);
    return result.user.id;
  } catch (error) {
    // US0010 (and a malformed name) is "these credentials sign no one in"; anything else is a real fault.
    if (error instanceof GatewayError) return undefined;
    throw error;
  }
}

/** Outcome of the blobs on one URL: a user to start a session for (if any), or why they were refused. */
type Intake = { ok: true; userId?: string; viaCredentials?: boolean } | { ok: false; reason: HandoffFailure };

/**
 * Whom the blobs speak for, read without using them up: one user id, undefined for none, or a refusal when
 * a blob does not open or two blobs name different people.
 */
async function claimedUser(env: WorkerEnv, blobs: HandoffBlobs, at: number): Promise<{ ok: true; userId?: string } | { ok: false; reason: HandoffFailure }> {
  let userId: string | undefined;
  for (const name of paramNames) {
    const blob = blobs[name];
    if (blob === undefined) continue;
    const opened = await openHandoff(env, blob, HANDOFF_PARAMS[name], at);
    if (!opened.ok) return opened;
    if (userId !== undefined && userId !== opened.claims.sub) return { ok: false, reason: 'invalid' };
    userId = opened.claims.sub;
  }
  return { ok: true, userId };
}

/** `network` is the client network a credentials sign-in counts its failures under (sign-in/service.ts). */
async function takeBlobs(
  env: WorkerEnv,
  blobs: HandoffBlobs,
  { partner, network, at, client, background }: { partner: boolean; network: string; at: number; client: ClientInfo; background: Background },
): Promise<Intake> {
  let userId: string | undefined;
  let viaCredentials = false;
  for (const name of paramNames) {
    const blob = blobs[name];
    if (blob === undefined) continue;
    if (HANDOFF_PARAMS[name] === 'credentials') {
      viaCredentials = true;
      const consumed = await consumeCredentialsHandoff(env, blob, at);
      if (!consumed.ok) return consumed;
      // The credentials are used for this one sign-in and dropped with the request.
      const signedInAs = await credentialsSignIn(env, consumed.credentials, { partner, network, now: at, client, background });
      if (!signedInAs) return { ok: false, reason: 'credentials' };
      if (userId !== undefined && userId !== signedInAs) return { ok: false, reason: 'invalid' };
      userId = signedInAs;
      continue;
    }
    const consumed = await consumeHandoff(env, blob, 'session', at);
    if (!consumed.ok) return consumed;
    // `token` and `userToken` on one URL must speak for one person.
    if (userId !== undefined && userId !== consumed.claims.sub) return { ok: false, reason: 'invalid' };
    userId = consumed.claims.sub;
  }
  if (userId !== undefined) {
    const user = await findUserById(env.DB, userId);
    // A partner session only for a partner (the navigator login admits no one else either).
    if (!user || (partner && user.is_partner !== 1)) return { ok: false, reason: 'invalid' };
  }
  return { ok: true, userId, viaCredentials };
}

export interface IntakeContext {
  /** The browser's session token (Authorization), if any. */
  sessionToken: string | null;
  /** The call came to the partner (navigator) site. */
  partner: boolean;
  /** The client network failures count under (clientIp: a bucket of its own when the edge named none). */
  network: string;
  client: ClientInfo;
  lang: 'zh' | 'en';
  at: number;
  /** The browser's device token (the edge's device cookie, DEVICE_HEADER), if any: the new-device challenge reads it. */
  device?: string;
  /** Work after the answer (the route's waitUntil): a wrong password's history row, which an unknown name never writes. */
  background: Background;
}

type Background = (work: Promise<void>) => void;

/**
 * The hand-off intake: every blob is verified and consumed; session blobs, and credentials that pass the
 * password sign-in, start a session. Credentials that owe a step (two-step, or the new-device challenge of issue 44)
 * start none: they leave its challenge instead, as a first factor of the sign-in screen does (owedStep). Session blobs were issued by a
 * site where the person is already signed in and are not asked again.
 *
 * A blob for someone else than the browser's live session never replaces it silently (a link from an attacker
 * would otherwise sign the victim into the attacker's account): with `askBeforeSwitching` the blobs stay
 * unused and the answer is 'choose'; the edge asks the person, and only their own click comes back without it.
 */
export async function takeHandoff(
  env: WorkerEnv,
  { blobs, askBeforeSwitching }: { blobs: HandoffBlobs; askBeforeSwitching: boolean },
  context: IntakeContext,
): Promise<HandoffIntakeAnswer> {
  const { sessionToken, partner, network, client, lang, at, background, device } = context;
  if (askBeforeSwitching && sessionToken) {
    const current = (await findSession(env.DB, sessionToken, at, idleTimeoutMs(env)))?.user_id;
    if (current !== undefined) {
      const claimed = await claimedUser(env, blobs, at);
      if (!claimed.ok) return { outcome: 'refused', reason: claimed.reason };
      if (claimed.userId !== undefined && claimed.userId !== current) return { outcome: 'choose' };
    }
  }
  const intake = await takeBlobs(env, blobs, { partner, network, at, client, background });
  if (!intake.ok) return { outcome: 'refused', reason: intake.reason };
  if (intake.userId === undefined) return { outcome: 'nobody' };
  const kind = partner ? 'partner' : 'platform';
  if (intake.viaCredentials) {
    // Name and password are a first factor: the step it owes (two-step's, or the new-device challenge) is decided as
    // for the sign-in screens (sign-in/service.ts owedStep), and leaves no session but the challenge.
    const account = await readAccountAtSignIn(env, intake.userId, { device: await deviceOfRequest(device), client, at });
    const owed = await owedStep(env, { userId: intake.userId, method: 'handoff', account, options: { kind, agreedTo: [] }, ip: network, at, lang, background }).catch((error: unknown) => {
      // Blocked; or a challenge that cannot be sent (no e-mail or phone, a send cap): these credentials open nothing here.
      if (error instanceof GatewayError) return error.code === ERR.ACCOUNT_BLOCKED ? ('blocked' as const) : ('credentials' as const);
      throw error;
    });
    if (owed === 'blocked' || owed === 'credentials') return { outcome: 'refused', reason: owed };
    if (owed) return { outcome: 'secondStep', secondStep: owed };
  }
  // Recorded in the sign-in history as a 'handoff' sign-in, like every other session start.
  const started = await startSession(env, { userId: intake.userId, kind, method: 'handoff', client, lang, at }).catch((error: unknown) => {
    if (error instanceof GatewayError && error.code === ERR.ACCOUNT_BLOCKED) return null;
    throw error;
  });
  if (!started) return { outcome: 'refused', reason: 'blocked' };
  return { outcome: 'signedIn', oauthVO: { access_token: started.token, token_type: 'bearer', expires_in: started.lifetimeS } };
}
