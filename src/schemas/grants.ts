import * as z from 'zod/mini';
import { isoDateSchema } from './company-members';

/**
 * Issue 41: the vessels a company declares and the grants by which one company acts for another. Contracts shared
 * by the gateway (functions/gateway/vessels/, grants/, account/ for acting) and the user center's islands.
 */

export const VESSEL_RELATIONS = ['owner', 'manager', 'operator', 'charterer'] as const;
export type VesselRelation = (typeof VESSEL_RELATIONS)[number];
export const GRANT_LEVELS = ['read', 'act'] as const;
export type GrantLevel = (typeof GRANT_LEVELS)[number];
/** The longest grant: a year. */
export const GRANT_MAX_DAYS = 366;

const companyId = z.string().check(z.minLength(1), z.maxLength(64));
const id = z.string().check(z.minLength(1), z.maxLength(64));

/** POST agg-web/company/vessels/declare → { vessel, disputed }. The IMO check digit is checked by the gateway (DG0001, DG0002). */
export const declareVesselRequest = z.object({
  companyId,
  imo: z.string().check(z.maxLength(20)),
  name: z.string().check(z.trim(), z.maxLength(100)),
  relation: z.enum(VESSEL_RELATIONS),
  /** A charter's first and last day; required for a charterer (DG0016), ignored otherwise. */
  startsOn: z.optional(z.nullable(isoDateSchema)),
  endsOn: z.optional(z.nullable(isoDateSchema)),
});
export type DeclareVesselRequest = z.infer<typeof declareVesselRequest>;

export const removeVesselRequest = z.object({ companyId, vesselId: id });
export const companyOnlyRequest = z.object({ companyId });

export interface Vessel {
  id: string;
  imo: string;
  name: string;
  relation: VesselRelation;
  startsOn: string | null;
  endsOn: string | null;
  createdAt: number;
}
/** A declaration that met another company's owner or manager: kept for the operators, not written over it. */
export interface DeclareVesselAnswer {
  vessel: Vessel | null;
  disputed: boolean;
}

/** POST agg-web/company/grants/create (fresh proof). `side` says which company the caller administers. */
export const createGrantRequest = z.object({
  companyId,
  side: z.enum(['principal', 'agent']),
  /** The other company, by the id the company look-up answered. */
  otherCompanyId: companyId,
  vessels: z.array(z.string().check(z.maxLength(20))).check(z.maxLength(50)),
  ports: z.array(z.string().check(z.maxLength(5))).check(z.maxLength(50)),
  modules: z.array(z.string().check(z.maxLength(64))).check(z.minLength(1), z.maxLength(30)),
  level: z.enum(GRANT_LEVELS),
  startsOn: isoDateSchema,
  endsOn: isoDateSchema,
});
export type CreateGrantRequest = z.infer<typeof createGrantRequest>;

export const grantActionRequest = z.object({ companyId, grantId: id });
export const autoAcceptRequest = z.object({ companyId, agentCompanyId: companyId, on: z.boolean() });
export const companyLookupRequest = z.object({ companyId, name: z.string().check(z.trim(), z.minLength(2), z.maxLength(200)) });

export type GrantStatus = 'pending' | 'active' | 'revoked' | 'declined' | 'expired';
export interface GrantParty {
  id: string;
  nameEn: string;
  nameCn: string | null;
}
export interface Grant {
  id: string;
  principal: GrantParty;
  agent: GrantParty;
  vessels: string[];
  ports: string[];
  modules: { key: string; name: string }[];
  level: GrantLevel;
  startsAt: number;
  endsAt: number;
  status: GrantStatus;
  startedBy: 'principal' | 'agent';
  /** Whether the caller's company answers it (a pending request the other side started). */
  mayAnswer: boolean;
  createdAt: number;
}
export interface GrantsAnswer {
  grants: Grant[];
  /** Agents whose requests this company accepts automatically. */
  autoAccept: string[];
  /** The platform suspended the company's grants. */
  suspended: boolean;
}
export interface CompanyLookupAnswer {
  /** Each company with the modules it could be granted as an agent (its type's). */
  companies: (GrantParty & { type: string; modules: { key: string; name: string }[] })[];
  /** The modules the asking company could be granted as an agent. */
  ownModules: { key: string; name: string }[];
}

/** What a person may act under: a live grant to their company, with the modules they would have. */
export interface ActingChoice {
  grantId: string;
  principal: GrantParty;
  agentCompanyId: string;
  vessels: string[];
  ports: string[];
  modules: { key: string; name: string }[];
  level: GrantLevel;
  until: number;
}
/** POST agg-web/user/actFor → null; the session then acts for the grant's principal. */
export const actForRequest = z.object({ grantId: id });

/** Operators: a company's vessels, grants and open claims; suspending its grants takes a reason. */
export const suspendGrantsRequest = z.object({ companyId, suspend: z.boolean(), reason: z.string().check(z.trim(), z.maxLength(500)) });

// The answers as the browser reads them (src/api/grants.ts).
const module = z.object({ key: z.string(), name: z.string() });
const party = z.object({ id: z.string(), nameEn: z.string(), nameCn: z.nullable(z.string()) });
export const vesselSchema = z.object({
  id: z.string(),
  imo: z.string(),
  name: z.string(),
  relation: z.enum(VESSEL_RELATIONS),
  startsOn: z.nullable(z.string()),
  endsOn: z.nullable(z.string()),
  createdAt: z.number(),
});
export const vesselList = z.array(vesselSchema);
export const declareVesselAnswer = z.object({ vessel: z.nullable(vesselSchema), disputed: z.boolean() });
export const grantSchema = z.object({
  id: z.string(),
  principal: party,
  agent: party,
  vessels: z.array(z.string()),
  ports: z.array(z.string()),
  modules: z.array(module),
  level: z.enum(GRANT_LEVELS),
  startsAt: z.number(),
  endsAt: z.number(),
  status: z.enum(['pending', 'active', 'revoked', 'declined', 'expired']),
  startedBy: z.enum(['principal', 'agent']),
  mayAnswer: z.boolean(),
  createdAt: z.number(),
});
export const grantsAnswer = z.object({ grants: z.array(grantSchema), autoAccept: z.array(z.string()), suspended: z.boolean() });
export const companyLookupAnswer = z.object({
  companies: z.array(z.object({ id: z.string(), nameEn: z.string(), nameCn: z.nullable(z.string()), type: z.string(), modules: z.array(module) })),
  ownModules: z.array(module),
});
export const autoAcceptAnswer = z.object({ autoAccept: z.array(z.string()) });
export const actingChoiceSchema = z.object({
  grantId: z.string(),
  principal: party,
  agentCompanyId: z.string(),
  vessels: z.array(z.string()),
  ports: z.array(z.string()),
  modules: z.array(module),
  level: z.enum(GRANT_LEVELS),
  until: z.number(),
});
export const actingChoices = z.array(actingChoiceSchema);

/** GET ops/v1/companies/:id/grants: the platform's view of a company's vessels, grants and open vessel claims. */
export const companyGrantsOpsAnswer = z.object({
  suspended: z.nullable(z.object({ at: z.number(), reason: z.string() })),
  vessels: z.array(vesselSchema),
  grants: z.array(grantSchema),
  claims: z.array(z.object({ id: z.string(), imo: z.string(), relation: z.string(), name: z.string(), claimant: z.string(), holder: z.nullable(z.string()), createdAt: z.number() })),
});
export type CompanyGrantsOpsAnswer = z.infer<typeof companyGrantsOpsAnswer>;
