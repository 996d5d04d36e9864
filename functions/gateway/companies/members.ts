import type { CompanyModulesAnswer, MemberChangeAnswer, MemberModuleRequest, MemberRemoveRequest, MemberRoleRequest } from '../../../src/schemas/members';
import { companyById } from './db';
import { memberOf } from '../authority/db';
import { changeRole, grantsOf, removeMember, setModuleGrant, type MemberChange } from './members-db';
import { GatewayError } from '../errors';
import type { Caller } from './service';
import { modulesOfMember, modulesOfType } from './modules';
import { ERR } from '../../../src/schemas/error-codes';
import { companyAuthority } from '../authority/service';

/**
 * Company administrators manage their members: change a member's role (a company always keeps an active
 * administrator: MB0001), remove a member (their sessions in the company end), grant a staff member modules of
 * the web app. Every change is one conditional statement (members-db.ts) with its audit row in the same batch.
 * A caller who is not an active member gets CO0009 (one the company's two-step rule keeps out MF0021), a member who is not an administrator CO0008; when two
 * administrators change the same thing at once, one wins and the other gets MB0003 or MB0004.
 */

/** The modules the caller may use in the company (any active member asks for their own). */
export async function companyModules(caller: Caller, companyId: string): Promise<CompanyModulesAnswer> {
  const member = await companyAuthority(caller.db, caller, companyId, 'act');
  const company = await companyById(caller.db, companyId);
  if (!company) throw new GatewayError(ERR.COMPANY_NOT_FOUND);
  return { companyId, modules: modulesOfMember(company.type, member, await grantsOf(caller.db, companyId, caller.userId), caller.lang) };
}

// ---------------------------------------------------------------------------------------------------------
// Changes
// ---------------------------------------------------------------------------------------------------------

/** The actor's standing before a change (CO0009, MF0021, CO0008: authority/service.ts); the statement checks it again as it writes. */
async function administratorChange(caller: Caller, request: { companyId: string; userId: string }) {
  await companyAuthority(caller.db, caller, request.companyId, 'manage');
  const company = await companyById(caller.db, request.companyId);
  if (!company) throw new GatewayError(ERR.COMPANY_NOT_FOUND);
  const change: MemberChange = { companyId: company.id, actorId: caller.userId, actorMfaCompanyId: caller.mfaCompanyId, userId: request.userId, network: caller.ip, now: caller.now };
  return { company, change };
}

/** Why a refused change changed nothing, read after it: the actor lost their role meanwhile, or the member's state. */
async function refusal(caller: Caller, change: MemberChange, why: (member: NonNullable<Awaited<ReturnType<typeof memberOf>>>) => GatewayError) {
  const actor = await memberOf(caller.db, change.companyId, change.actorId);
  if (!actor || actor.status !== 'active') return new GatewayError(ERR.COMPANY_NOT_FOUND);
  if (actor.role !== 'administrator') return new GatewayError(ERR.ADMINISTRATOR_ONLY);
  const member = await memberOf(caller.db, change.companyId, change.userId);
  return member ? why(member) : new GatewayError(ERR.MEMBER_NOT_FOUND);
}

export async function changeMemberRole(caller: Caller, request: MemberRoleRequest): Promise<MemberChangeAnswer> {
  const { change } = await administratorChange(caller, request);
  if (await changeRole(caller.db, change, request.role)) return { companyId: change.companyId, userId: change.userId };
  throw await refusal(caller, change, (member) => {
    if (member.status !== 'active') return new GatewayError(ERR.ROLE_CHANGE_NEEDS_APPROVED_MEMBER, { status: member.status });
    if (member.role === request.role) return new GatewayError(ERR.MEMBER_ROLE_CHANGED_MEANWHILE, { role: member.role });
    return new GatewayError(ERR.LAST_ADMINISTRATOR);
  });
}

export async function removeCompanyMember(caller: Caller, request: MemberRemoveRequest): Promise<MemberChangeAnswer> {
  const { change } = await administratorChange(caller, request);
  if (await removeMember(caller.db, change)) return { companyId: change.companyId, userId: change.userId };
  throw await refusal(caller, change, () => new GatewayError(ERR.LAST_ADMINISTRATOR));
}

export async function setMemberModule(caller: Caller, request: MemberModuleRequest): Promise<MemberChangeAnswer> {
  const { company, change } = await administratorChange(caller, request);
  if (!modulesOfType(company.type).some((entry) => entry.key === request.module)) throw new GatewayError(ERR.MODULE_NOT_AVAILABLE, { module: request.module });
  if (await setModuleGrant(caller.db, change, request.module, request.granted)) return { companyId: change.companyId, userId: change.userId };
  throw await refusal(caller, change, (member) => {
    if (member.role !== 'staff' || member.status !== 'active') return new GatewayError(ERR.MODULES_FOR_STAFF_ONLY);
    return new GatewayError(ERR.MEMBER_MODULES_CHANGED_MEANWHILE, { module: request.module, granted: request.granted });
  });
}
