import { recordGuess, withdrawGuessStatement } from '../identity/db/guesses';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { ProofStart, ProofStep } from '../../../src/schemas/step-up';
import { configOf, type PasskeySite } from '../../config';
import type { WorkerEnv } from '../../env';
import { passkeysOfUser } from '../passkeys/db';
import { twoStepEnabled } from '../second-step/db';
import { storedPasswordOf, type UserRow } from '../identity/db/people';
import { runBatch } from '../identity/db/batch';
import { GatewayError } from '../errors';
import { consumeCode, issueCode } from '../codes/service';
import { secondStepOptions, verifyPasskeySignIn } from '../passkeys/service';
import type { SessionRow } from '../identity/db/sessions';
import { checkCurrentPassword } from '../sign-in/service';
import { CHALLENGE_LIFETIME_MS, passSecondStep, prepareChallenge, type SecondFactor } from '../second-step/service';
import type { Lang } from '../../../src/lib/lang';
import { recordProofStatement } from '../identity/db/proof';
import { freshUntil, proofMaxAgeMs } from '../identity/proof';
import { ERR } from '../../../src/schemas/error-codes';

/**
 * Proving it's you again (security baseline "Proving it's you again (step-up)"): the one place that records and
 * checks a FRESH PROOF of the person for a session.
 *
 * - A proof is the password or a one-time code to the account's own e-mail (else phone), plus the second factor
 *   (an authenticator app code, a recovery code or a passkey) when two-step is on; or a passkey alone.
 * - A sign-in is a proof at the moment its session starts (sign-in/service.ts startSession writes it with the
 *   session, and what it passed: 'password', 'code+totp', 'passkey', ...). A hand-off from another site is not.
 * - A proof belongs to the session that made it (sessions.proved_at): it does nothing for another session of the
 *   same person, or for anyone else. It is fresh for STEP_UP_MAX_AGE seconds (10 minutes).
 * - requireFreshProof guards the sensitive changes (passkeys, two-step, recovery codes, password, ending the
 *   other sessions): without a fresh proof they answer SU0001 and the browser asks "Confirm it's you".
 * - The half-way state (first factor passed, second owed) is a second-step challenge of second-step/service.ts
 *   (single use, 5 minutes, 5 tries, the same guess caps as the sign-in's second step), bound to this session
 *   (ChallengeOptions.session) so it neither passes for another session nor starts a sign-in.
 * - A wrong password counts as a failed sign-in of the account from this network (checkCurrentPassword); a
 *   wrong code counts as consumeCode counts it.
 *
 * The forced change of an original password needs no extra step: the sign-in that found the flag is itself a
 * fresh proof.
 */

/** Where a proof's one-time code goes: the account's own e-mail (free to send), else its phone; null: neither. */
function codeRecipientOf(user: UserRow): { recipient: string; channel: 'email' | 'sms' } | null {
  if (user.email) return { recipient: user.email, channel: 'email' };
  if (user.phone_e164) return { recipient: user.phone_e164, channel: 'sms' };
  return null;
}

/** An address shown only in part: `a***e@example.com`, `+86*******1234`. */
function hidden(recipient: string): string {
  const at = recipient.indexOf('@');
  if (at > 0) {
    const name = recipient.slice(0, at);
    return `${name[0]}***${name.length > 2 ? name.at(-1) : ''}${recipient.slice(at)}`;
  }
  return `${recipient.slice(0, 3)}${'*'.repeat(Math.max(0, recipient.length - 7))}${recipient.slice(-4)}`;
}

/** What this person can prove themselves with, and whether the session already has a fresh proof. */
export async function proofStart(env: WorkerEnv, user: UserRow, session: SessionRow, at: number): Promise<ProofStart> {
  const code = codeRecipientOf(user);
  const passkeys = configOf(env).passkeys ? await passkeysOfUser(env.DB, user.id) : [];
  return {
    freshUntil: freshUntil(env, session, at),
    password: storedPasswordOf(user) !== null,
    passwordSalt: user.password_version === 1 ? user.legacy_salt : null,
    code: code?.channel ?? null,
    codeTo: code ? hidden(code.recipient) : null,
    passkey: passkeys.length > 0,
    twoStep: await twoStepEnabled(env.DB, user.id),
  };
}

interface ProofContext {
  env: WorkerEnv;
  user: UserRow;
  session: SessionRow;
  ip: string;
  now: number;
}

/** Sends a one-time code (purpose 'verify', codes.ts waits and caps) to the account's own e-mail or phone; SU0004 when it has neither. */
export async function sendProofCode({ env, user, ip, now: at }: ProofContext, { lang, traceId }: { lang: Lang; traceId: string | null }): Promise<void> {
  const to = codeRecipientOf(user);
  if (!to) throw new GatewayError(ERR.PROOF_METHOD_UNAVAILABLE);
  await issueCode(env, { recipient: to.recipient, channel: to.channel, purpose: 'verify', ip, now: at, lang, traceId });
}

/** Records the proof on the session (with `before`, in one batch) and answers it. */
async function proved({ env, session, now: at }: ProofContext, provedWith: string, before: D1PreparedStatement[] = []): Promise<ProofStep> {
  await runBatch(env.DB, [...before, recordProofStatement(env.DB, { sessionHash: session.token_hash, at, provedWith })]);
  return { proved: true, freshUntil: at + proofMaxAgeMs(env) };
}

