import { sessionless } from '../authority/db';
import type { Lang } from '../../../src/lib/lang';
import type { AuditedAction, PeoplePage, PersonDetail, PersonSummary } from '../../../src/schemas/ops-people';
import { PEOPLE_PAGE_SIZE } from '../../../src/schemas/ops-people';
import { membershipsOfUser } from '../companies/db';
import { passkeysOfUser } from '../passkeys/db';
import { disableStatements, recoveryCodesLeft, twoStepOf } from '../second-step/db';
import { findUserById, signInNamesOf, type UserRow } from '../identity/db/people';
import { GatewayError } from '../errors';
import { auditStatement, type AuditEntry } from '../audit/db';
import { parseDevice } from '../sessions/devices';
import { FORGET_AFTER_MS } from '../sign-in/risk';
import { liveSessionsOfUser } from '../sessions/service';
import { countOf, hasUnrevokedSessionSql, revokeAllSessionsStatement, unrevokedSessionsStatement } from '../identity/db/sessions';
import { endTrustStatement, hasTrustSql } from '../identity/db/devices';
import { signInHistory } from '../sign-in/history';
import { ERR, type ErrorCode } from '../../../src/schemas/error-codes';
import {
  activeAdministratorOf,
  blockStatement,
  clearFailuresStatement,
  deletePasskeysIfChangedStatement,
  deleteSecondStepChallengesStatement,
  failuresByNetwork,
  requirePasswordChangeStatement,
  resetTwoStepStatement,
  searchUsers,
  transferAdministratorStatement,
  unblockStatement,
} from './db';
import { closingAccounts, liftHoldStatement, placeHoldStatement } from '../data-rights/db';

/**
 * People support: what an operator with the support role sees of a person and the few things they may do
 * for them. Every action is one conditional change followed, in the same batch, by its audit row written only
 * when the change happened (auditStatement with ifChanged): a repeat, or the loser of parallel attempts, changes
 * nothing, writes nothing and answers the code that says the state is already so.
 */

/** The operator acting, and why: the audit row's actor, reason and client network. */
export interface SupportAct {
  operatorId: string;
  reason: string;
  network: string;
  at: number;
}

const summaryOf = (user: UserRow): PersonSummary => ({
  id: user.id,
  name: user.real_name || user.login_name,
  phone: user.phone_e164,
  email: user.email,
  usId: user.us_id,
  createdAt: user.created_at,
  blocked: user.blocked_at !== null,
  closure: {
    since: user.closing_since,
    closesAt: user.closes_at,
    erasedAt: user.erased_at,
    legalHold: user.legal_hold_reason !== null && user.legal_hold_at !== null ? { reason: user.legal_hold_reason, at: user.legal_hold_at } : null,
  },
});

/**
 * People whose phone, e-mail, user ID (`id` or `us_id`) equals `q`, or whose name starts with it; newest first.
 * Exact matches use the UNIQUE indexes; the name prefix is a range over the name indexes (case-sensitive).
 */
export async function findPeople(db: D1Database, q: string, page: number): Promise<PeoplePage> {
  const term = q.trim();
  // A phone as typed, with spaces or dashes, in E.164 or as a mainland number without its calling code.
  const digits = /^\+?[\d\s-]{5,20}$/.test(term) ? term.replace(/\D/g, '') : null;
  const results = await searchUsers(db, { term, digits, limit: PEOPLE_PAGE_SIZE + 1, offset: (page - 1) * PEOPLE_PAGE_SIZE });
  return { people: results.slice(0, PEOPLE_PAGE_SIZE).map(summaryOf), page, more: results.length > PEOPLE_PAGE_SIZE };
}

/** The person, or PS0001. */
export async function personOf(db: D1Database, id: string): Promise<UserRow> {
  const user = await findUserById(db, id);
  if (!user) throw new GatewayError(ERR.PERSON_NOT_FOUND);
  return user;
}

/** Every subject a person's password failures are counted under: their sign-in names and, for a signed-in check, their id. */
const failureSubjectsOf = (user: UserRow) => [...signInNamesOf(user), user.id].filter((s): s is string => Boolean(s));

