import type { WorkerEnv } from '../../env';
import type { Lang } from '../../../src/lib/lang';
import {
  COMPANY_TYPE_DB,
  VERIFICATION_STATUS_DB,
  companyTypeFromDb,
  verificationStatusFromDb,
  type VerificationStatus,
} from '../../../src/schemas/onboarding';
import {
  actionsFrom,
  REVIEW_PAGE_SIZE,
  REVIEW_RULES,
  reviewFileUrl,
  reviewReasonText,
  type ReviewAction,
  type ReviewDecisionAnswer,
  type ReviewDecisionRequest,
  type ReviewDetailAnswer,
  type ReviewQueueAnswer,
  type ReviewQueueQuery,
} from '../../../src/schemas/ops-review';
import type { AuditedAction } from '../../../src/schemas/ops-people';
import { configOf } from '../../config';
import { administratorOf, nameTaken } from '../companies/db';
import { applyCompanyEdit, applyDecision, reviewedCompanyById, reviewQueue, type ReviewedCompanyRow } from './db';
import { companyNameKey } from '../../../src/schemas/onboarding';
import type { CompanyEditAnswer, CompanyEditRequest } from '../../../src/schemas/ops-review';
import { membersOfCompany } from '../companies/db';
import { fileById, filesOfCompany } from '../files/db';
import { fileResponse } from '../files/service';
import { GatewayError } from '../errors';
import { listAudit, operatorNamesOf } from '../audit/db';
import { companyShown, imoCompanyNumber, mainlandCreditCode, memberShown } from '../companies/service';
import { deliver, type DeliveryEnv } from '../delivery';
import type { Operator } from '../operators/service';
import { ERR } from '../../../src/schemas/error-codes';
import { operatorCheck, registryOfCompany, settleRegistryTasks } from '../registry/service';

/**
 * Company review by operators (reviewer or admin): the queue, the review page and the decisions.
 *
 * - Every decision is one conditional UPDATE from the status the operator saw (REVIEW_RULES in
 *   src/schemas/ops-review.ts says which statuses each may start from), batched with its audit row: of two
 *   operators acting at once one wins and the other gets RV0001 with the status as it now stands.
 * - Fail, more information, block and expire need a reason template ('other' needs the operator's words).
 * - The company's administrator is told of every decision by e-mail (SMS without one), in the language the
 *   company form was last sent in. A refused delivery does not undo the decision.
 * - A block or an expiry takes the company out of the sessions that had entered it; its members are refused
 *   at sign-in and when entering it (RV0010, RV0011).
 */

const wire = (status: string) => verificationStatusFromDb(status);
const stored = (status: VerificationStatus) => VERIFICATION_STATUS_DB[status];

export async function companyQueue(db: D1Database, query: ReviewQueueQuery): Promise<ReviewQueueAnswer> {
  const page = Number(query.page ?? 1);
  const status = query.status ?? 'approving';
  // 'verified' also lists the legacy stored 'active'.
  const statuses = status === 'all' ? [] : status === 'verified' ? ['verified', 'active'] : [stored(status)];
  const { rows, total } = await reviewQueue(db, {
    statuses,
    text: query.q || undefined,
    countryId: query.country || undefined,
    type: query.type ? COMPANY_TYPE_DB[query.type] : undefined,
    limit: REVIEW_PAGE_SIZE,
    offset: (page - 1) * REVIEW_PAGE_SIZE,
  });
  return {
    items: rows.map((row) => ({
      companyId: row.id,
      companyNameEn: row.name_en,
      companyNameCn: row.name_cn,
      companyType: companyTypeFromDb(row.type),
      status: wire(row.status),
      countryId: row.country_id,
      countryName: row.country_name,
      socialCredit: row.social_credit,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    })),
    total,
    page,
    pageSize: REVIEW_PAGE_SIZE,
  };
}

