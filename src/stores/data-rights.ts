import { atom, map } from 'nanostores';
import { dataRightsApi } from '../api/data-rights';
import type { ApiResult } from '../api/result';
import type { Problem } from '../i18n/problem';
import { $closure, markBrowser } from './closure';
import { lastAdministratorData, type DataRightsState } from '../schemas/data-rights';
import { STEP_UP_CANCELLED, withFreshProof } from './step-up-state';
import { authApi } from '../api/auth';
import { DEFAULT_AREA_CODE_ID, type PhoneCodeItem } from '../schemas/dictionaries';
import { ask } from './dialog';
import { loadUserCenter } from './user-center';

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

function show(state: DataRightsState) {
  $dataRights.set({ ...$dataRights.get(), phase: 'ready', state });
  $closure.set(state.closure);
  markBrowser(state);
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

/**
 * A local run: makes the waiting copy now by running the data-rights job (wrangler dev runs no Cron Trigger), then
 * shows the state it left.
 */
export async function makeCopyNow() {
  if ($dataRights.get().busy) return;
  $dataRights.set({ ...$dataRights.get(), busy: 'copy', notice: null, error: null });
  const ran = await dataRightsApi.runJobLocally();
  $dataRights.setKey('busy', '');
  if (!ran.ok) return void $dataRights.setKey('error', failure(ran));
  await loadDataRights();
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

// ---- Correct the phone or e-mail ----

/** The change of phone or e-mail being typed: which one, the new address, its code. */
export const $contactChange = map({
  kind: null as 'email' | 'phone' | null,
  email: '',
  areaId: DEFAULT_AREA_CODE_ID as string,
  callingCode: '+86',
  mobile: '',
  code: '',
  sent: false,
  busy: false,
  error: null as Problem | null,
  /** The address just changed: its confirmation is said where the change was made (issue 47), not at the section's top. */
  changed: null as 'email' | 'phone' | null,
});

export function openContactChange(kind: 'email' | 'phone') {
  $contactChange.set({ ...$contactChange.get(), kind, email: '', mobile: '', code: '', sent: false, busy: false, error: null, changed: null });
}
export const closeContactChange = () => $contactChange.setKey('kind', null);
export const setContactField = (key: 'email' | 'mobile' | 'code', value: string) => $contactChange.set({ ...$contactChange.get(), [key]: value, error: null });
export function setContactArea(item: PhoneCodeItem) {
  $contactChange.set({ ...$contactChange.get(), areaId: item.id, callingCode: item.phoneCode, error: null });
}

/** A `verify` code to the new address by the ordinary code calls: e-mail directly, SMS after the human check. */
export async function sendContactCode() {
  const s = $contactChange.get();
  if (s.busy || !s.kind) return;
  $contactChange.set({ ...s, busy: true, error: null });
  let answer: ApiResult<unknown>;
  if (s.kind === 'email') answer = await authApi.sendEmailCode({ emailAddress: s.email.trim(), type: 1 });
  else {
    const mobile = s.mobile.replace(/[\s-]/g, '');
    const sliderCheck = await ask({ kind: 'slider', scene: 'sms', subject: `${s.callingCode}${mobile}` });
    answer = sliderCheck ? await authApi.sendSms({ phoneCode: s.areaId, mobile, type: 1, phoneCodeValue: s.callingCode, sliderCheck }) : { ok: false, code: STEP_UP_CANCELLED, message: '' };
  }
  $contactChange.setKey('busy', false);
  if (answer.ok) $contactChange.set({ ...$contactChange.get(), sent: true, error: { key: 'dataRights.codeSent' } });
  else if (answer.code !== STEP_UP_CANCELLED) $contactChange.setKey('error', failure(answer));
}

/** Sends the new address with its code (after "Confirm it's you" without a fresh proof); the profile is read again. */
export async function saveContactChange() {
  const s = $contactChange.get();
  if (s.busy || !s.kind) return;
  $contactChange.set({ ...s, busy: true, error: null });
  const body =
    s.kind === 'email'
      ? { kind: 'email' as const, email: s.email.trim(), code: s.code.trim() }
      : { kind: 'phone' as const, callingCode: s.callingCode, mobile: s.mobile.replace(/[\s-]/g, ''), code: s.code.trim() };
  const answer = await withFreshProof(() => dataRightsApi.contact(body));
  $contactChange.setKey('busy', false);
  if (answer.ok) {
    await loadUserCenter();
    // After the profile is read again: the new address shows beside "Change" as the confirmation is said.
    $contactChange.set({ ...$contactChange.get(), kind: null, changed: s.kind });
  } else if (answer.code !== STEP_UP_CANCELLED) $contactChange.setKey('error', failure(answer));
}
