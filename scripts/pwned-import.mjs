// `npm run pwned:import -- <dir> [--version <name>] [--remote] [--env <staging|production>]` (issue 44): turns
// downloaded Pwned Passwords range files (<dir>/<PREFIX>.txt, as the official downloader writes them, or the repository's
// synthetic set with `--synthetic`) into R2 objects `range/<PREFIX>` of the PWNED bucket and a manifest
// (`manifest.json`: version, count, ranges). Local by default (the local R2 of `wrangler dev`); `--remote` writes the
// deployed bucket. Nothing is sent anywhere else; README "Offline breached-password check" says how an operator
// imports the real set.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MANIFEST_KEY, normaliseRange, RANGE_KEY_PREFIX, syntheticRanges } from './pwned-ranges.ts';

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name) => (args.indexOf(name) >= 0 ? args[args.indexOf(name) + 1] : undefined);
const remote = flag('--remote');
const env = option('--env');
const persist = option('--persist-to');
const dir = args.find((arg, i) => !arg.startsWith('--') && !['--version', '--env', '--persist-to'].includes(args[i - 1]));

/** The ranges to write: the synthetic set, or every <PREFIX>.txt of the directory. */
function* ranges() {
  if (flag('--synthetic')) {
    yield* syntheticRanges();
    return;
  }
  if (!dir) throw new Error('usage: npm run pwned:import -- <dir> [--version <name>] [--remote] [--env <name>] | --synthetic');
  for (const name of readdirSync(dir).sort()) {
    const match = /^([0-9A-Fa-f]{5})(?:\.txt)?$/.exec(name);
    if (!match) continue;
    yield [match[1].toUpperCase(), normaliseRange(readFileSync(join(dir, name), 'utf8')).text];
  }
}

const bucket = env ? `pwned-passwords-${env}` : 'pwned-passwords';
const where = [remote ? '--remote' : '--local', ...(env ? ['--env', env] : []), ...(persist ? ['--persist-to', persist] : [])];
const scratch = mkdtempSync(join(tmpdir(), 'pwned-'));
const put = (key, file, type) =>
  execFileSync('npx', ['wrangler', 'r2', 'object', 'put', `${bucket}/${key}`, '--file', file, '--content-type', type, ...where], { stdio: 'ignore' });
let count = 0;
let written = 0;
try {
  for (const [prefix, text] of ranges()) {
    const file = join(scratch, prefix);
    writeFileSync(file, text);
    put(`${RANGE_KEY_PREFIX}${prefix}`, file, 'text/plain');
    count += text ? text.split('\n').length : 0;
    written++;
    if (written % 1000 === 0) console.log(`pwned:import: ${written} ranges`);
  }
  const manifest = { version: option('--version') ?? (flag('--synthetic') ? 'synthetic' : 'unnamed'), count, ranges: written, importedAt: new Date().toISOString() };
  writeFileSync(join(scratch, 'manifest.json'), JSON.stringify(manifest));
  put(MANIFEST_KEY, join(scratch, 'manifest.json'), 'application/json');
  console.log(`pwned:import: ${written} ranges, ${count} hashes into ${bucket} (${remote ? 'remote' : 'local'}), version ${manifest.version}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
