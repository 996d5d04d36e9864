import { expect } from 'vitest';
import { solvePow, type PowChallenge } from './pow-solver';
import type { startWorkerEnv } from './worker-env';

/**
 * The browser's side of the function tests: calls through the whole Worker (edge cookies and headers
 * included) as `/api/...`, dev users, the dev outbox. Each test file starts its own worker env and passes it.
 */
export type Envelope<T = Record<string, unknown>> = { code: string; message: string; data: T };
type Worker = Awaited<ReturnType<typeof startWorkerEnv>>;

export function gatewayClient(worker: Worker, { origin = 'http://localhost' }: { origin?: string } = {}) {
  let seq = 0;
  const unique = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;
  const ip = () => `10.9.${seq % 250}.${(seq++ * 7) % 250}`;
  const call = async (path: string, init: RequestInit = {}) => {
    const { default: app } = await import('../../functions/worker');
    return app.request(`${origin}/api${path}`, init, worker.env, worker.ctx);
  };
  const post = (path: string, body: unknown, { cookie, lang, from = ip() }: { cookie?: string; lang?: 'zh' | 'en'; from?: string } = {}) => {
    const cookies = [cookie, lang && `LANG=${lang}`].filter(Boolean).join('; ');
    const headers: Record<string, string> = { 'content-type': 'application/json', 'cf-connecting-ip': from };
    if (cookies) headers.cookie = cookies;
    return call(path, { method: 'POST', headers, body: JSON.stringify(body) });
  };
  const json = async <T = Record<string, unknown>>(res: Response) => (await res.json()) as Envelope<T>;
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
  /** Messages to one recipient, newest first. */
  const outbox = async (to: string) => (await json<{ subject: string; text: string }[]>(await call(`/dev/outbox?to=${encodeURIComponent(to)}`))).data;
  /**
   * A passed slider check for `subject` in `scene`, dragged the way a person would to the x the dev reveal
   * gives (the one place function tests pass the human check; follow the captcha here when it changes).
   */
  const sliderCheck = async (scene: 'sms' | 'login', subject: string) => {
    const challenge = await json<{ sessionId: string; pow: PowChallenge }>(await post('/agg-web/captcha/slider/init', { scene, subject }));
    expect(challenge.code, `slider init for ${subject}`).toBe('0');
    const { sessionId } = challenge.data;
    const { x } = (await json<{ x: number }>(await call(`/dev/captcha/${sessionId}`))).data;
    const trail = [0, 0.2, 0.45, 0.7, 0.85, 0.95, 1].map((p, i) => [i * 60 + (i % 2) * 15, Math.round(x * p)]);
    const pow = await solvePow(challenge.data.pow);
    const verified = await json(await post('/agg-web/captcha/slider/verify', { sessionId, x, trail, pow }));
    expect(verified.code, `slider verify for ${subject}`).toBe('0');
    return verified.data;
  };
  return { unique, ip, call, post, json, sessionCookie, seed, outbox, sliderCheck };
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
