import * as ERR from '../schemas/error-names';
import { map } from 'nanostores';
import type { ApiResult } from '../api/result';
import type { Problem } from '../i18n/problem';
import type { ProofStart } from '../schemas/step-up';

/*
 * What a page needs of "Confirm it's you" before anyone is asked (issue 31): the dialog's state, for the slot that
 * shows it, and `withFreshProof`, which runs a change and loads the dialog's logic (stores/step-up.ts, its calls
 * and the password hash) only when that change answers STEP_UP_REQUIRED.
 */
export const STEP_UP_REQUIRED = ERR.PROOF_REQUIRED;
export const STEP_UP_CANCELLED = 'STEP_UP_CANCELLED';

export type StepUpPhase = 'closed' | 'loading' | 'first' | 'second';

export const initialStepUp = {
  phase: 'closed' as StepUpPhase,
  start: null as ProofStart | null,
  /** What the first step takes: the password, or a one-time code sent to the account. */
  method: 'password' as 'password' | 'code',
  password: '',
  code: '',
  codeSent: false,
  cooldownUntil: 0,
  /** The second step: an app or recovery code, under the half-way challenge. */
  secondCode: '',
  challenge: '',
  busy: false,
  /** The device's passkey dialog is open. */
  waitingForPasskey: false,
  notice: null as Problem | null,
  error: null as Problem | null,
};
export const $stepUp = map({ ...initialStepUp });

/** Opens the dialog and waits: true once this session has a fresh proof, false when the person cancelled. */
export const confirmItsYou = (): Promise<boolean> => import('./step-up').then((module) => module.openStepUp());

/**
 * Runs a sensitive change; when it answers STEP_UP_REQUIRED, asks the person to confirm it's them and runs it once
 * more. STEP_UP_CANCELLED when they cancel the dialog.
 */
export async function withFreshProof<T>(change: () => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
  const first = await change();
  if (first.ok || first.code !== STEP_UP_REQUIRED) return first;
  if (!(await confirmItsYou())) return { ok: false, code: STEP_UP_CANCELLED, message: '' };
  return change();
}
