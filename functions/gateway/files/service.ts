import { createMiddleware } from 'hono/factory';
import { FILE_TYPES, isImageContentType, type FileType } from '../../../src/schemas/file-types';
import { IMAGE_EXTENSIONS, UPLOAD_LIMITS, type UploadKind } from '../../../src/schemas/onboarding';
import { GatewayError } from '../errors';
import { ERR } from '../../../src/schemas/error-codes';
import { stripHiddenCharacters } from '../../../src/schemas/display-text';

/**
 * Upload checks (security baseline "Uploads"): a streaming multipart reader that stops at the first file over
 * the limit or the eleventh file, and type sniffing by magic bytes that must agree with the extension.
 * The client's Content-Type is never read. Pure code: the route in files/routes.ts writes to R2.
 */

export interface SniffedType {
  extension: FileType;
  contentType: string;
}

export { isImageContentType };

const ascii = (text: string) => new TextEncoder().encode(text);
const utf16le = (text: string) => {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) out[i * 2] = text.charCodeAt(i);
  return out;
};

/** Index of `needle` in `haystack` at or after `from`, or -1. */
export function indexOfBytes(haystack: Uint8Array, needle: Uint8Array, from = 0, to = haystack.length): number {
  const first = needle[0];
  const last = to - needle.length;
  for (let i = haystack.indexOf(first!, from); i !== -1 && i <= last; i = haystack.indexOf(first!, i + 1)) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((b, i) => bytes[i] === b);

const JPEG = FILE_TYPES.jpg.magic;
const PNG = FILE_TYPES.png.magic;
const PDF = FILE_TYPES.pdf.magic;
const OLE_CFB = FILE_TYPES.doc.magic;
const ZIP = FILE_TYPES.docx.magic;

/** Markup that a browser or viewer might run when a file is opened inline: refused in the first KB of any upload. */
const MARKUP = ['<script', '<html', '<svg', '<!doctype', '<body', '<iframe', '<?xml-stylesheet'];

function hasMarkupHead(bytes: Uint8Array): boolean {
  // Byte by byte (latin1): workerd's TextDecoder knows only the UTF encodings.
  const head = String.fromCharCode(...bytes.subarray(0, 1024)).toLowerCase();
  return MARKUP.some((tag) => head.includes(tag));
}

/** Lower-case extension of a file name ('Licence.PDF' → 'pdf'), '' when there is none. */
export function extensionOf(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/**
 * The original name as metadata: no path, no markup characters, none the display-text rule refuses (controls,
 * bidirectional and zero-width characters: stripped, not refused, as the name comes from the person's device,
 * not from what they typed here), at most 128 characters (the extension kept). Never used in an R2 key or a header without encoding.
 */
export function sanitiseFileName(name: string): string {
  const base = stripHiddenCharacters((name.split(/[\\/]/).pop() ?? '').normalize('NFC'))
    .replace(/[<>:"|?*]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  if (!base) return 'file';
  if (base.length <= 128) return base;
  const ext = extensionOf(base);
  return ext && ext.length < 16 ? `${base.slice(0, 127 - ext.length)}.${ext}` : base.slice(0, 128);
}

function isPlainText(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return false;
  }
  // Tabs and line ends only; a NUL or another control character means it is not a CSV.
  return !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text);
}

/**
 * The file's real type, when its bytes, its extension and the upload kind all agree; otherwise null.
 * docx/xlsx are ZIPs with [Content_Types].xml and a word/ or xl/ part (no macros); doc/xls are OLE
 * compound files with a WordDocument or Workbook stream; csv only for licences (and registry evidence); logos only jpeg/png.
 */
export function sniffType(bytes: Uint8Array, fileName: string, kind: UploadKind): SniffedType | null {
  if (bytes.length === 0 || hasMarkupHead(bytes)) return null;
  const ext = extensionOf(fileName);
  const found = ((): FileType | null => {
    if (startsWith(bytes, JPEG)) return ext === 'jpg' || ext === 'jpeg' ? 'jpg' : null;
    if (startsWith(bytes, PNG)) return ext === 'png' && indexOfBytes(bytes.subarray(0, 16), ascii('IHDR')) === 12 ? 'png' : null;
    if (startsWith(bytes, PDF)) return ext === 'pdf' ? 'pdf' : null;
    if (startsWith(bytes, OLE_CFB)) {
      if (ext === 'doc' && indexOfBytes(bytes, utf16le('WordDocument')) !== -1) return 'doc';
      if (ext === 'xls' && (indexOfBytes(bytes, utf16le('Workbook')) !== -1 || indexOfBytes(bytes, utf16le('Book')) !== -1)) return 'xls';
      return null;
    }
    if (startsWith(bytes, ZIP)) {
      if (indexOfBytes(bytes, ascii('[Content_Types].xml')) === -1) return null;
      // A macro project makes it a docm/xlsm in disguise.
      if (indexOfBytes(bytes, ascii('vbaProject.bin')) !== -1) return null;
      if (ext === 'docx' && indexOfBytes(bytes, ascii('word/')) !== -1) return 'docx';
      if (ext === 'xlsx' && indexOfBytes(bytes, ascii('xl/')) !== -1) return 'xlsx';
      return null;
    }
    // The registry evidence (issue 42) is taken as a licence is.
    if (ext === 'csv' && (kind === 'licence' || kind === 'registryEvidence') && isPlainText(bytes)) return 'csv';
    return null;
  })();
  if (!found) return null;
  if (kind === 'logo' && !(IMAGE_EXTENSIONS as readonly string[]).includes(found)) return null;
  return { extension: found, contentType: FILE_TYPES[found].contentType };
}

// ---------------------------------------------------------------------------------------------------------
// Streaming multipart/form-data
// ---------------------------------------------------------------------------------------------------------

export interface MultipartPart {
  name: string;
  /** Set for file parts (possibly ''), null for plain fields. */
  fileName: string | null;
  data: Uint8Array;
}

export interface MultipartLimits {
  maxFileBytes: number;
  maxFiles: number;
  /** The whole body. */
  maxBodyBytes: number;
  /** A plain (non-file) field. */
  maxFieldBytes: number;
}

/** The whole body is held in memory while it is checked, so one request holds at most maxRequestBytes (FL0005). */
export const UPLOAD_BODY_LIMITS: MultipartLimits = {
  maxFileBytes: UPLOAD_LIMITS.maxFileBytes,
  maxFiles: UPLOAD_LIMITS.maxFilesPerRequest,
  maxBodyBytes: UPLOAD_LIMITS.maxRequestBytes,
  maxFieldBytes: 1024,
};

/** The boundary of a multipart/form-data Content-Type, or null. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return match?.[1] ?? match?.[2] ?? null;
}

function dispositionOf(headerBlock: string): { name: string; fileName: string | null } | null {
  const line = headerBlock.split('\r\n').find((l) => /^content-disposition\s*:/i.test(l));
  if (!line || !/:\s*form-data\b/i.test(line)) return null;
  const name = /;\s*name="([^"]*)"/i.exec(line)?.[1] ?? /;\s*name=([^\s;]+)/i.exec(line)?.[1];
  if (name === undefined) return null;
  const star = /;\s*filename\*=(?:UTF-8|utf-8)''([^\s;]+)/.exec(line)?.[1];
  let fileName: string | null = /;\s*filename="([^"]*)"/i.exec(line)?.[1] ?? /;\s*filename=([^\s;"]+)/i.exec(line)?.[1] ?? null;
  if (star) {
    try {
      fileName = decodeURIComponent(star);
    } catch {
      /* keep the plain filename */
    }
  }
  return { name, fileName };
}

