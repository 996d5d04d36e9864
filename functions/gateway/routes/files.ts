import { Hono } from 'hono';
import { deleteFileRequest, fileUrl, UPLOAD_FIELD, uploadKindSchema, type UploadedFile, type UploadKind } from '../../../src/schemas/onboarding';
import type { WorkerEnv } from '../../env';
import { readJson } from '../body';
import { memberOf } from '../db/companies';
import { fileById, filesByIds, insertFileStatement, type NewFile } from '../db/files';
import { GatewayError, ok } from '../errors';
import { now } from '../services/clock';
import { requireSession, type SessionVariables } from '../services/sessions';
import { multipartBoundary, readMultipart, sanitiseFileName, sniffType, UPLOAD_BODY_LIMITS } from '../services/uploads';

/**
 * Uploads in R2 (env.UPLOADS) with rows in D1 (migrations/0005). Security baseline "Uploads":
 * - the body is read as a stream and refused at the first file over 6 MB (FL0002), the eleventh file (FL0003),
 *   or past 10 × 6 MB + 64 KB in all; Content-Length and the parts' Content-Type are never trusted;
 * - every file's type comes from its bytes and must agree with its extension (FL0001);
 * - nothing reaches R2 until every file of the request passed; a failure while writing deletes what was written;
 * - keys are server-generated; the original name is sanitised metadata;
 * - a file is served only to its uploader or the active members of the company it is attached to, as an
 *   attachment with nosniff; anyone else gets FL0010 exactly like a missing file.
 */

type FileEnv = { Bindings: WorkerEnv; Variables: SessionVariables };

/** RFC 6266 Content-Disposition with an ASCII fallback and the UTF-8 name. */
function attachmentHeader(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export const fileRoutes = new Hono<FileEnv>()
  .use('/agg-web/file/*', requireSession)

  .post('/agg-web/file/uploadFile', async (c) => {
    const boundary = multipartBoundary(c.req.header('content-type'));
    if (!boundary) throw new GatewayError('GW0415');
    const parts = await readMultipart(c.req.raw.body, boundary, UPLOAD_BODY_LIMITS);
    const kindField = parts.find((p) => p.fileName === null && p.name === 'kind');
    const kindParsed = uploadKindSchema.safeParse(kindField ? new TextDecoder().decode(kindField.data).trim() : 'licence');
    if (!kindParsed.success) throw new GatewayError('GW0400', [{ path: 'kind', message: 'licence, gtc or logo' }]);
    const kind: UploadKind = kindParsed.data;
    const fileParts = parts.filter((p) => p.fileName !== null && p.name === UPLOAD_FIELD);
    if (fileParts.length === 0) throw new GatewayError('FL0004');

    const userId = c.var.user.id;
    const at = now(c);
    // Every file is checked before any byte is written.
    const accepted = fileParts.map((part) => {
      const originName = sanitiseFileName(part.fileName ?? '');
      const type = sniffType(part.data, part.fileName ?? '', kind);
      if (!type) throw new GatewayError('FL0001', { originName });
      const file: NewFile = {
        id: crypto.randomUUID(),
        owner_user_id: userId,
        kind,
        r2_key: `uploads/${crypto.randomUUID()}`,
        extension: type.extension,
        content_type: type.contentType,
        origin_name: originName,
        size: part.data.byteLength,
        created_at: at,
      };
      return { file, data: part.data };
    });

    const written: string[] = [];
    try {
      for (const { file, data } of accepted) {
        await c.env.UPLOADS.put(file.r2_key, data, {
          httpMetadata: { contentType: file.content_type },
          customMetadata: { fileId: file.id, owner: userId, originName: file.origin_name },
        });
        written.push(file.r2_key);
      }
      await c.env.DB.batch(accepted.map(({ file }) => insertFileStatement(c.env.DB, file)));
    } catch (error) {
      if (written.length) await c.env.UPLOADS.delete(written).catch(() => {});
      throw error;
    }
    const answer: UploadedFile[] = accepted.map(({ file }) => ({
      id: file.id,
      url: fileUrl(file.id),
      extension: file.extension,
      originName: file.origin_name,
    }));
    return ok(c, answer);
  })

  .post('/agg-web/file/deleteFile', async (c) => {
    const { ids } = await readJson(c, deleteFileRequest);
    const unique = [...new Set(ids)];
    const rows = await filesByIds(c.env.DB, unique);
    const mine = rows.filter((row) => row.owner_user_id === c.var.user.id);
    if (mine.length !== unique.length) throw new GatewayError('FL0010');
    if (mine.some((row) => row.company_id !== null)) throw new GatewayError('FL0011');
    // Rows first: a stray R2 object is harmless, a row without its bytes is not.
    const results = await c.env.DB.batch(
      mine.map((row) => c.env.DB.prepare('DELETE FROM files WHERE id = ? AND owner_user_id = ? AND company_id IS NULL').bind(row.id, c.var.user.id)),
    );
    const deleted = mine.filter((_, i) => results[i]?.meta.changes);
    if (deleted.length) await c.env.UPLOADS.delete(deleted.map((row) => row.r2_key));
    return ok(c, true);
  })

  .get('/agg-web/file/:id', async (c) => {
    const id = c.req.param('id');
    if (id.length > 64) throw new GatewayError('FL0010');
    const row = await fileById(c.env.DB, id);
    const userId = c.var.user.id;
    let allowed = row?.owner_user_id === userId;
    if (row && !allowed && row.company_id) {
      const member = await memberOf(c.env.DB, row.company_id, userId);
      allowed = member?.status === 'active';
    }
    const object = row && allowed ? await c.env.UPLOADS.get(row.r2_key) : null;
    if (!row || !object) throw new GatewayError('FL0010');
    return new Response(object.body as ReadableStream, {
      headers: {
        'Content-Type': row.content_type,
        'Content-Length': String(row.size),
        'Content-Disposition': attachmentHeader(row.origin_name),
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'private, no-store',
        'Content-Security-Policy': "default-src 'none'; sandbox",
      },
    });
  });
