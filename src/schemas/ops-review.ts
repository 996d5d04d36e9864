import * as z from 'zod/mini';
import { checked } from './checked';
import { companyEditFields, companyShownFields, COMPANY_TYPES, verificationStatusSchema, type VerificationStatus } from './onboarding';
import { reviewOutcomeSchema, reviewReasonSchema, type ReviewReason } from './review-outcome';
import { registryCheckSchema, reviewRegistrySchema } from './registry';

export { auditReasonText, REVIEW_REASONS, REVIEW_REASON_TEXT, reviewReasonText, reviewReasonSchema, type ReviewReason } from './review-outcome';

/**
 * Wire contracts of company review by operators (gateway paths under /ops/v1/companies). One schema per call,
 * shared by the operator islands, the gateway and the tests. Statuses and types travel as onboarding's wire values.
 */

// ---------------------------------------------------------------------------------------------------------
// Decisions and their reasons
// ---------------------------------------------------------------------------------------------------------

export const REVIEW_ACTIONS = ['verify', 'fail', 'requestInformation', 'block', 'unblock', 'expire'] as const;
export const reviewActionSchema = z.enum(REVIEW_ACTIONS);
export type ReviewAction = z.infer<typeof reviewActionSchema>;

/**
 * What each decision does: the statuses it may start from and the one it leads to (unblock gives back the
 * status the block interrupted). `reasons` are the templates an operator picks from; a decision with reasons
 * needs one, and 'other' needs the operator's own words.
 */
export const REVIEW_RULES: Record<ReviewAction, { from: readonly VerificationStatus[]; to: VerificationStatus | 'previous'; reasons: readonly ReviewReason[] }> = {
  verify: { from: ['approving', 'notVerified'], to: 'verified', reasons: [] },
  fail: { from: ['approving', 'notVerified'], to: 'verificationFailed', reasons: ['documentsUnreadable', 'documentsMismatch', 'companyUnknown', 'other'] },
  requestInformation: {
    from: ['approving', 'notVerified'],
    to: 'additionalInformationRequired',
    reasons: ['licenceMissing', 'documentsUnreadable', 'creditCodeMismatch', 'gtcMissing', 'contactUnreachable', 'other'],
  },
  block: {
    from: ['approving', 'notVerified', 'additionalInformationRequired', 'verified', 'verificationFailed', 'expired'],
    to: 'blocked',
    reasons: ['fraudSuspected', 'termsBreached', 'requestedByCompany', 'registryNotOperating', 'other'],
  },
  unblock: { from: ['blocked'], to: 'previous', reasons: [] },
  expire: { from: ['verified'], to: 'expired', reasons: ['licenceExpired', 'inactive', 'other'] },
};

/** The operator's own words with a decision, as the administrator will read them. */
export const REVIEW_NOTE_MAX = 1000;

/** POST ops/v1/companies/decide: `expectedStatus` is the status the operator saw; the decision acts only from it. */
export const reviewDecisionRequest = z.object({
  companyId: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(64)),
  action: reviewActionSchema,
  expectedStatus: verificationStatusSchema,
  reason: z.optional(z.nullable(reviewReasonSchema)),
  note: z.optional(z.nullable(checked(z.string(), z.trim(), z.maxLength(REVIEW_NOTE_MAX)))),
});
export type ReviewDecisionRequest = z.infer<typeof reviewDecisionRequest>;

/**
 * POST ops/v1/companies/edit (reviewer): the operator corrects the company's names or credit code (issue 42), or an
 * overseas company's IMO company number (RG0004, RG0007) and national registry number, with a
 * reason for the audit row. `expectedUpdatedAt` is the company's `updatedAt` as the operator saw it: the edit acts
 * only while nobody changed the company since (else RV0006). A mainland credit code is checked as at entry (RG0001,
 * RG0002); a name another company of the type holds is CO0001. A saved correction of a mainland company's code or
 * registered name (its Chinese name, else its English one) asks the registry again, as "Check again" does: `registry`
 * is that check (null when none was asked).
 */
export const companyEditRequest = z.object({
  companyId: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(64)),
  expectedUpdatedAt: z.nullable(z.number()),
  ...companyEditFields.shape,
  reason: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(REVIEW_NOTE_MAX)),
});
export type CompanyEditRequest = z.input<typeof companyEditRequest>;
export const companyEditAnswer = z.object({ companyId: z.string(), changed: z.array(z.string()), updatedAt: z.number(), registry: z.optional(z.nullable(registryCheckSchema)) });
export type CompanyEditAnswer = z.infer<typeof companyEditAnswer>;

export const reviewDecisionAnswer = z.object({ companyId: z.string(), status: z.string(), notified: z.boolean() });
export type ReviewDecisionAnswer = z.infer<typeof reviewDecisionAnswer>;

