/** Exports of a company's trail (migration 0450 audit_exports): the file is in R2, the row says whose and until when. */

export interface ExportRow {
  id: string;
  company_id: string;
  object_key: string;
  format: 'jsonl' | 'csv';
  row_count: number;
  created_at: number;
  expires_at: number;
}

export const insertExportStatement = (db: D1Database, row: ExportRow & { created_by: string }) =>
  db
    .prepare('INSERT INTO audit_exports (id, company_id, created_by, object_key, format, row_count, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    .bind(row.id, row.company_id, row.created_by, row.object_key, row.format, row.row_count, row.created_at, row.expires_at);

/** The company's export while it lasts, else null. */
export const liveExport = (db: D1Database, companyId: string, id: string, at: number) =>
  db.prepare('SELECT * FROM audit_exports WHERE id = ? AND company_id = ? AND expires_at > ?').bind(id, companyId, at).first<ExportRow>();

/** Exports past their end (the hourly prune removes them and their files). */
export const expiredExports = async (db: D1Database, at: number) =>
  (await db.prepare('SELECT id, object_key FROM audit_exports WHERE expires_at <= ? LIMIT 500').bind(at).all<{ id: string; object_key: string }>()).results;

export const deleteExportsStatement = (db: D1Database, ids: readonly string[]) =>
  db.prepare('DELETE FROM audit_exports WHERE id IN (SELECT value FROM json_each(?))').bind(JSON.stringify(ids));
