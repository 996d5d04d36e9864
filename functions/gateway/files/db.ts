import type { UploadKind } from '../../../src/schemas/onboarding';

/** An uploaded file (migrations/0005): bytes in R2 under r2_key, owned by the uploader until a company attaches it. */
export interface FileRow {
  id: string;
  owner_user_id: string;
  company_id: string | null;
  purpose: UploadKind | null;
  kind: UploadKind;
  r2_key: string;
  extension: string;
  content_type: string;
  origin_name: string;
  size: number;
  created_at: number;
}

export type NewFile = Omit<FileRow, 'company_id' | 'purpose'>;

const FILE_COLUMNS = ['id', 'owner_user_id', 'kind', 'r2_key', 'extension', 'content_type', 'origin_name', 'size', 'created_at'] as const;

/**
 * Inserts the uploads unless the owner's unattached files would then exceed `maxPendingBytes`: one statement,
 * so parallel uploads cannot all pass the cap. Returns whether the rows were inserted (all or none).
 */
export async function insertFilesWithinQuota(db: D1Database, ownerId: string, files: readonly NewFile[], maxPendingBytes: number): Promise<boolean> {
  const rows = files.map((_, i) => `(${FILE_COLUMNS.map((__, j) => `?${4 + i * FILE_COLUMNS.length + j}`).join(', ')})`);
  const added = files.reduce((total, file) => total + file.size, 0);
  const inserted = await db
    .prepare(
      `INSERT INTO files (${FILE_COLUMNS.join(', ')})
       SELECT * FROM (VALUES ${rows.join(', ')})
       WHERE (SELECT COALESCE(SUM(size), 0) FROM files WHERE owner_user_id = ?1 AND company_id IS NULL) + ?2 <= ?3`,
    )
    .bind(ownerId, added, maxPendingBytes, ...files.flatMap((file) => FILE_COLUMNS.map((column) => file[column])))
    .run();
  return inserted.meta.changes === files.length;
}

/** Deletes the owner's files that are still unattached; returns the ones deleted. */
export async function deleteUnattachedFiles(db: D1Database, ownerId: string, files: readonly FileRow[]): Promise<FileRow[]> {
  const results = await db.batch(
    files.map((row) => db.prepare('DELETE FROM files WHERE id = ? AND owner_user_id = ? AND company_id IS NULL').bind(row.id, ownerId)),
  );
  return files.filter((_, i) => results[i]?.meta.changes);
}

export async function fileById(db: D1Database, id: string): Promise<FileRow | null> {
  return db.prepare('SELECT * FROM files WHERE id = ?').bind(id).first<FileRow>();
}

export async function filesByIds(db: D1Database, ids: readonly string[]): Promise<FileRow[]> {
  if (ids.length === 0) return [];
  const { results } = await db
    .prepare(`SELECT * FROM files WHERE id IN (${ids.map(() => '?').join(', ')})`)
    .bind(...ids)
    .all<FileRow>();
  return results;
}

export async function filesOfCompany(db: D1Database, companyId: string): Promise<FileRow[]> {
  const { results } = await db
    .prepare('SELECT * FROM files WHERE company_id = ? ORDER BY created_at, rowid')
    .bind(companyId)
    .all<FileRow>();
  return results;
}
