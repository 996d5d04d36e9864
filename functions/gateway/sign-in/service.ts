import type { Context } from 'hono';
import { TRACELESS, type LoginAnswer, type QuickLoginRequest } from '../../../src/schemas/auth';
import type { LegalDoc } from '../../../src/lib/legal';
import type { SecondStep } from '../../../src/schemas/security';
import type { WorkerEnv } from '../../env';
import { membershipsOfUser, membershipsStatement } from '../companies/db';
import { type Asker, type MembershipRow } from '../authority/db';
import { clearAllAttemptsStatement, clearAttemptsStatement, countAttempt, noRiskStatement, signInRiskStatement, throttleState } from './db';
import {
  assertNotBlocked,
  assertStanding,
  findUserById,
  findUserByIdentity,
  findUserByIdentityStatement,
  identityKey,
  insertUserStatement,
  setPasswordStatement,
  signInNamesOf,
  standingStatement,
  storedPasswordOf,
  type LoginIdentity,
  type NewUser,
  type Standing,
  type UserRow,
  requirePasswordChangeStatement,
} from '../identity/db/people';
import { checkCode, spendCheckedCode, useCheckedCodeStatements, usedCodeRefusal, type CheckedCode } from '../codes/service';
import { identity } from '../identity/sign-in-names';
import { findPort } from '../places/ports';
import { runBatch } from '../identity/db/batch';
import { endTrustStatement } from '../identity/db/devices';
import type { Lang } from '../../../src/lib/lang';
import { configOf } from '../../config';
import { twoStepEnabledStatement, type ChallengeRow } from '../second-step/db';
import { outsideByTwoStep } from '../authority/service';
import { clientIp, fail, GatewayError, ok, requestLang } from '../errors';
import { auditStatement, ownEventStatement } from '../audit/db';
import { DEVICE_HEADER, now } from '../../contract';
import { CHALLENGE_LIFETIME_MS, prepareChallenge, type ChallengeOptions } from '../second-step/service';
import { consentOwedIn, consentStatements, currentTermsAgreedStatement, defaultConsentDocs, needsConsent } from '../legal/consents';
import { accountSizeOf, asLoginCaseMembership } from '../companies/login-case';
import { assertNewPasswordAllowed, hashPassword, verifyPassword, type StoredPassword } from '../identity/passwords';
import { assertNotBreached, isBreached } from '../identity/breached-passwords';
import { isLocked, needsSlider, passedLoginSlider, SLIDER_AFTER, THROTTLE } from './risk';
import { clientInfo, type ClientInfo } from '../sessions/devices';
import { prepareSession, revokeAllSessionsOfUser } from '../sessions/service';
import { type SessionKind } from '../identity/db/sessions';
import { recordFailedSignIn, recordNoSignIn, sendNewDeviceNotice, signInStatement } from './history';
import { legacyShare, unknownNameLooksLegacy } from './legacy-decoy';
import type { SignInMethod } from './db';
import { ERR } from '../../../src/schemas/error-codes';
import { bindingRefusal, bindingStatements, type SocialBinding } from '../social/db';
import { ssoOnlyOfDomainStatement, ssoOnlyOfEmailStatement } from '../company-sso/db';
import { sendSecurityNotice, socialBoundChange } from '../delivery/security-notice';
import {
  companyDeviceRules,
  deviceAtSessionStart,
  deviceOfRequest,
  FAILURES_WINDOW_MS,
  isKnownDevice,
  knownDeviceRead,
  newDeviceRecipient,
  owesNewDeviceChallenge,
  sendNewDeviceCode,
  type DeviceOfRequest,
  type SignInRisk,
} from '../devices/service';

/**
 * Signing in: the session and login answer every sign-in ends with (`signedIn`), and the password sign-in
 * of every place that takes a password (`checkPassword`): the sign-in screens, the partner login and the
 * credentials hand-off of the edge.
 *
 * Password sign-in rules, the same for all of them:
 * - an unknown name, an account this sign-in does not admit (a non-partner on the partner login, another
 *   person than the hand-off names), a wrong password, a wrong protocol version and a locked-out network all
 *   answer US0010, after the same PBKDF2 work, and count as a failure of that name from that network;
 * - the human check (tracelessCheckResult 400) and the lock follow sign-in/risk.ts for known and unknown
 *   names alike;
 * - a legacy record (password_version 1) asked with version 2 answers SY9990 and the client retries with
 *   the getUserSalt salt; that attempt is counted and throttled first (locked: US0010) and does the same KDF
 *   work; a keyed share of unknown names, equal to the share of legacy records, answers SY9990 too
 *   (legacy-decoy.ts), so the answer does not tell whether the name has an account; getUserSalt gives an
 *   unknown name a stable decoy salt, and its version-1 attempt is a wrong password;
 * - a wrong password of a known account is written to its sign-in history after the answer (waitUntil), so
 *   it answers no later than an unknown name, which writes nothing;
 * - `newPassword` (the insecure-password modal) replaces the password as version 2 and ends every other
 *   session; a password stored with old KDF parameters is rehashed.
 */

export type SignInEnv = { Bindings: WorkerEnv };

