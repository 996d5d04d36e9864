import { handle as renderWithAstro } from '@astrojs/cloudflare/handler';
import production, { createWorker } from './worker';
import type { ShellSource } from './edge/shells';

/**
 * The Worker of `npm run dev` (astro.config.mjs puts it in place of wrangler.toml's `main` under `astro dev`
 * only): the same composition root as production, with every shell rendered by Astro's dev server from
 * src/pages/[locale]/… instead of read from dist/, so a saved page or island shows on reload.
 */
const astroShells: ShellSource = (url, init, c) =>
  // Hono types the context narrower than workerd does; it is the runtime's own object.
  renderWithAstro(new Request(url, init), c.env, c.executionCtx as ExecutionContext);

const worker = createWorker({ shells: astroShells });

/**
 * Vite's own URLs: its client, modules by id or file (Astro names an island by its path under the project
 * root), dependencies. wrangler.toml's `run_worker_first` sends every path to the Worker; in dev the ASSETS
 * binding is Vite's middleware, so these go back to it.
 */
const projectRoot = new URL('..', import.meta.url).pathname;

declare global {
  // Vite's module runner gives every module its file URL; the generated runtime types leave `url` out.
  interface ImportMeta {
    url: string;
  }
}
const vitePrefixes = ['/@vite/', '/@id/', '/@fs/', '/@react-refresh', '/node_modules/', '/src/', projectRoot];

function isViteUrl(request: Request): boolean {
  const { pathname } = new URL(request.url);
  return vitePrefixes.some((prefix) => pathname.startsWith(prefix));
}

// The Durable Object classes of wrangler.toml must be exported by the entry workerd runs, in dev as in the build.
export { DeliveryBreaker } from './gateway/delivery/breaker';

export default {
  fetch: (request, env, ctx) => (isViteUrl(request) ? env.ASSETS.fetch(request) : worker.fetch(request, env, ctx)),
  scheduled: production.scheduled,
} satisfies ExportedHandler<Env>;
