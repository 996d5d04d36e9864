import type { DeclareVesselAnswer, DeclareVesselRequest, Vessel } from '../../../src/schemas/grants';
import { imoDigits, imoProblem } from '../../../src/lib/imo';
import { companyAuthority } from '../authority/service';
import { runBatch } from '../identity/db/batch';
import { GatewayError } from '../errors';
import { ERR } from '../../../src/schemas/error-codes';
import { claimStatements, declareStatements, heldVessels, liveHolder, ownDeclaration, removeStatements, vesselById, vesselsOfCompany, type VesselRow } from './db';
import type { Asker } from '../authority/db';

/**
 * A company's vessels (issue 41): its administrators declare a vessel by IMO ship number with the company's
 * relation to it (owner, manager, operator, or charterer for given days) and remove it. An IMO number has at most
 * one live owner and one live manager: a second claim is not written over the first, it becomes a task for the
 * operators with both companies named. Every change is an audit row of the company.
 */

export interface VesselCaller extends Asker {
  db: D1Database;
  network: string;
  at: number;
}

export const vesselView = (row: VesselRow): Vessel => ({
  id: row.id,
  imo: row.imo,
  name: row.name,
  relation: row.relation,
  startsOn: row.starts_on,
  endsOn: row.ends_on,
  createdAt: row.created_at,
});

/** The seven digits of a valid IMO number; DG0001 (not one in form) or DG0002 (check digit) on the field `path`. */
export function checkedImo(input: string, path: string): string {
  const problem = imoProblem(input);
  if (problem) throw new GatewayError(problem.kind === 'form' ? ERR.VESSEL_IMO_INVALID : ERR.VESSEL_IMO_CHECK_DIGIT, { path, ...(problem.kind === 'checkDigit' ? { expected: problem.expected } : {}) });
  return imoDigits(input)!;
}

export async function declareVessel(caller: VesselCaller, request: DeclareVesselRequest): Promise<DeclareVesselAnswer> {
  await companyAuthority(caller.db, caller, request.companyId, 'manage');
  const imo = checkedImo(request.imo, 'imo');
  if (!request.name) throw new GatewayError(ERR.VESSEL_NAME_MISSING, { path: 'name' });
  const charter = request.relation === 'charterer';
  if (charter && (!request.startsOn || !request.endsOn)) throw new GatewayError(ERR.CHARTER_DATES_MISSING, { path: request.startsOn ? 'endsOn' : 'startsOn' });
  if (charter && request.startsOn! > request.endsOn!) throw new GatewayError(ERR.GRANT_DATES_INVALID, { path: 'endsOn' });
  const audit = { at: caller.at, actor: { kind: 'user' as const, id: caller.userId }, network: caller.network };
  const vessel = {
    id: crypto.randomUUID(),
    imo,
    companyId: request.companyId,
    name: request.name,
    relation: request.relation,
    startsOn: charter ? request.startsOn! : null,
    endsOn: charter ? request.endsOn! : null,
    declaredBy: caller.userId,
    at: caller.at,
  };
  const [inserted] = await runBatch(caller.db, declareStatements(caller.db, vessel, { ...audit, detail: { imo, relation: request.relation } }));
  if (inserted!.meta.changes === 1) return { vessel: vesselView((await vesselById(caller.db, vessel.id))!), disputed: false };
  // Refused by a unique index: the company's own declaration again (a double click), or another company's role.
  const own = await ownDeclaration(caller.db, request.companyId, imo, request.relation);
  if (own) return { vessel: vesselView(own), disputed: false };
  const holder = await liveHolder(caller.db, imo, request.relation);
  await runBatch(caller.db, claimStatements(caller.db, { id: crypto.randomUUID(), imo, relation: request.relation, name: request.name, claimant: request.companyId, holder: holder?.company_id ?? null, by: caller.userId, at: caller.at }, audit));
  return { vessel: null, disputed: true };
}

export async function companyVessels(caller: VesselCaller, companyId: string): Promise<Vessel[]> {
  await companyAuthority(caller.db, caller, companyId, 'manage');
  return (await vesselsOfCompany(caller.db, companyId)).map(vesselView);
}

export async function removeVessel(caller: VesselCaller, companyId: string, vesselId: string): Promise<void> {
  await companyAuthority(caller.db, caller, companyId, 'manage');
  const vessel = await vesselById(caller.db, vesselId);
  const [removed] = await runBatch(caller.db, removeStatements(caller.db, companyId, vesselId, { at: caller.at, actor: { kind: 'user', id: caller.userId }, network: caller.network, detail: { imo: vessel?.imo ?? null } }));
  if (removed!.meta.changes !== 1) throw new GatewayError(ERR.VESSEL_NOT_FOUND);
}

/** The IMO numbers among `imos` the company owns, manages or charters on every day from `from` to `to`. */
export const vesselsHeld = (db: D1Database, companyId: string, imos: readonly string[], from: string, to: string) => heldVessels(db, companyId, imos, from, to);
export { openClaimsOf, vesselsOfCompany } from './db';
