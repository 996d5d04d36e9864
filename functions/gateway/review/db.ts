import { auditStatement, type AuditEntry } from '../audit/db';
import { emitEvent } from '../events/db';
import type { CompanyRow } from '../companies/db';
import { suspendGrantsWithBlockStatement } from '../grants/db';

/**
 * The SQL of company review (migration 0150): the queue, and decisions as one conditional UPDATE each.
 */

export type ReviewedCompanyRow = CompanyRow;

export interface QueueFilter {
  /** Stored statuses to list (none: every status). */
  statuses: readonly string[];
  /** Matched against both names and the credit code, letter case ignored. */
  text?: string;
  countryId?: string;
  type?: string;
  limit: number;
  offset: number;
}

/** `%`, `_` and `\` match themselves in a LIKE ... ESCAPE '\' pattern. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** Companies matching the filter, newest first, and how many match in all. */
export async function reviewQueue(db: D1Database, filter: QueueFilter): Promise<{ rows: ReviewedCompanyRow[]; total: number }> {
  const where: string[] = [];
  const values: unknown[] = [];
  if (filter.statuses.length) {
    where.push(`status IN (${filter.statuses.map(() => '?').join(', ')})`);
    values.push(...filter.statuses);
  }
  if (filter.text) {
    where.push("(lower(name_en) LIKE ? ESCAPE '\\' OR lower(coalesce(name_cn, '')) LIKE ? ESCAPE '\\' OR lower(coalesce(social_credit, '')) LIKE ? ESCAPE '\\')");
    const pattern = likePattern(filter.text);
    values.push(pattern, pattern, pattern);
  }
  if (filter.countryId) {
    where.push('country_id = ?');
    values.push(filter.countryId.toUpperCase());
  }
  if (filter.type) {
    where.push('type = ?');
    values.push(filter.type);
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const [page, count] = await db.batch([
    db.prepare(`SELECT * FROM companies ${clause} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`).bind(...values, filter.limit, filter.offset),
    db.prepare(`SELECT COUNT(*) AS total FROM companies ${clause}`).bind(...values),
  ]);
  return { rows: (page?.results ?? []) as ReviewedCompanyRow[], total: Number((count?.results?.[0] as { total: number } | undefined)?.total ?? 0) };
}

export async function reviewedCompanyById(db: D1Database, id: string): Promise<ReviewedCompanyRow | null> {
  return db.prepare('SELECT * FROM companies WHERE id = ?').bind(id).first<ReviewedCompanyRow>();
}

export interface Decision {
  companyId: string;
  /** The stored status the operator saw; the decision acts only while the company still has it. */
  expected: string;
  /** The stored status it leads to; null: the status the block interrupted (unblock). */
  to: string | null;
  reason: string | null;
  note: string | null;
  at: number;
  /** The audit row, written only by the decision that changed the company. */
  audit: AuditEntry;
  /**
   * A block suspends the company's grants with other companies in the same batch (issue 42), recorded as
   * `company.grants_suspended` with this reason; grants already suspended stay as they were.
   */
  grantsReason?: string;
}

/**
 * Applies a decision in one batch: the conditional UPDATE from the expected status, then its audit row, then
 * (for a block or an expiry) the company taken out of every session that had entered it. The statements after
 * the UPDATE act only while the row carries this decision's write id, so of any number of parallel decisions
 * exactly one changes the company and writes a row. Returns whether this one did.
 */
export async function applyDecision(db: D1Database, decision: Decision): Promise<boolean> {
  const writeId = crypto.randomUUID();
  const closes = decision.to === 'blocked' || decision.to === 'expired';
  const [updated] = await db.batch([
    db
      .prepare(
        `UPDATE companies SET
           status = CASE WHEN ?3 IS NULL THEN coalesce(status_before_block, 'approving') ELSE ?3 END,
           status_before_block = CASE WHEN ?3 = 'blocked' THEN status ELSE NULL END,
           review_reason = ?4, review_note = ?5, reviewed_at = ?6, updated_at = ?6, write_id = ?7
         WHERE id = ?1 AND status = ?2`,
      )
      .bind(decision.companyId, decision.expected, decision.to, decision.reason, decision.note, decision.at, writeId),
    // Right after the UPDATE: written only when the UPDATE won.
    auditStatement(db, decision.audit, { ifChanged: true }),
    // The company's endpoints hear it, in the same batch (webhooks/events-db.ts); each only when the change won.
    emitEvent(db, { type: 'company.verification_changed', at: decision.at, companyId: decision.companyId, data: { companyId: decision.companyId, status: decision.to ?? 'restored', action: decision.audit.action } }, { ifChanged: true }),
    ...(decision.to === 'blocked' ? [emitEvent(db, { type: 'company.blocked', at: decision.at, companyId: decision.companyId, data: { companyId: decision.companyId } }, { ifChanged: true })] : []),
    ...(closes
      ? [
          db
            .prepare(
              `UPDATE sessions SET current_company_id = NULL
               WHERE current_company_id = ?1 AND EXISTS (SELECT 1 FROM companies WHERE id = ?1 AND write_id = ?2)`,
            )
            .bind(decision.companyId, writeId),
        ]
      : []),
    ...(decision.to === 'blocked'
      ? [
          suspendGrantsWithBlockStatement(db, decision.companyId, writeId, { at: decision.at, reason: decision.grantsReason ?? decision.audit.reason ?? 'blocked' }),
          auditStatement(db, { ...decision.audit, action: 'company.grants_suspended', reason: decision.grantsReason ?? decision.audit.reason, detail: { with: 'company.blocked' } }, { ifChanged: true }),
        ]
      : []),
  ]);
  return Boolean(updated?.meta.changes);
}

export interface CompanyEdit {
  companyId: string;
  /** `updated_at` as the operator saw it (null: never updated). */
  expectedUpdatedAt: number | null;
  nameEn: string;
  nameCn: string | null;
  nameKey: string;
  socialCredit: string;
  /** An overseas company's numbers (issue 42), as they are to be: unchanged ones carry the stored value. */
  imoCompanyNumber: string | null;
  nationalRegistryNumber: string | null;
  at: number;
  /** The audit row (`company.edited`), written only when the edit changed the company. */
  audit: AuditEntry;
}

/**
 * The operator's correction of a company in one batch: one conditional UPDATE, acting only while the company is as
 * the operator saw it (`updated_at`) and no other company of its type holds the name, then its audit row. The new
 * `updated_at` is always later than the old, so a second edit from the same view loses. Returns whether it won.
 */
export async function applyCompanyEdit(db: D1Database, edit: CompanyEdit): Promise<boolean> {
  const [updated] = await db.batch([
    db
      .prepare(
        `UPDATE companies SET name_en = ?3, name_cn = ?4, name_key = ?5, social_credit = ?6,
           imo_company_number = ?8, national_registry_number = ?9,
           updated_at = max(?7, coalesce(updated_at, 0) + 1)
         WHERE id = ?1 AND coalesce(updated_at, -1) = coalesce(?2, -1)
           AND NOT EXISTS (SELECT 1 FROM companies o WHERE o.name_key = ?5 AND o.type = companies.type AND o.id <> ?1)`,
      )
      .bind(edit.companyId, edit.expectedUpdatedAt, edit.nameEn, edit.nameCn, edit.nameKey, edit.socialCredit, edit.at, edit.imoCompanyNumber, edit.nationalRegistryNumber),
    auditStatement(db, edit.audit, { ifChanged: true }),
  ]);
  return Boolean(updated?.meta.changes);
}

