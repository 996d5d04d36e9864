import * as z from 'zod/mini';

/**
 * Issue 43: a company's own identity provider, first step: the e-mail domains the company proves it holds (user
 * center, its administrators). Contracts shared by the gateway (functions/gateway/company-sso/) and the islands.
 */

/** Where the TXT record goes, and what it says. */
export const DOMAIN_RECORD_PREFIX = '_shipping-portal-challenge';
export const DOMAIN_RECORD_VALUE_PREFIX = 'shipping-portal-domain=';

/** A domain as typed: trimmed, lower case, letters, digits and hyphens in two or more labels (IDNs in punycode). */
export const domainName = z.string().check(
  z.trim(),
  z.toLowerCase(),
  z.maxLength(253),
  z.regex(/^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/),
);

export const companyDomainsQuery = z.object({ companyId: z.string().check(z.minLength(1), z.maxLength(64)) });
export const companyDomainRequest = z.object({ companyId: z.string().check(z.minLength(1), z.maxLength(64)), domain: domainName });
export type CompanyDomainRequest = z.infer<typeof companyDomainRequest>;

export const companyDomain = z.object({
  domain: z.string(),
  state: z.enum(['pending', 'proved']),
  /** The TXT record to publish: its name and its value. */
  recordName: z.string(),
  recordValue: z.string(),
  createdAt: z.number(),
  checkedAt: z.nullable(z.number()),
  provedAt: z.nullable(z.number()),
});
export type CompanyDomain = z.infer<typeof companyDomain>;
export const companyDomainList = z.array(companyDomain);