/** How a person proved who they are: recorded with each sign-in and shown in their sign-in history. */
export type { SignInMethod } from './db';

export interface SessionStart {
  userId: string;
  kind: SessionKind;
  method: SignInMethod;
  /** The second step passed after the method, when two-step asked for one. */
  secondStep?: SecondStep;
  client: ClientInfo;
  /** The language of the sign-in: the new-device notice is written in it. */
  lang: Lang;
  at: number;
  companyId?: string | null;
  /** Statements of the same batch, before the session (a new user's INSERT, a password update). */
  before?: D1PreparedStatement[];
  /** A brand-new account: its first sign-in sends no new-device notice. */
  newUser?: boolean;
  /** False when the sign-in proves nobody (a shared link): the session starts without a proof. */
  proves?: boolean;
  /** Names the clash of a write in `before` that a parallel request won (runBatch's `refusal`). */
  refusal?: (error: unknown) => GatewayError | null;
  /**
   * The caller read the account's standing in this request (signedIn's one read): no second read here. The
   * session INSERT still refuses a block or an erasure that lands in between, in its own statement.
   */
  standingChecked?: boolean;
  /** The company whose own provider signed the person in with a second factor: recorded on the session (authority/db.ts Asker). */
  providerMfaCompanyId?: string | null;
}

/**
 * Starts a session and records the successful sign-in, in one batch with `before`: either all of it is
 * written or none. Every session of a sign-in starts here (signedIn, the edge's hand-off). A sign-in from a
 * device the account never signed in from before sends the new-device notice (sign-in-history.ts).
 */
export async function startSession(env: WorkerEnv, start: SessionStart) {
  const { userId, kind, method, secondStep, client, lang, at, companyId = null, before = [], proves = true } = start;
  const lifetimeS = configOf(env).sessionAbsoluteTimeout;
  // A brand-new account is inserted in the batch below: there is nothing to have been blocked yet.
  if (!start.newUser && !start.standingChecked) await assertNotBlocked(env.DB, userId);
  const session = await prepareSession(env.DB, { userId, kind, now: at, companyId, client, lifetimeS, proof: proves ? signInProof(method, secondStep) : null, signedInWith: secondStep ? `${method}+${secondStep}` : method, providerMfaCompanyId: start.providerMfaCompanyId ?? null });
  const record = signInStatement(env.DB, { userId, at, method, secondStep, partner: kind === 'partner', success: true, client });
  // Right after the session: written only when the session was.
  const audited = auditStatement(env.DB, {
    at,
    actor: { kind: 'user', id: userId },
    action: 'user.signed_in',
    target: { kind: 'user', id: userId },
    network: client.network ?? null,
    detail: { method, ...(secondStep ? { secondStep } : {}), ...(kind === 'partner' ? { partner: true } : {}) },
  }, { ifChanged: true });
  const results = await runBatch(env.DB, [...before, session.statement, audited, record], start.refusal);
  // The session INSERT refuses a blocked or erased account in its own statement: a block or an erasure that landed
  // since the account was read. Read again to say which (this path only).
  if (results.at(-3)?.meta.changes !== 1) {
    await assertNotBlocked(env.DB, userId);
    throw new GatewayError(ERR.ACCOUNT_BLOCKED);
  }
  const recorded = results.at(-1)?.results?.[0] as { new_device?: number } | undefined;
  if (recorded?.new_device === 1 && !start.newUser) await sendNewDeviceNotice(env, { userId, at, client, lang });
  return { ...session, lifetimeS };
}

/**
 * What a sign-in proved, recorded as the new session's first proof (identity/proof.ts): its method and the
 * second step when one was passed. A hand-off from another site proves nobody here: its session starts unproved.
 */
const signInProof = (method: SignInMethod, secondStep?: SecondStep) => (method === 'handoff' ? null : secondStep ? `${method}+${secondStep}` : method);

/** The answer when the risk check wants the human check first: no session, nothing about the account. */
export const SLIDER_REQUIRED: LoginAnswer = {
  accountSize: 0,
  companyId: null,
  isMaster: false,
  originalFlag: false,
  tracelessCheckResult: TRACELESS.sliderRequired,
  userId: '',
  newUser: false,
  type: 0,
};

/** How a sign-in ends: what it writes with the session and how the session is kept. */
export interface SignInOptions {
  method: SignInMethod;
  /** Set only by a passed second step (completeSecondStep). */
  secondStep?: SecondStep;
  newUser?: boolean;
  /** Runs in the same batch as the session (or the second-step challenge): a new user's INSERT, a password update. */
  before?: D1PreparedStatement[];
  /** Names the refusal of a statement in `before` that a parallel request won (a code used first: CD0014). */
  refusal?: (error: unknown) => GatewayError | null;
  agreedTo?: readonly LegalDoc[];
  kind?: SessionKind;
  /**
   * False for a sign-in that proves nobody: a shared link is made by any session of the account, so the session
   * it opens must not count as a fresh proof (identity/proof.ts), or a stolen session could prove itself.
   */
  proves?: boolean;
  /**
   * A single-use proof this sign-in spends (a checked code: codes/service.ts spendCheckedCode), in the same round
   * trip as the account's reads, ahead of them: `spent` throws (CD0014) when a parallel call spent it first, before
   * anything about the account is told.
   */
  spend?: SpendInFirstRead;
  /**
   * A WeChat or WeCom tied to the account with this sign-in (wechat/service.ts bindPhone). Written with the
   * session; when a second step is owed it waits in the challenge and is written only when that step is passed.
   */
  binding?: SocialBinding;
  /** "Trust this device for 30 days" was ticked on the step this sign-in passed (devices/service.ts). */
  trustDevice?: boolean;
  /**
   * The first factor was two factors by itself (a company provider's `amr` with `mfa` or `hwk`,
   * company-sso/federation.ts): no second step is asked, as for a passkey.
   */
  multiFactor?: boolean;
  /**
   * The company whose own provider gave that second factor: the session records it, and counts as two-step for that
   * company's rule only (authority/db.ts twoStepMissing).
   */
  providerMfaCompanyId?: string;
}

