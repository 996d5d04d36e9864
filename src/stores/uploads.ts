import { CONNECTION_ERROR, NETWORK_ERROR } from '../api/result';
import { problemOf, type Problem } from '../i18n/problem';
import { contentTypeOfExtension, FILE_TYPES } from '../schemas/file-types';
import { IMAGE_EXTENSIONS, UPLOAD_EXTENSIONS, UPLOAD_LIMITS } from '../schemas/company-form-rules';
import type { UploadedFile, UploadKind } from '../schemas/onboarding';

/**
 * The upload and delete calls load with the first file picked or taken off (api/onboarding.ts and its contracts are
 * not in the company form's first paint: issue 31); a failed load is said like a call without an answer.
 */
const loadApi = () => import('../api/onboarding').then(({ onboardingApi }) => onboardingApi);

/** The files each upload field holds, and the rule it checks before uploading. */
export const uploadRules: Record<UploadKind, { max: number; extensions: readonly string[] }> = {
  licence: { max: UPLOAD_LIMITS.maxLicenceFiles, extensions: UPLOAD_EXTENSIONS },
  gtc: { max: 1, extensions: UPLOAD_EXTENSIONS.filter((e) => e !== 'csv') },
  logo: { max: 1, extensions: IMAGE_EXTENSIONS },
};
/** The `accept` attribute of a field: extensions and MIME types. */
export const acceptFor = (kind: UploadKind) =>
  [...new Set(uploadRules[kind].extensions.flatMap((e) => [`.${e}`, contentTypeOfExtension(e) ?? '']))].filter(Boolean).join(',');

/** The browser's check (the server checks the content again): the problem, or undefined. */
export function fileProblem(file: Pick<File, 'name' | 'size' | 'type'>, kind: UploadKind): Problem | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
  const allowed = uploadRules[kind].extensions;
  const mimeOk = !file.type || allowed.some((e) => contentTypeOfExtension(e) === file.type) || file.type === FILE_TYPES.xls.contentType;
  if (!allowed.includes(extension) || !mimeOk) return { key: kind === 'logo' ? 'upload.imageOnly' : 'upload.unsupportedType' };
  if (file.size > UPLOAD_LIMITS.maxFileBytes) return { key: 'upload.sizeExceeded' };
  if (file.size === 0) return { key: 'upload.unsupportedType' };
  return undefined;
}

/** Files uploaded on this page and not yet part of a company: removed from R2 when taken off the form. */
const freshUploads = new Set<string>();
let releasing = false;

/**
 * Leaving the form without sending it leaves no orphaned uploads: the page asks the gateway to delete them
 * as it goes (a beacon carries the session cookie and survives the unload). Listens once per page.
 */
export function releaseUploadsOnLeave() {
  if (releasing) return;
  releasing = true;
  addEventListener('pagehide', () => {
    if (!freshUploads.size) return;
    const ids = [...freshUploads].slice(0, UPLOAD_LIMITS.maxFilesPerRequest * 2);
    for (let i = 0; i < ids.length; i += UPLOAD_LIMITS.maxFilesPerRequest) {
      const body = JSON.stringify({ ids: ids.slice(i, i + UPLOAD_LIMITS.maxFilesPerRequest) });
      try {
        navigator.sendBeacon('/api/agg-web/file/deleteFile', new Blob([body], { type: 'application/json' }));
      } catch {
        // Best effort: the gateway's own clean-up of unattached uploads is the backstop.
      }
    }
    freshUploads.clear();
  });
}

/**
 * Checks picked files (type by name and MIME, size, count) and uploads the good ones: the files now held
 * and the problems to show (none when all went well).
 */
export async function uploadFiles(
  kind: UploadKind,
  held: UploadedFile[],
  files: File[],
  uploading: (on: boolean) => void,
): Promise<{ files: UploadedFile[]; problems: Problem[] }> {
  const rule = uploadRules[kind];
  if (held.length + files.length > rule.max) return { files: held, problems: [{ key: 'upload.tooMany', values: { max: String(rule.max) } }] };
  const problems: Problem[] = [];
  const accepted = files.filter((file) => {
    const reason = fileProblem(file, kind);
    if (reason) problems.push({ key: 'upload.refused', values: { name: file.name, reason } });
    return !reason;
  });
  if (!accepted.length) return { files: held, problems };
  uploading(true);
  const api = await loadApi().catch(() => undefined);
  if (!api) {
    uploading(false);
    return { files: held, problems: [...problems, { code: typeof navigator !== 'undefined' && !navigator.onLine ? NETWORK_ERROR : CONNECTION_ERROR }] };
  }
  const result = await api.uploadFiles(accepted, kind).finally(() => uploading(false));
  if (!result.ok) return { files: held, problems: [...problems, problemOf(result)] };
  for (const file of result.data) freshUploads.add(file.id);
  return { files: [...held, ...result.data], problems };
}

/** Takes a file off the form; one uploaded on this page is deleted (the fill call drops attached ones). */
export async function discardUpload(id: string) {
  if (!freshUploads.has(id)) return;
  // Its upload loaded the call; should it not load now, the file stays listed and the page's leaving deletes it.
  const api = await loadApi().catch(() => undefined);
  if (api && freshUploads.delete(id)) await api.deleteFiles([id]);
}

/** The company now holds these files: they are no longer this page's to delete. */
export function keepUploads(ids: string[]) {
  for (const id of ids) freshUploads.delete(id);
}
