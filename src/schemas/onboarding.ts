import * as z from 'zod/mini';
import { checked } from './checked';
import { COMPANY_NAME_CODE, displayText } from './display-text';
import { callingCodeSchema, emailSchema, mobileSchema } from './contact-fields';
import { companyTypeSchema, type CompanyType } from './company-types.ts';
import { VERIFICATION_STATUSES } from './company-status';
import { INVITATION_ALPHABET, INVITATION_LENGTH } from './invitation-code';

/**
 * Wire contracts of onboarding: companies, invitations, members, main enterprise,
 * country and port search, uploads. One schema per call, shared by the islands, the gateway and the tests.
 * Additive changes only: the onboarding UI is built against these names.
 */

// ---------------------------------------------------------------------------------------------------------
// Company types and verification statuses
// ---------------------------------------------------------------------------------------------------------

export { COMPANY_TYPE_KEYS, COMPANY_TYPES, companyTypeSchema, type CompanyType } from './company-types.ts';
// The company form's plain rules (company-form-rules.ts, no zod): its first paint reads them without these contracts.
export {
  COMPANY_NAME_MAX,
  GTC_REQUIRED_TYPES,
  IMAGE_EXTENSIONS,
  PORT_REQUIRED_TYPES,
  UPLOAD_EXTENSIONS,
  UPLOAD_LIMITS,
  ZHOUSHAN_PORT,
} from './company-form-rules';
// The members' and the user center's contracts (company-members.ts): the user center reads them at first paint
// without the company form's, the join form's and the search contracts.
export {
  companyMemberSchema,
  companyMembersAnswer,
  grantedModuleSchema,
  invitationRegenerateAnswer,
  isoDateSchema,
  memberDecisionAnswer,
  memberRoleSchema,
  memberStatusSchema,
  type CompanyMember,
  type CompanyMembersAnswer,
  type GrantedModule,
  type MemberDecisionAnswer,
  type MemberRole,
} from './company-members';
import { isoDateSchema } from './company-members';
// An uploaded file and the administrator's view of a company (company-detail.ts): /fill_account reads the company
// at first paint without the other onboarding contracts.
export { companyDetailAnswer, companyShownFields, uploadedFileSchema, type CompanyDetailAnswer, type UploadedFile } from './company-detail';
import { uploadedFileSchema } from './company-detail';
import { COMPANY_NAME_MAX, GTC_REQUIRED_TYPES, IMAGE_EXTENSIONS, PORT_REQUIRED_TYPES, UPLOAD_EXTENSIONS, UPLOAD_LIMITS } from './company-form-rules';


// Statuses and stored spellings (company-status.ts) and the invitation code's alphabet (invitation-code.ts): zod-free,
// so pages that only show a company's standing, or the join form's first paint, do not load these contracts (issue 31).
export { INVITATION_ALPHABET, INVITATION_LENGTH } from './invitation-code';
export {
  COMPANY_TYPE_DB,
  companyTypeFromDb,
  companyTypeToDb,
  FILLABLE_STATUSES,
  VERIFICATION_STATUS_DB,
  VERIFICATION_STATUSES,
  verificationStatusFromDb,
  type VerificationStatus,
} from './company-status';
export const verificationStatusSchema = z.enum(VERIFICATION_STATUSES);


// ---------------------------------------------------------------------------------------------------------
// Uploaded files and their upload rules
// ---------------------------------------------------------------------------------------------------------

/**
 * What a file is for: multipart field `kind` of uploadFile (optional; default 'licence'). 'registryEvidence': the
 * evidence of an overseas company's IMO company number or national registry number (issue 42), taken as a licence is.
 */
export const uploadKindSchema = z.enum(['licence', 'gtc', 'logo', 'registryEvidence']);
export type UploadKind = z.infer<typeof uploadKindSchema>;
/** The multipart field that carries the files. */
export const UPLOAD_FIELD = 'files';

export const fileIdSchema = checked(z.string(), z.trim(), z.minLength(1), z.maxLength(64));

/** POST agg-web/file/uploadFile (session, multipart `files` ×1..10, optional `kind`) → UploadedFile[] */
export const uploadFileAnswer = z.array(uploadedFileSchema);

/** POST agg-web/file/deleteFile (session; the uploader's unattached files only) → true */
export const deleteFileRequest = z.object({
  ids: checked(z.array(fileIdSchema), z.minLength(1), z.maxLength(UPLOAD_LIMITS.maxFilesPerRequest)),
});
export type DeleteFileRequest = z.infer<typeof deleteFileRequest>;

