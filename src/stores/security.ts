import { atom, map } from 'nanostores';
import { securityApi } from '../api/security';
import type { Problem } from '../i18n/problem';
import type { KnownDeviceEntry, SessionEntry, SignInEntry } from '../schemas/security';
import { STEP_UP_CANCELLED, withFreshProof } from './step-up-state';

/**
 * The Security section of the user center: the person's sessions and sign-in history, signing one device
 * or every other one out. Holds data and problems (message keys, gateway codes), never words; the islands
 * put them into words.
 */
export const $security = map({
  phase: 'loading' as 'loading' | 'ready',
  sessions: [] as SessionEntry[],
  history: [] as SignInEntry[],
  /** The devices the person signed in from (issue 44), this one marked. */
  devices: [] as KnownDeviceEntry[],
  /** The session id being signed out, or 'others'; other sign-outs wait. */
  busy: '',
  notice: null as Problem | null,
  error: null as Problem | null,
});

/** A sign-out waiting for the person's answer in the confirm dialog; `device` is the described device. */
export type SignOutQuestion = { kind: 'one'; device: string } | { kind: 'others' } | { kind: 'forget'; device: string };
export const $signOutQuestion = atom<SignOutQuestion | null>(null);
let settle: ((yes: boolean) => void) | undefined;

/** Opens the confirm dialog and waits for the person: true to go on, false when they cancel. */
function confirmFirst(question: SignOutQuestion): Promise<boolean> {
  settle?.(false);
  $signOutQuestion.set(question);
  return new Promise((resolve) => {
    settle = resolve;
  });
}

/** Called by the dialog's buttons and its Escape. */
export function answerSignOut(yes: boolean) {
  const resolve = settle;
  settle = undefined;
  $signOutQuestion.set(null);
  resolve?.(yes);
}

const failure = (result: { code: string; message: string }): Problem => ({ code: result.code, message: result.message });

export async function loadSecurity() {
  const [sessions, history, devices] = await Promise.all([securityApi.sessions(), securityApi.signIns(), securityApi.devices()]);
  const failed = !sessions.ok ? sessions : !history.ok ? history : !devices.ok ? devices : null;
  $security.set({
    ...$security.get(),
    phase: 'ready',
    sessions: sessions.ok ? sessions.data : [],
    history: history.ok ? history.data : [],
    devices: devices.ok ? devices.data : [],
    error: failed ? [{ key: 'security.loadFailed' }, failure(failed)] : null,
  });
}

/** Asks, then ends one other session; the list is read again either way (it may have ended meanwhile). */
export async function signOutSession(id: string, device: string) {
  if ($security.get().busy || !(await confirmFirst({ kind: 'one', device }))) return;
  $security.set({ ...$security.get(), busy: id, notice: null, error: null });
  // Another device's session: "Confirm it's you" first when this session has no fresh proof.
  const answer = await withFreshProof(() => securityApi.signOut(id));
  $security.setKey('busy', '');
  if (answer.ok) $security.setKey('notice', { key: 'security.signedOut' });
  else if (answer.code !== STEP_UP_CANCELLED) $security.setKey('error', failure(answer));
  await loadSecurity();
}

/** Asks, then ends every session of the person but this one (after "Confirm it's you" without a fresh proof). */
export async function signOutOthers() {
  if ($security.get().busy || !(await confirmFirst({ kind: 'others' }))) return;
  $security.set({ ...$security.get(), busy: 'others', notice: null, error: null });
  const answer = await withFreshProof(securityApi.signOutOthers);
  $security.setKey('busy', '');
  if (answer.ok) $security.setKey('notice', { key: 'security.signedOutOthers', values: { n: String(answer.data.ended) } });
  else if (answer.code !== STEP_UP_CANCELLED) $security.setKey('error', failure(answer));
  await loadSecurity();
}

/** Asks, then forgets one known device: its next password sign-in needs the code again. The list is read again. */
export async function forgetDevice(id: string, device: string) {
  if ($security.get().busy || !(await confirmFirst({ kind: 'forget', device }))) return;
  $security.set({ ...$security.get(), busy: id, notice: null, error: null });
  const answer = await securityApi.forgetDevice(id);
  $security.setKey('busy', '');
  if (answer.ok) $security.setKey('notice', { key: 'security.forgotten' });
  else $security.setKey('error', failure(answer));
  await loadSecurity();
}
