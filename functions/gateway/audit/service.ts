import { AUDIT_PAGE_SIZE, type AuditPage, type AuditQueryInput } from '../../../src/schemas/ops-people';
import { idsNamedBy, listAudit, operatorNamesOf, partiesOf } from './db';

/** One page of the audit trail as the console shows it (every operator role): newest first, `next` for the page after. */
export async function auditPage(db: D1Database, query: AuditQueryInput): Promise<AuditPage> {
  // A filter takes an id, or a person's name, phone or e-mail, or a company's or operator's name (issue 33).
  const [actorIds, targetIds] = await Promise.all([query.actor ? idsNamedBy(db, query.actor) : undefined, query.target ? idsNamedBy(db, query.target) : undefined]);
  const rows = await listAudit(db, {
    actorIds,
    targetIds,
    action: query.action,
    from: query.from,
    to: query.to,
    before: query.before,
    limit: AUDIT_PAGE_SIZE + 1,
  });
  const page = rows.slice(0, AUDIT_PAGE_SIZE);
  const [actorName, parties] = await Promise.all([operatorNamesOf(db, page), partiesOf(db, page)]);
  return {
    entries: page.map((r) => ({
      id: r.id,
      at: r.created_at,
      actorKind: r.actor_kind,
      actorId: r.actor_id,
      actorName: actorName(r),
      actorParty: r.actor_kind === 'user' && r.actor_id ? (parties.get(r.actor_id) ?? null) : null,
      action: r.action,
      targetKind: r.target_kind,
      targetId: r.target_id,
      targetParty: r.target_id ? (parties.get(r.target_id) ?? null) : null,
      reason: r.reason,
      network: r.network,
      detail: r.detail,
    })),
    next: rows.length > AUDIT_PAGE_SIZE ? page.at(-1)!.id : null,
  };
}
