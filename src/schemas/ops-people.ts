import * as z from 'zod/mini';
import { signInEntry } from './security';

/**
 * Wire contracts of people support and the audit trail (operator calls under `ops/v1/`, the browser's
 * `/api/ops/v1/...`; the person's own activity under the user center's Security section):
 *
 * - GET  ops/v1/people?q=&page=          (support) → PeoplePage: people by phone, e-mail, user ID or name
 * - GET  ops/v1/people/:id               (support) → PersonDetail
 * - POST ops/v1/people/:id/unlock        (support) { reason } → null   PS0002 when nothing is locked
 * - POST ops/v1/people/:id/signOut       (support) { reason } → { ended }   every session and trusted device end;
 *                                          PS0005 when neither a live session nor a trusted device was left
 * - POST ops/v1/people/:id/requirePasswordChange (support) { reason } → null   PS0006 when already required
 * - POST ops/v1/people/:id/resetTwoStep  (support) { reason } → null   PS0007 when two-step is off
 * - POST ops/v1/people/:id/block         (support) { reason } → null   PS0003 when already blocked
 * - POST ops/v1/people/:id/unblock       (support) { reason } → null   PS0004 when not blocked
 * - POST ops/v1/companies/:id/transferAdministrator (support) { userId, reason } → null   PS0008
 * - GET  ops/v1/audit?actor=&target=&action=&from=&to=&before=  (every operator) → AuditPage
 * - GET  agg-web/user/security/activity  (the signed-in person) → ActivityEntry[]
 *
 * Every action needs a reason (PS0009) and writes its audit row in the same batch as its change.
 */

export const reasonSchema = z.string().check(z.trim(), z.minLength(4), z.maxLength(500));
export const supportActionRequest = z.object({ reason: reasonSchema });
export type SupportActionRequest = z.infer<typeof supportActionRequest>;

export const transferAdministratorRequest = z.object({ userId: z.string().check(z.minLength(1), z.maxLength(64)), reason: reasonSchema });
export type TransferAdministratorRequest = z.infer<typeof transferAdministratorRequest>;

/** A person's id as a path parameter (users.id is a UUID; legacy ids are shorter tokens). */
export const personIdParam = z.object({ id: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)) });

export const PEOPLE_PAGE_SIZE = 20;

export const peopleQuery = z.object({
  q: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  page: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(50)), 1),
});
export type PeopleQuery = z.infer<typeof peopleQuery>;

export const personSummary = z.object({
  id: z.string(),
  name: z.string(),
  phone: z.nullable(z.string()),
  email: z.nullable(z.string()),
  usId: z.nullable(z.string()),
  createdAt: z.number(),
  blocked: z.boolean(),
  /** Closing (cooling-off), erased, and an operator's legal hold (data-rights/; issue 28). */
  closure: z.object({
    since: z.nullable(z.number()),
    closesAt: z.nullable(z.number()),
    erasedAt: z.nullable(z.number()),
    legalHold: z.nullable(z.object({ reason: z.string(), at: z.number() })),
  }),
});
export type PersonSummary = z.infer<typeof personSummary>;

/** Accounts closing or closed, for people support (GET /ops/v1/people/closing). */
export const closingPeople = z.array(personSummary);
export type ClosingPeople = z.infer<typeof closingPeople>;

export const peoplePage = z.object({ people: z.array(personSummary), page: z.number(), more: z.boolean() });
export type PeoplePage = z.infer<typeof peoplePage>;

export const personDetail = z.object({
  profile: z.extend(personSummary, {
    loginName: z.string(),
    countryName: z.nullable(z.string()),
    partner: z.boolean(),
    blockedAt: z.nullable(z.number()),
    mustChangePassword: z.boolean(),
  }),
  memberships: z.array(
    z.object({
      companyId: z.string(),
      companyName: z.string(),
      companyStatus: z.string(),
      role: z.enum(['administrator', 'staff']),
      status: z.enum(['pending', 'active', 'rejected']),
      main: z.boolean(),
    }),
  ),
  sessions: z.array(
    z.object({ createdAt: z.number(), lastSeenAt: z.number(), country: z.nullable(z.string()), network: z.nullable(z.string()), browser: z.nullable(z.string()), os: z.nullable(z.string()), partner: z.boolean() }),
  ),
  signIns: z.array(signInEntry),
  /** Failed password sign-ins per client network that still count (sign-in/risk.ts), and a lock's end. */
  lock: z.object({
    failures: z.array(z.object({ network: z.string(), failures: z.number(), lockedUntil: z.nullable(z.number()) })),
    locked: z.boolean(),
  }),
  twoStep: z.object({ enabled: z.boolean(), recoveryCodesLeft: z.number(), passkeys: z.number() }),
});
export type PersonDetail = z.infer<typeof personDetail>;

export const AUDIT_PAGE_SIZE = 50;

/**
 * Every action the audit trail records, dotted and past tense: the gateway writes no other (its type says so,
 * and scripts/operator-sql.mjs writes the three operator.added, .enrolment_issued and .removed), and each has words in both
 * languages (actionNames, checked by tests/unit/i18n.test.ts).
 */