/**
 * Methods an SSO-only domain refuses (issue 43): people whose e-mail is on a domain a company proved and made
 * SSO-only sign in through that company's provider, not with a password or a one-time code.
 */
const REFUSED_BY_SSO_ONLY: ReadonlySet<SignInMethod> = new Set(['password', 'code', 'link']);

/**
 * Whether the e-mail typed is on an SSO-only domain, decided by the domain alone (ID0617 for a code sign-in that
 * would register a new account there): a statement to batch with the code's first read, or none for a phone. An
 * existing account is refused in signedIn, after its password or code, so a wrong password or code answers as for
 * anyone and the refusal tells nothing about whether an account exists.
 */
function ssoOnlyDomainRead(db: D1Database, name: LoginIdentity): D1PreparedStatement[] {
  if (!('email' in name)) return [];
  return [ssoOnlyOfDomainStatement(db, name.email.slice(name.email.lastIndexOf('@') + 1).toLowerCase())];
}

/** The login answer of a first factor that owes the second step: nothing about the account, and no session. */
export const SECOND_STEP_OWED: LoginAnswer = { ...SLIDER_REQUIRED, tracelessCheckResult: TRACELESS.pass };

/**
 * Every sign-in ends here (code, password, links, partner). A person with two-step on who signed in with
 * anything but a passkey (which is two factors by itself) gets no session: the answer carries a second-step
 * challenge instead (`secondStep.challenge`, which the edge moves into an HttpOnly cookie), and only the call
 * that passes the second step starts the session, through `completeSignIn`.
 */
export async function signedIn<E extends SignInEnv>(c: Context<E>, user: Pick<UserRow, 'id' | 'original_flag' | 'user_type'>, options: SignInOptions) {
  const { method, newUser = false, before = [], agreedTo = [], kind = 'platform', proves = true, binding, multiFactor = false } = options;
  if (newUser) {
    // A new person's code is used in the batch that writes them (`before`, with `refusal`), never by `spend`.
    if (options.spend) throw new Error('spend is for an existing account: a new person spends the code in `before`');
    return completeSignIn(c, user, options);
  }
  const device = await deviceOfRequest(c.req.header(DEVICE_HEADER));
  const account = await readAccountAtSignIn(c.env, user.id, { device, client: clientInfo(c), at: now(c), spend: options.spend, mfaCompanyId: options.providerMfaCompanyId ?? null });
  const challengeOptions: ChallengeOptions = { kind, agreedTo: [...agreedTo], ...(proves ? {} : { unproved: true }), ...(binding ? { binding } : {}) };
  const owed = await owedStep(c.env, {
    userId: user.id,
    method,
    account,
    options: challengeOptions,
    before,
    ip: clientIp(c),
    at: now(c),
    lang: requestLang(c),
    background: (work) => c.executionCtx.waitUntil(work),
    multiFactor,
  });
  if (owed) return ok(c, { ...SECOND_STEP_OWED, secondStep: owed });
  return completeSignIn(c, user, options, account, device);
}

/**
 * What an existing account's first factor reads before it decides (accountAtSignIn), with the request's device and
 * the sign-in history's risk read in the same round trip: signedIn and the credentials hand-off (handoff/service.ts).
 */
export function readAccountAtSignIn(
  env: WorkerEnv,
  userId: string,
  { device, client, at, spend, mfaCompanyId = null }: { device: DeviceOfRequest; client: ClientInfo; at: number; spend?: SpendInFirstRead; mfaCompanyId?: string | null },
): Promise<AccountAtSignIn> {
  return accountAtSignIn(env.DB, { userId, mfaCompanyId }, spend, [
    knownDeviceRead(env, userId, device, at),
    signInRiskStatement(env.DB, userId, { country: client.country, network: client.network, failuresSince: at - FAILURES_WINDOW_MS }),
  ]);
}

/** The second step a first factor owes, as its answer carries it (the edge moves `challenge` into its cookie). */
export interface OwedStep {
  challenge: string;
  expiresIn: number;
  newDevice?: { channel: 'email' | 'sms'; to: string };
}

