import type { Lang } from '../../../src/lib/lang';
import { DOMAIN_RECORD_PREFIX, DOMAIN_RECORD_VALUE_PREFIX, type CompanyDomain } from '../../../src/schemas/company-sso';
import { ERR } from '../../../src/schemas/error-codes';
import { configOf } from '../../config';
import { auditStatement } from '../audit/db';
import { companyAuthority } from '../authority/service';
import { GatewayError } from '../errors';
import { isUniqueViolation, runBatch } from '../identity/db/batch';
import { randomToken } from '../identity/tokens';
import { checkedStatement, domainConnectionStatement, domainOwner, domainsOf, insertClaimStatement, liveClaim, proveStatement, removeClaimStatement, type DomainRow } from './db';
import { txtRecords } from './dns';
import type { Asker } from '../authority/db';

/**
 * A company's own identity provider, first step (issue 43): the e-mail domains it proves it holds. Its
 * administrators (authority/service.ts companyAuthority 'manage'; adding needs a fresh proof, routes.ts) add a
 * domain; the portal shows a TXT record to publish at `_shipping-portal-challenge.<domain>`; "Check" reads it
 * through DNS-over-HTTPS (DOH_URL) and proves the domain when the value is there. One domain belongs to one
 * company: a domain another company proved cannot be added or proved (ID0431), and of two proving in parallel one
 * wins (the unique index). Every change is an audit row with the company as target (its trail and the operators').
 * The connection is connections.ts, sign-in through it federation.ts (README "Company identity providers").
 */

export interface DomainCaller extends Asker {
  db: D1Database;
  env: object;
  network: string;
  at: number;
  lang: Lang;
}

export const recordNameOf = (domain: string) => `${DOMAIN_RECORD_PREFIX}.${domain}`;
const recordValueOf = (row: Pick<DomainRow, 'token'>) => `${DOMAIN_RECORD_VALUE_PREFIX}${row.token}`;

const view = (row: DomainRow): CompanyDomain => ({
  domain: row.domain,
  state: row.proved_at !== null ? 'proved' : 'pending',
  recordName: recordNameOf(row.domain),
  recordValue: recordValueOf(row),
  createdAt: row.created_at,
  checkedAt: row.checked_at,
  provedAt: row.proved_at,
  connectionId: row.connection_id,
});

const auditOf = (caller: DomainCaller, companyId: string, action: 'company.domain_added' | 'company.domain_proved' | 'company.domain_removed' | 'company.domain_routed', domain: string, detail: Record<string, unknown> = {}) =>
  auditStatement(caller.db, { at: caller.at, actor: { kind: 'user', id: caller.userId }, action, target: { kind: 'company', id: companyId }, network: caller.network, detail: { domain, ...detail } }, { ifChanged: true });

export async function listDomains(caller: DomainCaller, companyId: string): Promise<CompanyDomain[]> {
  await companyAuthority(caller.db, caller, companyId, 'manage');
  return (await domainsOf(caller.db, companyId)).map(view);
}

/** Adds a domain to prove (or answers the live claim again: adding twice is one claim). */
export async function addDomain(caller: DomainCaller, companyId: string, domain: string): Promise<CompanyDomain> {
  await companyAuthority(caller.db, caller, companyId, 'manage');
  const existing = await liveClaim(caller.db, companyId, domain);
  if (existing) return view(existing);
  const owner = await domainOwner(caller.db, domain);
  if (owner && owner.company_id !== companyId) throw new GatewayError(ERR.DOMAIN_OF_ANOTHER_COMPANY);
  const row = { id: randomToken(), company_id: companyId, domain, token: randomToken(), created_by: caller.userId, created_at: caller.at };
  const [inserted] = await runBatch(caller.db, [insertClaimStatement(caller.db, row, caller.mfaCompanyId), auditOf(caller, companyId, 'company.domain_added', domain)]);
  if (inserted?.results.length) return view(inserted.results[0] as DomainRow);
  // Nothing written: a parallel add of the same claim won (read it back), or another company proved it meanwhile.
  const now = await liveClaim(caller.db, companyId, domain);
  if (now) return view(now);
  throw new GatewayError(ERR.DOMAIN_OF_ANOTHER_COMPANY);
}