/** GET agg-web/file/:id (session) → the file's bytes as an attachment. */
export const fileUrl = (id: string) => `/api/agg-web/file/${encodeURIComponent(id)}`;

// ---------------------------------------------------------------------------------------------------------
// Places: countries and ports
// ---------------------------------------------------------------------------------------------------------

/** Search inputs: 1..64 characters after trimming (else PL0001). */
export const SEARCH_KEY_MAX = 64;
export const SEARCH_RESULT_MAX = 20;
const searchText = checked(z.string(), z.trim(), z.minLength(1), z.maxLength(SEARCH_KEY_MAX));

/** GET agg-web/country/searchCountry?name= → CountryItem[] (≤ 20), by English or Chinese name. */
export const searchCountryQuery = z.object({ name: searchText });
export const countryItemSchema = z.object({ id: z.string(), name: z.string(), nameCn: z.string() });
export type CountryItem = z.infer<typeof countryItemSchema>;
export const searchCountryAnswer = z.array(countryItemSchema);

/** A port: id, name, code; here also the Chinese name and the ISO country. `id` is the UN/LOCODE. */
export const portSchema = z.object({
  id: z.string(),
  name: z.string(),
  nameCn: z.optional(z.string()),
  code: z.string(),
  countryId: z.string(),
});
export type Port = z.infer<typeof portSchema>;
export const portListAnswer = z.array(portSchema);

/** GET agg-web/port/searchPortByNameOrCode?searchKey= → Port[] (≤ 20), by name (en/zh) or UN/LOCODE. */
export const searchPortQuery = z.object({ searchKey: searchText });
/** GET agg-web/port/getRelatedPorts?portId= → Port[] (≤ 20): other ports of the same country. */
export const relatedPortsQuery = z.object({ portId: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(SEARCH_KEY_MAX)) });


// ---------------------------------------------------------------------------------------------------------
// Administrator form: create and fill a company
// ---------------------------------------------------------------------------------------------------------

const collapse = (value: string) => value.trim().replace(/\s+/g, ' ');

/**
 * The key two company names are compared by (one company per name and type): Unicode NFKC (full-width and
 * compatibility forms become the plain letters) and case folding (upper then lower case, so 'ß' meets 'SS').
 */
export const companyNameKey = (name: string) => collapse(name).normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');

/** A company name: collapsed, 1..max characters, the display-text rule without emoji (issue message CO0018, the error code). */
const companyName = /* @__NO_SIDE_EFFECTS__ */ (max: number) => checked(collapsedText(max), displayText({ emoji: false, code: COMPANY_NAME_CODE }));
/** An optional company name (the Chinese one): as optionalText, with the rule of companyName. */
const optionalCompanyName = /* @__NO_SIDE_EFFECTS__ */ (max: number) =>
  checked(optionalText(max), displayText({ emoji: false, code: COMPANY_NAME_CODE }));
/** Collapsed text and an empty value become one signal to the form: an absent field. */
const optionalText = /* @__NO_SIDE_EFFECTS__ */ (max: number) =>
  z.pipe(
    z.nullish(z.pipe(checked(z.string(), z.maxLength(max)), z.transform(collapse))),
    z.transform((value: string | null | undefined) => (value ? value : undefined)),
  );
/** A name a person enters: collapsed text under the display-text rule (GW0422). */
const displayName = /* @__NO_SIDE_EFFECTS__ */ (max: number) => checked(collapsedText(max), displayText());
/** Text whose inner runs of spaces collapse before the length rule is checked. */
const collapsedText = /* @__NO_SIDE_EFFECTS__ */ (max: number) =>
  z.pipe(z.pipe(z.string(), z.transform(collapse)), checked(z.string(), z.minLength(1), z.maxLength(max)));
/** An optional registry number: trimmed with inner spaces collapsed, at most `max` characters; '' or null is none. */
const optionalRegistryNumber = /* @__NO_SIDE_EFFECTS__ */ (max: number) => checked(optionalText(max), displayText());
/** An optional file id where a form may also send null. */
const optionalFileId = z.pipe(z.nullish(fileIdSchema), z.transform((v: string | null | undefined) => v ?? undefined));

/**
 * The administrator form without the cross-field rules, which the gateway answers with their
 * own codes (CO0002 port, CO0003 GTC). Use `companyFormRequest` in a form to get every rule at once.
 */