/**
 * Reads a multipart body chunk by chunk. Stops (cancelling the stream) as soon as the body passes
 * `maxBodyBytes` (FL0005), the open file part passes `maxFileBytes` (FL0002), or a file part beyond `maxFiles`
 * starts (FL0003). Content-Length is not consulted. A malformed body is GW0400.
 */
export async function readMultipart(body: ReadableStream<Uint8Array> | null, boundary: string, limits: MultipartLimits): Promise<MultipartPart[]> {
  if (!body) throw new GatewayError(ERR.FILE_MISSING);
  const reader = body.getReader();
  const delimiter = ascii(`\r\n--${boundary}`);
  const headerEnd = ascii('\r\n\r\n');
  // A leading CRLF lets the first boundary be found like every other one.
  let buf = new Uint8Array(64 * 1024);
  buf.set([0x0d, 0x0a]);
  let len = 2;
  let scan = 0;
  type State = 'preamble' | 'headers' | 'data' | 'end';
  // Widened on purpose: advance() changes it between reads.
  let state = 'preamble' as State;
  let current: { name: string; fileName: string | null; start: number } | null = null;
  const spans: { name: string; fileName: string | null; start: number; end: number }[] = [];
  let files = 0;

  const stop = async (code: typeof ERR.FILE_TOO_LARGE | typeof ERR.TOO_MANY_FILES | typeof ERR.UPLOAD_TOO_LARGE | typeof ERR.REQUEST_INVALID) => {
    await reader.cancel().catch(() => {});
    throw new GatewayError(code);
  };

  const advance = async (): Promise<void> => {
    for (;;) {
      if (state === 'end') return;
      if (state === 'headers') {
        const at = indexOfBytes(buf, headerEnd, scan, len);
        if (at === -1) {
          if (len - scan > 8 * 1024) await stop(ERR.REQUEST_INVALID);
          return;
        }
        const disposition = dispositionOf(new TextDecoder().decode(buf.subarray(scan, at)));
        if (!disposition) await stop(ERR.REQUEST_INVALID);
        if (disposition!.fileName !== null && ++files > limits.maxFiles) await stop(ERR.TOO_MANY_FILES);
        current = { ...disposition!, start: at + 4 };
        scan = at + 4;
        state = 'data';
        continue;
      }
      const at = indexOfBytes(buf, delimiter, scan, len);
      const limit = current?.fileName !== null ? limits.maxFileBytes : limits.maxFieldBytes;
      if (at === -1) {
        if (state === 'data' && current && len - current.start > limit + delimiter.length) await stop(current.fileName !== null ? ERR.FILE_TOO_LARGE : ERR.REQUEST_INVALID);
        scan = Math.max(scan, len - delimiter.length + 1);
        return;
      }
      if (len < at + delimiter.length + 2) {
        scan = at;
        return; // wait for the two bytes after the boundary
      }
      if (state === 'data' && current) {
        if (at - current.start > limit) await stop(current.fileName !== null ? ERR.FILE_TOO_LARGE : ERR.REQUEST_INVALID);
        spans.push({ ...current, end: at });
        current = null;
      }
      const after = at + delimiter.length;
      if (buf[after] === 0x2d && buf[after + 1] === 0x2d) {
        state = 'end';
        return;
      }
      if (buf[after] !== 0x0d || buf[after + 1] !== 0x0a) {
        // Boundary text inside data that is not a delimiter line cannot happen with a conforming client.
        await stop(ERR.REQUEST_INVALID);
      }
      scan = after + 2;
      state = 'headers';
    }
  };

  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (state === 'end') {
      await reader.cancel().catch(() => {}); // the epilogue is not read
      break;
    }
    if (len + value.byteLength > limits.maxBodyBytes + 2) await stop(ERR.UPLOAD_TOO_LARGE);
    if (len + value.byteLength > buf.length) {
      const grown = new Uint8Array(Math.min(Math.max(buf.length * 2, len + value.byteLength), limits.maxBodyBytes + 2));
      grown.set(buf.subarray(0, len));
      buf = grown;
    }
    buf.set(value, len);
    len += value.byteLength;
    await advance();
  }
  if (state !== 'end') throw new GatewayError(ERR.REQUEST_INVALID);
  return spans.map((s) => ({ name: s.name, fileName: s.fileName, data: buf.slice(s.start, s.end) }));
}

