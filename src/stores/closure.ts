import { atom } from 'nanostores';
import { dataRightsApi } from '../api/data-rights';
import { removeCookie, writeCookie } from '../lib/write-cookie';
import { NO_TRACKING_COOKIE } from '../lib/tracking';
import type { DataRightsState } from '../schemas/data-rights';

/*
 * What the pages a sign-in lands on need of "Your data" at once (issue 31): whether a closure is under way, for the
 * banner at their top, and this browser's tracking mark. The rest (stores/data-rights.ts: copies, consents, the
 * closing and keeping, the contact change) loads with the "Your data" section or the banner's button.
 */

/** A closure under way (undefined until known). stores/data-rights.ts keeps it current after each change. */
export const $closure = atom<DataRightsState['closure'] | undefined>(undefined);

/** This browser's mark follows the person's choice, so it stops tracking at once (lib/tracking.ts). */
export function markBrowser(state: DataRightsState) {
  const tracking = state.consents.find((consent) => consent.purpose === 'tracking');
  if (!tracking || typeof document === 'undefined') return;
  if (tracking.granted) removeCookie(NO_TRACKING_COOKIE);
  else writeCookie(NO_TRACKING_COOKIE, '1', 400);
}

/** Reads the state once: the closure for the banner, the tracking choice for this browser. */
export async function loadClosure() {
  const answer = await dataRightsApi.state();
  if (!answer.ok) return;
  $closure.set(answer.data.closure);
  markBrowser(answer.data);
}
