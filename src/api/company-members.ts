import { companyMembersAnswer, invitationRegenerateAnswer, memberDecisionAnswer } from '../schemas/company-members';
import { callGateway } from './client';

/**
 * An administrator's calls about their company's members and invitation code (onboardingApi spreads these): the
 * user center reads them without the company form's and the join form's calls (issue 31).
 */
export const companyMembersApi = {
  regenerateInvitation: (companyId: string) => callGateway('agg-web/company/invitation/regenerate', invitationRegenerateAnswer, { body: { companyId } }),
  members: (companyId: string) => callGateway('agg-web/company/members', companyMembersAnswer, { method: 'GET', query: { companyId } }),
  approveMember: (companyId: string, userId: string) => callGateway('agg-web/company/member/approve', memberDecisionAnswer, { body: { companyId, userId } }),
  declineMember: (companyId: string, userId: string) => callGateway('agg-web/company/member/decline', memberDecisionAnswer, { body: { companyId, userId } }),
};
