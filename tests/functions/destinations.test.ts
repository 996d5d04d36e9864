import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app from '../../functions/worker';
import { DEV_HANDOFF_KEY, importHandoffKey, openHandoffBlob } from '../../functions/gateway/handoff/blob';
import { createSession } from '../../functions/gateway/sessions/service';
import type { WorkerEnv } from '../../functions/env';
import { startWorkerEnv } from './worker-env';

let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
let token: string;
let userId: string;
beforeAll(async () => {
  worker = await startWorkerEnv('destinations');
  const seeded = await app.request(
    'http://127.0.0.1/api/dev/users',
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'captain@example.com', password: 'harbour2024', userType: 2 }) },
    worker.env,
    worker.ctx,
  );
  userId = ((await seeded.json()) as { data: { userId: string } }).data.userId;
  token = (await createSession(worker.env.DB, { userId, kind: 'platform', now: Date.now() })).token;
});
afterAll(() => worker.dispose());

const go = (path: string, vars: Partial<WorkerEnv> = {}, cookie?: string) =>
  app.request(`http://127.0.0.1${path}`, { headers: cookie ? { cookie } : {} }, { ...worker.env, ...vars }, worker.ctx);

describe('/go destinations', () => {
  it('sends a signed-in person to the local web app page without a blob', async () => {
    const res = await go('/go/web_app', {}, `portal_token=${token}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/user_center');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('hands a signed-in person to another site with a fresh blob for its audience', async () => {
    const vars = { WEB_APP_URL: 'https://app.example.com/home', REDIRECT_ALLOWLIST: 'https://app.example.com' };
    const res = await go('/go/web_app', vars, `portal_token=${token}`);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('https://app.example.com/home');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const opened = await openHandoffBlob(location.searchParams.get('token')!, {
      keys: [await importHandoffKey(DEV_HANDOFF_KEY)],
      audience: 'web-app',
      purpose: 'session',
      now: Date.now(),
    });
    expect(opened.ok && opened.claims.sub).toBe(userId);
  });

  it('adds no blob without a live session', async () => {
    const vars = { WEB_APP_URL: 'https://app.example.com/home', REDIRECT_ALLOWLIST: 'https://app.example.com' };
    const res = await go('/go/web_home', { ...vars, WEB_HOME_URL: 'https://app.example.com/' }, 'portal_token=forged');
    expect(res.headers.get('location')).toBe('https://app.example.com/');
  });

  it('falls back to the portal when the configured target is not allowed', async () => {
    const res = await go('/go/web_app', { WEB_APP_URL: 'https://evil.example/' }, `portal_token=${token}`);
    expect(res.headers.get('location')).toBe('/user_center');
  });
});
