#!/usr/bin/env node
// The import rules of the architecture (docs: "Import rules"), checked on the source text so `npm run check`
// fails on a violation: the edge and the gateway never import each other's modules (both import
// functions/contract.ts), functions/ takes from src/ only src/schemas and src/lib, and a capability's db file
// imports no service. In the gateway (issue 40): the identity core imports nothing above it, a route never
// imports another capability's db, and nothing but a route or app.ts imports a route.
// functions/worker.ts, the composition root, may import both sides.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// The repository to check: this one, or the folder named by the first argument (tests/unit/import-rules.test.ts).
const root = resolve(process.argv[2] ?? resolve(import.meta.dirname, '..'));
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
  if (from === 'functions/gateway') {
    const why = gatewayViolation(file.replace(/\.ts$/, ''), target);
    if (why) return why;
  }
  if (isDbFile(file.replace(/\.ts$/, '')) && !DB_MAY_IMPORT.some((allowed) => allowed.test(target))) {
    return "a capability's db file imports only db files, the identity core, src/schemas, src/lib, contract.ts and errors.ts";
  }
  if (target.startsWith('src/') && !target.startsWith('src/schemas/') && !target.startsWith('src/lib/') && !ALLOWED_FOR_NOW.has(`${file} -> ${target}`)) {
    return 'functions/ imports from src/ only src/schemas and src/lib';
  }
  return null;
}

// A db file holds SQL and the shapes of its rows; the rules over them live in the capability's other files.
const DB_MAY_IMPORT = [
  /^functions\/gateway\/[^/]+\/([^/]+-)?db$/,
  /^functions\/gateway\/identity\//,
  /^src\/(schemas|lib)\//,
  /^functions\/contract$/,
  /^functions\/gateway\/errors$/,
];

/** A capability's db file: `db.ts` or `<name>-db.ts` in its folder (the identity core's are under identity/db/). */
const isDbFile = (path) => /^functions\/gateway\/[^/]+\/([^/]+-)?db$/.test(path);
/** A routes file: `routes.ts` or `<name>-routes.ts`. */
const isRoutesFile = (path) => /^functions\/gateway\/.+\/([^/]+-)?routes$/.test(path);
/** The folder under functions/gateway/ (the capability), or null for a file at its top (app.ts, errors.ts, validate.ts). */
const capabilityOf = (path) => path.match(/^functions\/gateway\/([^/]+)\//)?.[1] ?? null;

// What the identity core (functions/gateway/identity/, the ground floor) may import besides itself: nothing of a
// capability above it.
const IDENTITY_MAY_IMPORT = [
  /^functions\/gateway\/identity\//,
  /^functions\/gateway\/errors$/,
  /^functions\/gateway\/generated\//,
  /^functions\/(config|contract|env)$/,
  /^src\/(schemas|lib)\//,
];

/** The gateway's floors (issue 40): the identity core on the ground, routes on top, rules in services. */
function gatewayViolation(file, target) {
  if (!target.startsWith('functions/') && !target.startsWith('src/')) return null;
  const own = capabilityOf(file);
  if (own === 'identity' && !IDENTITY_MAY_IMPORT.some((allowed) => allowed.test(target))) return 'the identity core imports nothing above it';
  if (!target.startsWith('functions/gateway/')) return null;
  const theirs = capabilityOf(target);
  if (isRoutesFile(file) && isDbFile(target) && theirs !== own) return "a route imports its own capability's service, never another capability's db";
  if (isRoutesFile(target) && !isRoutesFile(file) && file !== 'functions/gateway/app') return 'only routes and app.ts import a routes file: a service never imports a route';
  return null;
}

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
