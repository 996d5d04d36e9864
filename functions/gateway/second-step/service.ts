import { sessionless } from '../authority/db';
import { Secret, TOTP } from 'otpauth';
import type { WorkerEnv } from '../../env';
import type { AuditedAction } from '../../../src/schemas/ops-people';
import { configOf } from '../../config';
import { decodeBase64, encodeBase64Url } from '../../../src/lib/base64';
import {
  disableStatements,
  isRecoveryCode,
  replaceRecoveryCodesStatements,
  savePendingSecret,
  twoStepOf,
  useRecoveryCode,
  type ChallengeRow,
} from './db';
import { runBatch } from '../identity/db/batch';
import { type UserRow } from '../identity/db/people';
import { GatewayError } from '../errors';
import { companyAuthority } from '../authority/service';
import { ownEventStatement } from '../audit/db';
import { sha256Hex } from '../identity/passwords';
import { randomToken } from '../identity/tokens';
import { challengeRow, claimChallenge, countChallengeTry, liveChallenge, prepareChallenge as prepareChallengeOf } from '../identity/db/challenges';
import { takeTotpStep } from '../identity/db/totp';
import { recordGuess, withdrawGuess } from '../identity/db/guesses';
import { ERR, type ErrorCode } from '../../../src/schemas/error-codes';
import type { SocialBinding } from '../social/db';
import { checkCode, useCheckedCode } from '../codes/service';

/**
 * Two-step verification with an authenticator app (TOTP, RFC 6238: SHA-1, 6 digits, 30 s steps) and ten
 * single-use recovery codes.
 *
 * - The TOTP secret is stored AES-256-GCM encrypted with TWO_STEP_KEY (the user id as associated data, so a
 *   row copied to another account does not open). Enrolment stores a pending secret and turns two-step on
 *   only with one valid code of it; the recovery codes are then shown once and stored as SHA-256 hashes.
 * - A code is accepted for the current step or one step either side (TOTP_WINDOW), and each code once: taking
 *   it is `UPDATE ... WHERE last_used_step < step`, so of parallel uses exactly one wins and an older code can
 *   never follow a newer one.
 * - Wrong codes are capped like one-time codes: every guess is recorded first (two_step_guesses, removed again
 *   when right) under a cap per person and per client network over GUESS_WINDOW_MS, and a second-step
 *   challenge takes at most CHALLENGE_MAX_TRIES tries.
 * - A first factor of a person with two-step on ends in a challenge (sign-in/service.ts): random, stored as
 *   SHA-256, single use, CHALLENGE_LIFETIME_MS, bound to the person, the method and the sign-in's options.
 */
export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
export const TOTP_WINDOW = 1;
/** The name an authenticator app files the codes under. */
export const TOTP_ISSUER = 'Shipping & Port Services Platform';
export const RECOVERY_CODE_COUNT = 10;
export const CHALLENGE_LIFETIME_MS = 5 * 60 * 1000;
export const CHALLENGE_MAX_TRIES = 5;
export const GUESS_WINDOW_MS = 60 * 60 * 1000;
/** Two challenges' worth of wrong codes an hour per person: a script gets 10 guesses in 10^6 per hour. */
export const USER_GUESS_CAP = 10;
/** Per client network, across people. */
export const IP_GUESS_CAP = 30;

/** What the sign-in that owes the second step would have started; restored when the step is passed. */
export interface ChallengeOptions {
  kind: 'platform' | 'partner';
  agreedTo: string[];
  /**
   * Set when the challenge is the half-way state of a proof in a signed-in session (identity/proof.ts): the
   * SHA-256 of that session's token. Such a challenge passes only for that session and never starts a sign-in.
   */
  session?: string;
  /** The sign-in proves nobody (a shared link): its session starts without a proof even after the second step. */
  unproved?: true;
  /** A WeChat or WeCom the sign-in ties to the account: bound only when the second step is passed (sign-in/service.ts). */
  binding?: SocialBinding;
  /**
   * The challenge is the new-device challenge (devices/service.ts), not two-step: only the one-time code sent to
   * `recipient` (the account's e-mail or phone when the challenge was made) passes it.
   */
  newDevice?: { channel: 'email' | 'sms'; recipient: string };
  /** A company of the person forbids trusted devices (issue 44): the screen offers no "Trust this device". */
  trustForbidden?: true;
}

/** 'code': the new-device challenge's one-time code; it passes only that challenge (passSecondStep). */
export type SecondFactor = { kind: 'totp'; code: string } | { kind: 'recovery'; code: string } | { kind: 'code'; code: string };

