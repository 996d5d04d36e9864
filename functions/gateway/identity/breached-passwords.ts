import { configOf } from '../../config';
import { GatewayError } from '../errors';
import { ERR } from '../../../src/schemas/error-codes';

/**
 * The offline breached-password check (issue 44), the second half of the password blocklist (passwords.ts holds the
 * common-password set built into the Worker). No third party is on the password path: the Pwned Passwords range files
 * (per 5-hex SHA-1 prefix, lines `SUFFIX:COUNT` with the 35-hex upper-case suffix, sorted) are imported into the
 * PWNED R2 bucket by an operator (`npm run pwned:import`, scripts/pwned-import.mjs) and read here.
 *
 * - The server sees a password only as the browser's SHA-256 (the passwordVersion protocol), and SHA-1 cannot be had
 *   from it: a browser setting, changing or resetting a password sends the new password's SHA-1 too
 *   (`newPasswordSha1`; an unsalted fast hash like the SHA-256 it sends already, so it tells no more). The check
 *   protects a person from their own choice; a client that leaves it out, or lies, only skips it for itself.
 * - A hit with at least PWNED_MIN_COUNT is refused (PW0005). Nothing logs the password, its hashes or its prefix.
 * - Each range read is kept in this isolate for CACHE_MS (at most CACHE_ENTRIES ranges), so a burst of password
 *   changes costs one R2 read per prefix.
 * - An R2 failure accepts the password and logs the failure, unless PWNED_FAIL_CLOSED refuses it (PW0006). A prefix
 *   with no object (nothing imported yet) is no hit.
 */
export const RANGE_KEY_PREFIX = 'range/';
export const MANIFEST_KEY = 'manifest.json';
export const CACHE_MS = 5 * 60 * 1000;
export const CACHE_ENTRIES = 2_000;

export type PwnedEnv = { PWNED: R2Bucket };

const cache = new Map<string, { at: number; range: string }>();

/** The range of one prefix (the empty string when none was imported), through the isolate's cache. */
async function rangeOf(bucket: R2Bucket, prefix: string, at: number): Promise<string> {
  const kept = cache.get(prefix);
  if (kept && at - kept.at < CACHE_MS) return kept.range;
  const object = await bucket.get(`${RANGE_KEY_PREFIX}${prefix}`);
  const range = object ? await object.text() : '';
  cache.delete(prefix);
  cache.set(prefix, { at, range });
  // The oldest entry goes first (a Map keeps insertion order).
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  return range;
}

/** How often `suffix` (35 upper-case hex) appears in a range file; 0 when it does not. */
export function countIn(range: string, suffix: string): number {
  let from = 0;
  for (;;) {
    const found = range.indexOf(`${suffix}:`, from);
    if (found < 0) return 0;
    // Only at the start of a line.
    if (found === 0 || range[found - 1] === '\n') {
      const end = range.indexOf('\n', found);
      return Number.parseInt(range.slice(found + suffix.length + 1, end < 0 ? undefined : end), 10) || 0;
    }
    from = found + 1;
  }
}

/** Empties the isolate's cache (tests that change the bucket under a running Worker). */
export const forgetCachedRanges = () => cache.clear();

/**
 * Whether a password that signed in is in the breach ranges (the sign-in then asks for a change). No `sha1`, or R2
 * failing: false (a sign-in is never refused for the check's sake).
 */
export async function isBreached(env: object, sha1: string | undefined, at: number): Promise<boolean> {
  try {
    await assertNotBreached(env, sha1, at, { failClosed: false });
    return false;
  } catch (error) {
    if (error instanceof GatewayError && error.code === ERR.PASSWORD_BREACHED) return true;
    throw error;
  }
}

/**
 * Refuses a new password whose SHA-1 (`sha1`, 40 hex, from the browser) is in the imported breach ranges at least
 * PWNED_MIN_COUNT times (PW0005). No `sha1`: nothing to check. R2 failing: accepted and logged, or PW0006 when
 * PWNED_FAIL_CLOSED.
 */
export async function assertNotBreached(env: object, sha1: string | undefined, at: number, { failClosed }: { failClosed?: boolean } = {}): Promise<void> {
  if (!sha1) return;
  const hex = sha1.toUpperCase();
  if (!/^[0-9A-F]{40}$/.test(hex)) return;
  const config = configOf(env);
  let count: number;
  try {
    count = countIn(await rangeOf((env as PwnedEnv).PWNED, hex.slice(0, 5), at), hex.slice(5));
  } catch (error) {
    // The reason only: never the prefix, which narrows the password.
    console.error('breached-password check unavailable', error instanceof Error ? error.name : 'error');
    if (failClosed ?? config.pwnedFailClosed) throw new GatewayError(ERR.PASSWORD_CHECK_UNAVAILABLE);
    return;
  }
  if (count >= config.pwnedMinCount) throw new GatewayError(ERR.PASSWORD_BREACHED);
}
