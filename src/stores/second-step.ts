import * as ERR from '../schemas/error-names';
import { atom } from 'nanostores';
import { twoStepApi } from '../api/two-step';
import { problem } from '../i18n/problem';
import { canUsePasskeys } from '../lib/webauthn-support';
import type { LoginAnswer } from '../schemas/auth';
import type { PasskeyOptionsAnswer } from '../schemas/passkeys';
import type { SecondFactorKind } from '../schemas/two-step';
import { createForm } from './form';

/**
 * The second step of a sign-in (/login and the partner sign-in), loaded on demand with its screen. The
 * challenge is never in this page's reach: the edge holds it in an HttpOnly cookie and adds it to the call.
 * On /login a person with passkeys may pass it with one instead of a code (the passkey calls and
 * @simplewebauthn/browser load only then).
 */
const form = createForm<{ kind: SecondFactorKind; code: string; trust: boolean }, 'code'>(
  { kind: 'totp' as SecondFactorKind, code: '', trust: false },
  {
    // Every MF code is about what was typed, except those that end this sign-in (they go to the form).
    codes: { MF: 'code', [ERR.NEW_DEVICE_CODE_WRONG]: 'code', [ERR.SECOND_STEP_EXPIRED]: 'form', [ERR.SECOND_STEP_TRIES_SPENT]: 'form', [ERR.TOTP_GUESSES_PER_ACCOUNT_CAPPED]: 'form', [ERR.TOTP_GUESSES_PER_NETWORK_CAPPED]: 'form' },
    editClearsForm: true,
  },
);
export const $secondStep = form.$values;
export const $secondStepErrors = form.$errors;
/** The sign-in must start over (no challenge left): the screen offers the way back. */
const ENDS_SIGN_IN = new Set<string>([ERR.SECOND_STEP_EXPIRED, ERR.SECOND_STEP_TRIES_SPENT]);

export const setCode = (code: string) => form.set('code', code);
/** "Trust this device for 30 days" (issue 44): sent with the code. */
export const setTrust = (trust: boolean) => form.set('trust', trust);
/** The new-device challenge (issue 44) asks for the code sent to the account; two-step for an app or recovery code. */
export const startSecondStep = (newDevice: boolean) => form.reset({ kind: newDevice ? 'code' : 'totp' });
export function switchKind() {
  const { kind, trust } = $secondStep.get();
  form.reset({ kind: kind === 'totp' ? 'recovery' : 'totp', trust });
}

/** Whether the last failure ended the sign-in (expired, used, or out of tries). */
export const signInEnded = () => {
  const shown = $secondStepErrors.get().form;
  return Boolean(shown && 'code' in shown && ENDS_SIGN_IN.has(shown.code));
};

/** Sends the code; `passed` goes on with the login answer (as after a first factor without two-step). */
export const verify = (passed: (answer: LoginAnswer) => Promise<unknown>) =>
  form.run(async () => {
    const { kind, code, trust } = $secondStep.get();
    const typed = code.trim();
    const valid = kind === 'totp' ? /^\d{6}$/.test(typed) : kind === 'code' ? /^\d{4,8}$/.test(typed) : /^[A-Za-z0-9\s-]{10,16}$/.test(typed);
    if (!valid) return form.fail('code', problem(kind === 'totp' ? 'twoStep.codeInvalid' : kind === 'code' ? 'twoStep.newDeviceCodeInvalid' : 'twoStep.recoveryInvalid'));
    const answer = await twoStepApi.verify(kind, typed, trust);
    if (!answer.ok) return form.failure(answer);
    form.leaving();
    await passed(answer.data);
    return true;
  });

/**
 * The passkey offer of the second step: 'none' until the gateway's options say this person has passkeys
 * (PK0013 or any failure keeps it hidden: the codes still work), 'asking' while the device's dialog is open.
 */
export const $passkeyOffer = atom<'none' | 'offered' | 'asking'>('none');
/** Options fetched ahead for the first press; each set serves one ceremony. */
let readyOptions: PasskeyOptionsAnswer['options'] | null = null;
const passkeyCalls = () => import('../api/passkeys').then((module) => module.passkeyApi);

/** Asks whether this sign-in's person has passkeys (by fetching their options); shows the button when so. */
export async function offerPasskey() {
  $passkeyOffer.set('none');
  readyOptions = null;
  if (!canUsePasskeys()) return;
  const answer = await (await passkeyCalls()).secondStepOptions();
  if (!answer.ok) return;
  readyOptions = answer.data.options;
  $passkeyOffer.set('offered');
  // Fetched now so that the press opens the device's dialog at once.
  void import('../lib/passkey-ceremony');
}

/** Passes the second step with a passkey of this person; `passed` goes on with the login answer, as `verify`. */
export const verifyWithPasskey = (passed: (answer: LoginAnswer) => Promise<unknown>) =>
  form.run(async () => {
    form.$errors.set({});
    const api = await passkeyCalls();
    let options = readyOptions;
    readyOptions = null;
    if (!options) {
      const fresh = await api.secondStepOptions();
      if (!fresh.ok) return form.failure(fresh);
      options = fresh.data.options;
    }
    $passkeyOffer.set('asking');
    const { askForPasskey } = await import('../lib/passkey-ceremony');
    const response = await askForPasskey(options).finally(() => $passkeyOffer.set('offered'));
    if (response === 'stopped') return form.fail('form', problem('twoStep.passkeyCancelled'));
    if (response === 'failed') return form.fail('form', problem('twoStep.passkeyFailed'));
    const answer = await api.passSecondStep(response, $secondStep.get().trust);
    if (!answer.ok) return form.failure(answer);
    form.leaving();
    await passed(answer.data);
    return true;
  });
