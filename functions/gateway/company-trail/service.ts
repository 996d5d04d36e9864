import {
  COMPANY_AUDIT_PAGE,
  EXPORT_MAX_DAYS,
  EXPORT_MAX_ROWS,
  type AuditExportAnswer,
  type AuditExportRequest,
  type CompanyAuditPage,
  type CompanyAuditRow,
  type PersonalFields,
} from '../../../src/schemas/webhooks';
import { ERR } from '../../../src/schemas/error-codes';
import type { WorkerEnv } from '../../env';
import { auditStatement, companyTrailRows, operatorNamesOf, partiesOf, type AuditRow } from '../audit/db';
import { companyAuthority } from '../authority/service';
import { GatewayError } from '../errors';
import { runBatch } from '../identity/db/batch';
import { toHex } from '../identity/passwords';
import { protector, trailRow } from '../webhooks/personal';
import { deleteExportsStatement, expiredExports, insertExportStatement, liveExport } from './db';
import type { Asker } from '../authority/db';

/**
 * A company's own audit trail (issue 45): its administrators read it (authority/ 'manage'), page by page, with
 * phone numbers and e-mail addresses masked unless they ask otherwise, and export a period (fresh proof, at the
 * route) as JSON lines or CSV, built into R2 and readable by the company's administrators for 24 hours. The same
 * rows stream to the company's endpoints as `audit.*` events (migration 0450's trigger, webhooks/delivery.ts).
 */

export interface TrailCaller extends Asker {
  env: WorkerEnv;
  network: string;
  at: number;
}

const DAY_MS = 86_400_000;
const EXPORT_LIFETIME_MS = DAY_MS;
const READ_CHUNK = 1_000;

async function shaped(db: D1Database, rows: AuditRow[]): Promise<CompanyAuditRow[]> {
  const [parties, operatorName] = await Promise.all([partiesOf(db, rows), operatorNamesOf(db, rows)]);
  return rows.map((row) => trailRow(row, parties, operatorName));
}

export async function trailPage(caller: TrailCaller, companyId: string, before: number | undefined, fields: PersonalFields = 'masked'): Promise<CompanyAuditPage> {
  await companyAuthority(caller.env.DB, caller, companyId, 'manage');
  const rows = await companyTrailRows(caller.env.DB, companyId, { before, limit: COMPANY_AUDIT_PAGE + 1 });
  const page = rows.slice(0, COMPANY_AUDIT_PAGE);
  const protect = await protector(caller.env, companyId, fields);
  return { rows: await protect(await shaped(caller.env.DB, page)), next: rows.length > COMPANY_AUDIT_PAGE ? (page.at(-1)?.id ?? null) : null };
}

const CSV_COLUMNS = ['id', 'at', 'action', 'actor_kind', 'actor_id', 'actor_name', 'actor_phone', 'actor_email', 'target_kind', 'target_id', 'reason', 'network', 'detail'] as const;

/** RFC 4180 quoting; a cell a spreadsheet would run as a formula (=, +, -, @ first) starts with a ' instead. */
function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvLine = (row: CompanyAuditRow) =>
  [row.id, row.at, row.action, row.actor.kind, row.actor.id, row.actor.name, row.actor.phone, row.actor.email, row.target.kind, row.target.id, row.reason, row.network, row.detail]
    .map(csvCell)
    .join(',');

export async function exportTrail(caller: TrailCaller, request: AuditExportRequest): Promise<AuditExportAnswer> {
  await companyAuthority(caller.env.DB, caller, request.companyId, 'manage');
  if (request.to <= request.from || request.to - request.from > EXPORT_MAX_DAYS * DAY_MS) throw new GatewayError(ERR.AUDIT_EXPORT_RANGE_INVALID);
  const protect = await protector(caller.env, request.companyId, request.personalFields);
  const lines: string[] = request.format === 'csv' ? [CSV_COLUMNS.join(',')] : [];
  let before: number | undefined;
  let count = 0;
  for (;;) {
    const rows = await companyTrailRows(caller.env.DB, request.companyId, { from: request.from, to: request.to, before, limit: READ_CHUNK });
    count += rows.length;
    if (count > EXPORT_MAX_ROWS) throw new GatewayError(ERR.AUDIT_EXPORT_TOO_LARGE, { max: EXPORT_MAX_ROWS });
    for (const row of await protect(await shaped(caller.env.DB, rows))) lines.push(request.format === 'csv' ? csvLine(row) : JSON.stringify(row));
    if (rows.length < READ_CHUNK) break;
    before = rows.at(-1)!.id;
  }
  const id = `ax_${toHex(crypto.getRandomValues(new Uint8Array(12)))}`;
  const objectKey = `audit-exports/${request.companyId}/${id}.${request.format}`;
  const contentType = request.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8';
  // Byte order mark first for CSV, so a spreadsheet reads the Chinese names as UTF-8.
  await caller.env.UPLOADS.put(objectKey, `${request.format === 'csv' ? '\uFEFF' : ''}${lines.join('\n')}\n`, { httpMetadata: { contentType } });
  const expiresAt = caller.at + EXPORT_LIFETIME_MS;
  await runBatch(caller.env.DB, [
    insertExportStatement(caller.env.DB, { id, company_id: request.companyId, created_by: caller.userId, object_key: objectKey, format: request.format, row_count: count, created_at: caller.at, expires_at: expiresAt }),
    auditStatement(caller.env.DB, {
      at: caller.at,
      actor: { kind: 'user', id: caller.userId },
      action: 'company.audit_exported',
      target: { kind: 'company', id: request.companyId },
      network: caller.network,
      detail: { exportId: id, from: request.from, to: request.to, format: request.format, personalFields: request.personalFields, rows: count },
    }),
  ]);
  const query = new URLSearchParams({ companyId: request.companyId });
  return { id, url: `/api/agg-web/company/audit/exports/${id}?${query}`, rows: count, expiresAt };
}

/** The file, for any administrator of the company, until it expires; WH0007 after. */
export async function downloadExport(caller: TrailCaller, companyId: string, id: string): Promise<Response> {
  await companyAuthority(caller.env.DB, caller, companyId, 'manage');
  const row = await liveExport(caller.env.DB, companyId, id, caller.at);
  const object = row ? await caller.env.UPLOADS.get(row.object_key) : null;
  if (!row || !object) throw new GatewayError(ERR.AUDIT_EXPORT_GONE);
  const day = new Date(row.created_at).toISOString().slice(0, 10);
  return new Response(object.body, {
    headers: {
      'content-type': object.httpMetadata?.contentType ?? 'application/octet-stream',
      'content-disposition': `attachment; filename="company-activity-${day}.${row.format}"`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    },
  });
}

/** Removes exports past their 24 hours and their files (the hourly cron). */
export async function pruneExports(env: { DB: D1Database; UPLOADS: R2Bucket }, at: number): Promise<number> {
  const expired = await expiredExports(env.DB, at);
  if (!expired.length) return 0;
  await env.UPLOADS.delete(expired.map((row) => row.object_key));
  await deleteExportsStatement(env.DB, expired.map((row) => row.id)).run();
  return expired.length;
}
