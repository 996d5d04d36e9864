import { problemOf, type Problem } from '../i18n/problem';
import { onboardingApi } from '../api/onboarding';
import { UPLOAD_LIMITS } from '../schemas/company-form-rules';
import type { UploadedFile, UploadKind } from '../schemas/onboarding';

/**
 * What the first file picked loads (stores/uploads.ts), not the company form's first paint (issue 31): the browser's
 * check of a picked file, the upload and delete calls with their contracts, and the files this page uploaded.
 */

/**
 * The browser's check (the server checks the content again): the problem, or undefined. `accepted`: the field's
 * extensions (with their dot) and MIME types, handed over by uploads.ts so that this chunk does not share the file
 * types' table with the form's first paint (one file more there).
 */
export function fileProblem(file: Pick<File, 'name' | 'size' | 'type'>, kind: UploadKind, accepted: readonly string[]): Problem | undefined {
  const extension = /\.[a-z0-9]+$/i.exec(file.name)?.[0].toLowerCase() ?? '';
  if (!accepted.includes(extension) || (file.type && !accepted.includes(file.type))) return { key: kind === 'logo' ? 'upload.imageOnly' : 'upload.unsupportedType' };
  if (file.size > UPLOAD_LIMITS.maxFileBytes) return { key: 'upload.sizeExceeded' };
  if (file.size === 0) return { key: 'upload.unsupportedType' };
  return undefined;
}

/** Files uploaded on this page and not yet part of a company: removed from R2 when taken off the form. */
const freshUploads = new Set<string>();

/**
 * Leaving the form without sending it leaves no orphaned uploads: the page asks the gateway to delete them as it goes
 * (a beacon carries the session cookie and survives the unload). Listens from the first file picked, once per page.
 */
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

/** Checks picked files (type by name and MIME, size) and uploads the good ones: the files now held and the problems to show. */
export async function uploadFiles(
  kind: UploadKind,
  held: UploadedFile[],
  files: File[],
  accepted: readonly string[],
  uploading: (on: boolean) => void,
): Promise<{ files: UploadedFile[]; problems: Problem[] }> {
  const problems: Problem[] = [];
  const good = files.filter((file) => {
    const reason = fileProblem(file, kind, accepted);
    if (reason) problems.push({ key: 'upload.refused', values: { name: file.name, reason } });
    return !reason;
  });
  if (!good.length) return { files: held, problems };
  uploading(true);
  const result = await onboardingApi.uploadFiles(good, kind).finally(() => uploading(false));
  if (!result.ok) return { files: held, problems: [...problems, problemOf(result)] };
  for (const file of result.data) freshUploads.add(file.id);
  return { files: [...held, ...result.data], problems };
}

/** Takes a file off the form; one uploaded on this page is deleted (the fill call drops attached ones). */
export async function discardUpload(id: string) {
  if (freshUploads.delete(id)) await onboardingApi.deleteFiles([id]);
}

/** The company now holds these files: they are no longer this page's to delete. */
export function keepUploads(ids: string[]) {
  for (const id of ids) freshUploads.delete(id);
}