/**
 * Whether a first factor of an existing account (read by readAccountAtSignIn) ends in a step before any session, and
 * that step: two-step's second step for a person with it on (a passkey is two factors already), else the new-device
 * challenge (devices/service.ts: its code sent after the answer through `background`). A device the person trusts
 * skips both, unless a company of theirs forbids it. Writes the challenge in one batch with `before`; null when no
 * step is owed (the caller starts the session). The one decision of signedIn and the credentials hand-off.
 */
export async function owedStep(
  env: WorkerEnv,
  {
    userId,
    method,
    account,
    options,
    before = [],
    ip,
    at,
    lang,
    background,
    multiFactor = false,
  }: {
    userId: string;
    method: SignInMethod;
    account: AccountAtSignIn;
    options: ChallengeOptions;
    before?: D1PreparedStatement[];
    ip: string;
    at: number;
    lang: Lang;
    background: (work: Promise<void>) => void;
    /** The first factor was two factors by itself (a company provider's `amr`): no second step. */
    multiFactor?: boolean;
  },
): Promise<OwedStep | null> {
  // A blocked account hears so before any second step (the session INSERT refuses it again, in its own statement).
  assertStanding(account.standing);
  // An account whose e-mail is on an SSO-only domain (however it was named) signs in only through its company (ID0617).
  if (account.ssoOnly && REFUSED_BY_SSO_ONLY.has(method)) throw new GatewayError(ERR.SSO_ONLY);
  const rules = companyDeviceRules(account.memberships);
  const trusted = account.trustedDevice && !rules.trustForbidden;
  // The screen asks the challenge whether to offer "Trust this device" (second-step-routes.ts).
  const marked: ChallengeOptions = rules.trustForbidden ? { ...options, trustForbidden: true } : options;
  if (method !== 'passkey' && !multiFactor && account.twoStep && !trusted) {
    const challenge = await prepareChallenge(env.DB, { userId, method, options: marked, now: at });
    await runBatch(env.DB, [...before, challenge.statement]);
    return { challenge: challenge.token, expiresIn: CHALLENGE_LIFETIME_MS / 1000 };
  }
  if (owesNewDeviceChallenge(env, { method, twoStep: account.twoStep, known: account.knownDevice, trusted, companyConfirms: rules.confirmNewDevices, risk: account.risk })) {
    // Ends like the second step (devices/service.ts): the same challenge, marked, and a code to the account.
    const person = await findUserById(env.DB, userId);
    const recipient = person && newDeviceRecipient(person);
    if (!recipient) throw new GatewayError(ERR.NEW_DEVICE_NO_CHANNEL);
    const challenge = await prepareChallenge(env.DB, { userId, method, options: { ...marked, newDevice: recipient }, now: at });
    await runBatch(env.DB, [...before, challenge.statement]);
    const sent = await sendNewDeviceCode(env, recipient, { ip, at, lang, background });
    return { challenge: challenge.token, expiresIn: CHALLENGE_LIFETIME_MS / 1000, newDevice: sent };
  }
  return null;
}

/** Statements that spend a single-use proof at the head of a batch, and the check of their results. */
export interface SpendInFirstRead {
  statements: D1PreparedStatement[];
  /** Throws when the proof was not spent by this call. */
  spent: (results: D1Result[]) => void;
}

/** What signedIn read of an existing account (accountAtSignIn). */
export interface AccountAtSignIn {
  standing: Standing | undefined;
  twoStep: boolean;
  memberships: MembershipRow[];
  /** Whether the person has yet to agree to the current terms (needsConsent), read in the same round trip. */
  consentOwed: boolean;
  /** The request's device is known to the person (devices/service.ts), read in the same round trip. */
  knownDevice: boolean;
  /** The person trusts the request's device now ("Trust this device for 30 days"). */
  trustedDevice: boolean;
  /** What the sign-in history says of this sign-in's country and network (the challenge's other rules). */
  risk: SignInRisk;
  /** The account's e-mail is on a domain a company made SSO-only (company-sso/db.ts), read in the same round trip. */
  ssoOnly: boolean;
}

/**
 * What an existing account's sign-in reads before it decides, in one round trip: may it sign in, is two-step on,
 * its companies, do they owe an agreement to the current terms; with the spending of the sign-in's proof ahead of
 * them, when it has one.
 */
async function accountAtSignIn(
  db: D1Database,
  asker: Asker,
  spend?: SpendInFirstRead,
  /** The device's read (null: no device token) and the history's risk read (devices/service.ts, sign-in/db.ts). */
  [deviceRead, riskRead]: [D1PreparedStatement | null, D1PreparedStatement | null] = [null, null],
): Promise<AccountAtSignIn> {
  const spending = spend?.statements ?? [];
  const { userId } = asker;
  const results = await db.batch([
    ...spending,
    standingStatement(db, userId),
    twoStepEnabledStatement(db, userId),
    membershipsStatement(db, asker),
    currentTermsAgreedStatement(db, userId),
    riskRead ?? noRiskStatement(db),
    ssoOnlyOfEmailStatement(db, userId),
    ...(deviceRead ? [deviceRead] : []),
  ]);
  spend?.spent(results.slice(0, spending.length));
  const [standing, twoStep, memberships, termsAgreed, risk, ssoOnly, known] = results.slice(spending.length);
  const riskRow = risk?.results[0] as { new_country: number; risky_network: number } | undefined;
  const knownRow = known?.results[0] as { trusted: number } | undefined;
  return {
    standing: standing?.results[0] as Standing | undefined,
    twoStep: (twoStep?.results.length ?? 0) > 0,
    memberships: (memberships?.results ?? []) as MembershipRow[],
    consentOwed: consentOwedIn(termsAgreed),
    knownDevice: knownRow !== undefined,
    trustedDevice: knownRow?.trusted === 1,
    risk: { newCountry: riskRow?.new_country === 1, riskyNetwork: riskRow?.risky_network === 1 },
    ssoOnly: (ssoOnly?.results.length ?? 0) > 0,
  };
}

