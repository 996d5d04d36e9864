import { describe, expect, it } from 'vitest';
import { UPLOAD_LIMITS, type UploadedFile } from '../../src/schemas/onboarding';
import { bufferedForm, useWorkerEnv } from './gateway-client';
import { cat, enc, fileBytes as fixtures } from '../fixtures/file-bytes';

/**
 * Uploads through the whole Worker on a real local D1 and R2: every accepted type, every refusal, and after
 * each refused request the bucket holds nothing new (listed, not assumed).
 */
// Bursts of parallel calls: the bridge to the local D1 takes a few statements at a time (throttled-d1.ts).
const { worker, api } = useWorkerEnv('files');

/** A seeded user, signed in: the session cookie and user id. */
const signedIn = () => api.person({}, `files.${api.unique()}@example.com`);

/** POST uploadFile with `files` (name → bytes), the client's Content-Type deliberately wrong. */
async function upload(cookie: string, files: [string, Uint8Array][], kind?: string) {
  const form = new FormData();
  if (kind) form.append('kind', kind);
  for (const [name, bytes] of files) form.append('files', new Blob([bytes], { type: 'application/x-anything' }), name);
  const { body, headers: type } = await bufferedForm(form);
  return api.postRaw('/agg-web/file/uploadFile', body, { cookie, headers: type });
}

async function bucketKeys(): Promise<string[]> {
  const listed = await worker.env.UPLOADS.list();
  return listed.objects.map((o) => o.key);
}

describe('uploadFile', () => {
  it('accepts each type by its bytes and serves it back to the uploader as an attachment', async () => {
    const { cookie } = await signedIn();
    const files = Object.entries(fixtures).map(([ext, bytes]): [string, Uint8Array] => [`营业执照-${ext}.${ext}`, bytes]);
    const res = await upload(cookie, files);
    const body = await api.json<UploadedFile[]>(res);
    expect(body.code).toBe('0');
    expect(body.data.map((f) => f.extension)).toEqual(['jpg', 'png', 'pdf', 'doc', 'xls', 'docx', 'xlsx', 'csv']);
    for (const file of body.data) expect(file.url).toBe(`/api/agg-web/file/${file.id}`);
    expect(body.data[0]!.originName).toBe('营业执照-jpg.jpg');

    const got = await api.get(body.data[2]!.url.slice(4), { cookie });
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/pdf');
    expect(got.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(fixtures.pdf);
  });

  it('takes a logo only as an image', async () => {
    const { cookie } = await signedIn();
    expect((await api.json(await upload(cookie, [['logo.png', fixtures.png]], 'logo'))).code).toBe('0');
    expect((await api.json(await upload(cookie, [['logo.pdf', fixtures.pdf]], 'logo'))).code).toBe('FL0001');
    expect((await api.json(await upload(cookie, [['gtc.csv', fixtures.csv]], 'gtc'))).code).toBe('FL0001');
  });

  const refusals: [string, () => [string, Uint8Array][], string, number][] = [
    ['a renamed executable', () => [['licence.pdf', fixtures.pdf], ['scan.png', cat('MZ', [0x90, 0], new Uint8Array(300))]], 'FL0001', 415],
    ['an .exe', () => [['setup.exe', cat('MZ', [0x90, 0], new Uint8Array(300))]], 'FL0001', 415],
    ['SVG dressed as PNG', () => [['logo.png', enc('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')]], 'FL0001', 415],
    ['HTML dressed as PNG', () => [['logo.png', enc('<!doctype html><html><script>alert(1)</script></html>')]], 'FL0001', 415],
    ['a PNG/HTML polyglot', () => [['logo.png', cat(fixtures.png, '<script>alert(1)</script>')]], 'FL0001', 415],
    ['a file of 6 MB + 1 byte', () => [['ok.pdf', fixtures.pdf], ['big.pdf', cat(fixtures.pdf, new Uint8Array(UPLOAD_LIMITS.maxFileBytes + 1 - fixtures.pdf.length))]], 'FL0002', 413],
    ['an eleventh file', () => Array.from({ length: 11 }, (_, i): [string, Uint8Array] => [`l${i}.pdf`, fixtures.pdf]), 'FL0003', 400],
  ];
  it.each(refusals)('refuses %s and leaves R2 as it was', async (_, files, code, status) => {
    const { cookie } = await signedIn();
    const before = await bucketKeys();
    const res = await upload(cookie, files());
    expect(res.status).toBe(status);
    expect((await api.json(res)).code).toBe(code);
    expect(await bucketKeys()).toEqual(before);
  });

  it('takes exactly 6 MB and exactly 10 files', async () => {
    const { cookie } = await signedIn();
    const six = cat(fixtures.pdf, new Uint8Array(UPLOAD_LIMITS.maxFileBytes - fixtures.pdf.length));
    expect((await api.json(await upload(cookie, [['six.pdf', six]]))).code).toBe('0');
    const ten = Array.from({ length: 10 }, (_, i): [string, Uint8Array] => [`l${i}.pdf`, fixtures.pdf]);
    expect((await api.json<UploadedFile[]>(await upload(cookie, ten))).data).toHaveLength(10);
  });

  it('needs a session, multipart and at least one file', async () => {
    const { cookie } = await signedIn();
    const form = new FormData();
    form.append('files', new Blob([fixtures.pdf]), 'a.pdf');
    const { body, headers: type } = await bufferedForm(form);
    expect((await api.json(await api.postRaw('/agg-web/file/uploadFile', body, { headers: type }))).code).toBe('TK00001');
    expect((await api.json(await api.post('/agg-web/file/uploadFile', { files: [] }, { cookie }))).code).toBe('GW0415');
    const empty = new FormData();
    empty.append('kind', 'licence');
    const sent = await bufferedForm(empty);
    expect((await api.json(await api.postRaw('/agg-web/file/uploadFile', sent.body, { cookie, headers: sent.headers }))).code).toBe('FL0004');
  });
});

describe('reading and deleting files', () => {
  it('serves a file to nobody but its uploader (404 style), and deletes it for the owner only', async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const [file] = (await api.json<UploadedFile[]>(await upload(owner.cookie, [['a.pdf', fixtures.pdf]]))).data;
    const path = file!.url.slice(4);
    const foreign = await api.get(path, { cookie: other.cookie });
    expect(foreign.status).toBe(404);
    expect((await api.json(foreign)).code).toBe('FL0010');
    expect((await api.json(await api.get('/agg-web/file/no-such-file', { cookie: other.cookie }))).code).toBe('FL0010');

    expect((await api.json(await api.post('/agg-web/file/deleteFile', { ids: [file!.id] }, { cookie: other.cookie }))).code).toBe('FL0010');
    const keysBefore = await bucketKeys();
    const deleted = await api.json(await api.post('/agg-web/file/deleteFile', { ids: [file!.id] }, { cookie: owner.cookie }));
    expect(deleted).toMatchObject({ code: '0', data: true });
    expect((await bucketKeys()).length).toBe(keysBefore.length - 1);
    const gone = await api.get(path, { cookie: owner.cookie });
    expect(gone.status).toBe(404);
    expect((await api.json(gone)).code).toBe('FL0010');
  });
});