export const AUDITED_ACTIONS = [
  'user.signed_in',
  'user.password_changed',
  'user.password_reset',
  'user.two_step_enabled',
  'user.two_step_disabled',
  'user.recovery_codes_regenerated',
  'user.passkey_added',
  'user.passkey_removed',
  'user.unlocked',
  'user.signed_out_everywhere',
  'user.device_forgotten',
  'user.device_trusted',
  'user.password_change_required',
  'user.two_step_reset',
  'user.blocked',
  'user.unblocked',
  'user.data_copy_requested',
  'user.data_copy_downloaded',
  'user.closure_requested',
  'user.closure_cancelled',
  'user.erased',
  'user.erasure_skipped',
  'user.legal_hold_placed',
  'user.legal_hold_lifted',
  'user.consent_withdrawn',
  'user.consent_given',
  'user.contact_changed',
  'user.contact_change_undone',
  'user.social_bound',
  'user.social_unbound',
  'user.support_code_issued',
  'user.support_view_requested',
  'user.support_view_approved',
  'user.support_view_started',
  'user.support_view_ended',
  'user.support_write_allowed',
  'user.support_write',
  'member.approved',
  'member.rejected',
  'member.role_changed',
  'member.removed',
  'member.module_granted',
  'member.module_withdrawn',
  'company.verified',
  'company.verification_failed',
  'company.information_requested',
  'company.blocked',
  'company.unblocked',
  'company.expired',
  'company.administrator_transferred',
  'company.domain_added',
  'company.domain_proved',
  'company.domain_removed',
  'company.domain_routed',
  'company.sso_connected',
  'company.sso_settings_changed',
  'company.grants_suspended',
  'company.grants_restored',
  'company.edited',
  'company.support_view_started',
  'company.support_view_ended',
  'vessel.declared',
  'vessel.disputed',
  'vessel.removed',
  'grant.requested',
  'grant.accepted',
  'grant.declined',
  'grant.revoked',
  'grant.used',
  'operator.added',
  'operator.removed',
  'operator.enrolment_issued',
  'operator.enrolled',
  'operator.signed_in',
  'operator.signed_out',
  'operator.passkey_added',
  'oidc.client_added',
  'oidc.client_changed',
  'oidc.client_secret_rotated',
  'oidc.client_disabled',
  'oidc.client_enabled',
  'oidc.client_pkce_required',
  'oidc.client_pkce_off',
  'oidc.company_client_created',
  'oidc.company_client_revoked',
  'oidc.company_client_used',
  'webhook.endpoint_added',
  'webhook.endpoint_removed',
  'webhook.endpoint_enabled',
  'webhook.endpoint_disabled',
  'webhook.secret_rotated',
  'webhook.delivery_resent',
  'company.audit_exported',
] as const;
export type AuditedAction = (typeof AUDITED_ACTIONS)[number];

/** `actor` and `target` are ids (a person's or an operator's id, a company id); times are epoch ms. */
export const auditQuery = z.object({
  actor: z.optional(z.string().check(z.trim(), z.maxLength(64))),
  target: z.optional(z.string().check(z.trim(), z.maxLength(64))),
  action: z.optional(z.string().check(z.regex(/^[a-z_]+(\.[a-z_]+)*$/), z.maxLength(64))),
  from: z.optional(z.coerce.number().check(z.int(), z.minimum(0))),
  to: z.optional(z.coerce.number().check(z.int(), z.minimum(0))),
  before: z.optional(z.coerce.number().check(z.int(), z.minimum(1))),
});
export type AuditQueryInput = z.infer<typeof auditQuery>;

/** A person or company as the audit trail names them. */
export const auditParty = z.object({ name: z.nullable(z.string()), phone: z.nullable(z.string()), email: z.nullable(z.string()) });
export type AuditParty = z.infer<typeof auditParty>;

export const auditEntry = z.object({
  id: z.number(),
  at: z.number(),
  actorKind: z.enum(['operator', 'user', 'system']),
  actorId: z.nullable(z.string()),
  /** The operator's name, for operator rows. */
  actorName: z.nullable(z.string()),
  /** The person behind a person's row: name, phone, e-mail (null for operators and the system). */
  actorParty: z.optional(z.nullable(auditParty)),
  action: z.string(),
  targetKind: z.nullable(z.string()),
  targetId: z.nullable(z.string()),
  /** The person or company the row is about, by name and contacts. */
  targetParty: z.optional(z.nullable(auditParty)),
  reason: z.nullable(z.string()),
  network: z.nullable(z.string()),
  detail: z.nullable(z.string()),
});
export type AuditEntry = z.infer<typeof auditEntry>;
export const auditPage = z.object({ entries: z.array(auditEntry), next: z.nullable(z.number()) });
export type AuditPage = z.infer<typeof auditPage>;

/** The person's own view of a row: what happened and when, by themselves or by the platform's support. */
export const activityEntry = z.object({
  at: z.number(),
  action: z.string(),
  by: z.enum(['you', 'support', 'company', 'system']),
  /** The client network of their own actions only. */
  network: z.nullable(z.string()),
});
export type ActivityEntry = z.infer<typeof activityEntry>;
export const activityAnswer = z.array(activityEntry);
