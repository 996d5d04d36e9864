// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import { fileURLToPath } from 'node:url';
import { legalMarkdownProcessor } from './scripts/legal-values-plugin.ts';
import { PRELOAD_HELPER_ID, preloadHelper } from './scripts/preload-helper.mjs';
import { islandPreload } from './scripts/island-preload.mjs';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

// The support banner's inline script (issue 44, src/layouts/PortalLayout.astro): allowed by its hash, like the scripts
// Astro writes itself, so the CSP still lets no other inline script run.
const supportBannerHash = `sha256-${createHash('sha256').update(readFileSync(new URL('./src/lib/support-banner.inline.js', import.meta.url), 'utf8')).digest('base64')}`;

// `npm run dev` (`astro dev`) runs the Worker in workerd through @astrojs/cloudflare; the build never loads the
// adapter, which would move the output to dist/client + dist/server and change what `npm start` and the tests serve.
const astroCommand = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
const devOnWorkerd = astroCommand === 'dev' ? await workerdDevServer() : { integrations: [], plugins: [], alias: [] };

/**
 * The adapter runs wrangler.toml's Worker, with its D1, R2 and vars, inside `astro dev`. Its entry becomes
 * functions/dev-entry.ts, the same Hono app with Astro's renderer for the shells. The override answers the
 * Cloudflare Vite plugin's internal id of the Worker's entry, which is why package.json pins the adapter exactly.
 */
async function workerdDevServer() {
  const { default: cloudflare } = await import('@astrojs/cloudflare');
  const devEntry = fileURLToPath(new URL('./functions/dev-entry.ts', import.meta.url));
  return {
    // The pages use no astro:assets images: no Cloudflare Images binding for them.
    integrations: [cloudflare({ imageService: 'passthrough' })],
    plugins: [
      {
        name: 'portal:dev-entry',
        enforce: /** @type {const} */ ('pre'),
        resolveId(/** @type {string} */ id) {
          return id === 'virtual:cloudflare/user-entry' ? devEntry : undefined;
        },
      },
    ],
    // The package's Node entry `require`s its files at run time, which workerd cannot; wrangler's bundler picks
    // the browser entry by itself.
    alias: [{ find: /^i18n-iso-countries$/, replacement: 'i18n-iso-countries/index.js' }],
  };
}

