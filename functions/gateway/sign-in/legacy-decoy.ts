import type { WorkerEnv } from '../../env';
import { legacyShareNow, readLegacyShare } from './db';
import { hmacSha256, pepperOf } from '../identity/passwords';

/**
 * Legacy records answer SY9990 to a version-2 password (the specification's salt round trip), so that answer
 * alone would tell a legacy account apart from an unknown name on the first probe. An unknown name therefore
 * answers SY9990 too, for a stable keyed share of names equal to the share of legacy records among accounts:
 * then a name with an account answers SY9990 with the likelihood that its account is a legacy record, an
 * unknown name with the same likelihood, and the answer tells nothing about whether the name has an account. The
 * draw is an HMAC of the name with the pepper, so asking again gives the same answer, and the decoy's salt
 * round trip (getUserSalt's decoy salt, then a version-1 attempt) ends in US0010 like any wrong password.
 */

/** How long an isolate trusts the share it read: it moves slowly (legacy records only ever become fewer). */
const SHARE_CACHE_MS = 10 * 60 * 1000;
/** The share read per database binding: an isolate has one, but a process running several (tests) must not mix them. */
const cachedShares = new WeakMap<D1Database, { share: number; readAt: number }>();

/**
 * The share of legacy records, from the isolate's cache, portal_meta (the hourly cron's count), or counted
 * here when the cron has not run yet. Read on every password attempt, known name or not, so that a cache
 * miss costs both the same, and never written here: a refused sign-in writes nothing it need not.
 */
export async function legacyShare(db: D1Database): Promise<number> {
  // Real time, not the gateway clock: this is a cache of a count, not a rule.
  const cached = cachedShares.get(db);
  if (cached && Date.now() - cached.readAt < SHARE_CACHE_MS) return cached.share;
  const share = (await readLegacyShare(db)) ?? (await legacyShareNow(db));
  cachedShares.set(db, { share, readAt: Date.now() });
  return share;
}

/** Whether an unknown name answers SY9990 as a legacy record would (see above), given legacyShare's share. */
export async function unknownNameLooksLegacy(env: WorkerEnv, subject: string, share: number): Promise<boolean> {
  if (!(share > 0)) return false;
  const mac = await hmacSha256(pepperOf(env), `legacy-answer:${subject}`);
  const draw = new DataView(mac.buffer, mac.byteOffset, 4).getUint32(0) / 2 ** 32;
  return draw < share;
}