export const companyFormFields = z.object({
  companyNameEn: companyName(COMPANY_NAME_MAX),
  companyNameCn: optionalCompanyName(COMPANY_NAME_MAX),
  companyType: companyTypeSchema,
  /** ISO 3166-1 alpha-2, an `id` of the phone-code list (selectPhoneCode). */
  countryId: z.pipe(checked(z.string(), z.trim(), z.toUpperCase()), checked(z.string(), z.regex(/^[A-Z]{2}$/))),
  countryName: collapsedText(128),
  contactName: displayName(64),
  contactTel: mobileSchema,
  /** Calling code such as '+86'; the gateway checks contactTel with it (mainland mobile pattern for +86). */
  phoneCode: callingCodeSchema,
  /** A port `id` from searchPortByNameOrCode; required for PORT_REQUIRED_TYPES. Name and code are taken from the port list. */
  portId: optionalText(32),
  portName: optionalText(128),
  portCode: optionalText(16),
  /** Credit code (unified social credit code or the local registration number). */
  socialCredit: collapsedText(64),
  contactEmail: emailSchema,
  /** Licence files: uploadFile ids, 1..10, distinct. */
  corporateCharter: checked(
    z.array(fileIdSchema),
    z.minLength(1),
    z.maxLength(UPLOAD_LIMITS.maxLicenceFiles),
    z.refine((ids) => new Set(ids).size === ids.length, { message: 'duplicate file id' }),
  ),
  /** Fuel-supply GTC: one uploadFile id; required for fuelSupplier, refused for other types. */
  oilSupplyGtc: optionalFileId,
  /** Logo: one uploadFile id of an image (jpeg/png); 116x64 recommended. */
  companyLogo: optionalFileId,
  /**
   * Overseas and shipping companies (issue 42), a country other than CN; a mainland company's are ignored (not stored,
   * files not attached). The IMO company number: spaces trimmed, '' none; the gateway checks its check digit (RG0004).
   */
  imoCompanyNumber: optionalRegistryNumber(32),
  /** The national registry number: free text, at most 64 characters; '' none. */
  nationalRegistryNumber: optionalRegistryNumber(64),
  /** The evidence of those numbers: uploadFile ids of kind 'registryEvidence', 0..10, distinct. */
  registryEvidence: z.optional(
    checked(
      z.array(fileIdSchema),
      z.maxLength(UPLOAD_LIMITS.maxLicenceFiles),
      z.refine((ids) => new Set(ids).size === ids.length, { message: 'duplicate file id' }),
    ),
  ),
});
export type CompanyForm = z.infer<typeof companyFormFields>;
export type CompanyFormInput = z.input<typeof companyFormFields>;

/** Cross-field rules, with the paths a form shows them at. */
export function companyFormProblems(form: Pick<CompanyForm, 'companyType' | 'portId' | 'oilSupplyGtc'>): { path: 'portId' | 'oilSupplyGtc'; code: 'CO0002' | 'CO0003' }[] {
  const problems: { path: 'portId' | 'oilSupplyGtc'; code: 'CO0002' | 'CO0003' }[] = [];
  if (PORT_REQUIRED_TYPES.includes(form.companyType) && !form.portId) problems.push({ path: 'portId', code: 'CO0002' });
  const gtcRequired = GTC_REQUIRED_TYPES.includes(form.companyType);
  if (gtcRequired !== Boolean(form.oilSupplyGtc)) problems.push({ path: 'oilSupplyGtc', code: 'CO0003' });
  return problems;
}

/** The whole administrator form with its cross-field rules (issue message = the error code). */
export const companyFormRequest = checked(
  companyFormFields,
  z.superRefine((form, ctx) => {
    for (const problem of companyFormProblems(form)) ctx.addIssue({ code: 'custom', path: [problem.path], message: problem.code });
  }),
);

/** POST agg-web/company/create (session) → { companyId }. The company starts 'approving'; the caller becomes administrator. */
export const companyCreateRequest = companyFormFields;
/** The fields an operator may correct on the review page (issue 42), under the form's own rules. */
export const companyEditFields = z.object({
  companyNameEn: companyFormFields.shape.companyNameEn,
  companyNameCn: z.nullish(companyFormFields.shape.companyNameCn),
  socialCredit: companyFormFields.shape.socialCredit,
  /** An overseas company's numbers: left out, unchanged; '' or null, none; checked as at entry (RG0004, RG0007). */
  imoCompanyNumber: z.nullish(checked(z.string(), z.maxLength(32))),
  nationalRegistryNumber: z.nullish(checked(z.string(), z.maxLength(64), displayText())),
});
export type CompanyCreateRequest = z.infer<typeof companyCreateRequest>;
export const companyCreateAnswer = z.object({ companyId: z.string() });
export type CompanyCreateAnswer = z.infer<typeof companyCreateAnswer>;


