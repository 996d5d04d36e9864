import type { Hono } from 'hono';
import { afterAll, beforeAll, expect } from 'vitest';
import type { EdgeBindings, WorkerEnv } from '../../functions/env';
import { hashPassword } from '../../src/lib/password-hash';
import { LOGIN_CLIENT } from '../../src/schemas/auth';
import { solvePow, type PowChallenge } from './pow-solver';
import { startWorkerEnv } from './worker-env';

/**
 * The browser's side of the function tests: calls through the whole Worker (edge cookies and headers
 * included) as `/api/...`, dev users, the dev outbox. Each test file starts its own worker env and passes it.
 * Given a `gateway` (one on a fake clock, say), the client calls that gateway itself the way the edge proxy
 * does instead: language, trace id and client network as headers, no `/api` prefix.
 */
export type Envelope<T = Record<string, unknown>> = { code: string; message: string; data: T };
type Worker = Awaited<ReturnType<typeof startWorkerEnv>>;
type Gateway = Hono<EdgeBindings>;
export type CallOptions = {
  cookie?: string;
  lang?: 'zh' | 'en';
  /** The client network; a fresh one per call unless named, none at all with `null`. */
  from?: string | null;
  /** Another site than the client's (through the whole Worker only). */
  origin?: string;
  headers?: Record<string, string>;
  /** Bindings, vars or secrets that differ for this call only. */
  env?: Record<string, unknown>;
  /** Answer as soon as the Worker answers, leaving its waitUntil work running (by default the call awaits it, as if delivered at once). */
  early?: boolean;
};
type ClientOptions = { origin?: string; gateway?: Gateway; network?: string; traceId?: string };

