import { auditStatement, type AuditEntry } from '../audit/db';
import type { VesselRelation } from '../../../src/schemas/grants';

/** The SQL of a company's vessels (migrations/0410): declared by its administrators, removed by them. */

export interface VesselRow {
  id: string;
  imo: string;
  company_id: string;
  name: string;
  relation: VesselRelation;
  starts_on: string | null;
  ends_on: string | null;
  declared_by: string;
  created_at: number;
  removed_at: number | null;
}

export interface NewVessel {
  id: string;
  imo: string;
  companyId: string;
  name: string;
  relation: VesselRelation;
  startsOn: string | null;
  endsOn: string | null;
  declaredBy: string;
  at: number;
}

/**
 * The INSERT of a declaration with its audit row. The unique indexes refuse a second live owner or manager of
 * the IMO number, and the same relation twice for one company: the INSERT then does nothing (OR IGNORE) and the
 * audit row, written only if it did, neither.
 */
export function declareStatements(db: D1Database, vessel: NewVessel, audit: Omit<AuditEntry, 'action' | 'target'>): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `INSERT OR IGNORE INTO vessels (id, imo, company_id, name, relation, starts_on, ends_on, declared_by, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(vessel.id, vessel.imo, vessel.companyId, vessel.name, vessel.relation, vessel.startsOn, vessel.endsOn, vessel.declaredBy, vessel.at),
    auditStatement(db, { ...audit, action: 'vessel.declared', target: { kind: 'company', id: vessel.companyId } }, { ifChanged: true }),
  ];
}

export const vesselById = (db: D1Database, id: string) => db.prepare('SELECT * FROM vessels WHERE id = ?').bind(id).first<VesselRow>();

/** The company holding the role now (owner or manager), when another company declared it first. */
export function liveHolder(db: D1Database, imo: string, relation: VesselRelation) {
  return db.prepare('SELECT company_id FROM vessels WHERE imo = ? AND relation = ? AND removed_at IS NULL').bind(imo, relation).first<{ company_id: string }>();
}

/** The company's own live declaration of this IMO number in this relation, if any. */
export function ownDeclaration(db: D1Database, companyId: string, imo: string, relation: VesselRelation) {
  return db.prepare('SELECT * FROM vessels WHERE company_id = ? AND imo = ? AND relation = ? AND removed_at IS NULL').bind(companyId, imo, relation).first<VesselRow>();
}

/** A second claim of an owner or manager: a task for the operators, once per claimant, role and IMO number. */
export function claimStatements(
  db: D1Database,
  claim: { id: string; imo: string; relation: VesselRelation; name: string; claimant: string; holder: string | null; by: string; at: number },
  audit: Omit<AuditEntry, 'action' | 'target'>,
): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `INSERT OR IGNORE INTO vessel_claims (id, imo, relation, name, claimant_company_id, holder_company_id, created_by, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(claim.id, claim.imo, claim.relation, claim.name, claim.claimant, claim.holder, claim.by, claim.at),
    auditStatement(db, { ...audit, action: 'vessel.disputed', target: { kind: 'company', id: claim.claimant }, detail: { imo: claim.imo, relation: claim.relation, holder: claim.holder } }, { ifChanged: true }),
  ];
}

export async function vesselsOfCompany(db: D1Database, companyId: string): Promise<VesselRow[]> {
  const { results } = await db.prepare('SELECT * FROM vessels WHERE company_id = ? AND removed_at IS NULL ORDER BY created_at, imo').bind(companyId).all<VesselRow>();
  return results;
}

/** Removes a live vessel of the company, with its audit row only if it was removed. */
export function removeStatements(db: D1Database, companyId: string, vesselId: string, audit: Omit<AuditEntry, 'action' | 'target'>): D1PreparedStatement[] {
  return [
    db.prepare('UPDATE vessels SET removed_at = ? WHERE id = ? AND company_id = ? AND removed_at IS NULL').bind(audit.at, vesselId, companyId),
    auditStatement(db, { ...audit, action: 'vessel.removed', target: { kind: 'company', id: companyId } }, { ifChanged: true }),
  ];
}

export interface ClaimRow {
  id: string;
  imo: string;
  relation: VesselRelation;
  name: string;
  claimant_company_id: string;
  holder_company_id: string | null;
  created_at: number;
}

/** Open claims that involve the company (as claimant or holder), for the operators' company page. */
export async function openClaimsOf(db: D1Database, companyId: string): Promise<ClaimRow[]> {
  const { results } = await db
    .prepare('SELECT * FROM vessel_claims WHERE resolved_at IS NULL AND (claimant_company_id = ?1 OR holder_company_id = ?1) ORDER BY created_at')
    .bind(companyId)
    .all<ClaimRow>();
  return results;
}

/**
 * The IMO numbers among `imos` that the company owns, manages or charters for every day from `from` to `to`
 * (yyyy-mm-dd): what it may grant another company.
 */
export async function heldVessels(db: D1Database, companyId: string, imos: readonly string[], from: string, to: string): Promise<Set<string>> {
  if (!imos.length) return new Set();
  const { results } = await db
    .prepare(
      `SELECT DISTINCT imo FROM vessels WHERE company_id = ?1 AND removed_at IS NULL AND imo IN (SELECT value FROM json_each(?2))
         AND (relation IN ('owner', 'manager') OR (relation = 'charterer' AND starts_on <= ?3 AND ends_on >= ?4))`,
    )
    .bind(companyId, JSON.stringify(imos), from, to)
    .all<{ imo: string }>();
  return new Set(results.map((row) => row.imo));
}
