import type { Lang } from '../../../src/lib/lang';
import {
  GRANT_MAX_DAYS,
  type CompanyLookupAnswer,
  type CreateGrantRequest,
  type Grant,
  type GrantsAnswer,
  type GrantStatus,
  type ActingChoice,
} from '../../../src/schemas/grants';
import { companyNameKey } from '../../../src/schemas/onboarding';
import { ERR } from '../../../src/schemas/error-codes';
import { configOf } from '../../config';
import { actingAuthority, companyAuthority, grantsActedUnder } from '../authority/service';
import type { GrantStandingRow } from '../authority/db';
import { companyById } from '../companies/db';
import { grantsOf } from '../companies/members-db';
import { moduleName, modulesOfMember, modulesOfType } from '../companies/modules';
import { deliver, type DeliveryEnv } from '../delivery';
import { runBatch } from '../identity/db/batch';
import { GatewayError } from '../errors';
import { findPort } from '../places/ports';
import { checkedImo, openClaimsOf, vesselsHeld, vesselsOfCompany, vesselView } from '../vessels/service';
import { auditStatement } from '../audit/db';
import {
  administratorEmails,
  answerGrantStatements,
  autoAcceptedAgents,
  grantById,
  grantsOfCompany,
  grantUseStatements,
  insertGrantStatements,
  revokeGrantStatements,
  setAutoAcceptStatement,
  suspendGrantsStatement,
  verifiedCompaniesNamed,
  type GrantListRow,
  type GrantRow,
} from './db';
import type { Asker } from '../authority/db';

/**
 * Grants between companies (issue 41). A principal lets an agent act for it on named vessels and ports, in named
 * modules, at a level, from one day to another. Either side's administrator starts one (with a fresh proof); it is
 * pending until the other side's administrator accepts, unless the principal accepts this agent automatically.
 * Either side ends it at any time. Who may act under a grant, now, is authority/service.ts's decision alone
 * (actingAuthority); this file keeps the grants themselves.
 *
 * Days are Beijing days (UTC+8): a grant from 2026-12-01 to 2026-12-07 runs from 00:00 on the first to 24:00 on
 * the last, Beijing time.
 */

