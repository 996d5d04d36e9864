import { describe, expect, it } from 'vitest';
import { opsShells } from '../../src/lib/routes';
import { DIST_ASSETS } from './built-site';
import { readToEnd, useWorkerEnv } from './gateway-client';

/**
 * The operators' console pages as the Worker serves them (the built site, dist/, as its asset server): no search
 * engine lists or follows them, and a visitor without the operator cookie, a platform session included, is sent
 * to the operator sign-in with the page as the return path. What an operator then sees is the browser's
 * (tests/e2e/ops-auth.spec.ts).
 */
const { worker, api } = useWorkerEnv('ops-pages', { ASSETS: DIST_ASSETS });

/** A page request of a browser, through the whole Worker, answered without following redirects and read to the end. */
async function visit(path: string, headers: Record<string, string> = {}) {
  const { default: app } = await import('../../functions/worker');
  const answer = await app.request(`http://127.0.0.1${path}`, { headers, redirect: 'manual' }, worker.env, worker.ctx);
  await worker.settle();
  return readToEnd(answer);
}

describe('operator pages', () => {
  it('answer noindex, nofollow: /ops/login and /ops/enrol, in each language', async () => {
    for (const path of ['/ops/login', '/ops/enrol'])
      for (const lang of ['zh', 'en']) {
        const res = await visit(path, { cookie: `LANG=${lang}` });
        expect(res.status, path).toBe(200);
        expect(res.headers.get('x-robots-tag'), path).toBe('noindex, nofollow');
      }
  });

  it('send a visitor without the operator cookie to the operator sign-in, a platform session too', async () => {
    const person = await api.person();
    const pages = opsShells.filter((shell) => shell !== 'ops/login' && shell !== 'ops/enrol').map((shell) => `/${shell}`);
    expect(pages).toContain('/ops/operators');
    for (const path of pages)
      for (const headers of [{}, { cookie: person.cookie }] as Record<string, string>[]) {
        const res = await visit(path, headers);
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(302);
        expect(res.headers.get('location'), path).toBe(`/ops/login?next=${encodeURIComponent(path)}`);
        expect(res.headers.get('cache-control'), path).toBe('no-store');
      }
  });
});