async function requireCompany(db: D1Database, companyId: string): Promise<ReviewedCompanyRow> {
  const company = await reviewedCompanyById(db, companyId);
  if (!company) throw new GatewayError(ERR.REVIEW_COMPANY_NOT_FOUND);
  return company;
}

/** Audit detail is JSON the gateway wrote; a row that is not an object shows as none. */
function detailOf(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Everything the administrator entered, the files, the members and the history of the company. */
export async function companyReview(db: D1Database, companyId: string): Promise<ReviewDetailAnswer> {
  const company = await requireCompany(db, companyId);
  const [files, members, history, registry] = await Promise.all([
    filesOfCompany(db, company.id),
    membersOfCompany(db, company.id),
    listAudit(db, { targetKind: 'company', targetId: company.id, limit: 100 }),
    registryOfCompany(db, company.id),
  ]);
  const actorName = await operatorNamesOf(db, history);
  return {
    companyId: company.id,
    status: wire(company.status),
    ...companyShown(company),
    contactPhone: company.contact_phone,
    contactEmail: company.contact_email,
    portName: company.port_name,
    portCode: company.port_code,
    socialCredit: company.social_credit,
    imoCompanyNumber: company.imo_company_number,
    nationalRegistryNumber: company.national_registry_number,
    lang: company.lang,
    createdAt: company.created_at,
    updatedAt: company.updated_at,
    review: { reason: company.review_reason, note: company.review_note, reviewedAt: company.reviewed_at },
    files: files.map((file) => ({
      id: file.id,
      purpose: file.purpose ?? file.kind,
      originName: file.origin_name,
      contentType: file.content_type,
      size: file.size,
      url: reviewFileUrl(company.id, file.id),
    })),
    members: members.map(memberShown),
    history: history.map((row) => ({
      id: row.id,
      at: row.created_at,
      actorKind: row.actor_kind,
      actorName: actorName(row),
      action: row.action,
      reason: row.reason,
      detail: detailOf(row.detail),
    })),
    actions: actionsFrom(wire(company.status)),
    registry,
  };
}

/** The audit action of each decision (dotted, past tense). */
const AUDIT_ACTIONS: Record<ReviewAction, AuditedAction> = {
  verify: 'company.verified',
  fail: 'company.verification_failed',
  requestInformation: 'company.information_requested',
  block: 'company.blocked',
  unblock: 'company.unblocked',
  expire: 'company.expired',
};

export interface DecisionCaller {
  db: D1Database;
  env: DeliveryEnv;
  operator: Operator;
  /** The client network (clientIp). */
  network: string;
  now: number;
}

export async function decide(caller: DecisionCaller, request: ReviewDecisionRequest): Promise<ReviewDecisionAnswer> {
  const rule = REVIEW_RULES[request.action];
  const reason = request.reason ?? null;
  const note = request.note || null;
  if (rule.reasons.length && (!reason || !rule.reasons.includes(reason))) throw new GatewayError(ERR.REVIEW_REASON_NOT_CHOSEN);
  if (!rule.reasons.length && reason) throw new GatewayError(ERR.REVIEW_REASON_NOT_CHOSEN);
  if (reason === 'other' && !note) throw new GatewayError(ERR.REVIEW_REASON_TEXT_MISSING);
  if (!rule.from.includes(request.expectedStatus)) throw new GatewayError(ERR.REVIEW_DECISION_NOT_ALLOWED, { status: request.expectedStatus });

  const company = await requireCompany(caller.db, request.companyId);
  // The legacy stored 'active' reads as 'verified': a decision from 'verified' acts from what is stored.
  const expected = request.expectedStatus === 'verified' && company.status === 'active' ? 'active' : stored(request.expectedStatus);
  const to = rule.to === 'previous' ? null : stored(rule.to);
  const won = await applyDecision(caller.db, {
    companyId: company.id,
    expected,
    to,
    reason,
    note,
    at: caller.now,
    // A block suspends the company's grants with other companies in the same batch (issue 42).
    grantsReason: request.action === 'block' ? [reviewReasonText('en', reason, null), note].filter(Boolean).join(': ') || 'blocked' : undefined,
    audit: {
      at: caller.now,
      actor: { kind: 'operator', id: caller.operator.id },
      action: AUDIT_ACTIONS[request.action],
      target: { kind: 'company', id: company.id },
      reason: [reason, note].filter(Boolean).join(': ') || null,
      network: caller.network,
      detail: { from: request.expectedStatus, ...(to ? { to: wire(to) } : {}) },
    },
  });
  const after = await requireCompany(caller.db, company.id);
  if (!won) throw new GatewayError(ERR.REVIEW_DECIDED_MEANWHILE, { status: wire(after.status) });
  // Suspending the company is the answer to its registry tasks.
  if (request.action === 'block') await settleRegistryTasks(caller.db, company.id, caller.now);
  const notified = await notifyAdministrator(caller, after);
  return { companyId: company.id, status: wire(after.status), notified };
}

/**
 * The operator's correction of a company's names and credit code (issue 42): a mainland code checked at both levels
 * as at entry (companies/service.ts mainlandCreditCode: RG0001, RG0002), a name no other company of the type holds
 * (CO0001), and nothing changed since the operator opened it (RV0006); one batch with its audit row, which names the
 * fields and their old and new values and carries the operator's reason. Nothing changed is no edit and no row.
 * A saved change to a mainland company's code or registered name is checked against the registry at once, as the
 * operator's "Check again" (registry/service.ts operatorCheck); a registry that does not answer leaves the edit saved.
 */
export async function editCompany(caller: DecisionCaller, request: CompanyEditRequest & { companyNameCn?: string | null }): Promise<CompanyEditAnswer> {
  const company = await requireCompany(caller.db, request.companyId);
  const overseas = company.country_id !== 'CN';
  const socialCredit = overseas ? request.socialCredit : mainlandCreditCode(request.socialCredit);
  const before = {
    nameEn: company.name_en,
    nameCn: company.name_cn || null,
    socialCredit: company.social_credit,
    imoCompanyNumber: company.imo_company_number,
    nationalRegistryNumber: company.national_registry_number,
  };
  // An overseas company's numbers (issue 42), checked as at entry: left out, they stay; a mainland company has none.
  const next = {
    nameEn: request.companyNameEn,
    nameCn: request.companyNameCn || null,
    socialCredit,
    imoCompanyNumber: !overseas ? null : request.imoCompanyNumber === undefined ? before.imoCompanyNumber : imoCompanyNumber(request.imoCompanyNumber),
    nationalRegistryNumber: !overseas
      ? null
      : request.nationalRegistryNumber === undefined
        ? before.nationalRegistryNumber
        : request.nationalRegistryNumber?.trim().replace(/\s+/g, ' ') || null,
  };
  const changed = (Object.keys(next) as (keyof typeof next)[]).filter((key) => next[key] !== before[key]);
  if (!changed.length) return { companyId: company.id, changed: [], updatedAt: company.updated_at ?? company.created_at, registry: null };
  const won = await applyCompanyEdit(caller.db, {
    companyId: company.id,
    expectedUpdatedAt: request.expectedUpdatedAt,
    ...next,
    nameKey: companyNameKey(next.nameEn),
    at: caller.now,
    audit: {
      at: caller.now,
      actor: { kind: 'operator', id: caller.operator.id },
      action: 'company.edited',
      target: { kind: 'company', id: company.id },
      reason: request.reason,
      network: caller.network,
      detail: { changed, from: Object.fromEntries(changed.map((key) => [key, before[key]])), to: Object.fromEntries(changed.map((key) => [key, next[key]])) },
    },
  });
  const after = await requireCompany(caller.db, company.id);
  if (!won) {
    if (await nameTaken(caller.db, companyNameKey(next.nameEn), company.type, company.id)) throw new GatewayError(ERR.COMPANY_ALREADY_EXISTS, { path: 'companyNameEn' });
    throw new GatewayError(ERR.COMPANY_EDITED_MEANWHILE);
  }
  // What the registry is asked: the code and the name it knows the company by (its Chinese name, else the English).
  const registered = (names: { nameEn: string; nameCn: string | null }) => names.nameCn || names.nameEn;
  const askAgain = !overseas && after.social_credit !== null && (changed.includes('socialCredit') || registered(next) !== registered(before));
  const registry = askAgain ? await operatorCheck(caller, company.id) : null;
  return { companyId: company.id, changed, updatedAt: after.updated_at ?? caller.now, registry };
}

/**
 * The message of a decision in `lang`: the company, its new status, the reason, where to look. Its template SMS
 * form carries the company and the status; the reason and the link are on the page the template points to.
 */
export function decisionMessage(lang: Lang, company: { name: string; status: string; reason: string; link: string | null }) {
  const zh = lang === 'zh';
  const statusName = (zh ? STATUS_ZH : STATUS_EN)[company.status] ?? company.status;
  const subject = zh ? `企业认证状态更新：${company.name}` : `Company verification update: ${company.name}`;
  const lines = zh
    ? [`您的企业“${company.name}”的认证状态已变更为：${statusName}。`, company.reason && `原因：${company.reason}`, company.link && `详情请查看：${company.link}`]
    : [`The verification status of your company "${company.name}" is now: ${statusName}.`, company.reason && `Reason: ${company.reason}`, company.link && `See the details at ${company.link}`];
  return { kind: 'reviewDecision' as const, lang, subject, text: lines.filter(Boolean).join('\n'), params: { company: company.name, status: statusName } };
}

const STATUS_EN: Record<string, string> = {
  approving: 'awaiting verification',
  verified: 'verified',
  verificationFailed: 'verification failed',
  additionalInformationRequired: 'additional information required',
  blocked: 'blocked',
  expired: 'expired',
};
const STATUS_ZH: Record<string, string> = {
  approving: '审核中',
  verified: '已认证',
  verificationFailed: '认证失败',
  additionalInformationRequired: '需补充资料',
  blocked: '已冻结',
  expired: '已过期',
};

/** Tells the company's administrator of the decision: e-mail, or SMS without one. False when nobody could be told. */
async function notifyAdministrator(caller: DecisionCaller, company: ReviewedCompanyRow): Promise<boolean> {
  const admin = await administratorOf(caller.db, company.id);
  const to = admin?.email ? { channel: 'email' as const, to: admin.email } : admin?.phone_e164 ? { channel: 'sms' as const, to: admin.phone_e164 } : null;
  if (!to) return false;
  const lang = company.lang;
  const status = wire(company.status);
  const origin = configOf(caller.env).portalOrigin;
  // The page where the administrator acts on it: the form when it asks for more, else the company list.
  const page = status === 'additionalInformationRequired' ? `/fill_account?companyId=${encodeURIComponent(company.id)}` : '/account';
  const message = decisionMessage(lang, {
    name: (lang === 'zh' && company.name_cn) || company.name_en,
    status,
    reason: reviewReasonText(lang, company.review_reason, company.review_note),
    link: origin ? `${origin}${page}` : null,
  });
  try {
    await deliver(caller.env, { ...to, ...message }, { now: caller.now });
    return true;
  } catch (error) {
    console.error('review decision not delivered', error instanceof Error ? error.message : error);
    return false;
  }
}

/** A file of this company (licence, GTC, logo), shown inline to the operator; FL0010 for any other file. */
export async function companyFileShown(env: Pick<WorkerEnv, 'DB' | 'UPLOADS'>, companyId: string, fileId: string): Promise<Response> {
  const row = await fileById(env.DB, fileId);
  const object = row && row.company_id === companyId ? await env.UPLOADS.get(row.r2_key) : null;
  if (!row || !object) throw new GatewayError(ERR.FILE_NOT_FOUND);
  return fileResponse(row, object, 'inline');
}
