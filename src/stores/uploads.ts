import { CONNECTION_ERROR, NETWORK_ERROR } from '../api/result';
import type { Problem } from '../i18n/problem';
import { contentTypeOfExtension, FILE_TYPES } from '../schemas/file-types';
import { IMAGE_EXTENSIONS, UPLOAD_EXTENSIONS, UPLOAD_LIMITS } from '../schemas/company-form-rules';
import type { UploadedFile, UploadKind } from '../schemas/onboarding';
import { loadOnce } from '../lib/load-once';

/**
 * The check of a picked file, the upload and delete calls and the page's own uploads load with the first file picked
 * (upload-calls.ts: not in the company form's first paint, issue 31); a failed load is said like a call without an
 * answer, and the next file tries again.
 */
const loadCalls = loadOnce(() => import('./upload-calls'));

const noConnection = (): Problem => ({ code: typeof navigator !== 'undefined' && !navigator.onLine ? NETWORK_ERROR : CONNECTION_ERROR });

/** The licence's rule, which an overseas company's registry evidence (issue 42) shares. */
const documents = { max: UPLOAD_LIMITS.maxLicenceFiles, extensions: UPLOAD_EXTENSIONS };
/** The files each upload field holds, and the rule it checks before uploading. */
export const uploadRules: Record<UploadKind, { max: number; extensions: readonly string[] }> = {
  licence: documents,
  gtc: { max: 1, extensions: UPLOAD_EXTENSIONS.filter((e) => e !== 'csv') },
  logo: { max: 1, extensions: IMAGE_EXTENSIONS },
  registryEvidence: documents,
};
/** The `accept` attribute of a field: extensions and MIME types. */
export const acceptFor = (kind: UploadKind) =>
  [...new Set(uploadRules[kind].extensions.flatMap((e) => [`.${e}`, contentTypeOfExtension(e) ?? '']))].filter(Boolean).join(',');

/** The upload module once loaded: until a file is picked there is nothing this page uploaded to keep or delete. */
let loaded: typeof import('./upload-calls') | undefined;

/**
 * Checks picked files (count here; type by name and MIME, and size, in upload-calls.ts) and uploads the good ones:
 * the files now held and the problems to show (none when all went well).
 */
export async function uploadFiles(
  kind: UploadKind,
  held: UploadedFile[],
  files: File[],
  uploading: (on: boolean) => void,
): Promise<{ files: UploadedFile[]; problems: Problem[] }> {
  const rule = uploadRules[kind];
  if (held.length + files.length > rule.max) return { files: held, problems: [{ key: 'upload.tooMany', values: { max: String(rule.max) } }] };
  loaded = await loadCalls().catch(() => loaded);
  if (!loaded) return { files: held, problems: [noConnection()] };
  // What the picker offers; and some systems give a .csv the Excel type.
  return loaded.uploadFiles(kind, held, files, [...acceptFor(kind).split(','), FILE_TYPES.xls.contentType], uploading);
}

/** Takes a file off the form; one uploaded on this page is deleted (the fill call drops attached ones). */
export const discardUpload = async (id: string) => loaded?.discardUpload(id);

/** The company now holds these files: they are no longer this page's to delete. */
export const keepUploads = (ids: string[]) => loaded?.keepUploads(ids);
