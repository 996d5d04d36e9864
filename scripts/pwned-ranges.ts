// The Pwned Passwords range format (issue 44), for the importer (scripts/pwned-import.mjs) and the tests: one file
// per 5-hex SHA-1 prefix, lines `SUFFIX:COUNT` (35 upper-case hex, a decimal count), sorted by suffix. The Worker
// reads them from R2 under `range/<PREFIX>` (functions/gateway/identity/breached-passwords.ts) beside a manifest
// `{ version, count }`. Runs in Node as it is (type stripping): it imports only node:crypto.
import { createHash } from 'node:crypto';

export const RANGE_KEY_PREFIX = 'range/';
export const MANIFEST_KEY = 'manifest.json';

export interface Manifest {
  /** The source's version as the operator names it (the download's date, say), or "synthetic". */
  version: string;
  /** Hashes imported, across every range. */
  count: number;
  ranges: number;
  importedAt: string;
}

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex').toUpperCase();

/**
 * A range file as it is downloaded (CRLF or LF, any case, padding entries of count 0), as the Worker reads it: upper
 * case, LF, sorted, without zero counts. Throws on a line that is not `35 hex:count`.
 */
export function normaliseRange(text: string): { text: string; count: number } {
  const lines: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const match = /^([0-9A-Fa-f]{35}):(\d{1,12})$/.exec(line);
    if (!match) throw new Error(`not a range line: ${line.slice(0, 60)}`);
    if (Number(match[2]) === 0) continue;
    lines.push(`${match[1]!.toUpperCase()}:${Number(match[2])}`);
  }
  lines.sort();
  return { text: lines.join('\n'), count: lines.length };
}

/** Range files for passwords with their counts: `{ PREFIX: text }`. */
export function rangesOf(entries: ReadonlyArray<readonly [password: string, count: number]>): Map<string, string> {
  const byPrefix = new Map<string, string[]>();
  for (const [password, count] of entries) {
    const hash = sha1(password);
    const lines = byPrefix.get(hash.slice(0, 5)) ?? [];
    lines.push(`${hash.slice(5)}:${count}`);
    byPrefix.set(hash.slice(0, 5), lines);
  }
  return new Map([...byPrefix].map(([prefix, lines]) => [prefix, normaliseRange(lines.join('\r\n')).text]));
}

/**
 * The small synthetic set the repository's tests use (never the real one): made-up passwords with known counts, each
 * range padded with random suffixes so a range looks like a real one.
 */
export const SYNTHETIC_BREACHED: ReadonlyArray<readonly [string, number]> = [
  ['Breached2024', 52_113],
  ['Harbour1999', 7],
  ['Leaked7777', 1_204],
  ['Seldom2023x', 2],
];

export function syntheticRanges(): Map<string, string> {
  const ranges = rangesOf(SYNTHETIC_BREACHED);
  for (const [prefix, text] of ranges) {
    const padding = Array.from({ length: 40 }, (_, i) => `${createHash('sha1').update(`${prefix}-${i}`).digest('hex').toUpperCase().slice(0, 35)}:${i + 1}`);
    ranges.set(prefix, normaliseRange([text, ...padding].join('\n')).text);
  }
  return ranges;
}