// ---------------------------------------------------------------------------------------------------------
// The queue
// ---------------------------------------------------------------------------------------------------------

export const REVIEW_PAGE_SIZE = 20;
/** The statuses the queue's tabs show, the ones awaiting a decision first. */
export const QUEUE_STATUSES = ['approving', 'additionalInformationRequired', 'verified', 'verificationFailed', 'blocked', 'expired'] as const satisfies readonly VerificationStatus[];

/** GET ops/v1/companies?status=&q=&country=&type=&page= */
export const reviewQueueQuery = z.object({
  status: z.optional(z.union([verificationStatusSchema, z.literal('all')])),
  q: z.optional(checked(z.string(), z.trim(), z.maxLength(100))),
  country: z.optional(checked(z.string(), z.trim(), z.regex(/^([A-Za-z]{2})?$/))),
  type: z.optional(z.union([z.enum(COMPANY_TYPES), z.literal('')])),
  /** 1-based; a query string carries it as digits. */
  page: z.optional(checked(z.string(), z.regex(/^[1-9]\d{0,3}$/))),
});
export type ReviewQueueQuery = z.infer<typeof reviewQueueQuery>;

export const reviewQueueItem = z.object({
  companyId: z.string(),
  companyNameEn: z.string(),
  companyNameCn: z.nullable(z.string()),
  companyType: z.string(),
  status: z.string(),
  countryId: z.nullable(z.string()),
  countryName: z.nullable(z.string()),
  socialCredit: z.nullable(z.string()),
  createdAt: z.number(),
  updatedAt: z.nullable(z.number()),
});
export type ReviewQueueItem = z.infer<typeof reviewQueueItem>;

export const reviewQueueAnswer = z.object({ items: z.array(reviewQueueItem), total: z.number(), page: z.number(), pageSize: z.number() });
export type ReviewQueueAnswer = z.infer<typeof reviewQueueAnswer>;

// ---------------------------------------------------------------------------------------------------------
// The review page
// ---------------------------------------------------------------------------------------------------------

/** GET ops/v1/companies/detail?companyId= */
export const reviewDetailQuery = z.object({ companyId: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(64)) });

export const reviewFileSchema = z.object({
  id: z.string(),
  purpose: z.string(),
  originName: z.string(),
  contentType: z.string(),
  size: z.number(),
  /** The operator-only address of the bytes (served inline). */
  url: z.string(),
});
export type ReviewFile = z.infer<typeof reviewFileSchema>;

export const reviewMemberSchema = z.object({
  userId: z.string(),
  name: z.string(),
  phone: z.nullable(z.string()),
  email: z.nullable(z.string()),
  role: z.string(),
  status: z.string(),
  joinedAt: z.number(),
});

export const reviewHistoryEntry = z.object({
  id: z.number(),
  at: z.number(),
  actorKind: z.string(),
  actorName: z.nullable(z.string()),
  action: z.string(),
  reason: z.nullable(z.string()),
  detail: z.nullable(z.record(z.string(), z.unknown())),
});
export type ReviewHistoryEntry = z.infer<typeof reviewHistoryEntry>;

export const reviewDetailAnswer = z.object({
  companyId: z.string(),
  status: z.string(),
  ...companyShownFields,
  contactPhone: z.nullable(z.string()),
  contactEmail: z.nullable(z.string()),
  portName: z.nullable(z.string()),
  portCode: z.nullable(z.string()),
  socialCredit: z.nullable(z.string()),
  /** An overseas company's numbers (issue 42); their evidence is among `files` (purpose 'registryEvidence'). */
  imoCompanyNumber: z.nullable(z.string()),
  nationalRegistryNumber: z.nullable(z.string()),
  lang: z.string(),
  createdAt: z.number(),
  updatedAt: z.nullable(z.number()),
  review: reviewOutcomeSchema,
  files: z.array(reviewFileSchema),
  members: z.array(reviewMemberSchema),
  history: z.array(reviewHistoryEntry),
  /** The decisions open from the current status. */
  actions: z.array(reviewActionSchema),
  /** The registry check (issue 42): the latest verdict and the open tasks of a status change. */
  registry: reviewRegistrySchema,
});
export type ReviewDetailAnswer = z.infer<typeof reviewDetailAnswer>;

/** The operator-only address of a company file's bytes. */
export const reviewFileUrl = (companyId: string, fileId: string) =>
  `/api/ops/v1/companies/${encodeURIComponent(companyId)}/files/${encodeURIComponent(fileId)}`;

/** The decisions open from a status. */
export const actionsFrom = (status: string): ReviewAction[] =>
  REVIEW_ACTIONS.filter((action) => (REVIEW_RULES[action].from as readonly string[]).includes(status));