export function gatewayClient(worker: Worker, { origin = 'http://localhost', gateway, network, traceId = 'test' }: ClientOptions = {}) {
  let seq = 0;
  let networks = 0;
  let direct = gateway ?? null;
  const unique = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;
  /** A fresh mainland mobile number starting with `prefix`. */
  const mobile = (prefix = '139') => `${prefix}${String(Date.now() % 1e5).padStart(5, '0')}${String(seq++ % 1000).padStart(3, '0')}`;
  /** A client address no other call of this client has used (the per-network caps stay out of the way). */
  const ip = () => {
    const n = ++networks;
    return `10.${9 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
  };

  const call = async (path: string, init: RequestInit = {}, { origin: site = origin, env, early = false }: Pick<CallOptions, 'origin' | 'env' | 'early'> = {}) => {
    const bindings = env ? ({ ...worker.env, ...env } as WorkerEnv) : worker.env;
    const { default: app } = await import('../../functions/worker');
    const answer = await (direct ? direct.request(`http://gateway.internal${path}`, init, bindings, worker.ctx) : app.request(`${site}/api${path}`, init, bindings, worker.ctx));
    if (!early) await worker.settle?.();
    return answer;
  };
  /** A call as the browser (or, on a gateway, the edge proxy) makes it; `body` goes as is, JSON or not. */
  const send = (method: string, path: string, body: BodyInit | undefined, options: CallOptions = {}) => {
    const { cookie, lang, from = network ?? ip(), headers: extra = {} } = options;
    const headers: Record<string, string> = {};
    if (direct) {
      Object.assign(headers, { language: lang ?? 'en', traceid: traceId });
      if (from) headers['x-client-ip'] = from;
      if (cookie) headers.cookie = cookie;
    } else {
      if (from) headers['cf-connecting-ip'] = from;
      const cookies = [cookie, lang && `LANG=${lang}`].filter(Boolean).join('; ');
      if (cookies) headers.cookie = cookies;
    }
    if (body !== undefined) headers['content-type'] = 'application/json';
    return call(path, { method, headers: { ...headers, ...extra }, body, redirect: 'manual' }, options);
  };
  const post = (path: string, body: unknown, options?: CallOptions) => send('POST', path, JSON.stringify(body), options);
  /** A POST whose body is sent exactly as given (malformed JSON, forms, bytes); set its content type in `headers`. */
  const postRaw = (path: string, body: BodyInit, options?: CallOptions) => send('POST', path, body, options);
  const get = (path: string, options?: CallOptions) => send('GET', path, undefined, options);
  /** Runs `steps` with every call going to `onClock` itself (a gateway on a fake clock), then back. */
  const throughGateway = async <T>(onClock: Gateway, steps: () => Promise<T>) => {
    const before = direct;
    direct = onClock;
    try {
      return await steps();
    } finally {
      direct = before;
    }
  };

  const json = async <T = Record<string, unknown>>(res: Response) => (await res.json()) as Envelope<T>;
  /** Status and envelope of an answer, its body read to the end. */
  const read = async <T = Record<string, unknown>>(res: Response) => ({ status: res.status, body: await json<T>(res) });
  /** Everything an answer says, read to the end: status, every header line, the text and its envelope. */
  const readAll = async <T = Record<string, unknown>>(res: Response) => {
    const text = await res.text();
    const headers = [...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
    return { status: res.status, headers, text, body: JSON.parse(text) as Envelope<T> };
  };
  /** `portal_token=…` (`__Host-portal_token=…` on https) from a sign-in answer, ready for a Cookie header. */
  const sessionCookie = (res: Response) => {
    const [, name = 'portal_token', value] = /(?:^|\n)((?:__Host-)?portal_token)=([^;]*)/.exec(res.headers.getSetCookie().join('\n')) ?? [];
    return `${name}=${value}`;
  };
  const seed = async (body: Record<string, unknown>) => {
    const res = await json<{ userId: string }>(await post('/dev/users', { agreed: true, ...body }));
    expect(res.code).toBe('0');
    return res.data.userId;
  };
  /** The sign-in form's e-mail and password call, the password hashed as the browser hashes it. */
  const emailLogin = async (email: string, password: string, extra: Record<string, unknown> = {}, options?: CallOptions) =>
    post(
      '/agg-web/user/v3/userLogin',
      {
        loginEmail: email,
        loginPassword: await hashPassword(password),
        passwordVersion: 2,
        captchaType: 3,
        ...LOGIN_CLIENT,
        ...extra,
      },
      options,
    );
  /** Signs `email` in with its password: the session cookie and the sign-in answer (expected to succeed). */
  const signIn = async <T = Record<string, unknown>>(email: string, password = 'Harbour2024') => {
    const res = await emailLogin(email, password);
    const body = await json<T>(res);
    expect(body.code, `sign-in of ${email}`).toBe('0');
    return { cookie: sessionCookie(res), answer: body.data };
  };
  /** A person seeded with `fields` and the password Harbour2024, signed in. */
  const person = async <T = Record<string, unknown>>(fields: Record<string, unknown> = {}, email = `person.${unique()}@example.com`) => {
    const userId = await seed({ email, password: 'Harbour2024', ...fields });
    return { email, userId, ...(await signIn<T>(email)) };
  };
  /** Messages to one recipient, newest first. */
  const outbox = async (to: string) =>
    (await json<{ subject: string; text: string }[]>(await get(`/dev/outbox?to=${encodeURIComponent(to)}`))).data;
  /** The newest one-time code sent to `to`. */
  const latestCode = async (to: string) => /\b(\d{4,8})\b/.exec((await outbox(to))[0]!.text)![1]!;
  /** The slider the dev reveal solves: what a person would send to verify (session, x, a human trail, proof of work). */
  const sliderAnswer = async (scene: 'sms' | 'login', subject: string) => {
    const challenge = await json<{ sessionId: string; pow: PowChallenge }>(await post('/agg-web/captcha/slider/init', { scene, subject }));
    expect(challenge.code, `slider init for ${subject}`).toBe('0');
    const { sessionId } = challenge.data;
    const { x } = (await json<{ x: number }>(await get(`/dev/captcha/${sessionId}`))).data;
    const trail: [number, number][] = [0, 0.2, 0.45, 0.7, 0.85, 0.95, 1].map((p, i) => [i * 60 + (i % 2) * 15, Math.round(x * p)]);
    return { sessionId, x, trail, pow: await solvePow(challenge.data.pow) };
  };
  /**
   * A passed slider check for `subject` in `scene`, dragged the way a person would to the x the dev reveal
   * gives (the one place function tests pass the human check; follow the captcha here when it changes).
   */
  const sliderCheck = async (scene: 'sms' | 'login', subject: string) => {
    const verified = await json(await post('/agg-web/captcha/slider/verify', await sliderAnswer(scene, subject)));
    expect(verified.code, `slider verify for ${subject}`).toBe('0');
    return verified.data;
  };
  return { unique, mobile, ip, call, post, postRaw, get, throughGateway, json, read, readAll, sessionCookie, seed, emailLogin, signIn, person, outbox, latestCode, sliderAnswer, sliderCheck };
}

/**
 * The setup every function test file shares: its own worker env `name` (with `vars`), started before the
 * file's tests and disposed after them, and a client on it. Both are the file's from the first line; the
 * worker's env and ctx are filled in before the first test runs.
 */
export function useWorkerEnv(name: string, vars?: Record<string, unknown>, client?: ClientOptions) {
  const worker = {} as Worker;
  beforeAll(async () => {
    Object.assign(worker, await startWorkerEnv(name, vars));
  });
  afterAll(() => worker.dispose());
  return { worker, api: gatewayClient(worker, client) };
}

/** Statuses whose answer has no body at all (a Response refuses one). */
const NULL_BODY_STATUSES = [101, 204, 205, 304];

/**
 * The answer with its body read to the end: a buffered copy with the same status and headers, whose text can
 * still be read. A test that checks only the status or the headers leaves no body streaming past its end.
 */
export async function readToEnd(res: Response): Promise<Response> {
  const body = await res.arrayBuffer();
  return new Response(NULL_BODY_STATUSES.includes(res.status) ? null : body, res);
}

/** The status of an answer, its body cancelled: for a test that asks nothing else of it. */
export async function statusOf(answer: Response | Promise<Response>): Promise<number> {
  const res = await answer;
  await res.body?.cancel();
  return res.status;
}

/**
 * A multipart body as bytes with its Content-Type. A FormData body is a stream that undici is still writing
 * when the gateway refuses it half-way, which leaves an unhandled "ReadableStream is already closed"; bytes
 * that are all there before the call have no such race.
 */
export async function bufferedForm(form: FormData): Promise<{ body: Uint8Array; headers: { 'content-type': string } }> {
  const encoded = new Response(form);
  return { body: new Uint8Array(await encoded.arrayBuffer()), headers: { 'content-type': encoded.headers.get('content-type')! } };
}
