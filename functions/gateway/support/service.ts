import type { WorkerEnv } from '../../env';
import type { Lang } from '../../../src/lib/lang';
import { ERR } from '../../../src/schemas/error-codes';
import type { SupportConsole, SupportCodeAnswer, SupportViewsOfMine, SupportViewStarted } from '../../../src/schemas/support-view';
import { GatewayError } from '../errors';
import { auditStatement, type AuditEntry } from '../audit/db';
import { generateCode } from '../codes/service';
import { sendSecurityNotice } from '../delivery/security-notice';
import { findUserById, type UserRow } from '../identity/db/people';
import { revokeSessionStatement, type SessionRow } from '../identity/db/sessions';
import { sha256Hex } from '../identity/passwords';
import { randomToken } from '../identity/tokens';
import { proveOperator } from '../operators/sign-in';
import { prepareSession } from '../sessions/service';
import type { ClientInfo } from '../sessions/devices';
import {
  activeCompaniesOf,
  allowWritesStatement,
  approvalRow,
  approveStatement,
  countSupportCodeTry,
  insertApprovalStatement,
  insertSupportCodeStatements,
  isOperatorsAccount,
  liveViews,
  liveViewsOf,
  openApprovals,
  runOutViews,
  operatorNameOf,
  spendApprovalStatement,
  spendSupportCodeStatement,
  viewByPublicId,
} from './db';

/**
 * Support "view as" (issue 44). An operator with the support role (or admin) sees the portal as a person sees it:
 *
 * - Consent: the person reads a support code in their user center (SUPPORT_CODE_DIGITS digits, 15 minutes, single
 *   use, only the latest live, 5 wrong tries, stored as SHA-256 of person and code: a kind of the single-use core),
 *   or, for a person who cannot sign in, an operator administrator who is not the operator asking approves the
 *   request (a row of support_approvals, used once within 15 minutes of the approval).
 * - The operator enters person, code (or approval) and reason with a fresh proof (a code of their authenticator app,
 *   operators/sign-in.ts proveOperator). The spend of the code decides: of twenty parallel starts one gets a session.
 * - The session is the person's, marked (sessions.support_*), VIEW_MS long from its start and never longer: its
 *   expires_at is set once and no path extends it. support/guard.ts refuses what it may not call; an administrator
 *   may allow changes for that one session; each change is an audit row (sessions/service.ts requireSession).
 * - The person is told at start and end (a security notice and their activity); the administrators of each of
 *   their companies see both in the company's trail (rows with the company as target).
 */
export const SUPPORT_CODE_DIGITS = 6;
export const SUPPORT_CODE_MS = 15 * 60 * 1000;
export const SUPPORT_CODE_TRIES = 5;
/** The longest a view lasts; nothing extends it. */
export const VIEW_MS = 30 * 60 * 1000;
/** How long an approved request may be used; a request waits for its approval at most REQUEST_MS. */
export const APPROVAL_MS = 15 * 60 * 1000;
export const REQUEST_MS = 60 * 60 * 1000;

export interface OperatorAct {
  operatorId: string;
  network: string;
  at: number;
  lang: Lang;
  userAgent?: string | null;
}

const codeHash = (userId: string, code: string) => sha256Hex(`support|${userId}|${code}`);

/** The person's new support code (their earlier ones end), with an activity row of theirs. */
export async function issueSupportCode(db: D1Database, userId: string, at: number, network: string): Promise<SupportCodeAnswer> {
  const code = generateCode(SUPPORT_CODE_DIGITS);
  const expiresAt = at + SUPPORT_CODE_MS;
  await db.batch([
    ...insertSupportCodeStatements(db, { userId, codeHash: await codeHash(userId, code), at, expiresAt }),
    auditStatement(db, { at, actor: { kind: 'user', id: userId }, action: 'user.support_code_issued', target: { kind: 'user', id: userId }, network }),
  ]);
  return { code, expiresAt, expiresIn: SUPPORT_CODE_MS / 1000 };
}

/** The person support may view as: a live account that is no operator's own. */
async function viewablePerson(db: D1Database, userId: string): Promise<UserRow> {
  const user = await findUserById(db, userId);
  if (!user || user.blocked_at !== null || user.erased_at !== null || (await isOperatorsAccount(db, user.email))) {
    throw new GatewayError(ERR.SUPPORT_VIEW_NOT_ALLOWED);
  }
  return user;
}

