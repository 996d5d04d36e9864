import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The built site (dist/, `npm run build`, which `npm test` runs before the function tests) for the tests that
 * read the pages as shipped. Importing this module fails at once, with what to do, when there is no build.
 */
export const DIST = 'dist';
if (!existsSync(join(DIST, 'en', 'login.html'))) throw new Error('these function tests read the built pages: run `npm run build` first');

const TYPES: Record<string, string> = { html: 'text/html; charset=utf-8', js: 'text/javascript', css: 'text/css', svg: 'image/svg+xml', txt: 'text/plain' };

/** The asset server of wrangler.toml's [assets] on dist/: `/en/login` is dist/en/login.html, anything missing a 404. */
export const DIST_ASSETS = {
  fetch: async (input: RequestInfo | URL) => {
    const { pathname } = new URL(String(input instanceof Request ? input.url : input));
    const file = [join(DIST, `${pathname}.html`), join(DIST, pathname)].find((path) => existsSync(path) && statSync(path).isFile());
    if (!file) return new Response('not found', { status: 404 });
    return new Response(readFileSync(file), { headers: { 'content-type': TYPES[file.split('.').pop()!] ?? 'application/octet-stream' } });
  },
} as unknown as Fetcher;