/**
 * The multipart reader in front of `validate('form', schema)`: the body is read as a stream under
 * UPLOAD_BODY_LIMITS and left in Hono's body cache as FormData (files as File), where the validator finds it
 * instead of buffering the body itself. Anything but multipart/form-data is GW0415.
 */
export const streamedMultipart = createMiddleware(async (c, next) => {
  const boundary = multipartBoundary(c.req.header('content-type'));
  if (!boundary) throw new GatewayError(ERR.JSON_REQUIRED);
  const form = new FormData();
  for (const part of await readMultipart(c.req.raw.body, boundary, UPLOAD_BODY_LIMITS)) {
    if (part.fileName === null) form.append(part.name, new TextDecoder().decode(part.data));
    else form.append(part.name, new File([part.data], part.fileName));
  }
  c.req.bodyCache.formData = form;
  await next();
});

/** RFC 6266 Content-Disposition with an ASCII fallback and the UTF-8 name. */
function dispositionHeader(disposition: 'attachment' | 'inline', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * A stored file's bytes as an answer: its sniffed type with nosniff, never cached, and a sandbox CSP so that
 * even a document opened in a tab runs nothing. 'attachment' downloads; 'inline' lets the browser show it.
 */
export function fileResponse(
  row: { content_type: string; size: number; origin_name: string },
  object: R2ObjectBody,
  disposition: 'attachment' | 'inline',
): Response {
  return new Response(object.body as ReadableStream, {
    headers: {
      'Content-Type': row.content_type,
      'Content-Length': String(row.size),
      'Content-Disposition': dispositionHeader(disposition, row.origin_name),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
      'Content-Security-Policy': "default-src 'none'; sandbox",
    },
  });
}
