import * as z from 'zod/mini';
import { checked } from './checked';

/**
 * A company's members as its administrators see them, the answers to their joins, a new invitation code, and the
 * shapes the profile shares (a granted module, a role, a date). A module of its own, re-exported by onboarding.ts
 * (every import from there, functions/ included, is unchanged): the user center reads these at first paint without
 * the company form's, the join form's and the search contracts (issue 31).
 */

/** A module of the web app as a person sees it: its key and its name in the language of the request. */
export const grantedModuleSchema = z.object({ key: z.string(), name: z.string() });
export type GrantedModule = z.infer<typeof grantedModuleSchema>;

/** Membership roles and states: a staff join waits for the administrator ('pending', login case 5). */
export const memberRoleSchema = z.enum(['administrator', 'staff']);
export type MemberRole = z.infer<typeof memberRoleSchema>;
export const memberStatusSchema = z.enum(['pending', 'active', 'rejected']);

/** 'YYYY-MM-DD', a real calendar date. */
export const isoDateSchema = checked(
  z.string(),
  z.regex(/^\d{4}-\d{2}-\d{2}$/),
  z.refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, { message: 'invalid date' }),
);

/** POST agg-web/company/invitation/regenerate → { invitationCode }; the old one stops working. */
export const invitationRegenerateAnswer = z.object({ invitationCode: z.string() });

/** GET agg-web/company/members?companyId= (session, administrator) → members and the current invitation code. */
export const companyMemberSchema = z.object({
  userId: z.string(),
  /** Real name from the staff form (nickName), else the user's real or login name. */
  name: z.string(),
  /** E.164, such as '+8613800138000'. */
  phone: z.nullable(z.string()),
  email: z.nullable(z.string()),
  role: memberRoleSchema,
  status: memberStatusSchema,
  /** Epoch milliseconds. */
  joinedAt: z.number(),
  hireTime: z.nullable(z.string()),
  /** Keys of the modules granted to a staff member (administrators see every module: empty for them). */
  modules: z.optional(z.array(z.string())),
});
export type CompanyMember = z.infer<typeof companyMemberSchema>;
export const companyMembersAnswer = z.object({
  companyId: z.string(),
  invitationCode: z.nullable(z.string()),
  members: z.array(companyMemberSchema),
  /** The module catalogue's entries for the company's type, names in the language of the request. */
  modules: z.optional(z.array(grantedModuleSchema)),
});
export type CompanyMembersAnswer = z.infer<typeof companyMembersAnswer>;

/** POST agg-web/company/member/approve and …/decline → the membership's status now. */
export const memberDecisionAnswer = z.object({ companyId: z.string(), userId: z.string(), status: memberStatusSchema });
export type MemberDecisionAnswer = z.infer<typeof memberDecisionAnswer>;