/** Spends the person's latest code when `code` is it: SV0003 for anything else, alike. */
async function spendCode(db: D1Database, userId: string, code: string, at: number): Promise<void> {
  const counted = await countSupportCodeTry(db, userId, at, SUPPORT_CODE_TRIES);
  if (!counted || counted.code_hash !== (await codeHash(userId, code))) throw new GatewayError(ERR.SUPPORT_CODE_INVALID);
  const spent = await spendSupportCodeStatement(db, counted.id, counted.code_hash, at).first();
  if (!spent) throw new GatewayError(ERR.SUPPORT_CODE_INVALID);
}

/** One row per company the person is an active member of: their administrators see it in the company's trail. */
const companyRows = (db: D1Database, companies: readonly string[], entry: Omit<AuditEntry, 'target'>) =>
  companies.map((companyId) => auditStatement(db, { ...entry, target: { kind: 'company', id: companyId } }, { ifChanged: true }));

/**
 * Starts a view as `input.userId`: the operator's fresh proof first, then the code's (or approval's) spend decides,
 * then the session with its rows in one batch, then the person's notice. The answer carries the session token as a
 * sign-in does (`oauthVO`), which the edge moves into the operator's browser as the person's session cookie.
 */
export async function startView(
  env: WorkerEnv,
  act: OperatorAct,
  input: { userId: string; code?: string; approvalId?: string; reason: string; proof: string },
): Promise<SupportViewStarted & { oauthVO: { access_token: string; expires_in: number }; supportBanner: { operator: string; until: number } }> {
  const db = env.DB;
  await proveOperator(env, act.operatorId, input.proof, { network: act.network, at: act.at });
  const user = await viewablePerson(db, input.userId);
  if (input.approvalId) {
    const spent = await spendApprovalStatement(db, input.approvalId, user.id, act.operatorId, act.at).first();
    if (!spent) throw new GatewayError(ERR.SUPPORT_APPROVAL_INVALID);
  } else {
    // No code at all is no guess: it spends no try of the person's code.
    if (!input.code) throw new GatewayError(ERR.SUPPORT_CODE_INVALID);
    await spendCode(db, user.id, input.code, act.at);
  }
  const client: ClientInfo = { userAgent: act.userAgent ?? null, country: null, network: act.network };
  const session = await prepareSession(db, {
    userId: user.id,
    kind: 'platform',
    now: act.at,
    client,
    lifetimeS: VIEW_MS / 1000,
    proof: null,
    signedInWith: 'support',
    support: { operatorId: act.operatorId, reason: input.reason },
  });
  const sessionId = session.publicId;
  const companies = await activeCompaniesOf(db, user.id);
  const entry = { at: act.at, actor: { kind: 'operator' as const, id: act.operatorId }, network: act.network };
  await db.batch([
    session.statement,
    auditStatement(
      db,
      {
        ...entry,
        action: 'user.support_view_started',
        target: { kind: 'user', id: user.id },
        reason: input.reason,
        detail: { sessionId, via: input.approvalId ? 'approval' : 'code', ...(input.approvalId ? { approvalId: input.approvalId } : {}), until: session.expiresAt },
      },
      { ifChanged: true },
    ),
    ...companyRows(db, companies, { ...entry, action: 'company.support_view_started', detail: { userId: user.id, sessionId, until: session.expiresAt } }),
  ]);
  await sendSecurityNotice(env, { userId: user.id, at: act.at, change: 'supportViewStarted', lang: act.lang });
  const operator = await operatorNameOf(db, act.operatorId);
  return {
    oauthVO: { access_token: session.token, expires_in: VIEW_MS / 1000 },
    // The banner of every page (edge/session-cookies.ts: a readable marker cookie beside the session, display only).
    supportBanner: { operator: operator?.name ?? '', until: session.expiresAt },
    view: { id: sessionId, userId: user.id, until: session.expiresAt, writable: false },
  };
}

/**
 * Ends a view: the session, its rows (the person's and each company's, only when it was still live) and the person's
 * notice. `by` is who ended it. False when it had ended already.
 */