/**
 * Starts a session for `user` (startSession) and answers the login response with oauthVO: how every sign-in
 * of a sign-in screen ends (signedIn, and the passed second step). `before` runs in the same batch as the
 * session, so either all of it is written or none.
 */
export async function completeSignIn<E extends SignInEnv>(
  c: Context<E>,
  user: Pick<UserRow, 'id' | 'original_flag' | 'user_type'>,
  { method, secondStep, newUser = false, before = [], agreedTo = [], kind = 'platform', proves = true, binding, refusal, trustDevice = false, providerMfaCompanyId }: SignInOptions,
  /** The account as signedIn read it in this request: no second read of its standing or its companies. */
  read?: AccountAtSignIn,
  /** The request's device as signedIn read it. */
  deviceRead?: DeviceOfRequest,
) {
  const db = c.env.DB;
  // Judged here too (no I/O), so that no caller can pass a read without its standing being checked.
  if (read) assertStanding(read.standing);
  // Ticking the agreement (or registering) records the versions agreed to, in the same batch as the session.
  const consents = consentStatements(db, user.id, now(c), agreedTo);
  const bound = binding ? bindingStatements(db, user.id, binding, now(c), clientIp(c)) : [];
  const memberships = newUser ? [] : (read?.memberships ?? (await membershipsOfUser(db, { userId: user.id, mfaCompanyId: providerMfaCompanyId ?? null })));
  // A main company the user can enter makes the account "master": the client chooses it and skips the list.
  // One that requires two-step of a person without it is not entered straight away (chooseAccount says why).
  const candidate = memberships.find((m) => m.is_main === 1 && accountSizeOf([asLoginCaseMembership(m)]) === 1);
  const main = candidate && !outsideByTwoStep(candidate) ? candidate : undefined;
  // Every session's device is recorded (devices/service.ts), after a new person's INSERT.
  const device = deviceRead ?? (await deviceOfRequest(c.req.header(DEVICE_HEADER)));
  const known = read && deviceRead ? read.knownDevice : !newUser && (await isKnownDevice(c.env, user.id, device, now(c)));
  // Trusted only after a passed step, and never by a member of a company that forbids it.
  const trust = trustDevice && secondStep !== undefined && !companyDeviceRules(memberships).trustForbidden;
  const recorded = await deviceAtSessionStart(c.env, { userId: user.id, device, known, at: now(c), client: clientInfo(c), trust });
  const session = await startSession(c.env, {
    userId: user.id,
    kind,
    method,
    secondStep,
    client: clientInfo(c),
    lang: requestLang(c),
    at: now(c),
    companyId: main?.company_id ?? null,
    before: [...before, ...bound, ...consents, ...recorded.statements],
    newUser,
    proves,
    standingChecked: read !== undefined,
    providerMfaCompanyId: providerMfaCompanyId ?? null,
    // A parallel binding of the same WeChat (or another WeChat to this account) won: WX0007 / WX0008, nothing written.
    ...(binding ? { refusal: bindingRefusal } : refusal ? { refusal } : {}),
  });
  // A new way into an existing account is told to its owner, as a new passkey is.
  if (binding && !newUser) {
    await sendSecurityNotice(c.env, { userId: user.id, at: now(c), change: socialBoundChange(binding.provider), lang: requestLang(c) });
  }
  // A trusted device skips a step from now on: its owner is told, as of a new passkey.
  if (trust) await sendSecurityNotice(c.env, { userId: user.id, at: now(c), change: 'deviceTrusted', lang: requestLang(c) });
  const answer: LoginAnswer = {
    accountSize: accountSizeOf(memberships.map(asLoginCaseMembership)),
    companyId: main?.company_id ?? null,
    isMaster: Boolean(main),
    originalFlag: user.original_flag === 1,
    tracelessCheckResult: TRACELESS.pass,
    userId: user.id,
    newUser,
    type: user.user_type,
    // A changed terms version asks a signed-in person to agree again before going on.
    // Read with the account when signedIn did (a second step passed later reads it now).
    needsConsent: !agreedTo.includes('terms') && (read ? read.consentOwed : await needsConsent(db, user.id)),
  };
  return ok(c, {
    ...answer,
    oauthVO: {
      access_token: session.token,
      refresh_token: session.refreshToken,
      token_type: 'bearer',
      expires_in: session.lifetimeS,
      isMainAccount: Boolean(main),
    },
    // The edge keeps it in the HttpOnly device cookie and takes it out of the answer.
    device: recorded.answer,
  });
}

