/**
 * The file types uploads accept, one table for the browser (the file picker's `accept`) and the gateway (type
 * sniffing in functions/gateway/files/service.ts): the stored extension, the names it may carry, its MIME
 * type, and the bytes a file of that type starts with (null: plain text, checked by content instead).
 */
const OLE_COMPOUND_FILE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1] as const;
const ZIP_ARCHIVE = [0x50, 0x4b, 0x03, 0x04] as const;

export const FILE_TYPES = {
  jpg: { extensions: ['jpg', 'jpeg'], contentType: 'image/jpeg', magic: [0xff, 0xd8, 0xff] },
  png: { extensions: ['png'], contentType: 'image/png', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  pdf: { extensions: ['pdf'], contentType: 'application/pdf', magic: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
  doc: { extensions: ['doc'], contentType: 'application/msword', magic: OLE_COMPOUND_FILE },
  xls: { extensions: ['xls'], contentType: 'application/vnd.ms-excel', magic: OLE_COMPOUND_FILE },
  docx: { extensions: ['docx'], contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', magic: ZIP_ARCHIVE },
  xlsx: { extensions: ['xlsx'], contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', magic: ZIP_ARCHIVE },
  csv: { extensions: ['csv'], contentType: 'text/csv', magic: null },
} as const satisfies Record<string, { extensions: readonly string[]; contentType: string; magic: readonly number[] | null }>;

export type FileType = keyof typeof FILE_TYPES;

/** The MIME type of a file name's extension ('jpeg' → 'image/jpeg'), undefined for one uploads do not take. */
export function contentTypeOfExtension(extension: string): string | undefined {
  const ext = extension.toLowerCase();
  return Object.values(FILE_TYPES).find((type) => (type.extensions as readonly string[]).includes(ext))?.contentType;
}

/** Image types (a logo must be one). */
export const isImageContentType = (contentType: string) =>
  contentType === FILE_TYPES.jpg.contentType || contentType === FILE_TYPES.png.contentType;