export async function endView(
  env: WorkerEnv,
  session: Pick<SessionRow, 'token_hash' | 'user_id' | 'public_id' | 'support_operator_id'>,
  by: { kind: 'user' | 'operator' | 'system'; id: string | null },
  at: number,
  network: string | null,
  lang: Lang,
): Promise<boolean> {
  const db = env.DB;
  if (!session.support_operator_id) throw new GatewayError(ERR.SUPPORT_VIEW_ENDED);
  const companies = await activeCompaniesOf(db, session.user_id);
  const entry = { at, actor: by, network };
  const results = await db.batch([
    revokeSessionStatement(db, 'person', session.token_hash, at),
    auditStatement(
      db,
      { ...entry, action: 'user.support_view_ended', target: { kind: 'user', id: session.user_id }, detail: { sessionId: session.public_id, operatorId: session.support_operator_id } },
      { ifChanged: true },
    ),
    ...companyRows(db, companies, { ...entry, action: 'company.support_view_ended', detail: { userId: session.user_id, sessionId: session.public_id } }),
  ]);
  // The webhooks' user.signed_out is written by the sessions_signed_out trigger (migration 0600) with the UPDATE, whose
  // meta.changes then counts that row too: more than 0 is "it was live".
  if (!((results[0]?.meta.changes ?? 0) > 0)) return false;
  await sendSecurityNotice(env, { userId: session.user_id, at, change: 'supportViewEnded', lang });
  return true;
}

/**
 * The views that ran out (30 minutes) end here, on the every-minute cron: the session is marked ended and the person
 * and their companies' trails are told as for End (actor `system`). Each is ended by its own conditional UPDATE, so
 * two runs at once tell once. Returns how many ended.
 */
export async function endRunOutViews(env: WorkerEnv, at: number): Promise<{ ended: number }> {
  let ended = 0;
  for (const view of await runOutViews(env.DB, at)) {
    // The notice in the platform's first language: a run has no visitor to ask.
    if (await endView(env, view, { kind: 'system', id: null }, at, null, 'zh')) ended += 1;
  }
  return { ended };
}

/** An operator ends a view from the console (the viewing operator, or an administrator). */
export async function endViewByOperator(env: WorkerEnv, act: OperatorAct, publicId: string, isAdmin: boolean): Promise<void> {
  const view = await viewByPublicId(env.DB, publicId);
  if (!view || (!isAdmin && view.support_operator_id !== act.operatorId)) throw new GatewayError(ERR.SUPPORT_VIEW_ENDED);
  const ended = await endView(env, view, { kind: 'operator', id: act.operatorId }, act.at, act.network, act.lang);
  if (!ended) throw new GatewayError(ERR.SUPPORT_VIEW_ENDED);
}

/** The views support has open as the person now (their own session's Security section, where they may end them). */
export async function viewsOfPerson(db: D1Database, userId: string, at: number): Promise<SupportViewsOfMine> {
  return (await liveViewsOf(db, userId, at)).map((v) => ({ id: v.public_id, operator: v.operator_name, until: v.expires_at }));
}

/**
 * The person ends a view of their account from their own session: at once (the view's next call answers TK00001),
 * with the rows and the notice of every other end, the person as actor. SV0008 for a view not theirs or ended.
 */
export async function endViewByPerson(env: WorkerEnv, userId: string, publicId: string, at: number, network: string, lang: Lang): Promise<void> {
  const view = await viewByPublicId(env.DB, publicId);
  // A view past its 30 minutes is ended by the system (the every-minute cron), not by the person.
  if (!view || view.user_id !== userId || view.expires_at <= at) throw new GatewayError(ERR.SUPPORT_VIEW_ENDED);
  const ended = await endView(env, view, { kind: 'user', id: userId }, at, network, lang);
  if (!ended) throw new GatewayError(ERR.SUPPORT_VIEW_ENDED);
}