// Every page is pre-rendered once per language (src/pages/[locale]/…); the Worker in functions/
// picks the shell for the visitor's language and serves it at the exact route, so the build is static.
export default defineConfig({
  output: 'static',
  // Every page's CSS is written into its HTML (issue 46): a page paints as soon as its HTML arrives, before its
  // module scripts, instead of after two stylesheet requests. Lighthouse's mobile simulation then leaves the scripts
  // out of first paint; with linked stylesheets /user_center and /create_account scored 98-99 (FCP 1.4-1.6 s). Each
  // page's HTML grows by about 5.5 KB gzip; the stylesheets were 8 KB in two requests.
  build: { format: 'file', inlineStylesheets: 'always' },
  integrations: [...devOnWorkerd.integrations, react(), islandPreload()],
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
      scriptDirective: { resources: ["'self'", 'https://challenges.cloudflare.com'], hashes: [/** @type {`sha256-${string}`} */ (supportBannerHash)] },
      styleDirective: { resources: ["'self'", "'unsafe-inline'"] },
    },
  },
  vite: {
    plugins: [
      ...devOnWorkerd.plugins,
      {
        name: 'portal:small-preload-helper',
        enforce: /** @type {const} */ ('pre'),
        apply: 'build',
        load(/** @type {string} */ id) {
          return id === PRELOAD_HELPER_ID ? preloadHelper : undefined;
        },
      },
    ],
    resolve: { alias: devOnWorkerd.alias },
    build: {
      rolldownOptions: {
        // Imported constants inlined where they are read: a store's `ERR.X` (src/schemas/error-names.ts, one constant
        // per catalogue code) becomes the code itself, so no page loads a chunk of code names (issue 40).
        optimization: { inlineConst: { mode: 'all', pass: 1 } },
        output: {
          // React, its JSX runtime, react-dom and Astro's React renderer load on every island page anyway: one
          // chunk instead of four saves the per-file gzip overhead (about 0.9 KB a page; tests/e2e/budgets.spec.ts).
          codeSplitting: {
            groups: [
              // What every page runs (the layout's script: header, language, session marker, tracking) and the preload
              // helper: one small chunk rather than eight (issue 31; each file costs its own gzip overhead). The 404 page,
              // which sends no tracking, loads it too and stays within its 3 KB (about 2.5 KB).
              {
                name: 'layout',
                test: /src[\\/]lib[\\/](header-script|lang|read-cookie|session-marker|error-reporting-lazy|tracking)\.ts|src[\\/]schemas[\\/]tracking\.ts|vite[\\/]preload-helper/,
                priority: 3,
              },
              // With them the small modules nearly every island reads at once (nanostores, the form store, problems and
              // their words, the return path): merged, they cost about a third less than as separate files. The return
              // path (src/lib/return-path.ts) must stay out of the gateway chunk: routes.ts, a dependency of the gateway
              // client, re-exports it, and the sign-in form reads it on arrival (without this, /login loaded zod).
              {
                name: 'react',
                test: /node_modules[\\/](react|react-dom|scheduler|@astrojs[\\/]react|nanostores|@nanostores[\\/]react)[\\/]|src[\\/](stores[\\/](form|browser|dialog)|lib[\\/](kept-forms|return-path)|i18n[\\/](format|problem)|islands[\\/]shared[\\/]use-problems|api[\\/]result|schemas[\\/](auth-rules|trace))\.ts/,
                priority: 2,
              },
              // The sign-in form and what only the sign-in pages read on arrival: one chunk, so /login stays within its
              // 78 KB (issue 31). Other users of these modules (the password reset, the partner sign-in, dialogs
              // that load on a click) are pages with room or loads after a click.
              {
                name: 'sign-in',
                test: /src[\\/](islands[\\/]sign-in[\\/]SignIn\.tsx|stores[\\/]sign-in\.ts|ui[\\/](CodeButton|TabList)\.tsx|lib[\\/](webauthn-support|wechat-start|reset-hand-over|remembered-sign-in)\.ts)/,
                priority: 1,
              },
              // The form fields most forms use (and the password hash the password forms need): one chunk of about 1.5 KB
              // rather than six small ones.
              { name: 'fields', test: /src[\\/](ui[\\/](FieldFrame|TextField|PasswordInput|PhoneField|use-area-codes)\.tsx?|lib[\\/]password-hash\.ts)/, priority: 2 },
              // A company's statuses and types without their contracts (schemas/company-status.ts): its own small chunk, so the
              // companies group below, which reads it, does not take it in.
              { name: 'company-status', test: /src[\\/]schemas[\\/](company-status|invitation-code)\.ts/, priority: 1 },
              // Where a page puts "Confirm it's you" and the state it shows: one chunk on the pages that may ask. With it the
              // e-mail address that breaks after its "@", which the user center paints at once (a file of its own cost that
              // page about 0.1 KB, issue 46) and the pages that ask again show.
              { name: 'step-up-slot', test: /src[\\/](islands[\\/]shared[\\/]StepUpSlot\.tsx|stores[\\/]step-up-state\.ts|ui[\\/]EmailAddress\.tsx)/, priority: 1 },
              // zod, the envelope parser, the gateway client and the signed-in account's calls (its company list, signing
              // out): one chunk, which /login loads only once its form is used and the other island pages at once (split
              // by entry sets, it cost those pages about 1.2 KB). The sign-in contracts (schemas/auth.ts, api/auth.ts)
              // stay out of it: the signed-in pages do not call them (issue 31). The zod-free values the sign-in form
              // needs from the start stay out of it too (a higher priority claims them). lib/load-once.ts (the join form,
              // the company form, its uploads and the user center load their later code through it) is here rather than
              // a file of its own: 8 to 35 bytes on each signed-in page instead of about 95 on the pages using it.
              { name: 'gateway', test: /node_modules[\\/]zod[\\/]|src[\\/]api[\\/](client|account)\.ts|src[\\/]schemas[\\/](checked|envelope|company-list|contact-fields|display-text)\.ts|src[\\/]lib[\\/]load-once\.ts/ },
              // The members' contract (the user center reads it at once; the company's detail reads its role names): its own
              // chunk, claimed before the company-fill group below, which would otherwise take it in.
              { name: 'company-members', test: /src[\\/]schemas[\\/]company-members\.ts/ },
              // What /fill_account reads at once about the company it completes (its detail's call and contract, the form's
              // filling): one chunk, not three (issue 46: about 0.3 KB of per-file overhead on a page at its budget). After
              // the gateway group, at its priority, so that zod stays in the gateway chunk.
              { name: 'company-fill', test: /src[\\/](api[\\/]company-detail|schemas[\\/]company-detail|stores[\\/]company-fill)\.ts/ },
              // The members' contract (the user center reads it at once; the company's detail reads its role names): its own
              // chunk, claimed before the company-fill group below, which would otherwise take it in.
              { name: 'company-members', test: /src[\\/]schemas[\\/]company-members\.ts/ },
              // What /fill_account reads at once about the company it completes (its detail's call and contract, the form's
              // filling): one chunk, not three (issue 46: about 0.3 KB of per-file overhead on a page at its budget). After
              // the gateway group, at its priority, so that zod stays in the gateway chunk.
              { name: 'company-fill', test: /src[\\/](api[\\/]company-detail|schemas[\\/]company-detail|stores[\\/]company-fill)\.ts/ },
              // What a sign-in answers and the login case (/change_password reads them at once), then the sign-in calls and
              // their contracts (loaded once a sign-in form is used): a chunk each, not two each, because every lazy file
              // is named in the sign-in chunk's preload list (/login is within a few bytes of its 78 KB). After the
              // gateway group, at its priority, so zod stays there; the answers before the calls, which import them.
              { name: 'answers', test: /src[\\/](schemas[\\/]sign-in-answers|api[\\/]login-case)\.ts/ },
              { name: 'auth', test: /src[\\/](schemas|api)[\\/]auth\.ts/ },
              // A call group's api and contracts in one chunk, not two (two-step, passkeys, WeChat, the area codes): one file
              // fewer wherever they load, and one name fewer in the sign-in chunk's preload list.
              { name: 'two-step', test: /src[\\/](schemas|api)[\\/]two-step\.ts/ },
              { name: 'passkeys', test: /src[\\/](schemas|api)[\\/]passkeys\.ts/ },
              { name: 'wechat', test: /src[\\/](schemas|api)[\\/]wechat\.ts/ },
              { name: 'dictionaries', test: /src[\\/](schemas|api)[\\/]dictionaries\.ts/ },
              // What the pages a sign-in lands on (the account choice, the user center) paint about companies at once: a
              // company's standing, the closing banner's slot and state, the role-list cookie. One chunk, not six small ones
              // (issue 31); the operators' review pages, which read the labels, load it too. After the gateway group, at
              // its priority, so that zod stays in the gateway chunk. The zod-free company-status.ts the labels read
              // is claimed first by a group of its own (the join, company and enterprise-choice forms read it alone).
              {
                name: 'companies',
                test: /src[\\/](islands[\\/](account-choice[\\/](labels\.ts|CompanyStanding\.tsx)|shared[\\/]ClosingBannerSlot\.tsx)|stores[\\/]closure\.ts|lib[\\/](write-cookie|role-list-cache)\.ts|api[\\/]data-rights\.ts|schemas[\\/]data-rights\.ts)/,
              },
              // What the user center reads at once: its store, the person's and the members' calls, the profile's contract.
              // One chunk, not two (issue 46: the page is at its 95 KB); nothing else loads them. Last, so
              // that the groups above keep what they share with it.
              { name: 'user-center', test: /src[\\/](stores[\\/]user-center|api[\\/](me|company-members)|schemas[\\/]profile)\.ts/ },
            ],
          },
        },
      },
    },
  },
});