export async function personDetail(db: D1Database, user: UserRow, at: number, idleMs: number, lang: Lang = 'en'): Promise<PersonDetail> {
  const subjects = failureSubjectsOf(user);
  const [memberships, sessions, signIns, failures, twoStep, codesLeft, passkeys] = await Promise.all([
    // An operator's view of the person: only enrolled factors count (no session of theirs is asking).
    membershipsOfUser(db, sessionless(user.id)),
    liveSessionsOfUser(db, user.id, at, idleMs),
    signInHistory(db, user.id, at),
    failuresByNetwork(db, subjects, at - FORGET_AFTER_MS),
    twoStepOf(db, user.id),
    recoveryCodesLeft(db, user.id),
    passkeysOfUser(db, user.id),
  ]);
  return {
    profile: {
      ...summaryOf(user),
      loginName: user.login_name,
      countryName: user.country_name,
      partner: user.is_partner === 1,
      blockedAt: user.blocked_at,
      mustChangePassword: user.original_flag === 1,
    },
    memberships: memberships.map((m) => ({
      companyId: m.company_id,
      // The operator page's language names the company (an English page named it in Chinese, issue 33).
      companyName: lang === 'zh' ? m.name_cn || m.name_en : m.name_en,
      companyStatus: m.company_status,
      role: m.role,
      status: m.member_status as 'pending' | 'active' | 'rejected',
      main: m.is_main === 1,
    })),
    sessions: sessions.map((s) => {
      const { browser, os } = parseDevice(s.user_agent);
      return { createdAt: s.created_at, lastSeenAt: s.last_seen_at, country: s.country, network: s.network, browser, os, partner: s.kind === 'partner' };
    }),
    signIns: signIns.slice(0, 50),
    lock: {
      failures,
      locked: failures.some((f) => f.lockedUntil !== null && f.lockedUntil > at),
    },
    twoStep: { enabled: twoStep?.enabled_at != null, recoveryCodesLeft: codesLeft, passkeys: passkeys.length },
  };
}

const entryOf = (act: SupportAct, action: AuditedAction, target: { kind: string; id: string }, detail?: Record<string, unknown>): AuditEntry => ({
  at: act.at,
  actor: { kind: 'operator', id: act.operatorId },
  action,
  target,
  reason: act.reason,
  network: act.network,
  detail,
});

/** The UPDATE that ends every live session of a person. */
const endSessionsStatement = (db: D1Database, userId: string, at: number) => revokeAllSessionsStatement(db, 'person', userId, at);

/** Every live session and every trusted device of a person end (issue 44: a trusted device would skip the second step). */
const endSessionsAndTrust = (db: D1Database, userId: string, at: number) => [endSessionsStatement(db, userId, at), endTrustStatement(db, userId)];

/**
 * Runs `change`, its audit row (written only if `change` changed a row) and `after` in one batch; PS-`refusal`
 * when `change` changed nothing. Returns how many rows `change` changed.
 */
async function actOnce(db: D1Database, change: D1PreparedStatement, entry: AuditEntry, refusal: ErrorCode, after: D1PreparedStatement[] = []) {
  const [changed] = await db.batch([change, auditStatement(db, entry, { ifChanged: true }), ...after]);
  const count = changed?.meta.changes ?? 0;
  if (count === 0) throw new GatewayError(refusal);
  return count;
}

/** Clears every counted password failure (and so every lock) of the person's names, from every network. */
export function unlockPerson(db: D1Database, user: UserRow, act: SupportAct) {
  const subjects = failureSubjectsOf(user);
  const change = clearFailuresStatement(db, subjects);
  return actOnce(db, change, entryOf(act, 'user.unlocked', { kind: 'user', id: user.id }), ERR.PERSON_NOT_LOCKED_OUT);
}

/** Ends every live session of the person; answers how many. */
export async function signOutPerson(db: D1Database, user: UserRow, act: SupportAct) {
  // Every session and every device the person trusted end (issue 44), as with their own "sign out everywhere": an
  // operator who signs a person out wants no trusted device left either, so a person with trust and no live session
  // is signed out too (answering 0 sessions ended). One batch: the row is written first, when there is anything to
  // end; PS0005 when there was nothing (the loser of parallel calls), and then nothing was written.
  const [live, , , trust] = await db.batch([
    unrevokedSessionsStatement(db, 'person', user.id),
    auditStatement(db, entryOf(act, 'user.signed_out_everywhere', { kind: 'user', id: user.id }), {
      when: { sql: `${hasUnrevokedSessionSql('person')} OR ${hasTrustSql}`, binds: [user.id, user.id] },
    }),
    endSessionsStatement(db, user.id, act.at),
    endTrustStatement(db, user.id),
  ]);
  const ended = countOf(live);
  if (ended === 0 && !((trust?.meta.changes ?? 0) > 0)) throw new GatewayError(ERR.PERSON_HAS_NO_SESSION);
  return ended;
}