/**
 * A first factor passed: the proof when two-step is off; else the half-way challenge (written in the same batch
 * as `before`), which only this session can complete with the second factor.
 */
async function firstFactorPassed(context: ProofContext, method: 'password' | 'code', before: D1PreparedStatement[]): Promise<ProofStep> {
  const { env, user, session, now: at } = context;
  if (!(await twoStepEnabled(env.DB, user.id))) return proved(context, method, before);
  const challenge = await prepareChallenge(env.DB, {
    userId: user.id,
    method,
    options: { kind: session.kind, agreedTo: [], session: session.token_hash },
    now: at,
  });
  await runBatch(env.DB, [...before, challenge.statement]);
  return { proved: false, challenge: challenge.token, expiresIn: CHALLENGE_LIFETIME_MS / 1000 };
}

/** Passwords an hour that "confirm it's you" compares for one person, whatever the networks (then SU0005). */
export const PROOF_PASSWORD_GUESS_CAP = 10;
/** Per client network, across people (then SU0006). */
export const PROOF_PASSWORD_NETWORK_CAP = 30;
const PROOF_GUESS_WINDOW_MS = 60 * 60 * 1000;

/**
 * The current password (the client's hash); PW0003 when wrong (counted as a failed sign-in), SU0004 when the
 * account has none. Every guess is recorded first under a cap per person across networks: the sign-in throttle
 * counts per network, and a stolen session may come from many.
 */
export async function proveWithPassword(context: ProofContext, password: string): Promise<ProofStep> {
  if (!storedPasswordOf(context.user)) throw new GatewayError(ERR.PROOF_METHOD_UNAVAILABLE);
  return firstFactorPassed(context, 'password', await currentPasswordChecked(context, password));
}

/**
 * The current password (the client's hash) of an account that has one, checked under the same caps as the proof
 * by password (SU0005, SU0006, the sign-in lock; PW0003 when wrong): the statements to batch with the change. The
 * password change asks it on the change itself, whatever the age of the session's proof (ASVS 5.0 V6.2.3), so a
 * session taken in the 10 minutes after a sign-in cannot change the password without knowing it.
 */
export async function currentPasswordChecked(context: Pick<ProofContext, 'env' | 'user' | 'ip' | 'now'>, password: string): Promise<D1PreparedStatement[]> {
  const guess = await recordGuess(
    context.env.DB,
    'proof',
    { subject: context.user.id, network: context.ip, at: context.now },
    {
      windowMs: PROOF_GUESS_WINDOW_MS,
      perNetwork: { max: PROOF_PASSWORD_NETWORK_CAP, code: ERR.PROOF_NETWORK_GUESSES_CAPPED },
      perSubject: { max: PROOF_PASSWORD_GUESS_CAP, code: ERR.PROOF_PASSWORD_GUESSES_CAPPED },
    },
  );
  const before = await checkCurrentPassword(context.env, context.user, password, { network: context.ip, at: context.now });
  return [...before, withdrawGuessStatement(context.env.DB, 'proof', guess)];
}

/** The one-time code of sendProofCode; the CD codes of consumeCode when wrong, expired or used. */
export async function proveWithCode(context: ProofContext, code: string): Promise<ProofStep> {
  const to = codeRecipientOf(context.user);
  if (!to) throw new GatewayError(ERR.PROOF_METHOD_UNAVAILABLE);
  await consumeCode(context.env.DB, { recipient: to.recipient, purpose: 'verify', code, ip: context.ip, now: context.now });
  return firstFactorPassed(context, 'code', []);
}

/** Maps the second step's sign-in wording onto the proof's: the challenge ended (SU0002) or ran out of tries (SU0003). */
function asProofError(error: unknown): never {
  if (error instanceof GatewayError && error.code === ERR.SECOND_STEP_EXPIRED) throw new GatewayError(ERR.PROOF_EXPIRED);
  if (error instanceof GatewayError && error.code === ERR.SECOND_STEP_TRIES_SPENT) throw new GatewayError(ERR.PROOF_TRIES_SPENT);
  throw error;
}

/** Completes the half-way challenge of this session with an app or recovery code: the proof. Single use: of parallel completions one proves. */
export async function proveSecondFactor(context: ProofContext, challenge: string, factor: SecondFactor): Promise<ProofStep> {
  const passed = await passSecondStep(context.env, challenge, factor, { ip: context.ip, now: context.now, session: context.session.token_hash }).catch(asProofError);
  return proved(context, `${passed.method}+${factor.kind}`);
}

/** Options to prove the person with one of their own passkeys; PK0013 when they have none. */
export function proofPasskeyOptions({ env, user, ip, now: at }: ProofContext, site: PasskeySite) {
  return secondStepOptions(env.DB, site, user.id, { ip, now: at, cap: configOf(env).passkeySignInCap });
}

/** A passkey of this very person (PK0014 for anyone else's): a proof by itself. */
export async function proveWithPasskey(context: ProofContext, site: PasskeySite, response: AuthenticationResponseJSON): Promise<ProofStep> {
  await verifyPasskeySignIn(context.env.DB, site, response, context.now, context.user.id);
  return proved(context, 'passkey');
}
