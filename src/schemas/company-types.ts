import * as z from 'zod/mini';

/**
 * Enterprise types. Imports only zod, so the build's scripts (the module catalogue check) can load it in Node.
 */

/** Enterprise types, as they travel on the wire. */
export const COMPANY_TYPES = ['shipOwner', 'charterer', 'shipAgent', 'shipyard', 'fuelSupplier', 'voyageManager'] as const;
export const companyTypeSchema = z.enum(COMPANY_TYPES);
export type CompanyType = z.infer<typeof companyTypeSchema>;

/**
 * The types each answer of the new-user dialog's "principal or service provider" leads to (issue 33): the company
 * form offers only these, so the first answer is used rather than asked again.
 */
export const COMPANY_TYPES_BY_IDENTITY: Record<1 | 2, readonly CompanyType[]> = {
  1: ['shipOwner', 'charterer'],
  2: ['shipAgent', 'shipyard', 'fuelSupplier', 'voyageManager'],
};

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

