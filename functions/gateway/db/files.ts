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

export function insertFileStatement(db: D1Database, file: NewFile): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO files (id, owner_user_id, kind, r2_key, extension, content_type, origin_name, size, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(file.id, file.owner_user_id, file.kind, file.r2_key, file.extension, file.content_type, file.origin_name, file.size, file.created_at);
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