export interface GrantCaller extends Asker {
  env: DeliveryEnv;
  db: D1Database;
  network: string;
  at: number;
  lang: Lang;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const dayStart = (day: string) => Date.parse(`${day}T00:00:00+08:00`);
/** The Beijing day of a moment (yyyy-mm-dd). */
export const beijingDay = (at: number) => new Date(at + 8 * 60 * 60 * 1000).toISOString().slice(0, 10);
const USABLE: readonly string[] = ['active', 'verified'];
const parsed = (json: string): string[] => JSON.parse(json) as string[];

function grantStatus(row: Pick<GrantRow, 'status' | 'ends_at'>, at: number): GrantStatus {
  return row.status === 'active' && row.ends_at <= at ? 'expired' : row.status;
}

function grantView(row: GrantListRow, companyId: string, at: number, lang: Lang): Grant {
  const catalogue = new Map(modulesOfType(row.agent_type).map((entry) => [entry.key, moduleName(entry, lang)]));
  const answerer = row.started_by === 'principal' ? row.agent_company_id : row.principal_company_id;
  return {
    id: row.id,
    principal: { id: row.principal_company_id, nameEn: row.principal_name_en, nameCn: row.principal_name_cn },
    agent: { id: row.agent_company_id, nameEn: row.agent_name_en, nameCn: row.agent_name_cn },
    vessels: parsed(row.vessels),
    ports: parsed(row.ports),
    modules: parsed(row.modules).map((key) => catalogue.get(key) ?? { key, name: key }),
    level: row.level,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    status: grantStatus(row, at),
    startedBy: row.started_by,
    mayAnswer: row.status === 'pending' && answerer === companyId,
    createdAt: row.created_at,
  };
}

/** The company's grants, both directions, for its administrators (another company's administrator gets CO0009). */
export async function companyGrants(caller: GrantCaller, companyId: string): Promise<GrantsAnswer> {
  await companyAuthority(caller.db, caller, companyId, 'manage');
  const [rows, autoAccept, company] = await Promise.all([grantsOfCompany(caller.db, companyId), autoAcceptedAgents(caller.db, companyId), companyById(caller.db, companyId)]);
  return { grants: rows.map((row) => grantView(row, companyId, caller.at, caller.lang)), autoAccept, suspended: company?.grants_suspended_at != null };
}

/** Verified companies named so (either language), to name the other side of a grant; never the caller's own. */
export async function lookUpCompanies(caller: GrantCaller, companyId: string, name: string): Promise<CompanyLookupAnswer> {
  await companyAuthority(caller.db, caller, companyId, 'manage');
  const found = (await verifiedCompaniesNamed(caller.db, companyNameKey(name), name.trim())).filter((row) => row.id !== companyId);
  const own = await companyById(caller.db, companyId);
  return {
    ownModules: own ? modulesOfType(own.type).map((entry) => moduleName(entry, caller.lang)) : [],
    companies: found.map((row) => ({ id: row.id, nameEn: row.name_en, nameCn: row.name_cn, type: row.type, modules: modulesOfType(row.type).map((entry) => moduleName(entry, caller.lang)) })),
  };
}

/** Every rule of a grant's scope, against the principal's vessels now; the fields' errors are DG codes with their path. */
async function checkedScope(db: D1Database, principalId: string, agentType: string, request: CreateGrantRequest) {
  if (request.startsOn > request.endsOn) throw new GatewayError(ERR.GRANT_DATES_INVALID, { path: 'endsOn' });
  const startsAt = dayStart(request.startsOn);
  const endsAt = dayStart(request.endsOn) + DAY_MS;
  if (endsAt - startsAt > GRANT_MAX_DAYS * DAY_MS) throw new GatewayError(ERR.GRANT_DATES_INVALID, { path: 'endsOn' });
  const vessels = [...new Set(request.vessels.map((imo, i) => checkedImo(imo, `vessels.${i}`)))];
  const ports = [...new Set(request.ports.map((port) => port.trim().toUpperCase()))];
  if (!vessels.length && !ports.length) throw new GatewayError(ERR.GRANT_SCOPE_EMPTY, { path: 'vessels' });
  const unknownPort = ports.findIndex((port) => !findPort(port));
  if (unknownPort >= 0) throw new GatewayError(ERR.GRANT_PORT_UNKNOWN, { path: `ports.${unknownPort}` });
  const held = await vesselsHeld(db, principalId, vessels, request.startsOn, request.endsOn);
  const notHeld = vessels.find((imo) => !held.has(imo));
  if (notHeld) throw new GatewayError(ERR.GRANT_VESSEL_NOT_HELD, { path: `vessels.${vessels.indexOf(notHeld)}`, imo: notHeld });
  const offered = new Set(modulesOfType(agentType).map((entry) => entry.key));
  const modules = [...new Set(request.modules)];
  const unknownModule = modules.findIndex((key) => !offered.has(key));
  if (unknownModule >= 0) throw new GatewayError(ERR.GRANT_MODULE_UNKNOWN, { path: `modules.${unknownModule}` });
  return { vessels, ports, modules, startsAt, endsAt };
}

/** Refuses a company whose grants the platform suspended (DG0015), and a company not in good standing (DG0009). */
function assertMayGrant(company: { status: string; grants_suspended_at?: number | null } | null): asserts company {
  if (!company || !USABLE.includes(company.status)) throw new GatewayError(ERR.GRANT_COMPANY_NOT_FOUND, { path: 'otherCompanyId' });
  if (company.grants_suspended_at != null) throw new GatewayError(ERR.GRANTS_SUSPENDED);
}

export async function createGrant(caller: GrantCaller, request: CreateGrantRequest): Promise<Grant> {
  await companyAuthority(caller.db, caller, request.companyId, 'manage');
  if (request.otherCompanyId === request.companyId) throw new GatewayError(ERR.GRANT_COMPANY_NOT_FOUND, { path: 'otherCompanyId' });
  const [own, other] = await Promise.all([companyById(caller.db, request.companyId), companyById(caller.db, request.otherCompanyId)]);
  assertMayGrant(own);
  assertMayGrant(other);
  const [principal, agent] = request.side === 'principal' ? [own, other] : [other, own];
  const scope = await checkedScope(caller.db, principal.id, agent.type, request);
  const row = {
    id: crypto.randomUUID(),
    principal_company_id: principal.id,
    agent_company_id: agent.id,
    vessels: JSON.stringify(scope.vessels),
    ports: JSON.stringify(scope.ports),
    modules: JSON.stringify(scope.modules),
    level: request.level,
    starts_at: scope.startsAt,
    ends_at: scope.endsAt,
    started_by: request.side,
    created_by: caller.userId,
    created_at: caller.at,
  };
  const audit = { at: caller.at, actor: { kind: 'user' as const, id: caller.userId }, network: caller.network, detail: { vessels: scope.vessels, ports: scope.ports, modules: scope.modules, level: request.level } };
  const [inserted] = await runBatch(caller.db, insertGrantStatements(caller.db, row, audit, caller.mfaCompanyId));
  // Refused by its own check of the creator: they stopped managing the company in between.
  if (inserted!.meta.changes !== 1) throw new GatewayError(ERR.ADMINISTRATOR_ONLY);
  const grant = (await grantsOfCompany(caller.db, request.companyId)).find((listed) => listed.id === row.id)!;
  await tellOtherSide(caller, grant, request.companyId, grant.status === 'active' ? 'accepted' : 'requested');
  return grantView(grant, request.companyId, caller.at, caller.lang);
}

/** The grant, when the company is one of its two sides; DG0010 otherwise (no leak of another pair's grants). */
async function grantOfCompany(db: D1Database, grantId: string, companyId: string): Promise<GrantRow> {
  const grant = await grantById(db, grantId);
  if (!grant || (grant.principal_company_id !== companyId && grant.agent_company_id !== companyId)) throw new GatewayError(ERR.GRANT_NOT_FOUND);
  return grant;
}

/** Accepts or declines a pending request of the other side. Twenty parallel accepts make one active grant; the others get DG0011. */
export async function answerGrant(caller: GrantCaller, companyId: string, grantId: string, accept: boolean): Promise<Grant> {
  await companyAuthority(caller.db, caller, companyId, 'manage');
  const grant = await grantOfCompany(caller.db, grantId, companyId);
  const answerer = grant.started_by === 'principal' ? grant.agent_company_id : grant.principal_company_id;
  if (answerer !== companyId) throw new GatewayError(ERR.GRANT_OTHER_SIDE_ANSWERS);
  if (accept) {
    // The principal accepting an agent's request grants its vessels: they must still be its own for the dates.
    const held = await vesselsHeld(caller.db, grant.principal_company_id, parsed(grant.vessels), beijingDay(grant.starts_at), beijingDay(grant.ends_at - 1));
    if (parsed(grant.vessels).some((imo) => !held.has(imo))) throw new GatewayError(ERR.GRANT_VESSEL_NOT_HELD);
  }
  const audit = { at: caller.at, actor: { kind: 'user' as const, id: caller.userId }, network: caller.network };
  const [answered] = await runBatch(caller.db, answerGrantStatements(caller.db, grant, accept ? 'active' : 'declined', companyId, audit, caller.mfaCompanyId));
  if (answered!.meta.changes !== 1) throw new GatewayError(ERR.GRANT_ANSWERED);
  const after = (await grantsOfCompany(caller.db, companyId)).find((listed) => listed.id === grantId)!;
  await tellOtherSide(caller, after, companyId, accept ? 'accepted' : 'declined');
  return grantView(after, companyId, caller.at, caller.lang);
}

/** Ends a pending or active grant, by either side at any time: the acting under it ends on the next call. */
export async function revokeGrant(caller: GrantCaller, companyId: string, grantId: string): Promise<Grant> {
  await companyAuthority(caller.db, caller, companyId, 'manage');
  const grant = await grantOfCompany(caller.db, grantId, companyId);
  const audit = { at: caller.at, actor: { kind: 'user' as const, id: caller.userId }, network: caller.network };
  const [revoked] = await runBatch(caller.db, revokeGrantStatements(caller.db, grant, companyId, audit, caller.mfaCompanyId));
  if (revoked!.meta.changes !== 1) throw new GatewayError(ERR.GRANT_ANSWERED);
  const after = (await grantsOfCompany(caller.db, companyId)).find((listed) => listed.id === grantId)!;
  await tellOtherSide(caller, after, companyId, 'revoked');
  return grantView(after, companyId, caller.at, caller.lang);
}

export async function setAutoAccept(caller: GrantCaller, principalId: string, agentId: string, on: boolean): Promise<string[]> {
  await companyAuthority(caller.db, caller, principalId, 'manage');
  await setAutoAcceptStatement(caller.db, principalId, agentId, on, caller, caller.at).run();
  return autoAcceptedAgents(caller.db, principalId);
}

/** The e-mail that tells the other side's administrators what `company` did with a grant. */
export function grantChangeMessage(lang: Lang, grant: { company: string; change: 'requested' | 'accepted' | 'declined' | 'revoked'; link: string | null }) {
  const zh = lang === 'zh';
  const words = zh
    ? { requested: '请求与贵公司建立授权', accepted: '已接受与贵公司的授权', declined: '已拒绝与贵公司的授权请求', revoked: '已终止与贵公司的授权' }
    : { requested: 'asks your company for a grant', accepted: 'accepted the grant with your company', declined: 'declined the grant request with your company', revoked: 'ended the grant with your company' };
  const subject = zh ? `公司间授权：${grant.company}${words[grant.change]}` : `Grant between companies: ${grant.company} ${words[grant.change]}`;
  const see = grant.link && (zh ? `请在用户中心查看并处理：${grant.link}` : `See it, and answer it, in your user center: ${grant.link}`);
  return { kind: 'grantChange' as const, lang, subject, text: [subject, see].filter(Boolean).join('\n') };
}

/** Tells the other side's administrators (by e-mail) what this side did; a failed send does not undo the change. */
async function tellOtherSide(caller: GrantCaller, grant: GrantListRow, byCompanyId: string, change: 'requested' | 'accepted' | 'declined' | 'revoked'): Promise<void> {
  const otherId = grant.principal_company_id === byCompanyId ? grant.agent_company_id : grant.principal_company_id;
  const byName = grant.principal_company_id === byCompanyId ? [grant.principal_name_en, grant.principal_name_cn] : [grant.agent_name_en, grant.agent_name_cn];
  const name = (caller.lang === 'zh' && byName[1]) || byName[0]!;
  const origin = configOf(caller.env).portalOrigin;
  const message = grantChangeMessage(caller.lang, { company: name, change, link: origin ? `${origin}/user_center` : null });
  for (const to of await administratorEmails(caller.db, otherId)) {
    try {
      await deliver(caller.env, { ...message, channel: 'email', to }, { now: caller.at });
    } catch (error) {
      console.error('grant notice not delivered', error instanceof Error ? error.message : error);
    }
  }
}

/** The modules a person has while acting: theirs in the agent company, within the grant's. */
async function actingModules(db: D1Database, row: GrantStandingRow, userId: string, lang: Lang) {
  const granted = new Set(parsed(row.modules));
  const own = modulesOfMember(row.agent_type, { role: row.member_role ?? 'staff', status: row.member_status ?? '' }, await grantsOf(db, row.agent_company_id, userId), lang);
  return own.filter((module) => granted.has(module.key));
}

const choiceOf = async (db: D1Database, row: GrantStandingRow, userId: string, lang: Lang): Promise<ActingChoice> => ({
  grantId: row.id,
  principal: { id: row.principal_company_id, nameEn: row.principal_name_en, nameCn: row.principal_name_cn },
  agentCompanyId: row.agent_company_id,
  vessels: parsed(row.vessels),
  ports: parsed(row.ports),
  modules: await actingModules(db, row, userId, lang),
  level: row.level,
  until: row.ends_at,
});

/** The grants a person may act under now, each with the modules they would have (none: not offered). */
export async function actingChoices(db: D1Database, asker: Asker, at: number, lang: Lang): Promise<ActingChoice[]> {
  const choices = await Promise.all((await grantsActedUnder(db, asker, at)).map((row) => choiceOf(db, row, asker.userId, lang)));
  return choices.filter((choice) => choice.modules.length > 0);
}

/**
 * What the session acts under now (authority/service.ts decides), with the modules; DG0014 once it may not. The
 * first use per person per day is an audit row of both companies.
 */
export async function actingNow(db: D1Database, asker: Asker, grantId: string, at: number, lang: Lang): Promise<ActingChoice> {
  const { userId } = asker;
  const row = await actingAuthority(db, asker, grantId, at);
  const choice = await choiceOf(db, row, userId, lang);
  if (!choice.modules.length) throw new GatewayError(ERR.ACTING_ENDED);
  await runBatch(db, grantUseStatements(db, { id: row.id, principal_company_id: row.principal_company_id, agent_company_id: row.agent_company_id }, userId, beijingDay(at), { at, actor: { kind: 'user', id: userId } }));
  return choice;
}

/** The `on_behalf_of` claim of a token or record (RFC 8693 §4.1 `act` style: the acting person stays the subject). */
export const onBehalfOf = (choice: ActingChoice) => ({
  company_id: choice.principal.id,
  grant_id: choice.grantId,
  vessels: choice.vessels,
  ports: choice.ports,
  modules: choice.modules.map((module) => module.key),
  level: choice.level,
  until: Math.floor(choice.until / 1000),
});

/** The operators' view of a company's vessels, grants (both directions) and open vessel claims. */
export async function companyGrantsForOperators(db: D1Database, companyId: string, at: number, lang: Lang) {
  const [company, vessels, grants, claims] = await Promise.all([companyById(db, companyId), vesselsOfCompany(db, companyId), grantsOfCompany(db, companyId), openClaimsOf(db, companyId)]);
  if (!company) throw new GatewayError(ERR.REVIEW_COMPANY_NOT_FOUND);
  return {
    suspended: company.grants_suspended_at != null ? { at: company.grants_suspended_at, reason: company.grants_suspended_reason ?? '' } : null,
    vessels: vessels.map(vesselView),
    grants: grants.map((row) => grantView(row, companyId, at, lang)),
    claims: claims.map((claim) => ({ id: claim.id, imo: claim.imo, relation: claim.relation, name: claim.name, claimant: claim.claimant_company_id, holder: claim.holder_company_id, createdAt: claim.created_at })),
  };
}

/**
 * The operators' one action: suspend (or restore) every grant of a company, both directions, with a reason. Every
 * acting under them ends on the next call (authority/service.ts reads the suspension).
 */
export async function suspendCompanyGrants(db: D1Database, operator: { id: string }, request: { companyId: string; suspend: boolean; reason: string }, at: number, network: string): Promise<void> {
  if (!(await companyById(db, request.companyId))) throw new GatewayError(ERR.REVIEW_COMPANY_NOT_FOUND);
  if (request.suspend && !request.reason) throw new GatewayError(ERR.REVIEW_REASON_TEXT_MISSING, { path: 'reason' });
  await runBatch(db, [
    suspendGrantsStatement(db, request.companyId, request.suspend ? { at, reason: request.reason } : null),
    auditStatement(db, { at, actor: { kind: 'operator', id: operator.id }, action: request.suspend ? 'company.grants_suspended' : 'company.grants_restored', target: { kind: 'company', id: request.companyId }, reason: request.reason || null, network }),
  ]);
}