/** Reads the TXT record now; proves the domain when its value is there. */
export async function checkDomain(caller: DomainCaller, companyId: string, domain: string): Promise<CompanyDomain> {
  await companyAuthority(caller.db, caller, companyId, 'manage');
  const claim = await liveClaim(caller.db, companyId, domain);
  if (!claim) throw new GatewayError(ERR.DOMAIN_NOT_CLAIMED);
  if (claim.proved_at !== null) return view(claim);
  const owner = await domainOwner(caller.db, domain);
  if (owner) throw new GatewayError(ERR.DOMAIN_OF_ANOTHER_COMPANY);
  const records = await txtRecords(configOf(caller.env).dohUrl, recordNameOf(domain));
  if (records === 'unreachable') throw new GatewayError(ERR.DOMAIN_DNS_UNREACHABLE);
  if (!records.includes(recordValueOf(claim))) {
    await checkedStatement(caller.db, claim.id, caller.at).run();
    throw new GatewayError(ERR.DOMAIN_RECORD_NOT_FOUND);
  }
  // A second owner breaks the unique index: the proof and its audit row land together or not at all.
  await runBatch(caller.db, [proveStatement(caller.db, claim.id, caller, caller.at), auditOf(caller, companyId, 'company.domain_proved', domain)], (error) =>
    isUniqueViolation(error) ? new GatewayError(ERR.DOMAIN_OF_ANOTHER_COMPANY) : null,
  );
  const after = await liveClaim(caller.db, companyId, domain);
  if (!after || after.proved_at === null) throw new GatewayError(ERR.DOMAIN_OF_ANOTHER_COMPANY);
  return view(after);
}

/**
 * Removes a domain, proved or not (a fresh proof first, routes.ts). At once: /login no longer offers "Continue with"
 * for its e-mails, an SSO-only rule no longer covers them, and the provider admits nobody with it (every such
 * query reads live, proved claims only: db.ts). The removal and its audit row land together; removing again is
 * DOMAIN_NOT_CLAIMED. The domain may be claimed again later, by this company or another, with a new record.
 */
export async function removeDomain(caller: DomainCaller, companyId: string, domain: string): Promise<CompanyDomain[]> {
  await companyAuthority(caller.db, caller, companyId, 'manage');
  const claim = await liveClaim(caller.db, companyId, domain);
  if (!claim) throw new GatewayError(ERR.DOMAIN_NOT_CLAIMED);
  const [removed] = await runBatch(caller.db, [removeClaimStatement(caller.db, claim.id, caller, caller.at), auditOf(caller, companyId, 'company.domain_removed', domain, { wasProved: claim.proved_at !== null })]);
  if (!removed?.results.length) {
    // Nothing written: the caller lost the right meanwhile (said by companyAuthority), or a parallel removal won.
    await companyAuthority(caller.db, caller, companyId, 'manage');
    throw new GatewayError(ERR.DOMAIN_NOT_CLAIMED);
  }
  return (await domainsOf(caller.db, companyId)).map(view);
}

/**
 * Routes a domain (a live claim of the company) to one of the company's connections (a fresh proof first, routes.ts):
 * from then on its people are offered, started and admitted through that provider only. ID0613 for a connection
 * that is not the company's.
 */
export async function setDomainConnection(caller: DomainCaller, companyId: string, domain: string, connectionId: string): Promise<CompanyDomain[]> {
  await companyAuthority(caller.db, caller, companyId, 'manage');
  const claim = await liveClaim(caller.db, companyId, domain);
  if (!claim) throw new GatewayError(ERR.DOMAIN_NOT_CLAIMED);
  const [routed] = await runBatch(caller.db, [domainConnectionStatement(caller.db, claim.id, connectionId, caller), auditOf(caller, companyId, 'company.domain_routed', domain, { connectionId })]);
  if (!routed?.results.length && claim.connection_id !== connectionId) {
    await companyAuthority(caller.db, caller, companyId, 'manage');
    throw new GatewayError(ERR.SSO_NOT_CONNECTED);
  }
  return (await domainsOf(caller.db, companyId)).map(view);
}
