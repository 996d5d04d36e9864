import * as ERR from '../schemas/error-names';
import { RESEND_WAIT_MS } from '../lib/resend-wait';
import type { ApiResult } from '../api/result';
import { $stepUp, initialStepUp } from './step-up-state';
import { problem, problemOf, type Problem } from '../i18n/problem';
import { hashPassword } from '../lib/password-hash';
import type { ProofStep } from '../schemas/step-up';

export { $stepUp, confirmItsYou, STEP_UP_CANCELLED, STEP_UP_REQUIRED, withFreshProof, type StepUpPhase } from './step-up-state';

/**
 * "Confirm it's you" (step-up; rules in functions/gateway/identity/proof.ts). A sensitive change answers
 * STEP_UP_REQUIRED when the session has no fresh proof; `withFreshProof` then opens the dialog, which asks for the
 * password (or sends a code when the account has none), then the authenticator app or a recovery code when two-step
 * is on, or a passkey alone, and repeats the change once. Cancelling answers STEP_UP_CANCELLED, which callers
 * treat as "nothing happened". This module loads with the first STEP_UP_REQUIRED (step-up-state.ts).
 */

/** The half-way challenge ended or ran out of tries: the dialog starts over at the first step. */
const STARTS_OVER: readonly string[] = [ERR.PROOF_EXPIRED, ERR.PROOF_TRIES_SPENT];
/** The gateway's resend wait of one-time codes. */
/** The gateway's answer inside that wait (CD0001, data.retryAfter in seconds). */
const RESEND_WAIT_CODE = ERR.CODE_RESEND_WAIT;
const initial = initialStepUp;
type StepUpState = typeof initial;
const set = (values: Partial<StepUpState>) => $stepUp.set({ ...$stepUp.get(), ...values });
/** The calls (and their schemas) load with the first "Confirm it's you", not with the pages that may need it. */
const api = () => import('../api/step-up').then((module) => module.stepUpApi);

let settle: ((proved: boolean) => void) | undefined;

function finish(proved: boolean) {
  const resolve = settle;
  settle = undefined;
  $stepUp.set({ ...initial });
  resolve?.(proved);
}

/** Opens the dialog and waits (step-up-state.ts `confirmItsYou`, which loads this module first). */
export function openStepUp(): Promise<boolean> {
  settle?.(false);
  $stepUp.set({ ...initial, phase: 'loading' });
  const asked = new Promise<boolean>((resolve) => {
    settle = resolve;
  });
  void loadStart();
  return asked;
}

export const cancelStepUp = () => finish(false);

async function loadStart() {
  const answer = await (await api()).start();
  if (!answer.ok) return set({ phase: 'first', error: problemOf(answer) });
  set({ phase: 'first', start: answer.data, method: answer.data.password || !answer.data.code ? 'password' : 'code' });
}

export const setStepUpField = (key: 'password' | 'code' | 'secondCode', value: string) => set({ [key]: value, error: null });

function stepped(answer: ApiResult<ProofStep>) {
  if (!answer.ok) {
    if (STARTS_OVER.includes(answer.code)) return set({ busy: false, phase: 'first', challenge: '', secondCode: '', error: problemOf(answer) });
    return set({ busy: false, error: problemOf(answer) });
  }
  if (answer.data.proved) return finish(true);
  set({ busy: false, phase: 'second', challenge: answer.data.challenge, password: '', code: '', notice: null, error: null });
}

/** The first step: the current password (hashed as sign-in hashes it) or the code sent to the account. */
export async function submitFirstStep() {
  const s = $stepUp.get();
  if (s.busy) return;
  if (s.method === 'password') {
    if (!s.password) return set({ error: problem('stepUp.passwordRequired') });
    set({ busy: true, error: null });
    return stepped(await (await api()).password(await hashPassword(s.password, s.start?.passwordSalt ?? undefined)));
  }
  const code = s.code.trim();
  if (!/^\d{4,8}$/.test(code)) return set({ error: problem('stepUp.codeRequired') });
  set({ busy: true, error: null });
  stepped(await (await api()).code(code));
}

/** A one-time code to the account's own e-mail (else phone), for an account without a password. */
export async function sendStepUpCode() {
  if ($stepUp.get().busy) return;
  set({ busy: true, error: null, notice: null });
  const answer = await (await api()).sendCode();
  if (!answer.ok) {
    const retryAfter = (answer.data as { retryAfter?: number } | undefined)?.retryAfter;
    const cooldown = retryAfter ? { cooldownUntil: Date.now() + retryAfter * 1000 } : {};
    // The resend wait of a code this dialog never sent (the sign-up's or sign-in's, moments ago): say where that
    // code went and when a new one can be asked, rather than "please wait" under a countdown nobody started.
    if (answer.code === RESEND_WAIT_CODE && retryAfter && !$stepUp.get().codeSent) {
      return set({ busy: false, ...cooldown, notice: problem('stepUp.codeWait', { to: $stepUp.get().start?.codeTo ?? '', s: String(retryAfter) }) });
    }
    return set({ busy: false, error: problemOf(answer), ...cooldown });
  }
  set({ busy: false, codeSent: true, cooldownUntil: Date.now() + RESEND_WAIT_MS, notice: problem('stepUp.codeSent') });
}

/** The second step: a 6-digit app code or a recovery code (XXXXX-XXXXX). */
export async function submitSecondStep() {
  const s = $stepUp.get();
  if (s.busy) return;
  const code = s.secondCode.trim();
  const kind = /^\d{6}$/.test(code) ? 'totp' : /^[A-Za-z0-9\s-]{10,16}$/.test(code) ? 'recovery' : null;
  if (!kind) return set({ error: problem('stepUp.secondInvalid') });
  set({ busy: true, error: null });
  stepped(await (await api()).secondFactor(s.challenge, kind, code));
}

/** A passkey of this account: a proof by itself, at either step. */
export async function proveWithPasskey() {
  if ($stepUp.get().busy) return;
  set({ busy: true, error: null, notice: null });
  const options = await (await api()).passkeyOptions();
  if (!options.ok) return set({ busy: false, error: problemOf(options) });
  set({ waitingForPasskey: true });
  const { askForPasskey } = await import('../lib/passkey-ceremony');
  const response = await askForPasskey(options.data.options);
  set({ waitingForPasskey: false });
  if (response === 'stopped' || response === 'failed') return set({ busy: false, error: problem(response === 'stopped' ? 'stepUp.passkeyCancelled' : 'stepUp.passkeyFailed') });
  stepped(await (await api()).passkey(response));
}
