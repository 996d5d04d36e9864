import * as z from 'zod/mini';
import { memberRoleSchema } from './company-members';
import { reviewOutcomeSchema } from './review-outcome-schema';

/**
 * GET agg-web/company/detail: the administrator's view of a company, and an uploaded file's shape. A module of its
 * own, re-exported by onboarding.ts (every import from there, functions/ included, is unchanged): /fill_account
 * reads the company at first paint without the company form's checks and the other onboarding contracts (issue 31).
 */

export const uploadedFileSchema = z.object({
  id: z.string(),
  /** `/api/agg-web/file/<id>`: served only to the uploader or members of the owning company. */
  url: z.string(),
  /** Lower-case extension without the dot, as sniffed ('jpg', 'png', 'pdf', 'doc', 'docx', 'xls', 'xlsx', 'csv'). */
  extension: z.string(),
  /** The client's file name, sanitised. */
  originName: z.string(),
});
export type UploadedFile = z.infer<typeof uploadedFileSchema>;

/** A company's names, type, country and contact as the administrator's detail and the operator's review both answer them. */
export const companyShownFields = {
  companyNameEn: z.string(),
  companyNameCn: z.nullable(z.string()),
  companyType: z.string(),
  countryId: z.nullable(z.string()),
  countryName: z.nullable(z.string()),
  contactName: z.nullable(z.string()),
};
export const companyDetailAnswer = z.object({
  companyId: z.string(),
  status: z.string(),
  role: memberRoleSchema,
  ...companyShownFields,
  contactTel: z.nullable(z.string()),
  phoneCode: z.nullable(z.string()),
  portId: z.nullable(z.string()),
  portName: z.nullable(z.string()),
  portCode: z.nullable(z.string()),
  socialCredit: z.nullable(z.string()),
  contactEmail: z.nullable(z.string()),
  corporateCharter: z.array(uploadedFileSchema),
  oilSupplyGtc: z.nullable(uploadedFileSchema),
  companyLogo: z.nullable(uploadedFileSchema),
  /** An overseas company's IMO company number, national registry number and their evidence (issue 42). */
  imoCompanyNumber: z.nullable(z.string()),
  nationalRegistryNumber: z.nullable(z.string()),
  registryEvidence: z.array(uploadedFileSchema),
  /**
   * Shown with a status that asks something of the administrator (more information, failed, blocked, expired), with
   * the reason's words (the template, then the operator's note) in the language of the request: the form shows them
   * without loading both languages' reason texts (issue 31).
   */
  review: z.optional(z.object({ ...reviewOutcomeSchema.shape, text: z.string() })),
});
export type CompanyDetailAnswer = z.infer<typeof companyDetailAnswer>;
