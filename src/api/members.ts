import { companyModulesAnswer, memberChangeAnswer, type MemberModuleRequest, type MemberRoleRequest } from '../schemas/members';
import { meAnswer } from '../schemas/profile';
import { callGateway } from './client';

/** One function per call of the members' management and the person's photo (contracts in src/schemas/members.ts). */
export const membersApi = {
  changeRole: (body: MemberRoleRequest) => callGateway('agg-web/company/member/role', memberChangeAnswer, { body }),
  remove: (companyId: string, userId: string) => callGateway('agg-web/company/member/remove', memberChangeAnswer, { body: { companyId, userId } }),
  setModule: (body: MemberModuleRequest) => callGateway('agg-web/company/member/module', memberChangeAnswer, { body }),
  myModules: (companyId: string) => callGateway('agg-web/company/modules', companyModulesAnswer, { method: 'GET', query: { companyId } }),
  /** Answers the updated "me". */
  setPhoto: (fileId: string | null) => callGateway('agg-web/user/setPhoto', meAnswer, { body: { fileId } }),
};
