import { atom, map } from 'nanostores';
import { dataRightsApi } from '../api/data-rights';
import type { ApiResult } from '../api/result';
import type { Problem } from '../i18n/problem';
import { NO_TRACKING_COOKIE } from '../lib/tracking';
import { lastAdministratorData, type DataRightsState } from '../schemas/data-rights';
import { STEP_UP_CANCELLED, withFreshProof } from './step-up';

/**
 * "Your data" in the user center: the copies asked for (polled while one is being made), the separate consents,
 * a closure under way. Holds data and problems, never words.
 */
export const $dataRights = map({
  phase: 'loading' as 'loading' | 'ready',
  state: null as DataRightsState | null,
  busy: '' as '' | 'copy' | 'consent' | 'close' | 'keep',
  notice: null as Problem | null,
  error: null as Problem | null,
});

/** The close-account dialog is open. */
export const $closeQuestion = atom(false);

/** How often the page asks whether a copy is ready while it is being made. */
export const COPY_POLL_MS = 4000;
let poll: ReturnType<typeof setTimeout> | undefined;

/** This browser's mark follows the person's choice, so it stops tracking at once (lib/tracking.ts). */
async function markBrowser(state: DataRightsState) {
  const tracking = state.consents.find((consent) => consent.purpose === 'tracking');
  if (!tracking || typeof document === 'undefined') return;
  const { default: Cookies } = await import('js-cookie');
  const secure = location.protocol === 'https:';
  if (tracking.granted) Cookies.remove(NO_TRACKING_COOKIE, { path: '/' });
  else Cookies.set(NO_TRACKING_COOKIE, '1', { expires: 400, path: '/', sameSite: 'Lax', secure });
}

function show(state: DataRightsState) {
  $dataRights.set({ ...$dataRights.get(), phase: 'ready', state });
  void markBrowser(state);
  clearTimeout(poll);
  if (state.copies.some((copy) => copy.status === 'queued' || copy.status === 'building')) poll = setTimeout(() => void loadDataRights(), COPY_POLL_MS);
}

const failure = (result: { code: string; message: string; traceId?: string }): Problem => ({ code: result.code, message: result.message, traceId: result.traceId });

export async function loadDataRights() {
  const answer = await dataRightsApi.state();
  if (answer.ok) show(answer.data);
  else $dataRights.set({ ...$dataRights.get(), phase: 'ready', error: failure(answer) });
}

/** Runs one change; its answer is the new state, its notice the given key. */
async function change(busy: 'copy' | 'consent' | 'close' | 'keep', call: () => Promise<ApiResult<DataRightsState>>, notice: Problem) {
  if ($dataRights.get().busy) return false;
  $dataRights.set({ ...$dataRights.get(), busy, notice: null, error: null });
  const answer = await call();
  $dataRights.setKey('busy', '');
  if (answer.ok) {
    show(answer.data);
    $dataRights.setKey('notice', notice);
    return true;
  }
  if (answer.code === STEP_UP_CANCELLED) return false;
  const companies = lastAdministratorData.safeParse(answer.data);
  $dataRights.setKey(
    'error',
    companies.success && companies.data.companies.length
      ? [failure(answer), { key: 'dataRights.lastAdministrator', values: { companies: companies.data.companies.map((c) => c.name).join(', ') } }]
      : failure(answer),
  );
  return false;
}

/** Asks for a copy (after "Confirm it's you" without a fresh proof). */
export const askForCopy = () => change('copy', () => withFreshProof(dataRightsApi.askCopy), { key: 'dataRights.copyAsked' });

export const setTracking = (granted: boolean) =>
  change('consent', () => dataRightsApi.consent('tracking', granted), { key: granted ? 'dataRights.trackingGiven' : 'dataRights.trackingWithdrawn' });

export const openCloseQuestion = () => $closeQuestion.set(true);
export const cancelCloseQuestion = () => $closeQuestion.set(false);

/** Closes the account after the dialog (and "Confirm it's you"); the notice is the closing date. */
export async function closeAccount() {
  $closeQuestion.set(false);
  await change('close', () => withFreshProof(dataRightsApi.close), { key: 'dataRights.closingHint' });
}

export const keepAccount = () => change('keep', dataRightsApi.keep, { key: 'dataRights.keptOpen' });
