/*
 * What a page needs to show a company's standing, and the invitation code's shape: no zod and no contracts, so the
 * pages that paint companies (the account choice, the user center) and the join form load these alone (issue 31).
 * schemas/onboarding.ts and schemas/company-types.ts re-export every name here. No imports (scripts load it in Node).
 */

/** Enterprise types, as they travel on the wire (company-types.ts has their schema). */
export const COMPANY_TYPES = ['shipOwner', 'charterer', 'shipAgent', 'shipyard', 'fuelSupplier', 'voyageManager'] as const;
export type CompanyType = (typeof COMPANY_TYPES)[number];

/**
 * The one table of enterprise types: the wire name (left) and the key stored in D1 and carried as the user
 * record's groupId. Where the specification's data model names a type's key (consigner, consignee, oiler) that
 * key is kept: the ship owner consigns its port calls, the ship agent takes them on as consignee, the fuel
 * supplier is the oiler. `legacy` is the snake_case key stored before migration 0160, still read.
 */
export const COMPANY_TYPE_KEYS = {
  shipOwner: { db: 'consigner', legacy: 'ship_owner' },
  charterer: { db: 'charterer', legacy: 'charterer' },
  shipAgent: { db: 'consignee', legacy: 'ship_agent' },
  shipyard: { db: 'shipyard', legacy: 'shipyard' },
  fuelSupplier: { db: 'oiler', legacy: 'fuel_supplier' },
  voyageManager: { db: 'voyage_manager', legacy: 'voyage_manager' },
} as const satisfies Record<CompanyType, { db: string; legacy: string }>;

/** Enterprise verification statuses, as they travel on the wire. */
export const VERIFICATION_STATUSES = [
  'approving',
  'notVerified',
  'verified',
  'verificationFailed',
  'additionalInformationRequired',
  'pendingToBind',
  'failToBind',
  'blocked',
  'expired',
] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** Wire type → stored key. */
export const COMPANY_TYPE_DB = Object.fromEntries(COMPANY_TYPES.map((type) => [type, COMPANY_TYPE_KEYS[type].db])) as Record<CompanyType, string>;

/** Statuses are stored in snake_case (migrations/0003; sign-in/login-case.ts reads those values). The legacy stored status 'active' reads as 'verified'. */
export const VERIFICATION_STATUS_DB: Record<VerificationStatus, string> = {
  approving: 'approving',
  notVerified: 'not_verified',
  verified: 'verified',
  verificationFailed: 'verification_failed',
  additionalInformationRequired: 'additional_info',
  pendingToBind: 'pending_bind',
  failToBind: 'fail_bind',
  blocked: 'blocked',
  expired: 'expired',
};

/** A stored company type → the wire value (unknown values pass through unchanged). */
export function companyTypeFromDb(value: string): CompanyType | string {
  return COMPANY_TYPES.find((type) => COMPANY_TYPE_KEYS[type].db === value || COMPANY_TYPE_KEYS[type].legacy === value) ?? value;
}
/** Any spelling of a type (wire name, stored key, legacy key) → the stored key; unknown values pass through. */
export function companyTypeToDb(value: string): string {
  const wire = (COMPANY_TYPES as readonly string[]).includes(value) ? (value as CompanyType) : companyTypeFromDb(value);
  return (COMPANY_TYPES as readonly string[]).includes(wire) ? COMPANY_TYPE_DB[wire as CompanyType] : value;
}
/** A stored company status → the wire value ('active' → 'verified'; unknown values pass through unchanged). */
export function verificationStatusFromDb(value: string): VerificationStatus | string {
  if (value === 'active') return 'verified';
  const hit = (Object.entries(VERIFICATION_STATUS_DB) as [VerificationStatus, string][]).find(([, db]) => db === value);
  return hit ? hit[0] : value;
}

/** Statuses in which the administrator may change the form (fill_account). */
export const FILLABLE_STATUSES: readonly VerificationStatus[] = ['approving', 'additionalInformationRequired'];

// The invitation code's shape lives in invitation-code.ts (the join form reads it alone); re-exported for every importer.
export { INVITATION_ALPHABET, INVITATION_LENGTH } from './invitation-code.ts';
