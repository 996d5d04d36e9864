import * as z from 'zod/mini';
import { checked } from './checked';
import { displayText } from './display-text';
import { redirectUriProblem } from './oidc';

/**
 * Issue 27: the operators' client console (/ops/clients, admins only) and a company's API clients (user center,
 * the company's administrators). Contracts shared by the gateway (oidc/console-routes.ts,
 * oidc/company-clients-routes.ts) and the islands.
 */

/** A redirect, post-logout or back-channel logout URI: the one rule of src/schemas/oidc.ts (exact, https, loopback http). */
const clientUri = z.string().check(
  z.trim(),
  z.refine((value) => redirectUriProblem(value) === null, { message: 'uri' }),
);
const uriList = z.array(clientUri).check(z.maxLength(10));
/** A client's name, shown to people on consent pages: the one display-text rule (no bidi, zero-width or tag characters; GW0422). */
const name = checked(z.string(), z.trim(), z.minLength(1), z.maxLength(100), displayText());

/** What an operator registers or edits: the name, the URIs, public or confidential, trusted (skips consent). */
export const consoleClientRequest = z.object({
  name,
  redirectUris: uriList,
  postLogoutUris: uriList,
  backchannelLogoutUri: z.nullable(clientUri),
  public: z.boolean(),
  trusted: z.boolean(),
  /** The client's id_token_signed_response_alg (issue 43); ES256 when left out. */
  idTokenAlg: z.optional(z.enum(['ES256', 'RS256'])),
});
export type ConsoleClientRequest = z.infer<typeof consoleClientRequest>;
/** Editing keeps the kind (public or confidential): a secret cannot appear or vanish under a running app. */
export const consoleClientEdit = z.omit(consoleClientRequest, { public: true });
export type ConsoleClientEdit = z.infer<typeof consoleClientEdit>;
/**
 * PKCE for one client (issue 43): required, or off for a confidential client with the operator's reason (at least
 * 10 characters: "the certification suite's Basic OP plan" is a reason, "x" is not).
 */
export const consolePkceRequest = z.union([
  z.object({ required: z.literal(true) }),
  z.object({ required: z.literal(false), reason: z.string().check(z.trim(), z.minLength(10), z.maxLength(300)) }),
]);
export type ConsolePkceRequest = z.infer<typeof consolePkceRequest>;
export const clientIdParam = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });

export const consoleClient = z.object({
  id: z.string(),
  name: z.string(),
  public: z.boolean(),
  trusted: z.boolean(),
  redirectUris: z.array(z.string()),
  postLogoutUris: z.array(z.string()),
  backchannelLogoutUri: z.nullable(z.string()),
  grantTypes: z.array(z.string()),
  idTokenAlg: z.enum(['ES256', 'RS256']),
  pkceRequired: z.boolean(),
  pkceOffReason: z.nullable(z.string()),
  createdAt: z.number(),
  updatedAt: z.number(),
  disabledAt: z.nullable(z.number()),
});
export type ConsoleClient = z.infer<typeof consoleClient>;
export const consoleClientList = z.array(consoleClient);
/** A client with its secret: shown once, on creation and on rotation (null for a public client). */
export const clientWithSecret = z.object({ client: consoleClient, secret: z.nullable(z.string()) });
export type ClientWithSecret = z.infer<typeof clientWithSecret>;

/** One back-channel logout send of a client (oidc_logout_sends), newest first, read-only. */
export const logoutSend = z.object({
  createdAt: z.number(),
  status: z.enum(['pending', 'sent', 'failed']),
  attempts: z.number(),
  lastResult: z.nullable(z.string()),
  sentAt: z.nullable(z.number()),
});
export type LogoutSend = z.infer<typeof logoutSend>;
export const logoutSendList = z.array(logoutSend);

// ---------------------------------------------------------------------------------------------------------
// Company API clients
// ---------------------------------------------------------------------------------------------------------

/** A company API client lives at most a year. */
export const COMPANY_CLIENT_MAX_DAYS = 366;
/** Live (not revoked, not expired) API clients a company may hold. */
export const COMPANY_CLIENTS_MAX = 20;
/** The scope of one module of the company (module catalogue key). */
export const moduleScope = (key: string) => `module:${key}`;

const companyId = z.string().check(z.trim(), z.minLength(1), z.maxLength(64));
export const companyClientsQuery = z.object({ companyId });
export const companyClientRequest = z.object({
  companyId,
  name,
  /** `company` and `module:<key>` of the company's modules. */
  scopes: z.array(z.string().check(z.regex(/^(company|module:[a-z0-9_-]{1,40})$/))).check(z.minLength(1), z.maxLength(40)),
  /** The end, epoch ms: from tomorrow to a year from now (the gateway checks against its clock). */
  expiresAt: z.number().check(z.int(), z.positive()),
  /** Made once per opening of the form: a double click sends the same key and creates one client. */
  creationKey: z.string().check(z.regex(/^[A-Za-z0-9_-]{16,64}$/)),
});
export type CompanyClientRequest = z.infer<typeof companyClientRequest>;
export const companyClientRevokeRequest = z.object({ companyId, clientId: z.string().check(z.minLength(1), z.maxLength(64)) });

export const companyClient = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  createdAt: z.number(),
  expiresAt: z.number(),
  revokedAt: z.nullable(z.number()),
  lastUsedAt: z.nullable(z.number()),
});
export type CompanyClient = z.infer<typeof companyClient>;
export const companyClientsAnswer = z.object({
  clients: z.array(companyClient),
  /** The scopes this company may give: `company` and one per module, with the module's name. */
  scopes: z.array(z.object({ scope: z.string(), name: z.nullable(z.string()) })),
});
export type CompanyClientsAnswer = z.infer<typeof companyClientsAnswer>;
export const companyClientCreated = z.object({ client: companyClient, secret: z.string() });
export type CompanyClientCreated = z.infer<typeof companyClientCreated>;