/**
 * POST agg-web/company/fill (session, administrator) → { companyId }. Same fields and rules as create.
 * File ids may be this company's attached files (kept) or the caller's unattached uploads (attached);
 * attached files left out of the form are removed.
 */
export const companyFillRequest = z.extend(companyFormFields, { companyId: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(64)) });
export type CompanyFillRequest = z.infer<typeof companyFillRequest>;

/** GET agg-web/company/detail?companyId= (session, member) → the form's fields, for prefill. */
export const companyDetailQuery = z.object({ companyId: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(64)) });

// ---------------------------------------------------------------------------------------------------------
// Invitations, joining and members
// ---------------------------------------------------------------------------------------------------------

export const invitationCodeSchema = z.pipe(
  z.pipe(z.string(), z.transform((v: string) => v.replace(/[\s-]/g, '').toUpperCase())),
  checked(z.string(), z.regex(new RegExp(`^[${INVITATION_ALPHABET}]{${INVITATION_LENGTH}}$`))),
);

/** POST agg-web/user/selectCompanyNameByCompanyId (no session). `companyId` is the INVITATION CODE. */
export const invitationNameRequest = z.object({ companyId: checked(z.string(), z.maxLength(32)) });
export const invitationNameAnswer = z.object({ companyNameEn: z.string(), companyNameCn: z.nullable(z.string()) });
export type InvitationNameAnswer = z.infer<typeof invitationNameAnswer>;


/**
 * POST agg-web/company/join (session): the staff form. The membership is role 'staff',
 * status 'pending' until the administrator approves (login case 5). `companyNameEn` is display only.
 */
export const companyJoinRequest = z.object({
  companyId: checked(z.string(), z.maxLength(32)),
  companyNameEn: z.optional(checked(z.string(), z.maxLength(COMPANY_NAME_MAX))),
  nickName: displayName(64),
  personalEmail: emailSchema,
  contactTel: mobileSchema,
  phoneCode: callingCodeSchema,
  hireTime: z.pipe(
    z.pipe(z.nullish(z.string()), z.transform((v: string | null | undefined) => v || undefined)),
    z.optional(isoDateSchema),
  ),
});
export type CompanyJoinRequest = z.infer<typeof companyJoinRequest>;
export const companyJoinAnswer = z.object({
  companyId: z.string(),
  companyNameEn: z.string(),
  role: z.literal('staff'),
  status: z.literal('pending'),
});
export type CompanyJoinAnswer = z.infer<typeof companyJoinAnswer>;

/** POST agg-web/company/invitation/regenerate (session, administrator) → { invitationCode }; the old one stops working. */
export const invitationRegenerateRequest = z.object({ companyId: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(64)) });

/** GET agg-web/company/members?companyId= (session, administrator) → members and the current invitation code. */
export const companyMembersQuery = z.object({ companyId: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(64)) });

/**
 * POST agg-web/company/member/approve and agg-web/company/member/decline {companyId, userId} (session,
 * administrator of the company) → MemberDecisionAnswer. Only a staff member's pending request is answered:
 * approve makes it 'active' (the person can then enter the company), decline 'rejected'. Repeating the same
 * answer succeeds and changes nothing; the opposite answer to one already given is CO0016; an unknown
 * member (or an administrator's own row) is CO0015.
 */
export const memberDecisionRequest = z.object({
  companyId: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(64)),
  userId: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(64)),
});
export type MemberDecisionRequest = z.infer<typeof memberDecisionRequest>;

// ---------------------------------------------------------------------------------------------------------
// Main enterprise
// ---------------------------------------------------------------------------------------------------------

/**
 * POST agg-web/user/setMainAccount {companyId} (session; an active membership of a usable company) → true.
 * One main company per person; later sign-ins answer isMaster true with that companyId.
 */
export const setMainAccountRequest = z.object({ companyId: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(64)) });
/** POST agg-web/user/clearMainAccount {} (session) → true. */
export const clearMainAccountRequest = z.object({});
