import { createWorker } from '../../functions/worker';
import { LOGIN_CLIENT } from '../../src/schemas/auth';
import { hashPassword } from '../../src/lib/password-hash';
import { useWorkerEnv, type Envelope } from './gateway-client';

/**
 * The set-up the new-device challenge's tests share (issue 44: tests/functions/new-device.test.ts and
 * device-trust.test.ts): a worker env with NEW_DEVICE_CHALLENGE on, the whole Worker (edge cookies included) on a
 * clock the file moves, and the calls and cookie helpers of a password sign-in from a device and its code.
 */
export const PASSWORD = 'Harbour2026';

export type Opts = { cookie?: string; from?: string; country?: string; env?: Record<string, string> };

export const json = <T = Record<string, unknown>>(res: Response) => res.json() as Promise<Envelope<T>>;
export const cookieValue = (res: Response, name: string) => new RegExp(`(?:^|\\n)${name}=([^;]*)`).exec(res.headers.getSetCookie().join('\n'))?.[1];
/** The cookie `name` an answer set, as a request sends it (`name=value`), if it set one. */
export const named = (res: Response, name: string) => {
  const value = cookieValue(res, name);
  return value ? `${name}=${value}` : undefined;
};
/** The Cookie header of the cookies given. */
export const jar = (...cookies: (string | undefined)[]) => cookies.filter(Boolean).join('; ') || undefined;

/** Starts the file's worker env (named `name`) before its tests; the Worker reads the time from `clock`. */
export function useDeviceChallenge(name: string, clock: () => number) {
  const { worker, api } = useWorkerEnv(name, { NEW_DEVICE_CHALLENGE: 'true' });
  const app = createWorker({ clock });
  /** `/path` is a gateway call through `/api`; a full URL is any page. Redirects are answered, not followed. */
  const call = (path: string, init: RequestInit = {}, env: Record<string, string> = {}) =>
    app.request(path.startsWith('/') ? `http://localhost/api${path}` : path, { redirect: 'manual', ...init }, { ...worker.env, ...env }, worker.ctx);
  const post = (path: string, body: unknown, { cookie, from = api.ip(), country, env }: Opts = {}) =>
    call(
      path,
      { method: 'POST', headers: { 'content-type': 'application/json', 'cf-connecting-ip': from, ...(cookie ? { cookie } : {}), ...(country ? { 'x-debug-country': country } : {}) }, body: JSON.stringify(body) },
      env,
    );
  const passwordSignIn = async (email: string, opts: Opts = {}) =>
    post('/agg-web/user/v3/userLogin', { loginEmail: email, loginPassword: await hashPassword(PASSWORD), passwordVersion: 2, captchaType: 3, ...LOGIN_CLIENT }, opts);
  /** The newest code sent to `email`, once the Worker's after-the-answer work has settled. */
  const latestCode = async (email: string) => {
    await worker.settle();
    return api.latestCode(email);
  };
  /** How many messages `email` has received, settled likewise. */
  const codesTo = async (email: string) => {
    await worker.settle();
    return (await api.outbox(email)).length;
  };
  return { worker, api, call, post, passwordSignIn, latestCode, codesTo };
}
