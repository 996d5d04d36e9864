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
  /** The connection its people sign in through; null: the company's first. */
  connectionId: z.nullable(z.string()),
});
export type CompanyDomain = z.infer<typeof companyDomain>;
export const companyDomainList = z.array(companyDomain);

// ---------------------------------------------------------------------------------------------------------
// The company's OpenID Connect connection (issue 43, second half).
// ---------------------------------------------------------------------------------------------------------

const companyIdField = z.string().check(z.minLength(1), z.maxLength(64));
/** The claim of the ID token that holds the e-mail: `email` unless the provider names it otherwise (e.g. `upn`). */
export const emailClaimName = z.string().check(z.trim(), z.regex(/^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/));

/**
 * Connect a provider (no `connectionId`: a new connection) or change one. The secret is required for a new one;
 * left out of a change, the stored one stays.
 */
export const companySsoConnectionRequest = z.object({
  companyId: companyIdField,
  connectionId: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  issuer: z.string().check(z.trim(), z.minLength(8), z.maxLength(500)),
  clientId: z.string().check(z.trim(), z.minLength(1), z.maxLength(255)),
  clientSecret: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))),
  emailClaim: z._default(emailClaimName, 'email'),
});
export type CompanySsoConnectionRequest = z.infer<typeof companySsoConnectionRequest>;

/** The switches of a connection (`connectionId`; left out: the company's first); each switch left out stays as it is. */
export const companySsoSettingsRequest = z.object({
  companyId: companyIdField,
  connectionId: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  ssoOnly: z.optional(z.boolean()),
  admitDomain: z.optional(z.boolean()),
  disabled: z.optional(z.boolean()),
});
export type CompanySsoSettingsRequest = z.infer<typeof companySsoSettingsRequest>;

export const SSO_OUTCOMES = ['signed-in', 'linked', 'applied', 'admitted'] as const;
export const companySsoConnection = z.object({
  id: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  emailClaim: z.string(),
  ssoOnly: z.boolean(),
  admitDomain: z.boolean(),
  disabled: z.boolean(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** The company's live domains whose people sign in through it. */
  domains: z.array(z.string()),
  /** The newest sign-ins through it (at most 10). */
  lastSignIns: z.array(z.object({ at: z.number(), outcome: z.enum(SSO_OUTCOMES), name: z.string(), email: z.nullable(z.string()) })),
});
export type CompanySsoConnection = z.infer<typeof companySsoConnection>;
/** Every connection of the company, oldest first. */
export const companySsoConnectionList = z.array(companySsoConnection);

/** A domain's people sign in through this connection of the company. */
export const companyDomainConnectionRequest = z.object({ companyId: companyIdField, domain: domainName, connectionId: z.string().check(z.minLength(1), z.maxLength(64)) });

// ---------------------------------------------------------------------------------------------------------
// Sign-in through it (/login).
// ---------------------------------------------------------------------------------------------------------

const emailField = z.string().check(z.trim(), z.toLowerCase(), z.maxLength(254), z.regex(/^[^\s@]+@[^\s@]+$/));
export const companySsoLookupRequest = z.object({ email: emailField });
/**
 * The same shape whether or not anyone has an account: it depends only on the e-mail's domain. `company` is the
 * name to show on "Continue with <company>" when the domain is proved by a company whose connection is on.
 */
export const companySsoLookupAnswer = z.object({ company: z.nullable(z.object({ nameEn: z.string(), nameCn: z.nullable(z.string()) })), ssoOnly: z.boolean() });
export type CompanySsoLookupAnswer = z.infer<typeof companySsoLookupAnswer>;

export const companySsoStartRequest = z.object({ email: emailField });
export const companySsoStartAnswer = z.object({ authorizeUrl: z.string() });

/** What the provider sent back to /company_sso_callback, as the page passes it on. */
export const companySsoCallbackRequest = z.object({
  code: z.string().check(z.minLength(1), z.maxLength(2048)),
  state: z.string().check(z.minLength(1), z.maxLength(512)),
  iss: z.optional(z.string().check(z.maxLength(500))),
});
export type CompanySsoCallbackRequest = z.infer<typeof companySsoCallbackRequest>;

/** The callback of an existing account not yet tied: its own proof first (a code sent to `email`). */
export const companySsoNeedsLink = z.object({ needsLink: z.literal(true), email: z.string(), companyNameEn: z.string(), companyNameCn: z.nullable(z.string()) });
export type CompanySsoNeedsLink = z.infer<typeof companySsoNeedsLink>;

export const companySsoLinkRequest = z.object({ code: z.string().check(z.regex(/^\d{4,8}$/)) });

/** Where the provider sends people back: a page on PORTAL_ORIGIN. */
export const COMPANY_SSO_CALLBACK_PATH = '/company_sso_callback';
