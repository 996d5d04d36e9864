import { expect } from 'vitest';
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
  return { unique, ip, call, post, json, sessionCookie, seed, outbox };
}
