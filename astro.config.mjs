// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import { legalMarkdownProcessor } from './scripts/legal-values-plugin.ts';

// Every page is pre-rendered once per language (src/pages/[locale]/…); the Worker in functions/
// picks the shell for the visitor's language and serves it at the exact route, so the build is static.
export default defineConfig({
  output: 'static',
  build: { format: 'file', inlineStylesheets: 'auto' },
  integrations: [react()],
  trailingSlash: 'never',
  // The legal texts write `{{name}}` for the operator's identity and the other values legal fills in once, in
  // content/legal/operator.yaml (read and checked here: a bad file fails the build naming the field).
  markdown: { processor: legalMarkdownProcessor() },
  // Every page carries a CSP <meta> whose script-src is 'self' plus the hash of each inline script Astro
  // writes (the island loader), so a script injected into a page never runs. Styles keep 'unsafe-inline':
  // server-rendered islands carry style attributes, and styles cannot run code. The edge's header adds what a
  // meta tag cannot carry (frame-ancestors) and object-src, base-uri and form-action (functions/edge/headers.ts).
  // The slider's proof of work runs in Web Workers built as files of this site (worker-src 'self'; none is made
  // from a blob). Cloudflare's Turnstile script is allowed for CAPTCHA_PROVIDER "turnstile", a runtime choice the
  // pre-rendered pages cannot know; it is only fetched when a Turnstile check opens.
  security: {
    csp: {
      directives: ["worker-src 'self'"],
      scriptDirective: { resources: ["'self'", 'https://challenges.cloudflare.com'] },
      styleDirective: { resources: ["'self'", "'unsafe-inline'"] },
    },
  },
  vite: {
    build: {
      rolldownOptions: {
        output: {
          // React, its JSX runtime, react-dom and Astro's React renderer load on every island page anyway: one
          // chunk instead of four saves the per-file gzip overhead (about 0.9 KB a page; tests/e2e/budgets.spec.ts).
          codeSplitting: {
            groups: [
              { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|@astrojs[\\/]react)[\\/]/ },
              // zod, the envelope parser and the sign-in contracts: one chunk, which /login loads only once its form is
              // used and the other island pages at once (split by entry sets, it cost those pages about 1.2 KB). The
              // zod-free values the sign-in form needs from the start stay out of it (a higher priority claims them).
              { name: 'gateway', test: /node_modules[\\/]zod[\\/]|src[\\/]api[\\/](client|auth)\.ts|src[\\/]schemas[\\/](checked|envelope|auth)\.ts/ },
              { name: 'rules', test: /src[\\/](api[\\/]result|schemas[\\/]auth-rules)\.ts/, priority: 1 },
            ],
          },
        },
      },
    },
  },
});
