#!/usr/bin/env node
// The import rules of the architecture (docs: "Import rules"), checked on the source text so `npm run check`
// fails on a violation: the edge and the gateway never import each other's modules (both import
// functions/contract.ts), functions/ takes from src/ only src/schemas and src/lib, and a capability's db.ts
// imports no service. functions/worker.ts, the composition root, may import both sides.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const functionsDir = join(root, 'functions');

/** Every .ts file under `dir`. */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

// `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')`, over several lines too.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;

/** Why `target` (a path relative to the repository) may not be imported by `file`, or null. */
function violation(file, target) {
  const area = (path) => path.split('/').slice(0, 2).join('/');
  const from = area(file);
  if (file === 'functions/worker.ts') return null;
  if (from === 'functions/edge' && target.startsWith('functions/gateway/')) return 'the edge imports no gateway module';
  if (from === 'functions/gateway' && target.startsWith('functions/edge/')) return 'the gateway imports no edge module';
  if (/^functions\/gateway\/[^/]+\/db$/.test(file.replace(/\.ts$/, '')) && !DB_MAY_IMPORT.some((allowed) => allowed.test(target))) {
    return "a capability's db.ts imports only db files, the identity core, src/schemas, src/lib, contract.ts and errors.ts";
  }
  if (target.startsWith('src/') && !target.startsWith('src/schemas/') && !target.startsWith('src/lib/') && !ALLOWED_FOR_NOW.has(`${file} -> ${target}`)) {
    return 'functions/ imports from src/ only src/schemas and src/lib';
  }
  return null;
}

// A db file holds SQL and the shapes of its rows; the rules over them live in the capability's other files.
const DB_MAY_IMPORT = [
  /^functions\/gateway\/[^/]+\/db$/,
  /^functions\/gateway\/identity\//,
  /^src\/(schemas|lib)\//,
  /^functions\/contract$/,
  /^functions\/gateway\/errors$/,
];

// The Worker's own small dictionary (the few texts the edge renders, composed from the same area files the
// pages use) is the one exception, named so that no second one slips in.
const ALLOWED_FOR_NOW = new Set(['functions/edge/handoff.ts -> src/i18n/worker']);

const problems = [];
for (const path of sources(functionsDir)) {
  const file = relative(root, path);
  const text = readFileSync(path, 'utf8');
  for (const [, specifier] of text.matchAll(SPECIFIER)) {
    if (!specifier.startsWith('.')) continue;
    const target = relative(root, resolve(dirname(path), specifier)).replace(/\.ts$/, '');
    const why = violation(file, target);
    if (why) problems.push(`${file}: imports ${specifier} (${why})`);
  }
}

if (problems.length) {
  console.error(`import rules broken:\n${problems.join('\n')}`);
  process.exit(1);
}