/** A public key for local runs only (DEV_OUTBOX); a deployed Worker refuses to start without TWO_STEP_KEY. */
const DEV_TWO_STEP_KEY = 'ZGV2LW9ubHkgdHdvLXN0ZXAga2V5LCBwdWJsaWMhISE=';

async function aesKey(env: WorkerEnv): Promise<CryptoKey> {
  const config = configOf(env);
  const raw = config.twoStepKey ?? (config.devTwoStepKey ? DEV_TWO_STEP_KEY : undefined);
  const bytes = raw ? decodeBase64(raw) : undefined;
  // Fail closed: without a key no secret can be stored or read.
  if (!bytes) throw new Error('TWO_STEP_KEY is not configured');
  return crypto.subtle.importKey('raw', bytes, 'AES-GCM', false, ['encrypt', 'decrypt']);
}

/** Seals a TOTP secret; `userId` is the associated data (a sealed secret opens only for its owner). */
export async function encryptSecret(env: WorkerEnv, userId: string, secret: Uint8Array): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(userId) }, await aesKey(env), secret),
  );
  return `v1.${encodeBase64Url(iv)}.${encodeBase64Url(sealed)}`;
}

export async function decryptSecret(env: WorkerEnv, userId: string, stored: string): Promise<Secret> {
  const [version, iv, sealed] = stored.split('.');
  const ivBytes = iv ? decodeBase64(iv) : undefined;
  const sealedBytes = sealed ? decodeBase64(sealed) : undefined;
  if (version !== 'v1' || !ivBytes || !sealedBytes) throw new Error('unreadable two-step secret');
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: ivBytes, additionalData: new TextEncoder().encode(userId) }, await aesKey(env), sealedBytes);
  return new Secret({ buffer: plain });
}

/** The step a TOTP code is valid for at `now` (±TOTP_WINDOW), or null. */
export function stepOf(secret: Secret, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = TOTP.validate({ token: code, secret, digits: TOTP_DIGITS, period: TOTP_PERIOD_S, timestamp: now, window: TOTP_WINDOW });
  return delta === null ? null : TOTP.counter({ period: TOTP_PERIOD_S, timestamp: now }) + delta;
}

