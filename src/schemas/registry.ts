import * as z from 'zod/mini';
import { checked } from './checked';

/**
 * Wire contracts of the registry check (issue 42): a mainland company checked against the business registry
 * through a provider (Tencent Cloud, Aliyun), before review with the applicant's consent, on an operator's
 * request, and again every month once approved.
 */

/** The consent text's version: a change of the words (src/i18n/<lang>/onboarding.ts `registry.consent`) is a new version. */
export const REGISTRY_CONSENT_VERSION = '2026-12-01';

/** What the registry said. `notChecked`: no provider answered within the time limit, or none is configured. */
export const REGISTRY_VERDICTS = ['match', 'differs', 'notFound', 'notOperating', 'notChecked'] as const;
export type RegistryVerdict = (typeof REGISTRY_VERDICTS)[number];
/** The fields a provider compares; which differ is all that is kept of the legal representative. */
export const REGISTRY_FIELDS = ['name', 'code', 'legalRepName', 'legalRepId'] as const;
export type RegistryField = (typeof REGISTRY_FIELDS)[number];
/** A company's standing in the registry; every one but `operating` opens an operator task when it appears. */
export const REGISTRY_STATUSES = ['operating', 'deregistered', 'revoked', 'cancelled', 'suspended'] as const;
export type RegistryStatus = (typeof REGISTRY_STATUSES)[number];
/** Why a check ran. */
export const REGISTRY_CAUSES = ['application', 'operator', 'monthly'] as const;

export const registryCheckSchema = z.object({
  verdict: z.enum(REGISTRY_VERDICTS),
  differing: z.array(z.enum(REGISTRY_FIELDS)),
  /** The registry's status when the provider gave one. */
  registryStatus: z.nullable(z.enum(REGISTRY_STATUSES)),
  provider: z.nullable(z.string()),
  cause: z.enum(REGISTRY_CAUSES),
  checkedAt: z.number(),
});
export type RegistryCheck = z.infer<typeof registryCheckSchema>;

/** An open operator task: the registry status of an approved company changed to one that is not operating. */
export const registryTaskSchema = z.object({
  id: z.string(),
  fromStatus: z.nullable(z.string()),
  toStatus: z.string(),
  createdAt: z.number(),
});
export type RegistryTask = z.infer<typeof registryTaskSchema>;

/** A mainland identity card number (GB 11643): 17 digits and a digit or X; spaces dropped, x upper case. */
const idNumber = z.pipe(
  z.pipe(z.string(), z.transform((v: string) => v.replace(/\s/g, '').toUpperCase())),
  checked(z.string(), z.regex(/^\d{17}[\dX]$/)),
);

/**
 * POST agg-web/registry/check (session, the company's administrator): the applicant agrees to the check
 * (`consentVersion` must be REGISTRY_CONSENT_VERSION, else RG0003) and gives the legal representative's name and
 * identity card number, which go to the provider once and are never stored.
 */
export const registryCheckRequest = z.object({
  companyId: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(64)),
  consentVersion: checked(z.string(), z.maxLength(32)),
  legalRepName: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(64)),
  legalRepId: idNumber,
});
export type RegistryCheckRequest = z.input<typeof registryCheckRequest>;
export const registryCheckAnswer = registryCheckSchema;

/** POST ops/v1/companies/registry-check { companyId } (reviewer): the check again, without the legal representative. */
export const opsRegistryCheckRequest = z.object({ companyId: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(64)) });

/** What the operators' review page shows of the registry: the latest check and the open tasks. */
export const reviewRegistrySchema = z.object({
  latest: z.nullable(registryCheckSchema),
  tasks: z.array(registryTaskSchema),
});
export type ReviewRegistry = z.infer<typeof reviewRegistrySchema>;
