import type { WorkerEnv } from '../../env';
import { recordGuess, withdrawGuess } from '../identity/db/guesses';
import { GatewayError } from '../errors';
import { auditStatement } from '../audit/db';
import { prepareOperatorSession, storedPasswordOf, OPERATOR_ABSOLUTE_MS } from './service';
import {
  enrolIfClaimedStatement,
  findOperatorById,
  findOperatorByLogin,
  liveEnrolmentRow,
  operatorsWithPasskeyCounts,
  passkeyCountOf,
  savePendingSecret,
  setOperatorTotpSecret,
  type EnrolmentRow,
  type OperatorRow,
} from './db';
import { assertNewPasswordAllowed, hashPassword, sha256Hex, verifyPassword } from '../identity/passwords';
import { claimChallenge, countChallengeTry, liveChallenge, prepareChallenge } from '../identity/db/challenges';
import { consumeStatement, countTry, SINGLE_USE } from '../identity/db/single-use';
import { takeTotpStep } from '../identity/db/totp';
import { revokeAllSessionsStatement } from '../identity/db/sessions';
import { decryptSecret, encryptSecret, newTotpSecret, stepOf, totpShown, TOTP_ISSUER } from '../second-step/service';
import { ERR } from '../../../src/schemas/error-codes';

/**
 * How an operator signs in and enrols (the accounts themselves: operators/service.ts, scripts/operator.mjs).
 *
 * - Sign-in is two calls. The password (the client's SHA-256 hex, as for people) answers a challenge: random,
 *   stored as SHA-256, OPERATOR_CHALLENGE_MS, OPERATOR_CHALLENGE_TRIES tries, single use, and no session. Only
 *   a right TOTP code of the operator's app on that challenge starts the session, in one batch with the audit
 *   row. The second step is never optional: an operator without a secret cannot pass the first.
 * - Every password and TOTP guess is recorded before it is checked (operator_guesses, a right one withdrawn)
 *   under a cap per login and per client network over OPERATOR_GUESS_WINDOW_MS, checked and inserted in one
 *   statement. An unknown, removed or not yet enrolled login is capped alike and costs the same PBKDF2 work
 *   (verifyPassword's decoy), and answers the same OP0004, so neither answer nor timing tells logins apart.
 * - A TOTP code is taken once: `UPDATE ... WHERE totp_last_step < step`, so of parallel uses one wins.
 * - Enrolment: the link's token (24 hours, stored hashed) opens a pending TOTP secret; password plus one valid
 *   code of it set both on the operator and use the link up, in one batch whose first statement claims the
 *   link (of parallel uses exactly one changes anything). Wrong codes count on the link (5, then it is dead).
 */
export const OPERATOR_GUESS_WINDOW_MS = 60 * 60 * 1000;
/** Wrong passwords (and, separately, wrong codes) an hour for one login: slow enough that guessing is hopeless. */
export const OPERATOR_LOGIN_GUESS_CAP = 10;
/** Per client network, across logins: a script cannot walk a list of logins either. */
export const OPERATOR_NETWORK_GUESS_CAP = 30;
export const OPERATOR_CHALLENGE_MS = 5 * 60 * 1000;
export const OPERATOR_CHALLENGE_TRIES = 5;
export const ENROLMENT_TRIES = 5;
/** How authenticator apps file operator codes, apart from the same person's platform account. */
export const OPERATOR_TOTP_ISSUER = `${TOTP_ISSUER} · Operators`;

/** The associated data an operator's TOTP secret is sealed with: it opens for this operator only, never for a person. */
const secretOwner = (operatorId: string) => `operator:${operatorId}`;

export type Client = { network: string; at: number; userAgent?: string | null };

/** Records a guess under both caps (OP0005 per login, OP0006 per network) and returns its id. */
const recordOperatorGuess = (db: D1Database, subject: string, kind: 'password' | 'totp', { network, at }: Client) =>
  recordGuess(
    db,
    'operator',
    { subject, network, at, fields: { kind } },
    { windowMs: OPERATOR_GUESS_WINDOW_MS, perNetwork: { max: OPERATOR_NETWORK_GUESS_CAP, code: ERR.OPERATOR_NETWORK_GUESSES_CAPPED }, perSubject: { max: OPERATOR_LOGIN_GUESS_CAP, code: ERR.OPERATOR_LOGIN_GUESSES_CAPPED } },
  );

/** A right guess is no failure: it stops counting. */
const withdrawOperatorGuess = (db: D1Database, id: number) => withdrawGuess(db, 'operator', id);