/** Recovery codes as shown: ten characters without look-alikes (50 bits), in two groups of five. */
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
function recoveryCode(): string {
  const chars = [...crypto.getRandomValues(new Uint8Array(10))].map((byte) => RECOVERY_ALPHABET[byte % 32]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}
/** Case, spaces and dashes do not matter when a recovery code is typed. */
const normalRecoveryCode = (code: string) => code.toUpperCase().replace(/[\s-]/g, '');
const hashRecoveryCode = (userId: string, code: string) => sha256Hex(`${userId}|${normalRecoveryCode(code)}`);

async function newRecoveryCodes(userId: string) {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
  return { codes, hashes: await Promise.all(codes.map((code) => hashRecoveryCode(userId, code))), batch: randomToken() };
}

/**
 * Records a guess under the caps (MF0006 per network, MF0005 per person; checked and inserted in one
 * statement) and returns its id, to withdraw when the guess was right.
 */
function recordSecondFactorGuess(db: D1Database, userId: string, ip: string, now: number): Promise<number> {
  return recordGuess(
    db,
    'secondFactor',
    { subject: userId, network: ip, at: now },
    { windowMs: GUESS_WINDOW_MS, perNetwork: { max: IP_GUESS_CAP, code: ERR.TOTP_GUESSES_PER_NETWORK_CAPPED }, perSubject: { max: USER_GUESS_CAP, code: ERR.TOTP_GUESSES_PER_ACCOUNT_CAPPED } },
  );
}

/** The account name an authenticator app shows next to the codes. */
const accountLabel = (user: UserRow) => user.email ?? user.phone_e164 ?? user.us_id ?? user.id;

/** Starts enrolment: a new pending secret, as text and as an otpauth:// URI for the QR code. MF0010 when two-step is on. */
export async function startEnrolment(env: WorkerEnv, user: UserRow, now: number): Promise<{ secret: string; uri: string }> {
  const secret = newTotpSecret();
  if (!(await savePendingSecret(env.DB, user.id, await encryptSecret(env, user.id, new Uint8Array(secret.buffer)), now))) {
    throw new GatewayError(ERR.TWO_STEP_ALREADY_ON);
  }
  return totpShown(secret, accountLabel(user));
}

export const newTotpSecret = () => new Secret({ size: 20 });

/** A secret as an authenticator app takes it: base32 text and the otpauth:// URI for the QR code. */
export function totpShown(secret: Secret, label: string, issuer = TOTP_ISSUER): { secret: string; uri: string } {
  const totp = new TOTP({ issuer, label, secret, digits: TOTP_DIGITS, period: TOTP_PERIOD_S });
  return { secret: secret.base32, uri: totp.toString() };
}

/**
 * Finishes enrolment with one valid code of the pending secret: two-step goes on and the recovery codes are
 * made, in one batch guarded by the pending row (a restarted enrolment or a parallel finish changes nothing).
 * MF0011 without a pending enrolment, MF0002 for a wrong code, MF0003 for a code already used.
 */
export async function finishEnrolment(env: WorkerEnv, user: UserRow, code: string, { ip, now }: { ip: string; now: number }): Promise<string[]> {
  const db = env.DB;
  const row = await twoStepOf(db, user.id);
  if (!row || row.enabled_at !== null) throw new GatewayError(ERR.TWO_STEP_SETUP_RESTART);
  const guess = await recordSecondFactorGuess(db, user.id, ip, now);
  const step = stepOf(await decryptSecret(env, user.id, row.secret_enc), code, now);
  if (step === null) throw new GatewayError(ERR.TOTP_WRONG);
  await withdrawGuess(db, 'secondFactor', guess);
  const recovery = await newRecoveryCodes(user.id);
  const [enabled] = await db.batch(
    audited(
      db,
      replaceRecoveryCodesStatements(db, {
        userId: user.id,
        batch: recovery.batch,
        hashes: recovery.hashes,
        set: ', enabled_at = ?3, last_used_step = ?4',
        guard: 'enabled_at IS NULL AND last_used_step < ?4 AND secret_enc = ?5',
        binds: [now, step, row.secret_enc],
      }),
      { at: now, userId: user.id, action: 'user.two_step_enabled', network: ip },
    ),
  );
  if (enabled?.meta.changes !== 1) throw new GatewayError(ERR.TOTP_ALREADY_USED);
  return recovery.codes;
}

/**
 * Checks a second factor of a person with two-step on and uses it up: a TOTP code (its step taken) or a
 * recovery code (marked used). The guess is capped first; a right one is withdrawn from the count.
 * MF0012 when two-step is off, MF0002 wrong, MF0003 already used; `beforeCompare` runs after the guess is
 * recorded and before the comparison (the challenge's try count).
 */
export async function useSecondFactor(
  env: WorkerEnv,
  userId: string,
  factor: SecondFactor,
  { ip, now, beforeCompare }: { ip: string; now: number; beforeCompare?: () => Promise<void> },
): Promise<void> {
  const db = env.DB;
  // The new-device code is no second factor: it never passes two-step.
  if (factor.kind === 'code') throw new GatewayError(ERR.TOTP_WRONG);
  const row = await twoStepOf(db, userId);
  if (!row || row.enabled_at === null) throw new GatewayError(ERR.TWO_STEP_OFF);
  const guess = await recordSecondFactorGuess(db, userId, ip, now);
  if (beforeCompare) {
    try {
      await beforeCompare();
    } catch (error) {
      // Never compared: not a wrong guess.
      await withdrawGuess(db, 'secondFactor', guess);
      throw error;
    }
  }
  if (factor.kind === 'totp') {
    const step = stepOf(await decryptSecret(env, userId, row.secret_enc), factor.code, now);
    if (step === null) throw new GatewayError(ERR.TOTP_WRONG);
    // A valid code is no wrong guess, even one used already (knowing it proves the app, not a guess).
    await withdrawGuess(db, 'secondFactor', guess);
    if (!(await takeTotpStep(db, 'person', userId, step))) throw new GatewayError(ERR.TOTP_ALREADY_USED);
    return;
  }
  const hash = await hashRecoveryCode(userId, factor.code);
  if (await useRecoveryCode(db, userId, hash, now)) {
    await withdrawGuess(db, 'secondFactor', guess);
    return;
  }
  if (await isRecoveryCode(db, userId, hash)) {
    await withdrawGuess(db, 'secondFactor', guess);
    throw new GatewayError(ERR.TOTP_ALREADY_USED);
  }
  throw new GatewayError(ERR.TOTP_WRONG);
}

type OwnEvent = { at: number; userId: string; action: AuditedAction; network: string };

/** The person's own audit row, written only if the statement before it changed a row. */
const ownEventIfChanged = (db: D1Database, event: OwnEvent) => ownEventStatement(db, event, { onlyIfChanged: true });

/** replaceRecoveryCodesStatements with the event's audit row right after its guarded UPDATE (the first statement). */
const audited = (db: D1Database, [update, ...rest]: D1PreparedStatement[], event: OwnEvent) => [update!, ownEventIfChanged(db, event), ...rest];

/** Turns two-step off (the route asked for a fresh proof, identity/proof.ts); MF0012 when it was not on. */
export async function disableTwoStep(env: WorkerEnv, user: UserRow, at: { ip: string; now: number }): Promise<void> {
  const row = await twoStepOf(env.DB, user.id);
  if (!row || row.enabled_at === null) throw new GatewayError(ERR.TWO_STEP_OFF);
  await runBatch(env.DB, [...disableStatements(env.DB, user.id), ownEventIfChanged(env.DB, { at: at.now, userId: user.id, action: 'user.two_step_disabled', network: at.ip })]);
}

/** Ten new recovery codes (after a fresh proof, as above); the old ones die in the same batch. */
export async function regenerateRecoveryCodes(env: WorkerEnv, user: UserRow, at: { ip: string; now: number }): Promise<string[]> {
  const row = await twoStepOf(env.DB, user.id);
  if (!row || row.enabled_at === null) throw new GatewayError(ERR.TWO_STEP_OFF);
  const recovery = await newRecoveryCodes(user.id);
  const [replaced] = await env.DB.batch(
    audited(
      env.DB,
      replaceRecoveryCodesStatements(env.DB, { userId: user.id, batch: recovery.batch, hashes: recovery.hashes, guard: 'enabled_at IS NOT NULL' }),
      { at: at.now, userId: user.id, action: 'user.recovery_codes_regenerated', network: at.ip },
    ),
  );
  if (replaced?.meta.changes !== 1) throw new GatewayError(ERR.TWO_STEP_OFF);
  return recovery.codes;
}

/** A new challenge: the token for the browser and the INSERT to batch with the first factor's writes. */
export function prepareChallenge(
  db: D1Database,
  { userId, method, options, now }: { userId: string; method: string; options: ChallengeOptions; now: number },
): Promise<{ token: string; statement: D1PreparedStatement }> {
  return prepareChallengeOf(db, 'person', { ownerId: userId, at: now, lifetimeMs: CHALLENGE_LIFETIME_MS, fields: { method, options: JSON.stringify(options) } });
}

/**
 * The live second-step challenge of `token` (not used, not expired, tries left or not) and its hash; MF0001
 * otherwise. `session`: the token hash of the signed-in session a proof's challenge was made for (none for a
 * sign-in's), so a challenge passes only where it was made.
 */
export async function liveSecondStep(db: D1Database, token: string | undefined, now: number, session?: string): Promise<ChallengeRow & { hash: string }> {
  const challenge = token ? await liveChallenge<ChallengeRow>(db, 'person', token, now) : null;
  if (!challenge || (JSON.parse(challenge.options) as ChallengeOptions).session !== session) throw new GatewayError(ERR.SECOND_STEP_EXPIRED);
  return challenge;
}

/** Counts a try on the challenge before a factor is checked: the tries so far; MF0004 when out of tries, MF0001 when it died meanwhile. */
async function countTry(db: D1Database, hash: string, now: number): Promise<number> {
  const counted = await countChallengeTry(db, 'person', hash, now, CHALLENGE_MAX_TRIES);
  if (counted) return counted.tries;
  const latest = await challengeRow<ChallengeRow>(db, 'person', hash);
  throw new GatewayError(latest && latest.used_at === null && latest.tries >= CHALLENGE_MAX_TRIES ? ERR.SECOND_STEP_TRIES_SPENT : ERR.SECOND_STEP_EXPIRED);
}

/** Uses the challenge up (single use: of parallel claims one gets it) and answers it with its options; MF0001 otherwise. */
async function claimSecondStep(db: D1Database, hash: string, now: number): Promise<ChallengeRow & { parsed: ChallengeOptions }> {
  const claimed = await claimChallenge<ChallengeRow>(db, 'person', hash, now);
  if (!claimed) throw new GatewayError(ERR.SECOND_STEP_EXPIRED);
  return { ...claimed, parsed: JSON.parse(claimed.options) as ChallengeOptions };
}

/**
 * Passes the second step of the challenge `token` with `factor`: a try is counted on the challenge before the
 * code is compared, the code is used up, then the challenge is claimed (single use). Returns the challenge
 * (whose user, method and options start the session). MF0001 for no, an expired or a used challenge, MF0004
 * when it is out of tries, and the codes of useSecondFactor.
 */
export async function passSecondStep(
  env: WorkerEnv,
  token: string | undefined,
  factor: SecondFactor,
  { ip, now, session }: { ip: string; now: number; session?: string },
): Promise<ChallengeRow & { parsed: ChallengeOptions }> {
  const db = env.DB;
  const challenge = await liveSecondStep(db, token, now, session);
  const newDevice = (JSON.parse(challenge.options) as ChallengeOptions).newDevice;
  if (newDevice) return passNewDeviceChallenge(db, challenge, newDevice.recipient, factor, { ip, now });
  let tries = 0;
  try {
    await useSecondFactor(env, challenge.user_id, factor, {
      ip,
      now,
      beforeCompare: async () => {
        tries = await countTry(db, challenge.hash, now);
      },
    });
  } catch (error) {
    if (error instanceof GatewayError && error.code === ERR.TOTP_WRONG) throw new GatewayError(ERR.TOTP_WRONG, { triesLeft: CHALLENGE_MAX_TRIES - tries });
    throw error;
  }
  return claimSecondStep(db, challenge.hash, now);
}

/** What a refusal of the new-device code means for its challenge (the same rules as the second step's). */
const NEW_DEVICE_REFUSALS: Partial<Record<string, ErrorCode>> = {
  [ERR.CODE_TRIES_SPENT]: ERR.SECOND_STEP_TRIES_SPENT,
  [ERR.CODE_EXPIRED]: ERR.SECOND_STEP_EXPIRED,
  [ERR.CODE_NOT_REQUESTED]: ERR.SECOND_STEP_EXPIRED,
  [ERR.CODE_ALREADY_USED]: ERR.SECOND_STEP_EXPIRED,
};

/**
 * Passes a new-device challenge with the one-time code sent for it: a try is counted on the challenge first (at most
 * CHALLENGE_MAX_TRIES, as the second step), then the code is checked and used exactly as a code sign-in's
 * (codes/service.ts: its guess caps per recipient and network, its own tries, one winner of parallel right guesses),
 * then the challenge is claimed (single use). Only a code of the account's own recipient fits. ND0001 wrong (with
 * the challenge's `triesLeft`), MF0001 / MF0004 as the second step.
 */
async function passNewDeviceChallenge(
  db: D1Database,
  challenge: ChallengeRow & { hash: string },
  recipient: string,
  factor: SecondFactor,
  { ip, now }: { ip: string; now: number },
): Promise<ChallengeRow & { parsed: ChallengeOptions }> {
  if (factor.kind !== 'code') throw new GatewayError(ERR.TWO_STEP_OFF);
  const tries = await countTry(db, challenge.hash, now);
  try {
    await useCheckedCode(db, await checkCode(db, { recipient, purpose: 'login', code: factor.code, ip, now }), now);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    if (error.code === ERR.CODE_WRONG) throw new GatewayError(ERR.NEW_DEVICE_CODE_WRONG, { triesLeft: CHALLENGE_MAX_TRIES - tries });
    const instead = NEW_DEVICE_REFUSALS[error.code];
    throw instead ? new GatewayError(instead) : error;
  }
  return claimSecondStep(db, challenge.hash, now);
}

/**
 * Passes the second step of the challenge `token` with a factor that cannot be guessed (a passkey): a try is
 * counted on the challenge, `check` proves the factor for the challenge's person (it throws when it does
 * not), then the challenge is claimed. Returns the challenge as passSecondStep does; the same MF codes.
 */
export async function passSecondStepWith(
  db: D1Database,
  token: string | undefined,
  check: (userId: string) => Promise<void>,
  now: number,
): Promise<ChallengeRow & { parsed: ChallengeOptions }> {
  const challenge = await liveSecondStep(db, token, now);
  await countTry(db, challenge.hash, now);
  await check(challenge.user_id);
  return claimSecondStep(db, challenge.hash, now);
}

/**
 * Why setCompanyRequirement refused (it decided in its own statement; this only names the reason): a caller who
 * manages the company lacks two-step themselves (MF0022), anyone else may
 * not set the company's rule at all.
 */
export async function companyRequirementRefusal(db: D1Database, companyId: string, userId: string): Promise<ErrorCode> {
  try {
    // Requiring or lifting the rule needs the person's own enrolled two-step (setCompanyRequirement): no session's company mfa counts.
    await companyAuthority(db, sessionless(userId), companyId, 'manage');
    return ERR.TWO_STEP_NEEDED_BEFORE_REQUIRING;
  } catch (error) {
    if (error instanceof GatewayError && error.code === ERR.TWO_STEP_REQUIRED_BY_COMPANY) return ERR.TWO_STEP_NEEDED_BEFORE_REQUIRING;
    return ERR.TWO_STEP_POLICY_ADMINISTRATOR_ONLY;
  }
}