/**
 * The next sign-in answers originalFlag (login case: the password change page) until the person sets a new
 * password; their sessions end so that the next sign-in is now.
 */
export function requirePasswordChange(db: D1Database, user: UserRow, act: SupportAct) {
  const change = requirePasswordChangeStatement(db, user.id);
  return actOnce(db, change, entryOf(act, 'user.password_change_required', { kind: 'user', id: user.id }), ERR.PERSON_PASSWORD_CHANGE_ALREADY_REQUIRED, [endSessionsStatement(db, user.id, act.at)]);
}

/**
 * Turns two-step off for a person who lost their factors (after the runbook's identity checks): the secret and
 * recovery codes go, and so do their passkeys (a factor they lost, or the one taken from them), pending second
 * steps die, and every session ends. The passkeys go only when the reset happened: their DELETE follows the audit
 * row, which is written only when the reset changed a row (changes()).
 */
export function resetTwoStep(db: D1Database, user: UserRow, act: SupportAct) {
  const change = resetTwoStepStatement(db, user.id);
  const [recoveryCodes] = disableStatements(db, user.id);
  return actOnce(db, change, entryOf(act, 'user.two_step_reset', { kind: 'user', id: user.id }), ERR.PERSON_TWO_STEP_OFF, [
    deletePasskeysIfChangedStatement(db, user.id),
    recoveryCodes!,
    deleteSecondStepChallengesStatement(db, user.id),
    ...endSessionsAndTrust(db, user.id, act.at),
  ]);
}

/** Blocks the account: every sign-in answers PS0100, every session and every trusted device end, in the same batch. */
export function blockPerson(db: D1Database, user: UserRow, act: SupportAct) {
  const change = blockStatement(db, user.id, act.at);
  return actOnce(db, change, entryOf(act, 'user.blocked', { kind: 'user', id: user.id }), ERR.PERSON_ALREADY_BLOCKED, endSessionsAndTrust(db, user.id, act.at));
}

export function unblockPerson(db: D1Database, user: UserRow, act: SupportAct) {
  const change = unblockStatement(db, user.id);
  return actOnce(db, change, entryOf(act, 'user.unblocked', { kind: 'user', id: user.id }), ERR.PERSON_NOT_BLOCKED);
}

/**
 * Moves a company's administrator role to `userId`, an active staff member, when the administrator has left:
 * one UPDATE swaps both rows or neither, so the company always has exactly one administrator, and of parallel
 * transfers only the first finds the old administrator still in place. The old administrator's membership
 * ends (status 'rejected'): they left, and the new administrator may re-admit them.
 *
 * A transfer that reads the administrator only after another transfer has landed would pass the role on a second
 * time (two operators on the same request, a doubled click): the same UPDATE therefore also refuses a company
 * whose administrator was transferred within TRANSFER_SETTLE_MS (its audit row, written in the same batch).
 */
export const TRANSFER_SETTLE_MS = 60_000;

export async function transferAdministrator(db: D1Database, companyId: string, userId: string, act: SupportAct) {
  const current = await activeAdministratorOf(db, companyId);
  if (!current || current.user_id === userId) throw new GatewayError(ERR.ADMINISTRATOR_TRANSFER_REFUSED);
  const change = transferAdministratorStatement(db, companyId, current.user_id, userId, act.at - TRANSFER_SETTLE_MS);
  await actOnce(db, change, entryOf(act, 'company.administrator_transferred', { kind: 'company', id: companyId }, { from: current.user_id, to: userId }), ERR.ADMINISTRATOR_TRANSFER_REFUSED);
}

/** Accounts in their cooling-off or erased, for people support: the soonest erasure first. */
export async function closingPeople(db: D1Database): Promise<PersonSummary[]> {
  return (await closingAccounts(db, 200)).map(summaryOf);
}

/**
 * A legal hold (a court order, an investigation, a dispute): the account's erasure waits while it stands. An
 * operator cannot cancel a person's closure for them, only hold its erasure, with the reason in the trail.
 */
export function placeLegalHold(db: D1Database, user: UserRow, act: SupportAct) {
  return actOnce(db, placeHoldStatement(db, user.id, act.reason, act.at), entryOf(act, 'user.legal_hold_placed', { kind: 'user', id: user.id }), ERR.LEGAL_HOLD_ALREADY);
}

export function liftLegalHold(db: D1Database, user: UserRow, act: SupportAct) {
  return actOnce(db, liftHoldStatement(db, user.id), entryOf(act, 'user.legal_hold_lifted', { kind: 'user', id: user.id }), ERR.LEGAL_HOLD_NONE);
}
