import { Hono } from 'hono';
import * as z from 'zod/mini';
import { deleteFileRequest, fileIdSchema, fileUrl, UPLOAD_FIELD, UPLOAD_LIMITS, uploadKindSchema, type UploadedFile } from '../../../src/schemas/onboarding';
import type { WorkerEnv } from '../../env';
import { standingIn, askerOf } from '../authority/service';
import { deleteUnattachedFiles, fileById, filesByIds, insertFilesWithinQuota, type NewFile } from './db';
import { GatewayError, ok } from '../errors';
import { now } from '../../contract';
import { requireSession } from '../sessions/service';
import { type SessionVariables } from '../identity/db/sessions';
import { fileResponse, sanitiseFileName, sniffType, streamedMultipart } from './service';
import { validate } from '../validate';
import { ERR } from '../../../src/schemas/error-codes';

/**
 * Uploads in R2 (env.UPLOADS) with rows in D1 (migrations/0005). Security baseline "Uploads":
 * - the body is read as a stream and refused at the first file over 6 MB (FL0002), the eleventh file (FL0003),
 *   or past 24 MB in all (FL0005: the request's memory); Content-Length and the parts' Content-Type are never trusted;
 * - an account's files not yet attached to a company hold at most 40 MB together (FL0006), checked and inserted
 *   in one statement so parallel uploads cannot pass it together;
 * - every file's type comes from its bytes and must agree with its extension (FL0001);
 * - nothing reaches R2 until every file of the request passed; a failure while writing deletes what was written;
 * - keys are server-generated; the original name is sanitised metadata;
 * - a file is served only to its uploader or the active members of the company it is attached to, as an
 *   attachment with nosniff; anyone else gets FL0010 exactly like a missing file (a member the company's
 *   two-step rule keeps out MF0021: authority/service.ts).
 */

type FileEnv = { Bindings: WorkerEnv; Variables: SessionVariables };

/** The multipart fields of uploadFile: `kind` (default 'licence') and one or more files in `files`. */
const uploadForm = z.object({
  kind: z._default(z.pipe(z.string().check(z.trim()), uploadKindSchema), 'licence'),
  [UPLOAD_FIELD]: z.pipe(
    z.union([z.instanceof(File), z.array(z.instanceof(File))]),
    z.transform((files: File | File[]) => (Array.isArray(files) ? files : [files])),
  ),
});

/** No file (or a `files` field that is not a file) is FL0004; a bad `kind` GW0400. */
const formCode = (issues: z.core.$ZodIssue[]) => (issues.some((issue) => issue.path[0] === UPLOAD_FIELD) ? ERR.FILE_MISSING : ERR.REQUEST_INVALID);

export const fileRoutes = new Hono<FileEnv>()
  .use('/agg-web/file/*', requireSession)

  .post('/agg-web/file/uploadFile', streamedMultipart, validate('form', uploadForm, { code: formCode }), async (c) => {
    const { kind, files } = c.req.valid('form');
    const userId = c.get('user').id;
    const at = now(c);
    // Every file is checked before any byte is written.
    const accepted: NewFile[] = [];
    for (const file of files) {
      const originName = sanitiseFileName(file.name);
      const type = sniffType(new Uint8Array(await file.arrayBuffer()), file.name, kind);
      if (!type) throw new GatewayError(ERR.FILE_TYPE_UNSUPPORTED, { originName });
      accepted.push({
        id: crypto.randomUUID(),
        owner_user_id: userId,
        kind,
        r2_key: `uploads/${crypto.randomUUID()}`,
        extension: type.extension,
        content_type: type.contentType,
        origin_name: originName,
        size: file.size,
        created_at: at,
      });
    }

    // Bytes first, then the rows under the account's storage cap; a refusal or failure deletes the bytes again.
    const written: string[] = [];
    try {
      for (const [i, row] of accepted.entries()) {
        await c.env.UPLOADS.put(row.r2_key, files[i]!, {
          httpMetadata: { contentType: row.content_type },
          customMetadata: { fileId: row.id, owner: userId, originName: row.origin_name },
        });
        written.push(row.r2_key);
      }
      if (!(await insertFilesWithinQuota(c.env.DB, userId, accepted, UPLOAD_LIMITS.maxPendingBytesPerAccount))) throw new GatewayError(ERR.UNUSED_FILES_TOO_LARGE);
    } catch (error) {
      if (written.length) await c.env.UPLOADS.delete(written).catch(() => {});
      throw error;
    }
    const answer: UploadedFile[] = accepted.map((row) => ({ id: row.id, url: fileUrl(row.id), extension: row.extension, originName: row.origin_name }));
    return ok(c, answer);
  })

  .post('/agg-web/file/deleteFile', validate('json', deleteFileRequest), async (c) => {
    const { ids } = c.req.valid('json');
    const unique = [...new Set(ids)];
    const rows = await filesByIds(c.env.DB, unique);
    const mine = rows.filter((row) => row.owner_user_id === c.get('user').id);
    if (mine.length !== unique.length) throw new GatewayError(ERR.FILE_NOT_FOUND);
    if (mine.some((row) => row.company_id !== null)) throw new GatewayError(ERR.FILE_OWNED_BY_COMPANY);
    // Rows first: a stray R2 object is harmless, a row without its bytes is not.
    const deleted = await deleteUnattachedFiles(c.env.DB, c.get('user').id, mine);
    if (deleted.length) await c.env.UPLOADS.delete(deleted.map((row) => row.r2_key));
    return ok(c, true);
  })

  .get('/agg-web/file/:id', validate('param', z.object({ id: fileIdSchema }), { code: ERR.FILE_NOT_FOUND }), async (c) => {
    const { id } = c.req.valid('param');
    const row = await fileById(c.env.DB, id);
    const userId = c.get('user').id;
    let allowed = row?.owner_user_id === userId;
    if (row && !allowed && row.company_id) {
      // The company's files go to those who may act in it now (authority/service.ts); a member the company's
      // two-step rule keeps out is told so (MF0021), anyone else gets FL0010 as for a missing file.
      const standing = await standingIn(c.env.DB, row.company_id, askerOf(c.get('session')));
      if (!standing.inside && standing.refusal === ERR.TWO_STEP_REQUIRED_BY_COMPANY) throw new GatewayError(standing.refusal);
      allowed = standing.inside;
    }
    const object = row && allowed ? await c.env.UPLOADS.get(row.r2_key) : null;
    if (!row || !object) throw new GatewayError(ERR.FILE_NOT_FOUND);
    return fileResponse(row, object, 'attachment');
  });
