import * as z from 'zod/mini';
import { checked } from './checked';
import { moduleKeySchema } from './module-catalogue.ts';
import { grantedModuleSchema, memberRoleSchema } from './company-members';

export { grantedModuleSchema, type GrantedModule } from './company-members';

/**
 * What a company's administrators do with their members: role changes,
 * removal and module grants (the catalogue's schema is in ./module-catalogue.ts).
 * One schema per call, shared by the user center, the gateway and the tests.
 */

// ---------------------------------------------------------------------------------------------------------
// Calls (session; the actor must be an active administrator of the company, else CO0008)
// ---------------------------------------------------------------------------------------------------------

const idSchema = checked(z.string(), z.trim(), z.minLength(1), z.maxLength(64));

/** POST agg-web/company/member/role → MemberChangeAnswer. */
export const memberRoleRequest = z.object({ companyId: idSchema, userId: idSchema, role: memberRoleSchema });
export type MemberRoleRequest = z.infer<typeof memberRoleRequest>;

/** POST agg-web/company/member/remove → MemberChangeAnswer. The member's sessions in the company end. */
export const memberRemoveRequest = z.object({ companyId: idSchema, userId: idSchema });
export type MemberRemoveRequest = z.infer<typeof memberRemoveRequest>;

/** POST agg-web/company/member/module → MemberChangeAnswer: grant (`granted` true) or withdraw one module. */
export const memberModuleRequest = z.object({ companyId: idSchema, userId: idSchema, module: moduleKeySchema, granted: z.boolean() });
export type MemberModuleRequest = z.infer<typeof memberModuleRequest>;

export const memberChangeAnswer = z.object({ companyId: z.string(), userId: z.string() });
export type MemberChangeAnswer = z.infer<typeof memberChangeAnswer>;

/** GET agg-web/company/modules?companyId= (session, active member) → the modules the caller may use there. */
export const companyModulesQuery = z.object({ companyId: idSchema });
export const companyModulesAnswer = z.object({
  companyId: z.string(),
  /** Administrators see every module of the company's type; staff the ones granted to them. */
  modules: z.array(grantedModuleSchema),
});
export type CompanyModulesAnswer = z.infer<typeof companyModulesAnswer>;

/** POST agg-web/user/setPhoto: the user's own uploaded image (uploadFile kind 'logo') as their photo; null removes it. */
export const setPhotoRequest = z.object({ fileId: z.nullable(idSchema) });
