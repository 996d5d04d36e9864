// Module preloads for what each page runs at once (issue 31, Lighthouse). An island's component, its renderer and
// the page's scripts are found by the browser only as the HTML runs, and each of their static imports only once
// that file has arrived: on /user_center four hops of round trips before its first call could start. After the
// build, every page gets a <link rel="modulepreload"> for each of those files and their static imports (never a
// dynamic import: what loads on a click or on scroll stays out), so they all load beside the HTML. The same files
// as before load, no more: tests/e2e/budgets.spec.ts counts them.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Static imports of a built chunk (`import{a}from"./x.js"`, `import"./x.js"`), not `import("./x.js")`. */
const STATIC_IMPORT = /\bimport\s*(?:[\w*{}\s,$]*?\bfrom\s*)?["'](\.\/[^"']+\.js)["']/g;

function staticImports(dir, file, seen) {
  if (seen.has(file)) return;
  seen.add(file);
  let code;
  try {
    code = readFileSync(join(dir, '_astro', file), 'utf8');
  } catch {
    return;
  }
  for (const [, spec] of code.matchAll(STATIC_IMPORT)) staticImports(dir, spec.slice(2), seen);
}

function htmlFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Adds the preloads to one page's HTML; answers it unchanged when it runs no module. */
export function withPreloads(html, dist) {
  const entries = [...html.matchAll(/(?:component-url|renderer-url|src)="\/_astro\/([^"]+\.js)"/g)].map((m) => m[1]);
  if (entries.length === 0) return html;
  const seen = new Set();
  for (const entry of entries) staticImports(dist, entry, seen);
  const links = [...seen].map((file) => `<link rel="modulepreload" href="/_astro/${file}">`).join('');
  return html.replace('</head>', `${links}</head>`);
}

/** The Astro integration: runs once the static pages are written. */
export function islandPreload() {
  return {
    name: 'portal:island-preload',
    hooks: {
      'astro:build:done': ({ dir }) => {
        const dist = fileURLToPath(dir);
        for (const file of htmlFiles(dist)) writeFileSync(file, withPreloads(readFileSync(file, 'utf8'), dist));
      },
    },
  };
}