/**
 * Starts the session a passed second step was owed, exactly as its first factor would have (second-step/service.ts
 * passSecondStep, passSecondStepWith): the history records the first factor's method and the second step
 * passed. MF0001 when the account was deleted in between (the challenge is as good as unknown).
 */
export async function completeSecondStep<E extends SignInEnv>(c: Context<E>, challenge: ChallengeRow & { parsed: ChallengeOptions }, secondStep: SecondStep, trustDevice = false) {
  const user = await findUserById(c.env.DB, challenge.user_id);
  if (!user) throw new GatewayError(ERR.SECOND_STEP_EXPIRED);
  return completeSignIn(c, user, {
    method: challenge.method as SignInMethod,
    secondStep,
    kind: challenge.parsed.kind,
    agreedTo: challenge.parsed.agreedTo as LegalDoc[],
    proves: !challenge.parsed.unproved,
    binding: challenge.parsed.binding,
    trustDevice,
  });
}

export interface PasswordAttempt {
  /** The client's SHA-256 hex (of password + legacy salt for version 1). */
  password: string;
  passwordVersion: 1 | 2;
  newPassword?: string;
  /** SHA-1 hex of the new password (the insecure-password modal), for the breached-password check. */
  newPasswordSha1?: string;
  /** SHA-1 hex of the password (version 2 only), for the breached-password check at sign-in. */
  passwordSha1?: string;
  /** A passed human check, as the sign-in screens send it. */
  nvcvalStr?: string;
}

export interface PasswordCheckOptions {
  /** The client network (clientIp). */
  network: string;
  now: number;
  /** Who this sign-in admits; anyone else is treated as an unknown name. */
  admits?: (user: UserRow) => boolean;
  /** The caller already consumed a human check bound to this name (the partner login asks on every attempt). */
  humanChecked?: boolean;
  /**
   * How a refusal of a known account is written to its sign-in history: after the answer, through `background`
   * (the route's waitUntil), since an unknown name writes nothing.
   */
  history: { method: SignInMethod; partner: boolean; client: ClientInfo; background: (work: Promise<void>) => void };
}

/** How a password sign-in that did not fail ends: signed in (with the statements to batch with the session), the human check first, or SY9990. */
export type PasswordCheck =
  | { outcome: 'signed-in'; user: UserRow; before: D1PreparedStatement[] }
  | { outcome: 'human-check' }
  | { outcome: 'salted' };

/** Every refusal: the same KDF work as checking a real password, then US0010. */
async function refuse(attempt: PasswordAttempt, env: WorkerEnv, failures: number | null = null): Promise<never> {
  await verifyPassword(attempt.password, null, env);
  throw wrongPassword(failures);
}

/**
 * US0010, saying when the next attempt from this network needs the human check: the person is told before the
 * slider appears. Known and unknown names count alike, so this tells nothing about the account.
 */
const wrongPassword = (failures: number | null) => new GatewayError(ERR.WRONG_ACCOUNT_OR_PASSWORD, failures !== null && failures >= SLIDER_AFTER ? { humanCheckNext: true } : null);

