import { startAuthentication, WebAuthnError, type AuthenticationResponseJSON } from '@simplewebauthn/browser';

/**
 * The browser's side of a passkey sign-in ceremony, shared by the passkey sign-in of /login and the passkey second
 * step. Importing this module loads @simplewebauthn/browser: import it on demand, never from a page's first load.
 */

/** The browser's own refusals that mean "the person stopped": not an error to shout about. */
const stopped = (error: unknown) =>
  (error instanceof WebAuthnError && error.code === 'ERROR_CEREMONY_ABORTED') ||
  (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError'));

/**
 * Asks the browser for a passkey assertion over the gateway's options (passed on unchanged); `autofill` waits
 * in the browser's autofill list (conditional UI) instead of opening its dialog. The response, or why there is none.
 */
export async function askForPasskey(options: { challenge: string }, autofill = false): Promise<AuthenticationResponseJSON | 'stopped' | 'failed'> {
  try {
    return await startAuthentication({ optionsJSON: options as never, useBrowserAutofill: autofill });
  } catch (error) {
    return stopped(error) ? 'stopped' : 'failed';
  }
}
