import * as z from 'zod/mini';
import { envelopeSchema, SUCCESS_CODE } from '../schemas/envelope';
import {
  companyCreateAnswer,
  companyJoinAnswer,
  invitationNameAnswer,
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
import { callGateway, messageOf, NETWORK_ERROR, refusal, unreadable, type ApiResult } from './client';
import { fetchCompanyDetail } from './company-detail';
import { companyMembersApi } from './company-members';
import { meApi } from './me';

/** One function per onboarding call (contracts in src/schemas/onboarding.ts). */
export const onboardingApi = {
  // The person and their companies' members (api/me.ts, api/company-members.ts): the user center reads them alone.
  ...meApi,
  ...companyMembersApi,
  searchCountry: (name: string) => callGateway('agg-web/country/searchCountry', searchCountryAnswer, { method: 'GET', query: { name } }),
  searchPort: (searchKey: string) => callGateway('agg-web/port/searchPortByNameOrCode', portListAnswer, { method: 'GET', query: { searchKey } }),
  relatedPorts: (portId: string) => callGateway('agg-web/port/getRelatedPorts', portListAnswer, { method: 'GET', query: { portId } }),

  createCompany: (body: CompanyCreateRequest) => callGateway('agg-web/company/create', companyCreateAnswer, { body }),
  fillCompany: (body: CompanyFillRequest) => callGateway('agg-web/company/fill', companyCreateAnswer, { body }),
  companyDetail: fetchCompanyDetail,

  /** `companyId` is the invitation code, not a company id. */
  companyNameByInvitation: (companyId: string) => callGateway('agg-web/user/selectCompanyNameByCompanyId', invitationNameAnswer, { body: { companyId } }),
  join: (body: CompanyJoinRequest) => callGateway('agg-web/company/join', companyJoinAnswer, { body }),

  setMainAccount: (companyId: string) => callGateway('agg-web/user/setMainAccount', z.unknown(), { body: { companyId } }),
  clearMainAccount: () => callGateway('agg-web/user/clearMainAccount', z.unknown(), { body: {} }),

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
    return refusal({ ok: false, code: json.code, message: messageOf(json), data: json.data }, response);
  }
  return unreadable(response);
}