/** The password sign-in rules (see the top of this file); throws US0010 for every failure. */
export async function checkPassword(env: WorkerEnv, identity: LoginIdentity, attempt: PasswordAttempt, options: PasswordCheckOptions): Promise<PasswordCheck> {
  const db = env.DB;
  const { network, now: at } = options;
  const subject = identityKey(identity);
  const [found, share] = await Promise.all([findUserByIdentity(db, identity), legacyShare(db)]);
  const user = found && (options.admits?.(found) ?? true) ? found : null;

  let humanChecked = options.humanChecked ?? false;
  if (!humanChecked && needsSlider(await throttleState(db, subject, network, at, THROTTLE))) {
    if (!(await passedLoginSlider(env, attempt.nvcvalStr, subject, at))) return { outcome: 'human-check' };
    humanChecked = true;
  }

  // Counted before the password is checked, in one statement with the checks: see countAttempt.
  const counted = await countAttempt(db, { subject, network, now: at, humanChecked }, THROTTLE);
  // A screen that asks the human check on every attempt (the partner login) has nothing to announce.
  const failures = options.humanChecked ? null : counted;
  if (counted === null) {
    // Refused by a parallel attempt's count: locked now, or the human check became due.
    if (isLocked(await throttleState(db, subject, network, at, THROTTLE), at)) return refuse(attempt, env);
    return { outcome: 'human-check' };
  }
  if (!user) {
    // A keyed share of unknown names answers SY9990 like a legacy record (sign-in/legacy-decoy.ts).
    if (attempt.passwordVersion === 2 && (await unknownNameLooksLegacy(env, subject, share))) {
      await verifyPassword(attempt.password, null, env);
      return { outcome: 'salted' };
    }
    // The same KDF work as a real password, then the same statement a known account's history row is (writing nothing).
    await verifyPassword(attempt.password, null, env);
    const { method, partner, client } = options.history;
    options.history.background(recordNoSignIn(db, { at, method, partner, client }).catch((error) => console.error('sign-in history not written', error instanceof Error ? error.message : error)));
    throw wrongPassword(failures);
  }
  if (user.password_version === 1 && attempt.passwordVersion === 2) {
    // Counted above like any attempt (so it meets the human check and the lock, and answers US0010 while
    // locked), and after the same KDF work, so SY9990 is neither free nor faster than a refusal.
    await verifyPassword(attempt.password, null, env);
    return { outcome: 'salted' };
  }
  const check = await verifyPassword(attempt.password, storedPasswordOf(user), env);
  if (!check.ok || attempt.passwordVersion !== user.password_version) {
    const recorded = recordFailedSignIn(db, { userId: user.id, at, method: options.history.method, partner: options.history.partner, client: options.history.client });
    // Written after the answer (an unknown name writes nothing), so a wrong password of a known account
    // answers no later than one of an unknown name.
    options.history.background(recorded.catch((error) => console.error('sign-in history not written', error instanceof Error ? error.message : error)));
    throw wrongPassword(failures);
  }

  const before = [clearAttemptsStatement(db, subject, network)];
  let originalFlag = user.original_flag;
  if (attempt.newPassword) {
    // The insecure-password modal was confirmed: the new password replaces the old one (as version 2) and
    // every other session of the account ends.
    await assertNewPasswordAllowed(db, attempt.newPassword);
    await assertNotBreached(env, attempt.newPasswordSha1, at);
    before.push(
      setPasswordStatement(db, user.id, await hashPassword(attempt.newPassword, env), { version: 2, clearOriginalFlag: true }),
      endTrustStatement(db, user.id),
      ownEventStatement(db, { at, userId: user.id, action: 'user.password_changed', network, detail: { insecure: true } }),
    );
    await revokeAllSessionsOfUser(db, user.id, undefined, at);
    originalFlag = 0;
  } else {
    if (check.needsRehash) before.push(setPasswordStatement(db, user.id, await hashPassword(attempt.password, env), { version: user.password_version }));
    // A breached password (issue 44) asks for a change at this sign-in, as an operator's "change required" does: the
    // flag is set (the insecure-password modal follows) and recorded, with the session's batch.
    if (user.password_version === 2 && (await isBreached(env, attempt.passwordSha1, at))) {
      before.push(
        requirePasswordChangeStatement(db, user.id),
        ownEventStatement(db, { at, userId: user.id, action: 'user.password_change_required', network, detail: { breached: true } }, { onlyIfChanged: true }),
      );
      originalFlag = 1;
    }
  }
  return { outcome: 'signed-in', user: { ...user, original_flag: originalFlag }, before };
}

/**
 * The current password of a signed-in person, as a sensitive change asks for it (password change, turning
 * two-step off). A wrong one counts as a failure of this account from this network and locks like a sign-in
 * (sign-in/risk.ts; no human check, the session is one), so a stolen session cannot guess it at leisure.
 * PW0003 when wrong; the statements to batch with the change clear the failures.
 */
export async function checkCurrentPassword(
  env: WorkerEnv,
  user: UserRow,
  password: string,
  { network, at }: { network: string; at: number },
): Promise<D1PreparedStatement[]> {
  const counted = await countAttempt(env.DB, { subject: user.id, network, now: at, humanChecked: true }, THROTTLE);
  const check = await verifyPassword(password, counted !== null ? storedPasswordOf(user) : null, env);
  if (!check.ok) throw new GatewayError(ERR.CURRENT_PASSWORD_WRONG);
  return [clearAttemptsStatement(env.DB, user.id, network)];
}

/** How a sign-in screen differs: the partner login admits partners only, starts a partner session, and asks the human check on every attempt. */
export interface PasswordSignInOptions {
  kind?: SessionKind;
  partnersOnly?: boolean;
  humanChecked?: boolean;
}

/** A password sign-in of a sign-in screen: checkPassword, then the login answer (session, SLIDER_REQUIRED or SY9990). */
export async function passwordSignIn<E extends SignInEnv>(
  c: Context<E>,
  identity: LoginIdentity,
  attempt: PasswordAttempt,
  { kind = 'platform', partnersOnly = false, humanChecked = false }: PasswordSignInOptions = {},
) {
  const client = clientInfo(c);
  const result = await checkPassword(c.env, identity, attempt, {
    network: client.network!,
    now: now(c),
    history: { method: 'password', partner: kind === 'partner', client, background: (work) => c.executionCtx.waitUntil(work) },
    humanChecked,
    admits: partnersOnly ? (user) => user.is_partner === 1 : undefined,
  });
  if (result.outcome === 'human-check') return ok(c, SLIDER_REQUIRED);
  if (result.outcome === 'salted') return fail(c, ERR.SALTED_PASSWORD_REQUIRED);
  return signedIn(c, result.user, { method: 'password', before: result.before, kind });
}

/**
 * A new password for the person (reset by code, or changed): stored in the current scheme (ending the
 * must-change flag), every sign-in lock of their names lifted, every trusted device ended, and the audit row. One batch with the caller's own.
 */
