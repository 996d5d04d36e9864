import { browserSupportsWebAuthnAutofill, type AuthenticationResponseJSON } from '@simplewebauthn/browser';
import { passkeyApi } from '../api/passkeys';
import { askForPasskey } from '../lib/passkey-ceremony';
import { form } from './sign-in';
import { completeSignIn } from './sign-in-flows';

/**
 * Signing in with a passkey on /login: the "Sign in with a passkey" button (a modal browser dialog) and the
 * browser's autofill offer on the e-mail field (conditional UI). This module and @simplewebauthn/browser load
 * on demand (sign-in.ts), so /login's first load carries none of it. A passkey sign-in then goes on exactly as
 * the form's own sign-ins do (completeSignIn).
 */

let autofillPending = false;

async function finish(response: AuthenticationResponseJSON) {
  // completeSignIn shows a refusal as the other sign-ins do, and counts it (or the success) for the funnel.
  await completeSignIn(await passkeyApi.signIn(response));
}

/** The button: asks for any passkey of this site (the library first ends a pending autofill request). */
export const signInWithPasskey = () =>
  form.run(async () => {
    form.$errors.set({});
    const options = await passkeyApi.signInOptions();
    if (!options.ok) return void form.failure(options);
    const response = await askForPasskey(options.data.options, false);
    if (response === 'stopped') return void form.fail('form', { key: 'passkeys.cancelled' });
    if (response === 'failed') return void form.fail('form', { key: 'passkeys.failed' });
    await finish(response);
  });

/**
 * Conditional UI: where the browser can, its autofill list on the e-mail field offers this site's passkeys
 * beside saved names. The request waits until the person picks one, or the button replaces it.
 */
export async function offerPasskeyAutofill() {
  if (autofillPending || !(await browserSupportsWebAuthnAutofill())) return;
  autofillPending = true;
  try {
    const options = await passkeyApi.signInOptions();
    if (!options.ok) return;
    const response = await askForPasskey(options.data.options, true);
    if (typeof response === 'string') return;
    await form.run(() => finish(response));
  } finally {
    autofillPending = false;
  }
}