/** An operator administrator, not the one viewing, allows changes in one live view (a row with their reason). */
export async function allowWrites(db: D1Database, act: OperatorAct, publicId: string, reason: string): Promise<void> {
  const view = await viewByPublicId(db, publicId);
  if (!view) throw new GatewayError(ERR.SUPPORT_VIEW_ENDED);
  // The UPDATE decides (live, not allowed yet, another operator than the one viewing); the row follows it.
  const [changed] = await db.batch([
    allowWritesStatement(db, publicId, act.operatorId, act.at),
    auditStatement(
      db,
      {
        at: act.at,
        actor: { kind: 'operator', id: act.operatorId },
        action: 'user.support_write_allowed',
        target: { kind: 'user', id: view.user_id },
        reason,
        network: act.network,
        detail: { sessionId: publicId, operatorId: view.support_operator_id },
      },
      { ifChanged: true },
    ),
  ]);
  if (changed?.results.length) return;
  if (view.revoked_at === null && view.expires_at > act.at && view.support_operator_id === act.operatorId) throw new GatewayError(ERR.SECOND_OPERATOR_REQUIRED);
  throw new GatewayError(ERR.SUPPORT_VIEW_ENDED);
}

/** A support operator asks to view without a code (the person cannot sign in); it waits for an administrator. */
export async function requestApproval(db: D1Database, act: OperatorAct, userId: string, reason: string): Promise<{ id: string; expiresAt: number }> {
  const user = await viewablePerson(db, userId);
  const id = randomToken().slice(0, 22);
  const expiresAt = act.at + REQUEST_MS;
  await db.batch([
    insertApprovalStatement(db, { id, userId: user.id, operatorId: act.operatorId, reason, at: act.at, expiresAt }),
    auditStatement(db, { at: act.at, actor: { kind: 'operator', id: act.operatorId }, action: 'user.support_view_requested', target: { kind: 'user', id: user.id }, reason, network: act.network, detail: { approvalId: id } }),
  ]);
  return { id, expiresAt };
}

/** An operator administrator who is not the one asking approves a request: SV0007 for one's own, SV0006 otherwise. */
export async function approve(db: D1Database, act: OperatorAct, id: string): Promise<{ expiresAt: number }> {
  const [changed] = await db.batch([approveStatement(db, id, act.operatorId, act.at, APPROVAL_MS)]);
  const row = changed?.results[0] as { user_id: string; requested_by: string; reason: string } | undefined;
  if (!row) {
    const asked = await approvalRow(db, id);
    throw new GatewayError(asked?.requested_by === act.operatorId ? ERR.SECOND_OPERATOR_REQUIRED : ERR.SUPPORT_APPROVAL_INVALID);
  }
  await auditStatement(db, {
    at: act.at,
    actor: { kind: 'operator', id: act.operatorId },
    action: 'user.support_view_approved',
    target: { kind: 'user', id: row.user_id },
    reason: row.reason,
    network: act.network,
    detail: { approvalId: id, requestedBy: row.requested_by },
  }).run();
  return { expiresAt: act.at + APPROVAL_MS };
}

/** The console's section: live views and open requests. */
export async function supportConsole(db: D1Database, at: number): Promise<SupportConsole> {
  const [views, approvals] = await Promise.all([liveViews(db, at), openApprovals(db, at)]);
  return {
    views: views.map((v) => ({
      id: v.public_id,
      userId: v.user_id,
      person: v.real_name || v.login_name,
      operatorId: v.support_operator_id,
      operator: v.operator_name,
      reason: v.support_reason,
      writable: v.support_writable === 1,
      startedAt: v.created_at,
      until: v.expires_at,
    })),
    approvals: approvals.map((a) => ({
      id: a.id,
      userId: a.user_id,
      person: a.real_name || a.login_name,
      requestedBy: a.requested_by,
      requester: a.requester_name,
      reason: a.reason,
      approved: a.approved_by !== null,
      expiresAt: a.expires_at,
    })),
  };
}

/** What the banner says of the session: the operator, until when, and whether changes are allowed; null otherwise. */
export async function supportViewOf(
  db: D1Database,
  session: Pick<SessionRow, 'support_operator_id' | 'support_writable' | 'expires_at'>,
): Promise<{ operator: string; until: number; writable: boolean } | null> {
  if (!session.support_operator_id) return null;
  const operator = await operatorNameOf(db, session.support_operator_id);
  return { operator: operator?.name ?? '', until: session.expires_at, writable: session.support_writable === 1 };
}