export function newPasswordStatements(
  db: D1Database,
  user: Pick<UserRow, 'id' | 'phone_e164' | 'email' | 'us_id'>,
  stored: StoredPassword,
  event: { action: 'user.password_reset' | 'user.password_changed'; at: number; network: string },
): D1PreparedStatement[] {
  return [
    setPasswordStatement(db, user.id, stored, { version: 2, clearOriginalFlag: true }),
    clearAllAttemptsStatement(db, signInNamesOf(user)),
    // A new password ends every trusted device (issue 44), in the batch of the change.
    endTrustStatement(db, user.id),
    ownEventStatement(db, { at: event.at, userId: user.id, action: event.action, network: event.network }),
  ];
}

/** Answers of checkCode and spendCheckedCode that refuse the code itself (not a rate cap on the caller): a failed sign-in. */
export const CODE_REFUSALS = new Set<string>([ERR.CODE_WRONG, ERR.CODE_EXPIRED, ERR.CODE_TRIES_SPENT, ERR.CODE_NOT_REQUESTED, ERR.CODE_ALREADY_USED]);

/**
 * Code sign-in (quick login): signs in the account the phone or e-mail names, or registers a new person with the
 * identity, company name and port given. Works while password sign-in is throttled (the code proves the person
 * holds the phone or mailbox).
 */
export async function codeSignIn<E extends SignInEnv>(c: Context<E>, body: QuickLoginRequest) {
  const name = identity(body);
  const db = c.env.DB;
  // A form that carries a registration's fields (identity, company name, a listed port or none) passes the
  // checks below whether or not the account exists: its account is then read in the code's first round trip.
  // Someone joining a company by invitation registers with neither: the company they join has both (issue 47).
  const joining = body.joining === true;
  const registrationReady = joining || (Boolean(body.userIdentity && body.companyName) && (!body.portId || findPort(body.portId) !== undefined));
  let existing = registrationReady ? null : await findUserByIdentity(db, name);
  // Checked before the code is consumed, so the person can fix the form and use the same code.
  if (!existing && !joining && (!body.userIdentity || !body.companyName)) throw new GatewayError(ERR.COMPANY_NAME_MISSING);
  // A new user's port goes with the company name (login case 7 pre-fills both); one not on the list is refused.
  const portOf = (user: UserRow | null) => (!user && !joining && body.portId ? findPort(body.portId) : null);
  if (portOf(existing) === undefined) throw new GatewayError(ERR.PORT_NOT_LISTED, { path: 'portId' });

  let checked: CheckedCode;
  let ssoOnlyDomain = false;
  try {
    // In the code's own round trip: the account (when not read above), and whether a new one's domain is SSO-only.
    const accountRead = registrationReady ? [findUserByIdentityStatement(db, name)] : [];
    checked = await checkCode(
      db,
      { recipient: identityKey(name), purpose: 'login', code: body.code, ip: clientIp(c), now: now(c) },
      {
        alsoRead: [...accountRead, ...ssoOnlyDomainRead(db, name)],
        onRead: (reads) => {
          if (registrationReady) existing = (reads[0]?.results[0] as UserRow | undefined) ?? null;
          ssoOnlyDomain = (reads[accountRead.length]?.results.length ?? 0) > 0;
        },
      },
    );
    // An existing account's code is used in its sign-in's first read (the account's standing, two-step and
    // companies), before anything else is decided or written.
    if (existing) return await signedIn(c, existing, { method: 'code', agreedTo: defaultConsentDocs, spend: spendCheckedCode(db, checked, now(c)) });
  } catch (error) {
    // A wrong, expired or spent code for an existing account goes into its sign-in history, after the
    // answer: an unknown name writes nothing, so writing first would make a known one answer later.
    if (existing && error instanceof GatewayError && CODE_REFUSALS.has(error.code)) {
      const recorded = recordFailedSignIn(db, { userId: existing.id, at: now(c), method: 'code', partner: false, client: clientInfo(c) });
      c.executionCtx.waitUntil(recorded.catch((failure) => console.error('sign-in history not written', failure instanceof Error ? failure.message : failure)));
    }
    throw error;
  }
  // A new account on an SSO-only domain is refused before the code is used (an existing one is, in signedIn).
  if (ssoOnlyDomain) throw new GatewayError(ERR.SSO_ONLY);
  const port = portOf(existing);
  const user: NewUser & { id: string } = {
    id: crypto.randomUUID(),
    phone: 'phone' in name ? name.phone : null,
    email: 'email' in name ? name.email : null,
    identity: joining ? null : (body.userIdentity ?? null),
    pendingCompanyName: joining ? null : (body.companyName ?? null),
    pendingPortId: port?.id ?? null,
    source: 'quick-login',
    now: now(c),
  };
  // One batch with the code's use and the session: the person is inserted only if this call used the code,
  // and the session's row needs the person, so a lost race writes nothing (CD0014); a parallel registration
  // of the same identity with another code fails whole too (US0003).
  return signedIn(c, { id: user.id, original_flag: 0, user_type: 0 }, {
    method: 'code',
    newUser: true,
    before: [...useCheckedCodeStatements(db, checked, now(c)), insertUserStatement(db, user, { onlyIfChanged: true })],
    refusal: usedCodeRefusal,
    agreedTo: [...defaultConsentDocs, 'registration'],
  });
}
