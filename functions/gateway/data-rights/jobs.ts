import type { WorkerEnv } from '../../env';
import { eraseDueAccounts, makeWaitingCopies, removeExpiredCopies } from './service';

/** The cron of the data-rights job (wrangler.toml [triggers]): every minute, so a copy is ready within minutes. */
export const DATA_RIGHTS_CRON = '* * * * *';

/**
 * The scheduled work of a person's rights over their data, run every minute by the Worker's `scheduled` handler
 * (and by POST /dev/data-rights/run locally): make the copies asked for, remove copies past their 24 hours, erase
 * the accounts past their cooling-off that no legal hold keeps.
 */
export async function runDataRightsJob(env: WorkerEnv, at: number): Promise<{ copies: number; expired: number; erased: number }> {
  const copies = await makeWaitingCopies(env, at);
  const expired = await removeExpiredCopies(env, at);
  const erased = await eraseDueAccounts(env, at);
  return { copies, expired, erased };
}
