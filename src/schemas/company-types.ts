import * as z from 'zod/mini';
import { COMPANY_TYPES, type CompanyType } from './company-status.ts';

/**
 * Enterprise types. Imports only zod and company-status.ts (no imports), so the build's scripts (the module
 * catalogue check) can load it in Node. The types and their stored keys are in company-status.ts, which pages
 * read without zod (issue 31); they are re-exported here.
 */

export { COMPANY_TYPE_KEYS, COMPANY_TYPES, type CompanyType } from './company-status.ts';
export const companyTypeSchema = z.enum(COMPANY_TYPES);

/**
 * The types each answer of the new-user dialog's "principal or service provider" leads to (issue 33): the company
 * form offers only these, so the first answer is used rather than asked again.
 */
export const COMPANY_TYPES_BY_IDENTITY: Record<1 | 2, readonly CompanyType[]> = {
  1: ['shipOwner', 'charterer'],
  2: ['shipAgent', 'shipyard', 'fuelSupplier', 'voyageManager'],
};
