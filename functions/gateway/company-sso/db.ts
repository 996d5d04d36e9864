import { mayManageSql } from '../authority/db';

/**
 * SQL of a company's proved e-mail domains (issue 43; rules in service.ts). Every write decides in its own
 * statement: the claim checks the administrator as it writes (authority/db.ts mayManageSql), and the proof is one
 * conditional UPDATE that the partial unique index `company_domains_one_owner` backs, so of two companies proving
 * one domain in parallel exactly one holds it.
 */

export interface DomainRow {
  id: string;
  company_id: string;
  domain: string;
  token: string;
  created_by: string;
  created_at: number;
  checked_at: number | null;
  proved_at: number | null;
  removed_at: number | null;
}

export async function domainsOf(db: D1Database, companyId: string): Promise<DomainRow[]> {
  const { results } = await db.prepare('SELECT * FROM company_domains WHERE company_id = ? AND removed_at IS NULL ORDER BY created_at, domain').bind(companyId).all<DomainRow>();
  return results;
}

export const liveClaim = (db: D1Database, companyId: string, domain: string) =>
  db.prepare('SELECT * FROM company_domains WHERE company_id = ? AND domain = ? AND removed_at IS NULL').bind(companyId, domain).first<DomainRow>();

/** The company that holds `domain` (proved, not removed), if any. */
export const domainOwner = (db: D1Database, domain: string) =>
  db.prepare('SELECT * FROM company_domains WHERE domain = ? AND proved_at IS NOT NULL AND removed_at IS NULL').bind(domain).first<DomainRow>();

/** A new claim, written only while the caller manages the company and nobody else holds the domain; RETURNING the row. */
export const insertClaimStatement = (db: D1Database, row: Pick<DomainRow, 'id' | 'company_id' | 'domain' | 'token' | 'created_by' | 'created_at'>) =>
  db
    .prepare(
      `INSERT INTO company_domains (id, company_id, domain, token, created_by, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6
       WHERE ${mayManageSql('?2', '?5')}
         AND NOT EXISTS (SELECT 1 FROM company_domains d WHERE d.domain = ?3 AND d.proved_at IS NOT NULL AND d.removed_at IS NULL)
       ON CONFLICT DO NOTHING
       RETURNING *`,
    )
    .bind(row.id, row.company_id, row.domain, row.token, row.created_by, row.created_at);

/** The claim proved (its TXT record seen), while the caller still manages the company; the unique index refuses a second owner. */
export const proveStatement = (db: D1Database, claimId: string, userId: string, at: number) =>
  db
    .prepare(
      `UPDATE company_domains SET proved_at = ?3, checked_at = ?3
       WHERE id = ?1 AND proved_at IS NULL AND removed_at IS NULL AND ${mayManageSql('company_domains.company_id', '?2')}`,
    )
    .bind(claimId, userId, at);

export const checkedStatement = (db: D1Database, claimId: string, at: number) => db.prepare('UPDATE company_domains SET checked_at = ?2 WHERE id = ?1').bind(claimId, at);
