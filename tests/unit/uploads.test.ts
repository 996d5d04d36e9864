import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../functions/gateway/errors';
import {
  extensionOf,
  multipartBoundary,
  readMultipart,
  sanitiseFileName,
  sniffType,
  UPLOAD_BODY_LIMITS,
} from '../../functions/gateway/files/service';
import { cat, enc, fileBytes as fixtures } from '../fixtures/file-bytes';

/** Upload type sniffing and the streaming multipart reader (functions/gateway/files/service.ts). */

describe('sniffType', () => {
  it.each([
    ['licence.jpg', fixtures.jpg, 'jpg', 'image/jpeg'],
    ['licence.JPEG', fixtures.jpg, 'jpg', 'image/jpeg'],
    ['licence.png', fixtures.png, 'png', 'image/png'],
    ['licence.pdf', fixtures.pdf, 'pdf', 'application/pdf'],
    ['licence.doc', fixtures.doc, 'doc', 'application/msword'],
    ['licence.xls', fixtures.xls, 'xls', 'application/vnd.ms-excel'],
    ['licence.docx', fixtures.docx, 'docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['licence.xlsx', fixtures.xlsx, 'xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['licence.csv', fixtures.csv, 'csv', 'text/csv'],
  ])('accepts %s by its bytes', (name, bytes, extension, contentType) => {
    expect(sniffType(bytes, name, 'licence')).toEqual({ extension, contentType });
  });

  it('refuses bytes that disagree with the extension', () => {
    expect(sniffType(fixtures.pdf, 'licence.png', 'licence')).toBeNull();
    expect(sniffType(fixtures.doc, 'licence.xls', 'licence')).toBeNull();
    expect(sniffType(fixtures.docx, 'licence.xlsx', 'licence')).toBeNull();
    expect(sniffType(fixtures.png, 'licence.pdf', 'licence')).toBeNull();
  });

  it('refuses executables, markup and polyglots', () => {
    const exe = cat('MZ', [0x90, 0], new Uint8Array(200), 'This program cannot be run in DOS mode');
    expect(sniffType(exe, 'licence.png', 'licence')).toBeNull();
    expect(sniffType(exe, 'setup.exe', 'licence')).toBeNull();
    expect(sniffType(enc('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'logo.png', 'logo')).toBeNull();
    expect(sniffType(enc('<!DOCTYPE html><html><body>x</body></html>'), 'logo.png', 'logo')).toBeNull();
    expect(sniffType(cat(fixtures.png, '<script>alert(1)</script>'), 'logo.png', 'logo')).toBeNull();
    expect(sniffType(cat(fixtures.jpg, '<HTML>'), 'logo.jpg', 'logo')).toBeNull();
    expect(sniffType(cat(fixtures.docx, 'xl/vbaProject.bin'), 'licence.docx', 'licence')).toBeNull();
    expect(sniffType(new Uint8Array(0), 'empty.pdf', 'licence')).toBeNull();
  });

  it('takes csv only as a licence, and only images as a logo', () => {
    expect(sniffType(fixtures.csv, 'gtc.csv', 'gtc')).toBeNull();
    expect(sniffType(cat('a,b\n', [0, 1, 2]), 'licence.csv', 'licence')).toBeNull();
    expect(sniffType(fixtures.pdf, 'logo.pdf', 'logo')).toBeNull();
    expect(sniffType(fixtures.png, 'logo.png', 'logo')?.extension).toBe('png');
  });
});

describe('names', () => {
  it('keeps a safe base name only', () => {
    expect(sanitiseFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitiseFileName('C:\\fakepath\\营业执照 2024.pdf')).toBe('营业执照 2024.pdf');
    expect(sanitiseFileName('a<b>"c\u202e.pdf\u0000')).toBe('abc.pdf');
    expect(sanitiseFileName('...')).toBe('file');
    expect(sanitiseFileName(`${'x'.repeat(300)}.pdf`)).toMatch(/^x{124}\.pdf$/);
    expect(extensionOf('Licence.PDF')).toBe('pdf');
    expect(extensionOf('.bashrc')).toBe('');
  });
});

describe('readMultipart', () => {
  const boundary = '----portal-test-boundary';
  const body = (parts: { name: string; fileName?: string; data: Uint8Array | string }[]) =>
    cat(
      ...parts.flatMap((p) => [
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.fileName !== undefined ? `; filename="${p.fileName}"` : ''}\r\n` +
          (p.fileName !== undefined ? 'Content-Type: image/png\r\n' : '') +
          '\r\n',
        typeof p.data === 'string' ? enc(p.data) : p.data,
        '\r\n',
      ]),
      `--${boundary}--\r\n`,
    );
  /** A stream that hands out `bytes` in small chunks and records how much was pulled. */
  const streamOf = (bytes: Uint8Array, chunk = 1000) => {
    const state = { pulled: 0 };
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (state.pulled >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(state.pulled, state.pulled + chunk));
        state.pulled += chunk;
      },
    });
    return { stream, state };
  };

  it('parses fields and files, split across chunks anywhere', async () => {
    const bytes = body([
      { name: 'kind', data: 'licence' },
      { name: 'files', fileName: 'a.pdf', data: fixtures.pdf },
      { name: 'files', fileName: '营业执照.png', data: fixtures.png },
    ]);
    for (const chunk of [1, 7, 64, 100000]) {
      const parts = await readMultipart(streamOf(bytes, chunk).stream, boundary, UPLOAD_BODY_LIMITS);
      expect(parts.map((p) => [p.name, p.fileName, p.data.length])).toEqual([
        ['kind', null, 7],
        ['files', 'a.pdf', fixtures.pdf.length],
        ['files', '营业执照.png', fixtures.png.length],
      ]);
      expect(parts[2]!.data).toEqual(fixtures.png);
    }
  });

  it('stops reading at the first byte past the file limit', async () => {
    const limits = { ...UPLOAD_BODY_LIMITS, maxFileBytes: 10_000 };
    const { stream, state } = streamOf(body([{ name: 'files', fileName: 'big.pdf', data: new Uint8Array(1_000_000) }]));
    await expect(readMultipart(stream, boundary, limits)).rejects.toMatchObject({ code: 'FL0002' });
    expect(state.pulled).toBeLessThan(20_000);
  });

  it('takes a file of exactly the limit', async () => {
    const limits = { ...UPLOAD_BODY_LIMITS, maxFileBytes: 10_000 };
    const parts = await readMultipart(streamOf(body([{ name: 'files', fileName: 'ok.pdf', data: new Uint8Array(10_000) }])).stream, boundary, limits);
    expect(parts[0]!.data.length).toBe(10_000);
  });

  it('stops at the file past the count limit', async () => {
    const files = Array.from({ length: 11 }, (_, i) => ({ name: 'files', fileName: `f${i}.pdf`, data: fixtures.pdf }));
    await expect(readMultipart(streamOf(body(files)).stream, boundary, UPLOAD_BODY_LIMITS)).rejects.toMatchObject({ code: 'FL0003' });
  });

  it('refuses a truncated or malformed body', async () => {
    const bytes = body([{ name: 'files', fileName: 'a.pdf', data: fixtures.pdf }]);
    await expect(readMultipart(streamOf(bytes.slice(0, bytes.length - 10)).stream, boundary, UPLOAD_BODY_LIMITS)).rejects.toBeInstanceOf(GatewayError);
    await expect(readMultipart(streamOf(enc('garbage')).stream, boundary, UPLOAD_BODY_LIMITS)).rejects.toMatchObject({ code: 'GW0400' });
  });

  it('reads the boundary from the Content-Type only for multipart/form-data', () => {
    expect(multipartBoundary('multipart/form-data; boundary=----abc')).toBe('----abc');
    expect(multipartBoundary('multipart/form-data; boundary="a b"')).toBe('a b');
    expect(multipartBoundary('application/json')).toBeNull();
    expect(multipartBoundary(undefined)).toBeNull();
  });
});
