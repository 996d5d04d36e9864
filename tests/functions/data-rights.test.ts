import { unzipSync, strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import worker_, { createWorker } from '../../functions/worker';
import { runDataRightsJob } from '../../functions/gateway/data-rights/jobs';
import { stateOf } from '../../functions/gateway/data-rights/service';
import type { UserRow } from '../../functions/gateway/identity/db/people';
import { deployedVars } from './worker-env';
import { hashPassword } from '../../src/lib/password-hash';
import { LOGIN_CLIENT } from '../../src/schemas/auth';
import type { DataRightsState } from '../../src/schemas/data-rights';
import { bufferedForm, useWorkerEnv, type Envelope } from './gateway-client';
import { fileBytes } from '../fixtures/file-bytes';
import { traceWork } from './work-trace';

/**
 * A person's rights over their data (functions/gateway/data-rights/) through the whole Worker on a real local D1
 * and R2, on a clock the tests move (cooling-off, 24 hours of a copy, the freshness of a proof). The scheduled job
 * is called as the Cron Trigger calls it, at the moment the test names.
 */
const { worker, api } = useWorkerEnv('data-rights');

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
let at = Date.now();
const app = createWorker({ clock: () => at });
const PASSWORD = 'Harbour2024';

type Opts = { cookie?: string; from?: string; lang?: 'zh' | 'en' };
async function send(method: 'GET' | 'POST', path: string, body?: unknown, { cookie, from = api.ip(), lang }: Opts = {}) {
  const headers: Record<string, string> = { 'cf-connecting-ip': from };
  if (lang) headers.cookie = `LANG=${lang}`;
  if (cookie) headers.cookie = [headers.cookie, cookie].filter(Boolean).join('; ');
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await app.request(`http://localhost/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }, worker.env, worker.ctx);
  await worker.settle();
  return res;
}
const call = async <T = DataRightsState>(method: 'GET' | 'POST', path: string, body?: unknown, opts?: Opts) =>
  (await (await send(method, path, body, opts)).json()) as Envelope<T>;
const state = (cookie: string) => call('GET', '/agg-web/user/data', undefined, { cookie });

/** Signs `email` in on the test clock: a new session, proved at `at`. */
async function signIn(email: string) {
  const res = await send('POST', '/agg-web/user/v3/userLogin', {
    loginEmail: email,
    loginPassword: await hashPassword(PASSWORD),
    passwordVersion: 2,
    captchaType: 3,
    ...LOGIN_CLIENT,
  });
  const body = (await res.json()) as Envelope;
  expect(body.code, `sign-in of ${email}`).toBe('0');
  return api.sessionCookie(res);
}

/** A new person (seeded, with `fields`), signed in now. */
async function person(fields: Record<string, unknown> = {}) {
  const email = `rights.${api.unique()}@example.com`;
  const seeded = await api.json<{ userId: string; companyIds: string[] }>(await api.post('/dev/users', { agreed: true, email, password: PASSWORD, ...fields }));
  expect(seeded.code).toBe('0');
  return { email, userId: seeded.data.userId, companyIds: seeded.data.companyIds, cookie: await signIn(email) };
}

async function upload(cookie: string, name: string, bytes: Uint8Array, kind = 'logo') {
  const form = new FormData();
  form.append('kind', kind);
  form.append('files', new Blob([bytes]), name);
  const { body, headers } = await bufferedForm(form);
  const res = await app.request('http://localhost/api/agg-web/file/uploadFile', { method: 'POST', headers: { ...headers, cookie }, body }, worker.env, worker.ctx);
  const answer = (await res.json()) as Envelope<{ id: string }[]>;
  expect(answer.code).toBe('0');
  return answer.data[0]!.id;
}

const job = () => runDataRightsJob(worker.env, at);
const sql = <T = Record<string, unknown>>(query: string, ...values: unknown[]) =>
  worker.env.DB.prepare(query).bind(...values).all<T>().then((r) => r.results);

/** Asks for a copy, lets the job make it, and answers its id. */
async function readyCopy(cookie: string) {
  const asked = await call('POST', '/agg-web/user/data/copy', {}, { cookie });
  expect(asked.code).toBe('0');
  expect(asked.data.copies[0]!.status).toBe('queued');
  // A local run (no ENVIRONMENT) says so: wrangler dev runs no cron, and the page offers to run the job (issue 47).
  expect(asked.data.localRun).toBe(true);
  await job();
  const after = await state(cookie);
  expect(after.data.copies[0]!.status).toBe('ready');
  return after.data.copies[0]!.id;
}

describe('a copy of my data', () => {
  it('holds every category of the person and none of the excluded items, and says so in the trail', async () => {
    at = Date.now();
    const admin = await person({ realName: 'Other Administrator', companies: [{ nameEn: `Copy Lines ${api.unique()}`, role: 'administrator' }] });
    const mobile = api.mobile('137');
    const me = await person({
      realName: 'Copy Person',
      phone: { callingCode: '+86', mobile },
      companies: [{ companyId: admin.companyIds[0], role: 'staff' }],
    });
    // Secrets a copy must never carry, put where the account keeps them.
    await worker.env.DB.batch([
      worker.env.DB.prepare("INSERT INTO two_step (user_id, secret_enc, enabled_at, recovery_batch, created_at) VALUES (?, 'TOTPSECRETMARKER', ?, 'b1', ?)").bind(me.userId, at, at),
      worker.env.DB.prepare("INSERT INTO recovery_codes (user_id, batch, code_hash) VALUES (?, 'b1', 'RECOVERYHASHMARKER')").bind(me.userId),
      worker.env.DB.prepare(
        "INSERT INTO passkeys (id, user_id, public_key, device_type, name, created_at) VALUES ('pk-copy', ?, 'PUBLICKEYMARKER', 'multiDevice', 'Work laptop', ?)",
      ).bind(me.userId, at),
    ]);
    const fileId = await upload(me.cookie, 'my-photo.png', fileBytes.png);
    const id = await readyCopy(me.cookie);

    const res = await send('GET', `/agg-web/user/data/copy/${id}`, undefined, { cookie: me.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="personal-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const zip = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const data = JSON.parse(strFromU8(zip['data.json']!)) as Record<string, any>;
    expect(data).toMatchObject({
      format: 'portal-personal-data',
      version: 1,
      profile: { userId: me.userId, realName: 'Copy Person' },
      contact: { phone: `+86${mobile}`, email: me.email },
      companies: [{ companyId: admin.companyIds[0], role: 'staff', status: 'active' }],
      files: [{ fileId, name: 'my-photo.png', companyId: null }],
      secondFactors: { twoStep: { on: true, recoveryCodesLeft: 1 }, passkeys: [{ name: 'Work laptop' }] },
      connectedApps: [],
    });
    expect(data.sessions.length).toBeGreaterThanOrEqual(1);
    expect(data.signIns.some((s: { success: boolean }) => s.success)).toBe(true);
    // The devices the person signed in from (issue 44), named by their public id as "Your devices" lists them.
    const devices = await sql<{ public_id: string; token_hash: string }>('SELECT public_id, token_hash FROM known_devices WHERE user_id = ?', me.userId);
    expect(devices.length).toBeGreaterThanOrEqual(1);
    expect(data.devices.map((d: { id: string }) => d.id).sort()).toEqual(devices.map((d) => d.public_id).sort());
    expect(data.consents.agreements.map((a: { document: string }) => a.document).sort()).toEqual(['privacy', 'terms']);
    expect(data.activity.some((a: { action: string }) => a.action === 'user.data_copy_requested')).toBe(true);
    // The uploaded file itself, byte for byte.
    expect(zip[`files/${fileId}.png`]).toEqual(fileBytes.png);

    // Nothing excluded, anywhere in the file: no hash, secret, token or key, and no one else's data.
    const everything = Object.values(zip).map((bytes) => strFromU8(bytes, true)).join('\n');
    const [row] = await sql<{ password_hash: string; password_salt: string }>('SELECT password_hash, password_salt FROM users WHERE id = ?', me.userId);
    const sessions = await sql<{ token_hash: string; refresh_hash: string; public_id: string }>('SELECT token_hash, refresh_hash, public_id FROM sessions WHERE user_id = ?', me.userId);
    const forbidden = [
      row!.password_hash,
      row!.password_salt,
      'TOTPSECRETMARKER',
      'RECOVERYHASHMARKER',
      'PUBLICKEYMARKER',
      me.cookie.split('=')[1]!,
      ...sessions.flatMap((s) => [s.token_hash, s.refresh_hash]),
      ...devices.map((d) => d.token_hash),
      admin.email,
      admin.userId,
      'Other Administrator',
    ];
    for (const value of forbidden) expect(everything, value).not.toContain(value);

    // One a day; the request and the download are in the person's activity.
    const again = await call('POST', '/agg-web/user/data/copy', {}, { cookie: me.cookie });
    expect(again.code).toBe('DR0001');
    expect(again.data).toMatchObject({ nextAt: expect.any(Number) });
    const activity = await call<{ action: string; by: string }[]>('GET', '/agg-web/user/security/activity', undefined, { cookie: me.cookie });
    expect(activity.data.filter((a) => a.action.startsWith('user.data_copy')).map((a) => a.action)).toEqual(['user.data_copy_downloaded', 'user.data_copy_requested']);
  });

  it('is read by nobody but its owner, by any id, in parallel, and only for 24 hours', async () => {
    at = Date.now();
    const owner = await person();
    const other = await person();
    const id = await readyCopy(owner.cookie);
    const ids = [id, id.replace(/.$/, (c) => (c === '0' ? '1' : '0')), '0'.repeat(32), 'x', `${id}/../${id}`];
    const tries = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send('GET', `/agg-web/user/data/copy/${ids[i % ids.length]}`, undefined, { cookie: other.cookie })),
    );
    for (const res of tries) {
      expect([404]).toContain(res.status);
      expect(((await res.json()) as Envelope).code).toBe('DR0002');
    }
    const anonymous = await call('GET', `/agg-web/user/data/copy/${id}`);
    expect(anonymous.code).toBe('TK00001');
    // The owner, 20 times at once: each gets the same file.
    const mine = await Promise.all(Array.from({ length: 20 }, () => send('GET', `/agg-web/user/data/copy/${id}`, undefined, { cookie: owner.cookie })));
    const sizes = await Promise.all(mine.map(async (res) => (res.status === 200 ? (await res.arrayBuffer()).byteLength : -1)));
    expect(new Set(sizes).size).toBe(1);
    expect(sizes[0]).toBeGreaterThan(0);

    // After 24 hours it is gone, the file too.
    const [{ r2_key: key }] = (await sql<{ r2_key: string }>('SELECT r2_key FROM data_exports WHERE id = ?', id)) as [{ r2_key: string }];
    at += DAY + MINUTE;
    const late = await signIn(owner.email);
    expect((await call('GET', `/agg-web/user/data/copy/${id}`, undefined, { cookie: late })).code).toBe('DR0002');
    await job();
    expect(await worker.env.UPLOADS.head(key)).toBeNull();
    expect((await state(late)).data.copies[0]!.status).toBe('expired');
  });

  it('is not downloaded by a session that never proved the person (a shared sign-in link), in parallel, however old the copy', async () => {
    at = Date.now();
    const owner = await person();
    const id = await readyCopy(owner.cookie);
    // The stolen or shared session: made by the owner's own shared sign-in link, it never proved the person.
    const made = await call<{ url: string }>('POST', '/agg-web/user/shareLogin/create', {}, { cookie: owner.cookie });
    expect(made.code).toBe('0');
    const res = await send('POST', '/agg-web/user/shareLogin/login', { share: new URL(made.data.url).searchParams.get('share') });
    expect(((await res.json()) as Envelope).code).toBe('0');
    const unproved = api.sessionCookie(res);
    const tries = await Promise.all(Array.from({ length: 10 }, () => send('GET', `/agg-web/user/data/copy/${id}`, undefined, { cookie: unproved })));
    for (const answer of tries) {
      expect(answer.status).toBe(404);
      expect(((await answer.json()) as Envelope).code).toBe('DR0002');
    }
    // Hours later, the session whose proof asked for it still downloads it; another needs a fresh proof of its own.
    at += 3 * 60 * MINUTE;
    const asked = await send('GET', `/agg-web/user/data/copy/${id}`, undefined, { cookie: owner.cookie });
    expect(asked.status).toBe(200);
    expect((await asked.arrayBuffer()).byteLength).toBeGreaterThan(0);
    expect((await call('GET', `/agg-web/user/data/copy/${id}`, undefined, { cookie: unproved })).code).toBe('DR0002');
    const fresh = await signIn(owner.email);
    expect((await send('GET', `/agg-web/user/data/copy/${id}`, undefined, { cookie: fresh })).status).toBe(200);
    expect(await sql("SELECT 1 FROM audit_log WHERE action = 'user.data_copy_downloaded' AND target_id = ?", owner.userId)).toHaveLength(2);
  });

  it('is made by the every-minute Cron Trigger through the Worker\'s scheduled handler', async () => {
    at = Date.now();
    const me = await person();
    expect((await call('POST', '/agg-web/user/data/copy', {}, { cookie: me.cookie })).code).toBe('0');
    await worker_.scheduled({ scheduledTime: at, cron: '* * * * *', noRetry() {} } as ScheduledController, worker.env);
    expect((await state(me.cookie)).data.copies[0]).toMatchObject({ status: 'ready', readyAt: at, expiresAt: at + DAY });
  });

  it('needs a fresh proof of the person', async () => {
    at = Date.now();
    const me = await person();
    at += 11 * MINUTE;
    expect((await call('POST', '/agg-web/user/data/copy', {}, { cookie: me.cookie })).code).toBe('SU0001');
    expect((await call('POST', '/agg-web/user/data/close', {}, { cookie: me.cookie })).code).toBe('SU0001');
    expect((await call('POST', '/agg-web/user/data/contact', { kind: 'email', email: 'new@example.com', code: '123456' }, { cookie: me.cookie })).code).toBe('SU0001');
    expect((await state(me.cookie)).data).toMatchObject({ copies: [], closure: null });
  });
});

describe('correcting the phone and e-mail', () => {
  it('takes a new e-mail confirmed by a code sent to it, tells the old one, and refuses one another account uses', async () => {
    at = Date.now();
    const me = await person();
    const other = await person();
    const next = `moved.${api.unique()}@example.com`;
    const change = (email: string, code: string) => call<null>('POST', '/agg-web/user/data/contact', { kind: 'email', email, code }, { cookie: me.cookie });
    expect((await change(me.email, '123456')).code).toBe('DR0009');
    // Another account's address: "taken" only once its code proves the person owns it.
    expect((await call('POST', '/agg-web/user/getRegVerificationCode', { emailAddress: other.email, type: 1 })).code).toBe('0');
    expect((await change(other.email, await api.latestCode(other.email))).code).toBe('DR0008');
    expect((await call('POST', '/agg-web/user/getRegVerificationCode', { emailAddress: next, type: 1 })).code).toBe('0');
    const code = await api.latestCode(next);
    expect((await change(next, code === '000000' ? '111111' : '000000')).code).toBe('CD0010');
    expect((await change(next, code)).code).toBe('0');
    expect((await sql('SELECT email FROM users WHERE id = ?', me.userId))[0]!.email).toBe(next);
    // The old address is told, without the new one; the new one signs in, the old one no longer does.
    const notice = (await api.outbox(me.email))[0]!;
    // One sentence, not a template joined twice ("…belongs to the account on your account"), its time's zone named.
    expect(notice.text).toMatch(/^On \d{1,2} \w+ \d{4}, \d\d:\d\d UTC, the e-mail address of your account was changed; this address no longer belongs to it\.\n/);
    expect(notice.text).not.toMatch(/on your account|\(UTC\)/);
    expect(notice.text).not.toContain(next);
    expect((await call('POST', '/agg-web/user/v3/userLogin', { loginEmail: me.email, loginPassword: await hashPassword(PASSWORD), passwordVersion: 2, captchaType: 3, ...LOGIN_CLIENT })).code).not.toBe('0');
    await signIn(next);
    expect(await sql("SELECT 1 FROM audit_log WHERE action = 'user.contact_changed' AND target_id = ?", me.userId)).toHaveLength(1);
  });

  it('answers a taken address exactly as a free one until the code proves its owner: 12 parallel guesses each, capped', async () => {
    at = Date.now();
    const me = await person();
    const taken = await person();
    const free = `free.${api.unique()}@example.com`;
    const from = api.ip();
    const probe = async (email: string) => {
      // The script asks a code for the address (it never sees it), then guesses.
      expect((await call('POST', '/agg-web/user/getRegVerificationCode', { emailAddress: email, type: 1 })).code).toBe('0');
      const code = await api.latestCode(email);
      const guesses = Array.from({ length: 12 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
      // The first guess alone, its work before the answer traced (D1 statements, WebCrypto, in order).
      const traced = traceWork(worker.env.DB);
      const body = JSON.stringify({ kind: 'email', email, code: guesses[0] });
      const first = await app.request('http://localhost/api/agg-web/user/data/contact', { method: 'POST', headers: { 'cf-connecting-ip': from, cookie: me.cookie, 'content-type': 'application/json' }, body }, { ...worker.env, DB: traced.binding }, worker.ctx);
      const work = traced.stop();
      const { code: firstCode, message, data } = (await first.json()) as Envelope;
      await worker.settle();
      // Then the rest at once: which of them meet the per-code or per-address cap first is the race's, not the address's.
      const answers = await Promise.all(guesses.slice(1).map((guess) => call('POST', '/agg-web/user/data/contact', { kind: 'email', email, code: guess }, { cookie: me.cookie, from })));
      return { first: { code: firstCode, message, data }, burst: answers.map((a) => a.code), work };
    };
    const ofTaken = await probe(taken.email);
    const ofFree = await probe(free);
    expect(ofTaken.first).toEqual({ code: 'CD0010', message: expect.any(String), data: { triesLeft: 4 } });
    expect(ofFree.first).toEqual(ofTaken.first);
    expect(ofFree.work).toEqual(ofTaken.work);
    for (const burst of [ofTaken.burst, ofFree.burst]) {
      // Wrong (CD0010), out of tries (CD0012) or past the address's wrong guesses (CD0015): never "taken".
      expect(burst.every((code) => ['CD0010', 'CD0012', 'CD0015'].includes(code))).toBe(true);
      // At most 5 comparisons a code (the first guess was one).
      expect(burst.filter((code) => code === 'CD0010').length).toBeLessThanOrEqual(4);
    }
    expect((await sql('SELECT email FROM users WHERE id = ?', me.userId))[0]!.email).toBe(me.email);
  });

  it("puts the old e-mail back by the notice's \"This wasn't me\" link, once, within 72 hours, without a session, and locks the account (issue 47)", async () => {
    at = Date.now();
    const me = await person();
    const move = async (from: { cookie: string }, to: string) => {
      expect((await call('POST', '/agg-web/user/getRegVerificationCode', { emailAddress: to, type: 1 })).code).toBe('0');
      expect((await call<null>('POST', '/agg-web/user/data/contact', { kind: 'email', email: to, code: await api.latestCode(to) }, { cookie: from.cookie })).code).toBe('0');
    };
    const taker = `taker.${api.unique()}@example.com`;
    await move(me, taker);
    const notice = (await api.outbox(me.email))[0]!;
    const link = /^https?:\/\/[^/\s]+\/undo_change#([A-Za-z0-9_-]{43})$/m.exec(notice.text);
    expect(link, notice.text).not.toBeNull();
    expect(notice.text).toContain("If this wasn't you, open this link within 72 hours (no sign-in needed)");
    const token = link![1]!;
    // The one who changed it changes it again (the notice to the address in between waits): the first link still
    // puts the owner's address back, and the link made in between is spent with it.
    const further = `further.${api.unique()}@example.com`;
    at += MINUTE;
    await move(me, further);
    const takerSession = await signIn(further);
    const undo = (t: unknown) => send('POST', '/agg-web/user/contact/undo', { token: t });
    for (const wrong of ['x', token.slice(0, 42), `${token.slice(0, 42)}${token.endsWith('A') ? 'B' : 'A'}`]) {
      expect(((await (await undo(wrong)).json()) as Envelope).code).toBe('DR0010');
    }
    const answers = await Promise.all(Array.from({ length: 20 }, () => undo(token)));
    const bodies = (await Promise.all(answers.map((res) => res.json()))) as Envelope<{ email: string }>[];
    expect(bodies.filter((b) => b.code === '0')).toEqual([expect.objectContaining({ data: { email: me.email } })]);
    expect(bodies.filter((b) => b.code !== '0').every((b) => b.code === 'DR0010')).toBe(true);
    // No session comes with it, and every session of the account ended.
    for (const res of answers) expect(res.headers.getSetCookie()).toEqual([]);
    expect((await state(me.cookie)).code).toBe('TK00001');
    expect((await state(takerSession)).code).toBe('TK00001');
    const [row] = await sql<{ email: string; password_hash: string | null }>('SELECT email, password_hash FROM users WHERE id = ?', me.userId);
    expect(row).toEqual({ email: me.email, password_hash: null });
    expect(await sql('SELECT 1 FROM contact_undos WHERE user_id = ? AND used_at IS NULL', me.userId)).toEqual([]);
    // The password someone else may know no longer signs in; a code to the address put back does.
    expect((await call('POST', '/agg-web/user/v3/userLogin', { loginEmail: me.email, loginPassword: await hashPassword(PASSWORD), passwordVersion: 2, captchaType: 3, ...LOGIN_CLIENT })).code).not.toBe('0');
    expect(await sql("SELECT 1 FROM audit_log WHERE action = 'user.contact_change_undone' AND target_id = ?", me.userId)).toHaveLength(1);
    expect(((await (await undo(token)).json()) as Envelope).code).toBe('DR0010');

    // Past 72 hours the link does nothing.
    at = Date.now();
    const late = await person();
    await move(late, `late.${api.unique()}@example.com`);
    const lateToken = /#([A-Za-z0-9_-]{43})$/m.exec((await api.outbox(late.email))[0]!.text)![1]!;
    at += 72 * 60 * MINUTE;
    expect(((await (await undo(lateToken)).json()) as Envelope).code).toBe('DR0010');
    expect((await sql<{ email: string }>('SELECT email FROM users WHERE id = ?', late.userId))[0]!.email).not.toBe(late.email);
  });

  it('takes a new phone number after the human check and its code', async () => {
    at = Date.now();
    const me = await person();
    const mobile = api.mobile('135');
    const e164 = `+86${mobile}`;
    const sliderCheck = await api.sliderCheck('sms', e164);
    expect((await call('POST', '/agg-web/sms/send', { phoneCode: 'CN', mobile, type: 1, phoneCodeValue: '+86', sliderCheck })).code).toBe('0');
    const code = await api.latestCode(e164);
    expect((await call('POST', '/agg-web/user/data/contact', { kind: 'phone', callingCode: '+86', mobile, code }, { cookie: me.cookie })).code).toBe('0');
    expect((await sql('SELECT phone_e164 FROM users WHERE id = ?', me.userId))[0]!.phone_e164).toBe(e164);
    // The number is now the account's own: asking again changes nothing.
    expect((await call('POST', '/agg-web/user/data/contact', { kind: 'phone', callingCode: '+86', mobile, code }, { cookie: me.cookie })).code).toBe('DR0009');
  });
});

describe('withdrawing consent', () => {
  it('stops funnel tracking for the person at once and records each change with its time', async () => {
    at = Date.now();
    const me = await person();
    const event = { eventId: 'page_shown', eventName: `rights-${api.unique()}`, bpSource: 'portal', bpType: 'funnel' };
    const stored = async () => (await sql('SELECT 1 FROM tracking_events WHERE event_name = ?', event.eventName)).length;
    expect((await call('POST', '/agg-web/buriedPoint/add', event, { cookie: me.cookie })).code).toBe('0');
    expect(await stored()).toBe(1);
    const withdrawn = await call('POST', '/agg-web/user/data/consent', { purpose: 'tracking', granted: false }, { cookie: me.cookie });
    expect(withdrawn.data.consents).toEqual([{ purpose: 'tracking', granted: false, changedAt: at }]);
    expect((await call('POST', '/agg-web/buriedPoint/add', event, { cookie: me.cookie })).code).toBe('0');
    expect(await stored()).toBe(1);
    at += MINUTE;
    const given = await call('POST', '/agg-web/user/data/consent', { purpose: 'tracking', granted: true }, { cookie: me.cookie });
    expect(given.data.consents).toEqual([{ purpose: 'tracking', granted: true, changedAt: at }]);
    expect((await sql('SELECT granted, changed_at FROM consent_changes WHERE user_id = ? ORDER BY id', me.userId)).map((r) => r.granted)).toEqual([0, 1]);
    expect((await call('POST', '/agg-web/user/data/consent', { purpose: 'marketing', granted: false }, { cookie: me.cookie })).code).toBe('GW0400');
  });
});

describe('closing the account', () => {
  it('makes one closure of 20 parallel requests', async () => {
    at = Date.now();
    const me = await person();
    const answers = await Promise.all(Array.from({ length: 20 }, () => call('POST', '/agg-web/user/data/close', {}, { cookie: me.cookie })));
    expect(answers.map((a) => a.code)).toEqual(Array(20).fill('0'));
    expect(new Set(answers.map((a) => a.data.closure?.closesAt)).size).toBe(1);
    expect(answers[0]!.data.closure).toEqual({ since: at, closesAt: at + 15 * DAY });
    expect(await sql("SELECT 1 FROM audit_log WHERE action = 'user.closure_requested' AND target_id = ?", me.userId)).toHaveLength(1);
  });

  it('tells the owner when the closure is asked for and when the account is erased, in the language of the request, its times in a named zone', async () => {
    // 2026-12-01 01:30 UTC is 09:30 on 1 December in Beijing.
    at = Date.UTC(2026, 11, 1, 1, 30);
    const me = await person();
    expect((await call('POST', '/agg-web/user/data/close', {}, { cookie: me.cookie, lang: 'en' })).code).toBe('0');
    const [asked] = await api.outbox(me.email);
    expect(asked!.subject).toBe('A request to close your account');
    expect(asked!.text).toContain('A request to close your account was made on 1 December 2026, 01:30 UTC.');
    expect(asked!.text).toContain('erased on 16 December 2026');
    expect(asked!.text).toContain('"Keep my account"');
    at += 15 * DAY + MINUTE;
    await job();
    const [erased] = await api.outbox(me.email);
    expect(erased!.subject).toBe('Your account was closed');
    expect(erased!.text).toContain('erased on 16 December 2026, 01:31 UTC');

    // In Chinese: Beijing time, named.
    at = Date.UTC(2026, 11, 1, 1, 30);
    const zh = await person();
    expect((await call('POST', '/agg-web/user/data/close', {}, { cookie: zh.cookie, lang: 'zh' })).code).toBe('0');
    const [told] = await api.outbox(zh.email);
    expect(told!.subject).toBe('账号注销申请提醒');
    expect(told!.text).toContain('您的账号于 2026年12月1日 09:30（北京时间）申请了注销');
    expect(told!.text).toContain('2026年12月16日');
  });

  it('shows the closing date at a sign-in during the cooling-off, keeps the account on request, and closes again', async () => {
    at = Date.now();
    const me = await person();
    const closed = await call('POST', '/agg-web/user/data/close', {}, { cookie: me.cookie });
    const closesAt = closed.data.closure!.closesAt;
    at += 3 * DAY;
    const cookie = await signIn(me.email);
    expect((await state(cookie)).data.closure).toEqual({ since: closesAt - 15 * DAY, closesAt });
    const kept = await call('POST', '/agg-web/user/data/keep', {}, { cookie });
    expect(kept.data.closure).toBeNull();
    expect((await call('POST', '/agg-web/user/data/keep', {}, { cookie })).code).toBe('DR0004');
    // The cooling-off starts again from the new request.
    const again = await call('POST', '/agg-web/user/data/close', {}, { cookie });
    expect(again.data.closure).toEqual({ since: at, closesAt: at + 15 * DAY });
    at += 14 * DAY;
    await job();
    expect((await sql('SELECT erased_at FROM users WHERE id = ?', me.userId))[0]!.erased_at).toBeNull();
  });

  it('accepts one of two last administrators who close at once, 10 requests each, and tells the person and the operators of an erasure it skips', async () => {
    at = Date.now();
    const first = await person({ companies: [{ nameEn: `Twin Admins ${api.unique()}`, role: 'administrator' }] });
    const second = await person({ companies: [{ companyId: first.companyIds[0], role: 'administrator' }] });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call('POST', '/agg-web/user/data/close', {}, { cookie: (i % 2 ? second : first).cookie })),
    );
    const closing = await sql<{ id: string }>('SELECT id FROM users WHERE id IN (?, ?) AND closes_at IS NOT NULL', first.userId, second.userId);
    expect(closing).toHaveLength(1);
    const [stays] = [first, second].filter((p) => p.userId !== closing[0]!.id);
    const goes = stays === first ? second : first;
    expect(answers.filter((a, i) => (i % 2 ? second : first) === stays).map((a) => a.code)).toEqual(Array(10).fill('DR0003'));
    expect(answers.filter((a, i) => (i % 2 ? second : first) === goes).map((a) => a.code)).toEqual(Array(10).fill('0'));

    // The one who stays leaves the company during the cooling-off: the one closing is now its last administrator.
    await worker.env.DB.prepare('DELETE FROM company_members WHERE user_id = ?').bind(stays!.userId).run();
    at += 15 * DAY + MINUTE;
    await job();
    await job();
    expect((await sql('SELECT erased_at FROM users WHERE id = ?', goes.userId))[0]!.erased_at).toBeNull();
    const told = await sql<{ detail: string }>("SELECT detail FROM audit_log WHERE action = 'user.erasure_skipped' AND target_id = ?", goes.userId);
    expect(told).toHaveLength(1);
    expect(JSON.parse(told[0]!.detail)).toEqual({ companies: first.companyIds });
    const notices = (await api.outbox(goes.email)).filter((m) => /last administrator|最后一位管理员/.test(m.text));
    expect(notices).toHaveLength(1);
  });

  it('refuses a company\'s last active administrator until the company has another', async () => {
    at = Date.now();
    const admin = await person({ companies: [{ nameEn: `Last Admin Lines ${api.unique()}`, role: 'administrator' }] });
    const refused = await call<{ companies: { companyId: string; name: string }[] }>('POST', '/agg-web/user/data/close', {}, { cookie: admin.cookie });
    expect(refused.code).toBe('DR0003');
    expect(refused.data.companies.map((c) => c.companyId)).toEqual(admin.companyIds);
    expect((await state(admin.cookie)).data.closure).toBeNull();
    // A second administrator: now the first may go.
    await person({ companies: [{ companyId: admin.companyIds[0], role: 'administrator' }] });
    expect((await call('POST', '/agg-web/user/data/close', {}, { cookie: admin.cookie })).code).toBe('0');
  });
});

/** Every text value of every table of D1 (read from sqlite_master, so tables added later are walked too) that contains one of `values`. */
async function whereFound(values: string[]): Promise<string[]> {
  const tables = await sql<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'");
  const found: string[] = [];
  for (const { name } of tables) {
    for (const row of await sql(`SELECT * FROM "${name}"`)) {
      for (const [column, value] of Object.entries(row)) {
        if (value === null) continue;
        const text = String(value).toLowerCase();
        for (const v of values) if (text.includes(v.toLowerCase())) found.push(`${name}.${column} has ${v}`);
      }
    }
  }
  return found;
}

describe('erasure after the cooling-off', () => {
  it('leaves no personal value in any table but the pseudonymised audit rows, deletes personal files, keeps company files, frees the phone', async () => {
    at = Date.now();
    const admin = await person({ companies: [{ nameEn: `Erasure Lines ${api.unique()}`, role: 'administrator' }] });
    const mobile = api.mobile('136');
    const name = `Erin Erasable ${api.unique()}`;
    const me = await person({ realName: name, phone: { callingCode: '+86', mobile }, companies: [{ companyId: admin.companyIds[0], role: 'staff' }] });
    const personalEmail = `private.${api.unique()}@example.net`;
    await worker.env.DB.prepare('UPDATE company_members SET nick_name = ?, personal_email = ? WHERE user_id = ?').bind(`Nick ${name}`, personalEmail, me.userId).run();
    expect((await call('POST', '/agg-web/user/updateUserInfo', { realName: name, countryId: 'CN', birthday: '1981-02-03', sex: 'female' }, { cookie: me.cookie })).code).toBe('0');
    const ownFile = await upload(me.cookie, `passport-${api.unique()}.png`, fileBytes.png);
    const companyFile = await upload(me.cookie, 'licence.pdf', fileBytes.pdf, 'licence');
    // Attached to the company (as the company form does): it stays with the company.
    await worker.env.DB.prepare("UPDATE files SET company_id = ?, purpose = 'licence' WHERE id = ?").bind(admin.companyIds[0], companyFile).run();
    const [own, kept] = await Promise.all(
      [ownFile, companyFile].map(async (id) => (await sql<{ r2_key: string; origin_name: string }>('SELECT r2_key, origin_name FROM files WHERE id = ?', id))[0]!),
    );
    await call('POST', '/agg-web/user/data/consent', { purpose: 'tracking', granted: false }, { cookie: me.cookie });
    await readyCopy(me.cookie);
    // A code to the e-mail and a passkey: short-lived rows keyed by the person's names go too.
    expect((await call('POST', '/agg-web/user/getRegVerificationCode', { emailAddress: me.email, type: 3 })).code).toBe('0');
    await worker.env.DB.prepare("INSERT INTO passkeys (id, user_id, public_key, device_type, name, created_at) VALUES ('pk-erase', ?, 'k', 'multiDevice', 'Phone', ?)")
      .bind(me.userId, at)
      .run();
    // An SMS outage: no provider could send, and the answer's e-mail way-out ticket names the phone.
    const outage = { SMS_PROVIDER: 'aliyun,tencent', DELIVERY_BREAKER_FAILURES: '1000000' };
    const fault = (provider: string, mode: 'down' | null) => api.post('/dev/delivery/faults', { provider, recipient: `+86${mobile}`, mode }).then(api.json);
    for (const provider of ['aliyun', 'tencent']) expect((await fault(provider, 'down')).code).toBe('0');
    const outageCheck = await api.sliderCheck('sms', `+86${mobile}`);
    const down = await api.post('/agg-web/sms/send', { phoneCode: 'CN', mobile, type: 3, phoneCodeValue: '+86', sliderCheck: outageCheck }, { env: outage }).then(api.json);
    expect(down.code).toBe('DL0010');
    for (const provider of ['aliyun', 'tencent']) expect((await fault(provider, null)).code).toBe('0');
    expect((await call('POST', '/agg-web/user/data/close', {}, { cookie: me.cookie })).code).toBe('0');

    const personal = [me.email, mobile, name, personalEmail, '1981-02-03', own!.origin_name];
    expect(await whereFound([mobile])).toContain(`delivery_fallbacks.recipient has ${mobile}`);
    expect(await sql('SELECT 1 FROM known_devices WHERE user_id = ?', me.userId)).not.toEqual([]);
    at += 15 * DAY + MINUTE;
    expect((await job()).erased).toBeGreaterThanOrEqual(1);
    expect((await sql('SELECT erased_at FROM users WHERE id = ?', me.userId))[0]!.erased_at).toBe(at);

    // The dev outbox stands for the person's mailbox: the erasure's own notice is the one thing it still holds.
    expect((await api.outbox(me.email)).map((m) => m.subject)).toEqual(expect.arrayContaining(['Your account was closed']));
    await worker.env.DB.prepare("DELETE FROM outbox WHERE subject IN ('Your account was closed', '您的账号已注销')").run();
    expect(await whereFound(personal)).toEqual([]);
    // The audit trail keeps its rows, under the account's random id only.
    const trail = await sql<{ action: string }>('SELECT action FROM audit_log WHERE target_id = ? ORDER BY id', me.userId);
    expect(trail.map((r) => r.action)).toEqual(expect.arrayContaining(['user.signed_in', 'user.closure_requested', 'user.erased']));
    expect(await worker.env.UPLOADS.head(own!.r2_key)).toBeNull();
    expect(await worker.env.UPLOADS.head(kept!.r2_key)).not.toBeNull();
    expect(await sql('SELECT 1 FROM company_members WHERE user_id = ?', me.userId)).toEqual([]);
    // Its known devices and their trust go too (issue 44).
    expect(await sql('SELECT 1 FROM known_devices WHERE user_id = ?', me.userId)).toEqual([]);
    expect(await sql('SELECT 1 FROM company_members WHERE user_id = ?', admin.userId)).toHaveLength(1);
    expect((await call('GET', '/agg-web/user/data', undefined, { cookie: me.cookie })).code).toBe('TK00001');

    // The phone number registers a new, empty account (the human check runs on the real clock, so the test's goes back to it).
    at = Date.now();
    const e164 = `+86${mobile}`;
    const sliderCheck = await api.sliderCheck('sms', e164);
    expect((await call('POST', '/agg-web/sms/send', { phoneCode: 'CN', mobile, type: 3, phoneCodeValue: '+86', sliderCheck })).code).toBe('0');
    const code = await api.latestCode(e164);
    const res = await send('POST', '/agg-web/quick/user/login', { loginType: 1, mobileCode: '+86', mobile, code, agreed: true, userIdentity: 2, companyName: 'Fresh Start Shipping' });
    const registered = (await res.json()) as Envelope<{ newUser: boolean }>;
    expect(registered, JSON.stringify(registered)).toMatchObject({ code: '0', data: { newUser: true } });
    const cookie = api.sessionCookie(res);
    const fresh = await call<{ userId: string; realName: string | null; birthday: string | null }>('GET', '/agg-web/user/fetchMeByUserToken', undefined, { cookie });
    expect(fresh.data.userId).not.toBe(me.userId);
    expect(fresh.data).toMatchObject({ birthday: null });
    expect((await state(cookie)).data).toMatchObject({ copies: [], closure: null, consents: [{ purpose: 'tracking', granted: true, changedAt: null }] });
  });

  it('waits while an operator holds the account, and the hold and its lifting are audited', async () => {
    at = Date.now();
    const me = await person();
    // An operator signed in on the test clock (an operator session lasts 12 hours).
    const operator = async () => {
      const res = await send('POST', '/dev/operator-session', { login: 'support.rights@ops.example.com', role: 'support' });
      await res.body?.cancel();
      return `portal_operator=${/(?:^|\n)portal_operator=([^;]+)/.exec(res.headers.getSetCookie().join('\n'))?.[1]}`;
    };
    let ops = await operator();
    const hold = (path: string, reason = 'Court order 2026-117, keep all records') => call('POST', `/ops/v1/people/${me.userId}/${path}`, { reason }, { cookie: ops });

    expect((await call('POST', '/agg-web/user/data/close', {}, { cookie: me.cookie })).code).toBe('0');
    const closing = await call<{ id: string; closure: { closesAt: number | null } }[]>('GET', '/ops/v1/people/closing', undefined, { cookie: ops });
    expect(closing.data.find((p) => p.id === me.userId)?.closure.closesAt).toBe(at + 15 * DAY);
    const holds = await Promise.all(Array.from({ length: 5 }, () => hold('legalHold')));
    expect(holds.map((h) => h.code).sort()).toEqual(['0', 'DR0005', 'DR0005', 'DR0005', 'DR0005']);
    at += 16 * DAY;
    await job();
    ops = await operator();
    expect((await sql('SELECT erased_at, email FROM users WHERE id = ?', me.userId))[0]).toEqual({ erased_at: null, email: me.email });
    expect((await hold('liftLegalHold', 'Court order lifted on appeal')).code).toBe('0');
    expect((await hold('liftLegalHold')).code).toBe('DR0006');
    const trail = await sql<{ action: string; reason: string; actor_kind: string }>(
      "SELECT action, reason, actor_kind FROM audit_log WHERE target_id = ? AND action LIKE 'user.legal_hold%' ORDER BY id",
      me.userId,
    );
    expect(trail).toEqual([
      { action: 'user.legal_hold_placed', reason: 'Court order 2026-117, keep all records', actor_kind: 'operator' },
      { action: 'user.legal_hold_lifted', reason: 'Court order lifted on appeal', actor_kind: 'operator' },
    ]);
    await job();
    expect((await sql<{ erased_at: number | null }>('SELECT erased_at FROM users WHERE id = ?', me.userId))[0]!.erased_at).toBe(at);
  });
});

describe('a local run', () => {
  it('is said in the state only where no Cron Trigger makes the copies (issue 47)', async () => {
    at = Date.now();
    const me = await person();
    const user = (await sql<UserRow>('SELECT * FROM users WHERE id = ?', me.userId))[0]!;
    expect((await stateOf(worker.env, user, at)).localRun).toBe(true);
    expect((await stateOf({ ...worker.env, ...deployedVars } as typeof worker.env, user, at)).localRun).toBe(false);
  });
});