/** The first step: the password. Answers the challenge of the second step; OP0004 for anything else. */
export async function passwordStep(env: WorkerEnv, login: string, clientHash: string, client: Client) {
  const db = env.DB;
  const subject = login.trim().toLowerCase();
  const guess = await recordOperatorGuess(db, subject, 'password', client);
  const operator = await findOperatorByLogin(db, subject);
  // The same KDF work with or without an operator behind the login (verifyPassword's decoy when null).
  const { ok } = await verifyPassword(clientHash, storedPasswordOf(operator), env);
  if (!ok || !operator?.totp_secret_enc) throw new GatewayError(ERR.OPERATOR_WRONG_LOGIN_OR_PASSWORD);
  await withdrawOperatorGuess(db, guess);
  const { token: challenge, statement } = await prepareChallenge(db, 'operator', { ownerId: operator.id, at: client.at, lifetimeMs: OPERATOR_CHALLENGE_MS });
  await statement.run();
  const passkeys = await passkeyCountOf(db, operator.id);
  return { challenge, expiresIn: OPERATOR_CHALLENGE_MS / 1000, methods: passkeys ? (['totp', 'passkey'] as const) : (['totp'] as const) };
}

/**
 * The second step: a TOTP code on the challenge. Starts the session (with its audit row, one batch) and
 * returns the operator and the token for the edge. OP0007 for an unknown, expired, used or exhausted
 * challenge, OP0008 for a wrong code (data.triesLeft), OP0009 for a code used already.
 */
export async function totpStep(env: WorkerEnv, challenge: string, code: string, client: Client) {
  const db = env.DB;
  const { hash, operator } = await signInChallenge(db, challenge, client.at);
  const guess = await recordOperatorGuess(db, operator.login, 'totp', client);
  // A try is counted on the challenge before the code is compared.
  const counted = await countChallengeTry(db, 'operator', hash, client.at, OPERATOR_CHALLENGE_TRIES);
  if (!counted) {
    await withdrawOperatorGuess(db, guess);
    throw new GatewayError(ERR.OPERATOR_SIGN_IN_EXPIRED);
  }
  const step = stepOf(await decryptSecret(env, secretOwner(operator.id), operator.totp_secret_enc!), code, client.at);
  if (step === null) throw new GatewayError(ERR.OPERATOR_CODE_WRONG, { triesLeft: OPERATOR_CHALLENGE_TRIES - counted.tries });
  await withdrawOperatorGuess(db, guess);
  if (!(await takeTotpStep(db, 'operator', operator.id, step))) throw new GatewayError(ERR.OPERATOR_CODE_ALREADY_USED);
  return passedSecondStep(db, hash, operator, client, 'totp');
}

/** The live sign-in challenge `token` names, with its operator (who must have a second step), or OP0007. */
export async function signInChallenge(db: D1Database, token: string, at: number): Promise<{ hash: string; operator: OperatorRow }> {
  const row = await liveChallenge<{ operator_id: string }>(db, 'operator', token, at);
  const operator = row ? await findOperatorById(db, row.operator_id) : null;
  if (!row || !operator?.totp_secret_enc) throw new GatewayError(ERR.OPERATOR_SIGN_IN_EXPIRED);
  return { hash: row.hash, operator };
}

/**
 * The second step passed: claims the sign-in challenge (one conditional UPDATE: of parallel passes one wins,
 * OP0007 for the others) and starts the session with its audit row in one batch.
 */
export async function passedSecondStep(db: D1Database, hash: string, operator: OperatorRow, client: Client, method: 'totp' | 'passkey') {
  const claimed = await claimChallenge(db, 'operator', hash, client.at);
  if (!claimed) throw new GatewayError(ERR.OPERATOR_SIGN_IN_EXPIRED);
  const session = await prepareOperatorSession(db, operator.id, client.at, client);
  await db.batch([
    session.statement,
    auditStatement(db, { at: client.at, actor: { kind: 'operator', id: operator.id }, action: 'operator.signed_in', network: client.network, detail: { method } }),
  ]);
  return { operator, token: session.token, expiresIn: OPERATOR_ABSOLUTE_MS / 1000 };
}

/** A link that may still be used: unused, unexpired, tries left, for an operator not removed. */
async function liveEnrolment(db: D1Database, hash: string, at: number): Promise<EnrolmentRow | null> {
  return liveEnrolmentRow(db, hash, at, ENROLMENT_TRIES);
}

/** Opening the link: who it is for and a new pending TOTP secret (replacing any earlier one). OP0010 for a dead link. */
export async function startOperatorEnrolment(env: WorkerEnv, token: string, at: number) {
  const hash = await sha256Hex(token);
  const row = await liveEnrolment(env.DB, hash, at);
  if (!row) throw new GatewayError(ERR.OPERATOR_ENROLMENT_LINK_INVALID);
  const secret = newTotpSecret();
  const sealed = await encryptSecret(env, secretOwner(row.operator_id), new Uint8Array(secret.buffer));
  const saved = await savePendingSecret(env.DB, hash, sealed, at);
  if (!saved) throw new GatewayError(ERR.OPERATOR_ENROLMENT_LINK_INVALID);
  return { login: row.login, name: row.name, ...totpShown(secret, row.login, OPERATOR_TOTP_ISSUER) };
}

