import type { CompanyType } from './company-status';
import type { Port } from './onboarding';

/**
 * The company form's plain rules, without zod: what /create_account and /fill_account read at first paint (the
 * company types' requirements, the name's length, the upload rules, the zhoushan port). schemas/onboarding.ts
 * re-exports them, so every import from there, functions/ included, is unchanged; the form's checks and submit
 * load the contracts on the form's first use (issue 31).
 */

/** The serviced port is required for these types. */
export const PORT_REQUIRED_TYPES: readonly CompanyType[] = ['shipAgent', 'shipyard', 'fuelSupplier'];
/** The fuel-supply GTC is required for (and only taken from) this type. */
export const GTC_REQUIRED_TYPES: readonly CompanyType[] = ['fuelSupplier'];

/** Company name fields hold 128 characters. Inner runs of spaces collapse to one. */
export const COMPANY_NAME_MAX = 128;

// Uploaded files and their upload rules

export const UPLOAD_LIMITS = {
  /** At most 6 MB per file. */
  maxFileBytes: 6 * 1024 * 1024,
  /** Files per uploadFile request (the licence limit). */
  maxFilesPerRequest: 10,
  /** Licence files per company. */
  maxLicenceFiles: 10,
  /** One uploadFile request, all its files: what the gateway holds in memory at once (FL0005). */
  maxRequestBytes: 24 * 1024 * 1024,
  /** An account's uploads not yet attached to a company (FL0006): uploads cannot fill the bucket. */
  maxPendingBytesPerAccount: 40 * 1024 * 1024,
  /** A company's attached files together (FL0007). */
  maxCompanyBytes: 40 * 1024 * 1024,
} as const;

/** Extensions accepted by uploadFile; csv only with kind 'licence' (and 'registryEvidence'), images only with kind 'logo'. */
export const UPLOAD_EXTENSIONS = ['jpg', 'jpeg', 'png', 'pdf', 'doc', 'docx', 'xls', 'xlsx', 'csv'] as const;
export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png'] as const;

/** A visit that came from zhoushan pre-fills this port. */
export const ZHOUSHAN_PORT: Port = { id: 'CNZOS', name: 'Zhoushan', nameCn: '舟山', code: 'CNZOS', countryId: 'CN' };

/** Chinese characters (CJK ideographs), which belong in the Chinese name, not the English one. */
export const HAN = /\p{Script=Han}/u;
