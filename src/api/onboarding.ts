import * as z from 'zod/mini';
import { meAnswer, type UpdateUserInfoInput } from '../schemas/profile';
import { envelopeSchema, SUCCESS_CODE } from '../schemas/envelope';
import {
  companyCreateAnswer,
  companyDetailAnswer,
  companyJoinAnswer,
  companyMembersAnswer,
  invitationNameAnswer,
  invitationRegenerateAnswer,
  memberDecisionAnswer,
  portListAnswer,
  searchCountryAnswer,
  UPLOAD_FIELD,
  uploadFileAnswer,
  type CompanyCreateRequest,
  type CompanyFillRequest,
  type CompanyJoinRequest,
  type UploadedFile,
  type UploadKind,
} from '../schemas/onboarding';
import { callGateway, messageOf, NETWORK_ERROR, sessionAware, type ApiResult } from './client';

/** One function per onboarding call (contracts in src/schemas/onboarding.ts). */
export const onboardingApi = {
  searchCountry: (name: string) => callGateway('agg-web/country/searchCountry', searchCountryAnswer, { method: 'GET', query: { name } }),
  searchPort: (searchKey: string) => callGateway('agg-web/port/searchPortByNameOrCode', portListAnswer, { method: 'GET', query: { searchKey } }),
  relatedPorts: (portId: string) => callGateway('agg-web/port/getRelatedPorts', portListAnswer, { method: 'GET', query: { portId } }),

  createCompany: (body: CompanyCreateRequest) => callGateway('agg-web/company/create', companyCreateAnswer, { body }),
  fillCompany: (body: CompanyFillRequest) => callGateway('agg-web/company/fill', companyCreateAnswer, { body }),
  companyDetail: (companyId: string) => callGateway('agg-web/company/detail', companyDetailAnswer, { method: 'GET', query: { companyId } }),

  /** `companyId` is the invitation code, not a company id. */
  companyNameByInvitation: (companyId: string) => callGateway('agg-web/user/selectCompanyNameByCompanyId', invitationNameAnswer, { body: { companyId } }),
  join: (body: CompanyJoinRequest) => callGateway('agg-web/company/join', companyJoinAnswer, { body }),
  regenerateInvitation: (companyId: string) => callGateway('agg-web/company/invitation/regenerate', invitationRegenerateAnswer, { body: { companyId } }),
  members: (companyId: string) => callGateway('agg-web/company/members', companyMembersAnswer, { method: 'GET', query: { companyId } }),
  approveMember: (companyId: string, userId: string) => callGateway('agg-web/company/member/approve', memberDecisionAnswer, { body: { companyId, userId } }),
  declineMember: (companyId: string, userId: string) => callGateway('agg-web/company/member/decline', memberDecisionAnswer, { body: { companyId, userId } }),

  setMainAccount: (companyId: string) => callGateway('agg-web/user/setMainAccount', z.unknown(), { body: { companyId } }),
  clearMainAccount: () => callGateway('agg-web/user/clearMainAccount', z.unknown(), { body: {} }),
  fetchMe: () => callGateway('agg-web/user/fetchMeByUserToken', meAnswer, { method: 'GET' }),
  /** Answers the updated "me". */
  updateUserInfo: (body: UpdateUserInfoInput) => callGateway('agg-web/user/updateUserInfo', meAnswer, { body }),

  deleteFiles: (ids: string[]) => callGateway('agg-web/file/deleteFile', z.unknown(), { body: { ids } }),
  uploadFiles,
};

/**
 * uploadFile: multipart, the files in field `files`, what they are for in `kind`. Not JSON, so it cannot go
 * through callGateway; it reads the same envelope.
 */
async function uploadFiles(files: readonly File[], kind: UploadKind): Promise<ApiResult<UploadedFile[]>> {
  const form = new FormData();
  for (const file of files) form.append(UPLOAD_FIELD, file, file.name);
  form.append('kind', kind);
  let response: Response;
  try {
    response = await fetch('/api/agg-web/file/uploadFile', { method: 'POST', body: form, credentials: 'same-origin' });
  } catch {
    return { ok: false, code: NETWORK_ERROR, message: '' };
  }
  const json = (await response.json().catch(() => undefined)) as { code?: unknown; message?: unknown; msg?: unknown; data?: unknown } | undefined;
  const parsed = envelopeSchema(uploadFileAnswer).safeParse(json);
  if (parsed.success && parsed.data.code === SUCCESS_CODE && parsed.data.data) return { ok: true, data: parsed.data.data };
  if (typeof json?.code === 'string' && json.code !== SUCCESS_CODE) {
    return sessionAware({ ok: false, code: json.code, message: messageOf(json), data: json.data }, response.status);
  }
  return { ok: false, code: NETWORK_ERROR, message: '' };
}