/**
 * Using the link: the password (not a common one, PW0002) and one valid code of the pending secret. The batch
 * claims the link first; the operator's password and secret, the end of their older sessions and the audit row
 * follow only when that claim changed the row, so of parallel uses exactly one does anything (OP0010 for the
 * others). Returns the operator's login.
 */
export async function finishOperatorEnrolment(env: WorkerEnv, input: { token: string; password: string; code: string }, client: Client) {
  const db = env.DB;
  await assertNewPasswordAllowed(db, input.password);
  const hash = await sha256Hex(input.token);
  const row = await liveEnrolment(db, hash, client.at);
  if (!row?.pending_secret_enc) throw new GatewayError(ERR.OPERATOR_ENROLMENT_LINK_INVALID);
  const counted = await countTry(db, SINGLE_USE.operatorEnrolment, { token_hash: hash }, client.at, ENROLMENT_TRIES);
  if (!counted) throw new GatewayError(ERR.OPERATOR_ENROLMENT_LINK_INVALID);
  const step = stepOf(await decryptSecret(env, secretOwner(row.operator_id), row.pending_secret_enc), input.code, client.at);
  if (step === null) throw new GatewayError(ERR.OPERATOR_CODE_WRONG, { triesLeft: ENROLMENT_TRIES - counted.tries });
  const password = await hashPassword(input.password, env);
  const results = await db.batch([
    consumeStatement(db, SINGLE_USE.operatorEnrolment, { token_hash: hash, pending_secret_enc: row.pending_secret_enc }, client.at, { returning: 'token_hash' }),
    enrolIfClaimedStatement(db, { operatorId: row.operator_id, password, totpSecretEnc: row.pending_secret_enc, step, at: client.at }),
    auditStatement(
      db,
      { at: client.at, actor: { kind: 'operator', id: row.operator_id }, action: 'operator.enrolled', target: { kind: 'operator', id: row.operator_id }, network: client.network, detail: { secondStep: 'totp' } },
      { ifChanged: true },
    ),
    // New credentials end whatever the old ones opened (a re-enrolment after a lost phone).
    revokeAllSessionsStatement(db, 'operator', row.operator_id, client.at, { onlyIfChanged: true }),
  ]);
  if (results[1]?.meta.changes !== 1) throw new GatewayError(ERR.OPERATOR_ENROLMENT_LINK_INVALID);
  return { login: row.login };
}

/** Every operator for the admin's list (never a password or secret column). */
export async function listOperators(db: D1Database) {
  const results = await operatorsWithPasskeyCounts(db);
  return results.map((row) => ({
    login: row.login,
    name: row.name,
    role: row.role,
    createdAt: row.created_at,
    enrolled: row.enrolled_at !== null,
    removedAt: row.removed_at,
    secondSteps: [...(row.totp_secret_enc ? (['totp'] as const) : []), ...(row.passkeys ? (['passkey'] as const) : [])],
  }));
}

/**
 * A fresh proof of the operator for one sensitive call (a support "view as", issue 44): a code of their
 * authenticator app, given with the call itself. It is a guess like a sign-in's second step (the caps per login
 * and per network, OP0005/OP0006), OP0008 when wrong, and each step is taken once (OP0009 for a code used already,
 * by a sign-in or by another proof). An operator without an app (not enrolled) gets SV0005.
 */
export async function proveOperator(env: WorkerEnv, operatorId: string, code: string, client: Client): Promise<void> {
  const operator = await findOperatorById(env.DB, operatorId);
  if (!operator?.totp_secret_enc) throw new GatewayError(ERR.OPERATOR_PROOF_REQUIRED);
  const guess = await recordOperatorGuess(env.DB, operator.login, 'totp', client);
  const step = stepOf(await decryptSecret(env, secretOwner(operator.id), operator.totp_secret_enc), code, client.at);
  if (step === null) throw new GatewayError(ERR.OPERATOR_CODE_WRONG);
  await withdrawOperatorGuess(env.DB, guess);
  if (!(await takeTotpStep(env.DB, 'operator', operator.id, step))) throw new GatewayError(ERR.OPERATOR_CODE_ALREADY_USED);
}

/** Local runs only (dev/routes.ts): the base32 TOTP secret of a dev operator, set now when it has none. */
export async function devOperatorTotpSecret(env: WorkerEnv, operatorId: string): Promise<string | null> {
  const operator = await findOperatorById(env.DB, operatorId);
  if (!operator) return null;
  if (operator.totp_secret_enc) return (await decryptSecret(env, secretOwner(operator.id), operator.totp_secret_enc)).base32;
  const secret = newTotpSecret();
  await setOperatorTotpSecret(env.DB, operator.id, await encryptSecret(env, secretOwner(operator.id), new Uint8Array(secret.buffer)));
  return secret.base32;
}