describe('storage caps', () => {
  const MB = 1024 * 1024;
  const pdfOf = (bytes: number) => cat(fixtures.pdf, new Uint8Array(bytes - fixtures.pdf.length));

  it(`refuses one upload over ${UPLOAD_LIMITS.maxRequestBytes / MB} MB in all (FL0005) and leaves R2 as it was`, async () => {
    const { cookie } = await signedIn();
    const before = await bucketKeys();
    const five = pdfOf(5 * MB);
    const res = await upload(cookie, Array.from({ length: 5 }, (_, i): [string, Uint8Array] => [`l${i}.pdf`, five]));
    expect(res.status).toBe(413);
    expect((await api.json(res)).code).toBe('FL0005');
    expect(await bucketKeys()).toEqual(before);
  }, 60_000);

  it(`keeps an account's unattached files within ${UPLOAD_LIMITS.maxPendingBytesPerAccount / MB} MB under 10 parallel uploads (FL0006)`, async () => {
    const { cookie, userId } = await signedIn();
    // Earlier uploads of this account, 3 MB short of the cap (rows only: the cap counts rows).
    const earlier = UPLOAD_LIMITS.maxPendingBytesPerAccount - 3 * MB;
    await worker.env.DB.prepare(
      "INSERT INTO files (id, owner_user_id, kind, r2_key, extension, content_type, origin_name, size, created_at) VALUES (?, ?, 'licence', ?, 'pdf', 'application/pdf', 'earlier.pdf', ?, 0)",
    )
      .bind(`earlier-${userId}`, userId, `uploads/earlier-${userId}`, earlier)
      .run();
    const before = (await bucketKeys()).length;
    const one = pdfOf(MB);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => upload(cookie, [[`l${i}.pdf`, one]]).then(async (res) => ({ status: res.status, ...(await api.json(res)) }))));
    expect(answers.filter((a) => a.code === '0')).toHaveLength(3);
    const refused = answers.filter((a) => a.code === 'FL0006');
    expect(refused).toHaveLength(7);
    expect(refused[0]).toMatchObject({ status: 413 });
    const row = await worker.env.DB.prepare('SELECT SUM(size) AS bytes FROM files WHERE owner_user_id = ?').bind(userId).first<{ bytes: number }>();
    expect(row!.bytes).toBe(UPLOAD_LIMITS.maxPendingBytesPerAccount);
    // The refused uploads' bytes were deleted again.
    expect((await bucketKeys()).length).toBe(before + 3);
    // Deleting a file makes room again.
    const [first] = answers.find((a) => a.code === '0')!.data as unknown as UploadedFile[];
    expect((await api.json(await api.post('/agg-web/file/deleteFile', { ids: [first!.id] }, { cookie }))).code).toBe('0');
    expect((await api.json(await upload(cookie, [['again.pdf', one]]))).code).toBe('0');
  }, 60_000);
});
