import { atom } from 'nanostores';
import type { SliderCheck } from '../schemas/auth';

/** The one modal a flow may have open at a time; each resolves to the value its kind yields (or null). */
export type Dialog =
  | { kind: 'agreement' }
  | { kind: 'newUser' }
  /** `registering`: asked for a person the new-user check found new (no password or passkey to offer instead). */
  | { kind: 'slider'; scene: 'sms' | 'login'; subject: string; registering?: boolean }
  | { kind: 'insecure' }
  /** A name for a passkey, starting from `value`; resolves to the trimmed name. */
  | { kind: 'passkeyName'; purpose: 'add' | 'rename'; value: string }
  /** A yes/no question about a destructive step; resolves to true on yes. */
  | { kind: 'confirm'; subject: 'removePasskey'; name: string };

/** A new user's answers: creating a company (its side of shipping and its name), or joining one by invitation. */
export type NewUserAnswers = { joining: true } | { userIdentity: 1 | 2; companyName: string };

interface Answers {
  agreement: true;
  newUser: NewUserAnswers;
  slider: SliderCheck;
  insecure: { newPassword: string };
  passkeyName: string;
  confirm: true;
}
type Answer<D extends Dialog['kind']> = Answers[D];

export const $dialog = atom<Dialog | null>(null);
let settle: ((value: unknown) => void) | undefined;

/** Opens a dialog and waits for the person: flows read as straight-line async code. */
export function ask<D extends Dialog>(dialog: D): Promise<Answer<D['kind']> | null> {
  settle?.(null);
  $dialog.set(dialog);
  return new Promise((resolve) => {
    settle = resolve as (value: unknown) => void;
  });
}

/** Called by the open dialog: a value when the person completed it, null when they cancelled. */
export function closeDialog(value: unknown = null) {
  const resolve = settle;
  settle = undefined;
  $dialog.set(null);
  resolve?.(value);
}
